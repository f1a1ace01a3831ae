// Tic-Tac-Toe renderer: the example game's board (docs/adding-a-game.md; contract: static/js/games/README.md).
//
// One SVG grid of nine focusable cells (role=grid, a roving tabindex: arrow keys move, Enter or Space plays),
// X and O drawn as shapes so a mark never reads by its colour alone, the last move ringed and the winning
// line struck through. It decides no rule: it offers the empty cells on your turn, and the server judges.

import { ensureStylesheet, h as el, prefersReducedMotion, s as svg } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { AckGate } from "../../js/table/acks.js";
import { RovingGrid } from "../../js/table/roving-grid.js";
import { seatPlayerName } from "../../js/table/seats.js";
import { xoShape } from "../../js/table/xo.js";

const CSS_HREF = new URL("./style.css", import.meta.url).pathname;
const SIDE = 3;
const CELL = 100;
const PAD = 8;
const TOTAL = PAD * 2 + SIDE * CELL;
const centre = (i) => PAD + i * CELL + CELL / 2;
const rowOf = (cell) => Math.floor(cell / SIDE);
const colOf = (cell) => cell % SIDE;

/** An X or O of `seat`, centred in the cell at (r, c). */
function mark(marker, seat, r, c, cls = "") {
  return xoShape(marker, centre(c), centre(r), { o: CELL * 0.3, x: CELL * 0.26 }, `toe-mark toe-seat-${seat} ${cls}`);
}

export function mount(root, ctx) {
  const uid = `toe${Math.random().toString(36).slice(2, 8)}`;
  const gate = new AckGate();
  let msg = null;

  const markers = () => msg?.view?.markers || ["X", "O"];
  const markerOf = (seat) => markers()[seat] ?? "?";
  const who = (seat) => `${seatPlayerName(ctx.room, seat)} (${markerOf(seat)})`;
  const myTurn = () => Boolean(msg?.view && ctx.seat !== null && ctx.seat !== undefined && msg.view.to_move === ctx.seat && (msg.to_act || []).includes(ctx.seat) && !msg.outcome);
  const playable = (cell) => myTurn() && !gate.busy(msg?.version) && msg.view.board[cell] === null;

  // ---- structure -----------------------------------------------------------------------------
  const label = el("h2", { class: "visually-hidden", id: `${uid}-label` }, t("tic-tac-toe.board"));
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary` });
  const status = el("p", { class: "toe-status" });
  const board = svg("svg", { class: "toe-board", viewBox: `0 0 ${TOTAL} ${TOTAL}`, role: "grid", "aria-labelledby": `${uid}-label`, "aria-describedby": `${uid}-summary`, focusable: "false" });
  const cells = [];
  for (let r = 0; r < SIDE; r += 1) {
    const row = svg("g", { role: "row" });
    for (let c = 0; c < SIDE; c += 1) {
      const g = svg("g", { class: "toe-cell", role: "gridcell", tabindex: r === 0 && c === 0 ? "0" : "-1", "data-cell": r * SIDE + c });
      const bg = svg("rect", { class: "toe-cell-bg", x: PAD + c * CELL + 3, y: PAD + r * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 12 });
      const content = svg("g", { class: "toe-content" });
      g.append(bg, content);
      row.append(g);
      cells.push({ g, content, sig: "" });
    }
    board.append(row);
  }
  const lineLayer = svg("g", { class: "toe-line-layer", "aria-hidden": "true" });
  board.append(lineLayer);
  const roving = new RovingGrid({ cell: (r, c) => cells[r * SIDE + c]?.g, size: () => SIDE });
  const container = el("div", { class: "toe", hidden: true }, label, status, el("div", { class: "toe-board-wrap" }, board), summary);
  root.append(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  // ---- drawing -------------------------------------------------------------------------------
  function render(placed = null) {
    const view = msg?.view;
    if (!view) return;
    const line = new Set(view.line || []);
    view.board.forEach((seat, cell) => {
      const r = rowOf(cell);
      const c = colOf(cell);
      const item = cells[cell];
      const isLast = view.last === cell;
      const sig = `${seat}|${isLast}`;
      if (sig !== item.sig) {
        item.sig = sig;
        const parts = [];
        if (seat !== null) parts.push(mark(markerOf(seat), seat, r, c, cell === placed && !prefersReducedMotion() ? "toe-pop" : ""));
        if (isLast) parts.push(svg("rect", { class: "toe-last", x: PAD + c * CELL + 9, y: PAD + r * CELL + 9, width: CELL - 18, height: CELL - 18, rx: 9 }));
        item.content.replaceChildren(...parts);
      }
      const words = [t("tic-tac-toe.cell", { r: r + 1, c: c + 1 }), seat === null ? t("tic-tac-toe.empty") : markerOf(seat)];
      if (isLast) words.push(t("tic-tac-toe.last"));
      if (line.has(cell)) words.push(t("tic-tac-toe.in_line"));
      item.g.setAttribute("aria-label", words.join(", "));
      item.g.setAttribute("aria-disabled", playable(cell) ? "false" : "true");
      item.g.classList.toggle("is-playable", playable(cell));
      item.g.classList.toggle("is-last", isLast);
    });
    drawLine(view.line);
    board.classList.toggle("is-my-turn", myTurn());
    board.setAttribute("aria-busy", gate.busy(msg.version) ? "true" : "false");

    const mine = ctx.seat !== null && ctx.seat !== undefined ? t("tic-tac-toe.you_play", { marker: markerOf(ctx.seat) }) : "";
    const turn = myTurn() ? t("tic-tac-toe.your_turn", { marker: markerOf(ctx.seat) }) : view.to_move !== null ? t("tic-tac-toe.summary_turn", { marker: who(view.to_move) }) : t("tic-tac-toe.summary_over");
    status.textContent = [mine, turn].filter(Boolean).join(" · ");
    status.classList.toggle("is-you", myTurn());
    const bits = [turn];
    if (view.last !== null) bits.push(t("tic-tac-toe.summary_last", { marker: who(view.board[view.last]), r: rowOf(view.last) + 1, c: colOf(view.last) + 1 }));
    summary.textContent = bits.join(" ");
  }

  function drawLine(line) {
    const key = line ? line.join(",") : "";
    if (lineLayer.dataset.key === key) return;
    lineLayer.dataset.key = key;
    lineLayer.replaceChildren();
    if (!line) return;
    const [a, , b] = line;
    const seat = msg.view.board[a];
    lineLayer.append(svg("line", { class: `toe-line toe-seat-${seat}${prefersReducedMotion() ? "" : " is-new"}`, x1: centre(colOf(a)), y1: centre(rowOf(a)), x2: centre(colOf(b)), y2: centre(rowOf(b)), pathLength: 1 }));
  }

  // ---- input ---------------------------------------------------------------------------------
  function play(r, c) {
    const cell = r * SIDE + c;
    if (!playable(cell)) return;
    gate.send(ctx, { type: "place", cell }, render);
    render();
  }

  const cellOf = (event) => event.target.closest?.(".toe-cell");
  board.addEventListener("click", (event) => {
    const g = cellOf(event);
    if (!g) return;
    const cell = Number(g.dataset.cell);
    roving.at = [rowOf(cell), colOf(cell)];
    play(rowOf(cell), colOf(cell));
  });
  board.addEventListener("keydown", (event) => {
    const g = cellOf(event);
    if (g) roving.onKey(event, rowOf(Number(g.dataset.cell)), colOf(Number(g.dataset.cell)), play);
  });
  board.addEventListener("focusin", (event) => {
    const g = cellOf(event);
    if (g) roving.at = [rowOf(Number(g.dataset.cell)), colOf(Number(g.dataset.cell))];
  });

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    update(stateMsg) {
      msg = stateMsg;
      if (!msg?.view || !Array.isArray(msg.view.board)) return;
      const placed = (msg.events || []).find((e) => e.kind === "placed")?.cell ?? null;
      render(placed);
    },
    destroy() {
      container.remove();
    },
    seatBadge(seat) {
      const box = svg("svg", { viewBox: `${PAD} ${PAD} ${CELL} ${CELL}`, class: "toe-badge", "aria-hidden": "true", focusable: "false" });
      box.append(mark(markerOf(seat), seat, 0, 0));
      return el("span", { class: "toe-badge-wrap", title: markerOf(seat) }, box);
    },
    seatName(seat, name) {
      return `${name} (${markerOf(seat)})`;
    },
    cellText(cell) {
      return t("tic-tac-toe.cell", { r: rowOf(Number(cell)) + 1, c: colOf(Number(cell)) + 1 });
    },
  };
}
