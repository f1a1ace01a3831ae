// Tricky Tactics' drawings: suit symbols and cube patterns defined once per mount, the players' cubes
// (colour AND pattern AND label) and the playing cards.
import { h as el, s as svg } from "../../js/dom.js";
import { pipSpots } from "../../js/table/card-pips.js";
import { cardCorners, cardSuit, cardText, RED_SUITS, rankText } from "../../js/table/cards.js";

export const SUITS = ["S", "H", "D", "C"];

const SUIT_PATHS = {
  S: "M50 4C62 22 94 38 94 62C94 76 83 86 71 86C63 86 57 82 54 76C55 85 59 92 67 97H33C41 92 45 85 46 76C43 82 37 86 29 86C17 86 6 76 6 62C6 38 38 22 50 4Z",
  H: "M50 92C22 70 5 52 5 31C5 15 17 5 30 5C40 5 47 11 50 20C53 11 60 5 70 5C83 5 95 15 95 31C95 52 78 70 50 92Z",
  D: "M50 3L87 50L50 97L13 50Z",
  C: "M50 5A20 20 0 0 1 66.5 36.3A20 20 0 1 1 56 70C57 83 61 91 68 97H32C39 91 43 83 44 70A20 20 0 1 1 33.5 36.3A20 20 0 0 1 50 5Z",
};

/** A player's key in class names and patterns: "a" for the automa, else the seat number. */
export const keyOf = (pid) => (pid === "automa" ? "a" : String(pid));

export const ink = (suit) => (RED_SUITS.has(suit) ? "tk-red" : "tk-black");

/** The drawings of one mount: they refer to its `defs` (suits, patterns, card back) by ids made from `uid`. */
export function cardArt(uid) {
  let faceIds = 0;

  function buildDefs() {
    const box = svg("svg", { class: "tk-defs", width: 0, height: 0, "aria-hidden": "true", focusable: "false" });
    const d = svg("defs");
    for (const s of SUITS) d.append(svg("symbol", { id: `${uid}-suit-${s}`, viewBox: "0 0 100 100" }, svg("path", { d: SUIT_PATHS[s] })));
    const pat = (id, size, ...shapes) =>
      svg("pattern", { id: `${uid}-pat-${id}`, width: size, height: size, patternUnits: "userSpaceOnUse", patternTransform: id === "1" ? "rotate(45)" : null }, ...shapes);
    d.append(
      pat("1", 4, svg("rect", { x: 0, y: 0, width: 1.6, height: 4, class: "tk-pat-ink" })),
      pat("2", 4.2, svg("circle", { cx: 2.1, cy: 2.1, r: 1.05, class: "tk-pat-ink" })),
      pat("3", 4.5, svg("rect", { x: 0, y: 0, width: 4.5, height: 1.5, class: "tk-pat-ink" }), svg("rect", { x: 0, y: 0, width: 1.5, height: 4.5, class: "tk-pat-ink" })),
      pat("a", 6, svg("rect", { x: 0, y: 0, width: 3, height: 3, class: "tk-pat-ink" }), svg("rect", { x: 3, y: 3, width: 3, height: 3, class: "tk-pat-ink" })),
      svg("pattern", { id: `${uid}-back`, width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 12, height: 12, class: "tk-back-bg" }),
        svg("rect", { x: 0, y: 0, width: 12, height: 2.2, class: "tk-back-line" }),
        svg("rect", { x: 0, y: 0, width: 2.2, height: 12, class: "tk-back-line" })),
    );
    box.append(d);
    return box;
  }

  function suitIcon(suit, cls = "") {
    return svg("svg", { class: `tk-suit ${ink(suit)} ${cls}`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
      svg("use", { href: `#${uid}-suit-${suit}` }));
  }

  /** A player's cube: "1", "2", … on seats, "A" on the automa's; seats after the first add a pattern. */
  function cube(pid, cls = "") {
    const k = keyOf(pid);
    const s = svg("svg", { viewBox: "0 0 24 24", class: `tk-cube tk-p-${k} ${cls}`, "aria-hidden": "true", focusable: "false" });
    s.append(
      svg("path", { class: "tk-cube-top", d: "M2.5 7.5L7 3H21.5L17 7.5Z" }),
      svg("path", { class: "tk-cube-side", d: "M17 7.5L21.5 3V17L17 21.5Z" }),
      svg("rect", { class: "tk-cube-front", x: 2.5, y: 7.5, width: 14.5, height: 14, rx: 1.4 }),
    );
    if (k !== "0") s.append(svg("rect", { class: "tk-cube-pat", x: 2.5, y: 7.5, width: 14.5, height: 14, rx: 1.4, fill: `url(#${uid}-pat-${k === "a" ? "a" : String(((Number(k) - 1) % 3) + 1)})` }));
    const label = svg("text", { class: "tk-cube-label", x: 9.75, y: 18.4, "text-anchor": "middle" });
    label.textContent = cubeLabel(pid);
    s.append(label);
    return s;
  }

  function cardFace(card) {
    const suit = cardSuit(card);
    const rank = rankText(card);
    const node = svg("svg", { viewBox: "0 0 100 140", class: `tk-card-svg ${ink(suit)}`, "aria-hidden": "true", focusable: "false" });
    node.append(svg("rect", { class: "tk-card-face", x: 1, y: 1, width: 98, height: 138, rx: 9 }));
    const use = (x, y, size, rotate = null) => svg("use", { href: `#${uid}-suit-${suit}`, x, y, width: size, height: size, transform: rotate });
    node.append(...cardCorners(`${uid}-corner-${(faceIds += 1)}`, rank, { cls: "tk-card-rank", x: 13, y: 25 }, use(5.5, 30, 15)));
    if (rank === "A") {
      node.append(use(25, 45, 50));
    } else {
      for (const { x, y, flip } of pipSpots(rank, [33, 50, 67], 29, 82)) node.append(use(x - 8.5, y - 8.5, 17, flip ? `rotate(180 ${x} ${y})` : null));
    }
    return node;
  }

  function cardBack() {
    const node = svg("svg", { viewBox: "0 0 100 140", class: "tk-card-svg tk-back", "aria-hidden": "true", focusable: "false" });
    node.append(
      svg("rect", { class: "tk-back-face", x: 1, y: 1, width: 98, height: 138, rx: 9 }),
      svg("rect", { class: "tk-back-inner", x: 9, y: 9, width: 82, height: 122, rx: 5, fill: `url(#${uid}-back)` }),
      svg("path", { class: "tk-back-emblem", d: "M50 52L64 70L50 88L36 70Z" }),
    );
    return node;
  }

  /** A card as an element (div). */
  function cardEl(card, cls = "", label = null) {
    return el("div", { class: `tk-card ${cls}`, role: "img", "aria-label": label ?? cardText(card), title: cardText(card), dataset: { card } }, cardFace(card));
  }

  function backEl(cls = "") {
    return el("div", { class: `tk-card tk-card-back ${cls}`, "aria-hidden": "true" }, cardBack());
  }

  return { buildDefs, suitIcon, cube, cardFace, cardEl, backEl };
}

/** The label on a player's cube. */
export const cubeLabel = (pid) => (pid === "automa" ? "A" : String(Number(pid) + 1));
