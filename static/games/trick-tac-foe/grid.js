// The 3×3 grid as you read it: tokens, the numbers as a chosen seat reads them, the last target, scoring
// lines, and the cells you may pick when your wild 10 won (mouse, arrows, digits).
import { h as el, s as svg } from "../../js/dom.js";
import { seatLabel, t } from "../../js/i18n.js";
import { tokenShape } from "./art.js";
import { cellKey, DIR_ANGLE, numberFor, POS_OF_ANGLE } from "./compass.js";
import { cardRank } from "./deck.js";
import { latestRecords } from "./records.js";
import { reducedMotion } from "./state.js";

const CELL = 100;
const PAD = 10;
// N / E / S / W on the grid's edges
const EDGE = { top: [160, -8], right: [328, 160], bottom: [160, 328], left: [-8, 160] };

/** The tokens to draw: the timeline's, at the end the position the game ended on (the engine's
 * `final`, before its last clear), else the view's. */
export function displayGrid(T) {
  return T.anim?.grid || (T.view.phase === "over" && T.view.final?.grid) || T.view.grid;
}

/** The grid of `T`; `onPick(i)` plays the wild 10 on board index i. */
export function tableGrid(T, onPick) {
  const gridSvg = svg("svg", { class: "tf-grid", viewBox: "-16 -16 352 352", role: "grid", "aria-labelledby": `${T.uid}-grid-label`, focusable: "false" });
  const gridLabel = el("h3", { class: "visually-hidden", id: `${T.uid}-grid-label` });
  const lens = el("div", { class: "tf-lens", role: "group", "aria-label": t("trick-tac-foe.numbers_as") });

  // grid cells: built once, 3×3 in the viewer's reading order
  const cells = [];
  const cellsLayer = svg("g", { class: "tf-cells" });
  const linesLayer = svg("g", { class: "tf-lines", "aria-hidden": "true" });
  const fxLayer = svg("g", { class: "tf-fx", "aria-hidden": "true" });
  const compass = new Map(); // direction -> text on the grid's edge
  const compassLayer = svg("g", { class: "tf-compass", "aria-hidden": "true" });
  for (const d of Object.keys(DIR_ANGLE)) {
    const text = svg("text", { class: "tf-compass-letter", "text-anchor": "middle", "dominant-baseline": "central" });
    text.textContent = seatLabel({ direction: d }).slice(0, 1); // N E S W (N E S O in French)
    compass.set(d, text);
    compassLayer.append(text);
  }
  gridSvg.append(svg("rect", { class: "tf-grid-frame", x: 0, y: 0, width: 320, height: 320, rx: 18 }), compassLayer, cellsLayer, linesLayer, fxLayer);
  for (let vr = 0; vr < 3; vr += 1) {
    const row = svg("g", { role: "row" });
    for (let vc = 0; vc < 3; vc += 1) {
      const i = vr * 3 + vc;
      const x = PAD + vc * CELL;
      const y = PAD + vr * CELL;
      const g = svg("g", { class: "tf-cell", role: "gridcell", tabindex: "-1", "data-index": i, "data-number": i + 1 });
      const bg = svg("rect", { class: "tf-cell-bg", x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 14 });
      const num = svg("text", { class: "tf-cell-num", x: x + 16, y: y + 27, "text-anchor": "middle" });
      num.textContent = String(i + 1);
      const content = svg("g", { class: "tf-cell-content" });
      const ring = svg("rect", { class: "tf-cell-ring", x: x + 8, y: y + 8, width: CELL - 16, height: CELL - 16, rx: 11 });
      g.append(bg, ring, content, num);
      row.append(g);
      cells.push({ g, bg, content, num, ring, x, y, cx: x + CELL / 2, cy: y + CELL / 2, sig: "" });
    }
    cellsLayer.append(row);
  }

  function drawTokens(c, token, fx) {
    const sig = `${token}|${fx || ""}`;
    if (sig === c.sig) return;
    c.sig = sig;
    const parts = [];
    if (fx === "flip" && token && !reducedMotion()) {
      const old = token === "red" ? "black" : "red";
      parts.push(tokenShape(old, c.cx, c.cy + 6, 29, "tf-flip-out"), tokenShape(token, c.cx, c.cy + 6, 29, "tf-flip-in"));
    } else if (fx === "clear" && token && !reducedMotion()) {
      parts.push(tokenShape(token, c.cx, c.cy + 6, 29, "tf-clearing"));
    } else if (token && fx !== "clear") {
      parts.push(tokenShape(token, c.cx, c.cy + 6, 29, fx === "place" && !reducedMotion() ? "tf-pop" : ""));
    }
    c.content.replaceChildren(...parts);
  }

  function draw() {
    const view = T.view;
    const anim = T.anim;
    const grid = displayGrid(T);
    const board = view.board || [];
    const wild = T.canWild();
    const targetKeys = new Set();
    if (anim) {
      if (anim.target) targetKeys.add(cellKey(anim.target));
    } else for (const r of latestRecords(view)) if (r.cell) targetKeys.add(cellKey(r.cell));
    const previewIdx = new Set();
    let previewWild = false;
    if (T.preview && T.canCommit()) {
      const k = cardRank(T.preview);
      if (k === 10) previewWild = true;
      else previewIdx.add(k - 1);
    }
    for (let i = 0; i < 9; i += 1) {
      const c = cells[i];
      const b = board[i];
      if (!b) continue;
      const token = grid[b.cell[0]][b.cell[1]];
      drawTokens(c, token, anim?.cellFx?.get(cellKey(b.cell)) || null);
      const lensSeat = T.lensSeat;
      const other = lensSeat !== null && lensSeat !== T.mySeat && T.seatInfo(lensSeat) ? numberFor(T.directionOf(lensSeat), b.cell) : null;
      const numText = String(other ?? i + 1);
      if (c.num.textContent !== numText) c.num.textContent = numText;
      c.g.classList.toggle("is-lens", other !== null);
      const isTarget = targetKeys.has(cellKey(b.cell));
      c.g.classList.toggle("is-target", isTarget);
      c.g.classList.toggle("is-preview", previewIdx.has(i) || previewWild);
      c.g.classList.toggle("is-playable", wild);
      c.g.classList.toggle("is-red", token === "red");
      c.g.classList.toggle("is-black", token === "black");
      const bits = [t("trick-tac-foe.cell", { n: i + 1 }), token === "red" ? t("trick-tac-foe.cell_red") : token === "black" ? t("trick-tac-foe.cell_black") : t("trick-tac-foe.cell_empty")];
      if (isTarget) bits.push(t("trick-tac-foe.cell_target"));
      c.g.setAttribute("aria-label", wild ? `${t("trick-tac-foe.pick_cell", { n: i + 1 })}: ${bits.slice(1).join(", ")}` : bits.join(", "));
      c.g.setAttribute("aria-disabled", wild ? "false" : "true");
      c.g.setAttribute("tabindex", wild && i === T.gridFocus ? "0" : "-1");
    }
    // the compass letters turn with the table (the log names cells by compass)
    for (const [d, text] of compass) {
      const [x, y] = EDGE[POS_OF_ANGLE[(DIR_ANGLE[d] + (view.rotation || 0)) % 360]];
      text.setAttribute("x", x);
      text.setAttribute("y", y);
    }
    drawLens();
    gridSvg.classList.toggle("is-wild", wild);
    gridSvg.classList.toggle("is-busy", T.gate.pending);
    gridLabel.textContent = t(T.spectator ? "trick-tac-foe.grid_label_watch" : "trick-tac-foe.grid_label");
    drawLines();
  }

  /** "Numbers as read by: you · North · …": see which cell another seat's card would target. */
  function drawLens() {
    const view = T.view;
    const seats = (view.seats || []).map((x) => x.seat);
    const own = T.spectator ? null : T.mySeat;
    const current = T.lensSeat === null || T.lensSeat === own ? own : T.lensSeat;
    const sig = JSON.stringify([seats, current, T.nameOf(0), T.nameOf(1), T.nameOf(2), T.nameOf(3)]);
    if (lens.dataset.sig === sig) return;
    lens.dataset.sig = sig;
    const button = (seat, text) => el("button", {
      type: "button",
      class: "tf-lens-btn",
      "aria-pressed": seat === current || (seat === null && current === null) ? "true" : "false",
      onclick: () => {
        T.lensSeat = seat;
        draw();
      },
    }, text);
    const parts = [el("span", { class: "tf-lens-title" }, t("trick-tac-foe.numbers_as"))];
    // a spectator reads the grid as the seat of the view's perspective
    const home = seats.find((s) => T.directionOf(s) === view.perspective);
    parts.push(button(own, T.spectator ? T.seatWord(home) : t("trick-tac-foe.you")));
    for (const s of seats) if (s !== own && !(T.spectator && T.directionOf(s) === view.perspective)) parts.push(button(s, T.seatWord(s)));
    lens.replaceChildren(...parts);
  }

  function drawLines() {
    const final = !T.anim && T.view.phase === "over" ? T.view.final : null;
    const lines = T.anim?.lines || final?.lines || null;
    if (!lines) {
      linesLayer.replaceChildren();
      return;
    }
    const colour = (T.anim ? T.anim.lineColour : final.colour) || "red";
    linesLayer.replaceChildren(
      ...lines.map((line) => {
        const pts = line.map((cell) => cells[T.boardIndexOf(cell)]).filter(Boolean);
        if (pts.length < 2) return null;
        pts.sort((a, b) => a.y - b.y || a.x - b.x);
        const a = pts[0];
        const z = pts[pts.length - 1];
        const dx = z.cx - a.cx;
        const dy = z.cy - a.cy;
        const len = Math.hypot(dx, dy) || 1;
        const ext = 30;
        return svg("line", {
          class: `tf-line tf-line-${colour}${reducedMotion() ? "" : " is-new"}`,
          x1: (a.cx - (dx / len) * ext).toFixed(1),
          y1: (a.cy + 6 - (dy / len) * ext).toFixed(1),
          x2: (z.cx + (dx / len) * ext).toFixed(1),
          y2: (z.cy + 6 + (dy / len) * ext).toFixed(1),
          pathLength: "1",
        });
      }),
    );
  }

  /** A "+1" rising from the cell that completed a line. */
  function floatPoint(cell, colour) {
    if (reducedMotion()) return;
    const c = cells[T.boardIndexOf(cell)];
    if (!c) return;
    const text = svg("text", { class: `tf-float tf-float-${colour}`, x: c.cx, y: c.cy - 20, "text-anchor": "middle" });
    text.textContent = "+1";
    fxLayer.append(text);
    setTimeout(() => text.remove(), 1500);
  }

  /** Put the roving focus on cell j. */
  function focusCell(j, options) {
    T.gridFocus = j;
    for (const cell of cells) cell.g.setAttribute("tabindex", "-1");
    cells[j].g.setAttribute("tabindex", "0");
    cells[j].g.focus(options);
  }

  /** Your wild 10 won: once per choice, the grid takes the keyboard focus (unless you type elsewhere). */
  function focusWild(container) {
    const view = T.view;
    const key = `${view.round}|${view.trick}|${view.step}`;
    if (!T.canWild() || T.wildFocusedFor === key) return;
    T.wildFocusedFor = key;
    const active = document.activeElement;
    if (!active || active === document.body || container.contains(active)) focusCell(4, { preventScroll: true });
    else {
      T.gridFocus = 4;
      for (const cell of cells) cell.g.setAttribute("tabindex", "-1");
      cells[4].g.setAttribute("tabindex", "0");
    }
  }

  // input during a wild choice
  const cellFromEvent = (event) => {
    const g = event.target.closest?.(".tf-cell");
    return g ? Number(g.dataset.index) : null;
  };
  gridSvg.addEventListener("click", (event) => {
    const i = cellFromEvent(event);
    if (i === null) return;
    T.gridFocus = i;
    onPick(i);
  });
  gridSvg.addEventListener("keydown", (event) => {
    const i = cellFromEvent(event);
    if (i === null) return;
    const moves = { ArrowUp: -3, ArrowDown: 3, ArrowLeft: -1, ArrowRight: 1 };
    if (moves[event.key] !== undefined) {
      event.preventDefault();
      const r = Math.floor(i / 3);
      const c = i % 3;
      let j = i;
      if (event.key === "ArrowLeft" && c > 0) j = i - 1;
      if (event.key === "ArrowRight" && c < 2) j = i + 1;
      if (event.key === "ArrowUp" && r > 0) j = i - 3;
      if (event.key === "ArrowDown" && r < 2) j = i + 3;
      focusCell(j);
    } else if (/^[1-9]$/.test(event.key) && T.canWild()) {
      event.preventDefault();
      onPick(Number(event.key) - 1);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onPick(i);
    }
  });

  return { gridSvg, gridLabel, lens, draw, floatPoint, focusWild };
}
