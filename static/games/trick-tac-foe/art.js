// Trick-Tac-Foe's drawings: suit shapes, two-sided playing cards and the team tokens (disc and square).
import { h as el, s as svg } from "../../js/dom.js";
import { pipSpots } from "../../js/table/card-pips.js";
import { cardCorners, cardSuit, RED_SUITS, rankText } from "../../js/table/cards.js";
import { starPath } from "../../js/table/shapes.js";

const SUIT_PATHS = {
  S: "M50 5C62 23 93 39 93 62C93 75 83 85 71 85C63 85 57 81 54 75C55 84 59 91 67 96H33C41 91 45 84 46 75C43 81 37 85 29 85C17 85 7 75 7 62C7 39 38 23 50 5Z",
  H: "M50 91C22 69 6 53 6 32C6 17 17 6 31 6C40 6 47 12 50 20C53 12 60 6 69 6C83 6 94 17 94 32C94 53 78 69 50 91Z",
  D: "M50 4L85 50L50 96L15 50Z",
  C: "M31 29a19 19 0 1 1 38 0a19 19 0 1 1 -38 0ZM9 59a19 19 0 1 1 38 0a19 19 0 1 1 -38 0ZM53 59a19 19 0 1 1 38 0a19 19 0 1 1 -38 0ZM40 38H60V66H40ZM46 62C46 76 42 86 34 95H66C58 86 54 76 54 62Z",
};

const ink = (suit) => (RED_SUITS.has(suit) ? "tf-ink-red" : "tf-ink-black");

function suitShape(suit, x, y, size, rotate = false) {
  const s = size / 100;
  const transform = `translate(${x} ${y}) scale(${s})${rotate ? " rotate(180 50 50)" : ""}`;
  return svg("path", { d: SUIT_PATHS[suit], transform, class: "tf-pip" });
}

/** An inline suit symbol (for text lines): the shape, not only the colour. */
export function suitIcon(suit) {
  return svg("svg", { viewBox: "0 0 100 100", class: `tf-suit-icon ${ink(suit)}`, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: SUIT_PATHS[suit] }));
}

let faceIds = 0;

function cardFaceSvg(card) {
  const suit = cardSuit(card);
  const rank = rankText(card);
  const node = svg("svg", { viewBox: "0 0 100 140", class: `tf-face-svg ${ink(suit)}`, "aria-hidden": "true", focusable: "false" });
  node.append(svg("rect", { class: "tf-face-bg", x: 1.5, y: 1.5, width: 97, height: 137, rx: 9 }));
  node.append(...cardCorners(`tf-corner-${(faceIds += 1)}`, rank, { cls: "tf-index", x: 12.5, y: 24 }, suitShape(suit, 5.5, 28, 14)));
  if (rank === "A") {
    node.append(suitShape(suit, 24, 44, 52));
  } else {
    for (const pip of pipSpots(rank, [34, 50, 66], 31, 78)) node.append(suitShape(suit, pip.x - 8, pip.y - 8, 16, pip.flip));
  }
  if (rank === "10") {
    // the wild mark: a small star in the free corners
    const star = (cx, cy) => svg("path", { class: "tf-wild-star", d: starPath(cx, cy, 7) });
    node.append(star(87, 14), star(13, 126));
  }
  return node;
}

function cardBackSvg() {
  const node = svg("svg", { viewBox: "0 0 100 140", class: "tf-back-svg", "aria-hidden": "true", focusable: "false" });
  node.append(
    svg("rect", { class: "tf-back-bg", x: 1.5, y: 1.5, width: 97, height: 137, rx: 9 }),
    svg("rect", { class: "tf-back-inner", x: 9, y: 9, width: 82, height: 122, rx: 6 }),
    svg("path", { class: "tf-back-emblem", d: "M50 46L66 70L50 94L34 70Z" }),
    svg("circle", { class: "tf-back-ring", cx: 50, cy: 70, r: 30 }),
  );
  return node;
}

/**
 * A two-sided card element. `card` null = a face-down card nobody may see. `up` says which side shows.
 * Flipping is a CSS transition on .tf-card-inner.
 */
export function cardEl(card, { up = true, cls = "", label = null } = {}) {
  const inner = el("div", { class: "tf-card-inner" },
    el("div", { class: "tf-card-side tf-card-back" }, cardBackSvg()),
    card ? el("div", { class: "tf-card-side tf-card-front" }, cardFaceSvg(card)) : null);
  return el("div", { class: ["tf-card", up && card ? "is-up" : "is-down", cls], role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true", dataset: card ? { card } : {} }, inner);
}

/** A card in a line of text: rank, suit shape, and the suit's name for screen readers. */
export function inlineCard(card, suitName) {
  const suit = cardSuit(card);
  return el("span", { class: `tf-inline-card ${ink(suit)}` }, rankText(card), suitIcon(suit), el("span", { class: "visually-hidden" }, ` ${suitName}`));
}

/** A team token: Red = disc, Black = rounded square (shape first, colour second). */
export function tokenShape(colour, cx, cy, r, cls = "") {
  const g = svg("g", { class: `tf-token tf-token-${colour} ${cls}` });
  if (colour === "red") {
    g.append(svg("circle", { class: "tf-token-body", cx, cy, r }), svg("circle", { class: "tf-token-mark", cx, cy, r: r * 0.55 }));
  } else {
    const s = r * 0.9;
    g.append(
      svg("rect", { class: "tf-token-body", x: cx - s, y: cy - s, width: 2 * s, height: 2 * s, rx: r * 0.22 }),
      svg("rect", { class: "tf-token-mark", x: cx - s * 0.52, y: cy - s * 0.52, width: s * 1.04, height: s * 1.04, rx: r * 0.1 }),
    );
  }
  g.style.transformOrigin = `${cx}px ${cy}px`;
  return g;
}

export function tokenBadge(colour, size = 22) {
  const box = svg("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "tf-token-badge", "aria-hidden": "true", focusable: "false" });
  box.append(tokenShape(colour, 20, 20, 15));
  return box;
}
