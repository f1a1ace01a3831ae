// Tri-Tac renderer (view and actions: docs/games/tri-tac.md; contract: docs/protocol.md "Browser renderers").
//
// The board is one SVG: a grid of focusable cells (role=grid, roving tabindex, arrow keys + Enter/Space),
// X and O drawn as shapes, special squares as stars, scored lines as strokes through their cells (new ones
// drawn in), the last move ringed. It decides no rule: it offers empty cells on your turn, opponent markers
// in Power Play mode, and the two ballots during a vote; the server is the judge. This module wires the
// parts: each one draws a piece from the shared model.

import { ensureStylesheet, h as el, prefersReducedMotion, s as svg } from "../../js/dom.js";
import { createHint } from "../../js/learn-hint.js";
import { createBoard } from "./board.js";
import { createLines } from "./lines.js";
import { logHooks } from "./log-hooks.js";
import { markerBadge } from "./markers.js";
import { cellKey, createModel } from "./model.js";
import { createSummary } from "./summary.js";
import { createToolbar } from "./toolbar.js";
import { createVote } from "./vote.js";

// The game's styles sit beside its modules, in its folder.
const CSS_HREF = new URL("./style.css", import.meta.url).pathname;

export function mount(root, ctx) {
  const m = createModel(ctx);

  // ---- structure -----------------------------------------------------------------------------
  const toolbar = createToolbar(m);
  const vote = createVote(m, (expand) => {
    m.gate.send(ctx, { type: "vote", expand }, render);
    vote.draw();
  });
  const boardSvg = svg("svg", {
    class: "tt-board",
    role: "grid",
    "aria-describedby": `${m.uid}-summary`,
    "aria-labelledby": `${m.uid}-label`,
    focusable: "false",
  });
  const cellsLayer = svg("g", { class: "tt-cells" });
  const linesLayer = svg("g", { class: "tt-lines", "aria-hidden": "true" });
  const fxLayer = svg("g", { class: "tt-fx", "aria-hidden": "true" });
  const frame = svg("rect", { class: "tt-frame" });
  boardSvg.append(frame, cellsLayer, linesLayer, fxLayer);
  const board = createBoard(m, boardSvg, frame, cellsLayer);
  const lines = createLines(m, linesLayer, fxLayer);
  const summary = createSummary(m);
  const boardWrap = el("div", { class: "tt-board-wrap" }, boardSvg);
  const container = el("div", { class: "tt", hidden: true }, summary.label, toolbar.node, vote.node, boardWrap, summary.summary, summary.legend);
  root.append(container);
  const lessonHint = createHint(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  function render(animateCells = new Set()) {
    const { view } = m;
    if (!view) return;
    if (view.size !== m.size || board.cellCount() !== view.size) board.build(view.size);
    if (!m.isMyTurn()) {
      m.powerMode = false;
      m.armed = null;
    }
    if (m.powerMode && !m.canPower()) m.powerMode = false;
    board.draw(animateCells);
    toolbar.draw();
    vote.draw();
    summary.draw();
  }

  // ---- input ---------------------------------------------------------------------------------
  function play(r, c) {
    const action = m.actionAt(r, c);
    if (!action) return;
    m.armed = null;
    m.gate.send(ctx, action).then((ack) => {
      if (ack) m.powerMode = false;
      render();
    });
    render();
  }

  function cellFromEvent(event) {
    const g = event.target.closest?.(".tt-cell");
    if (!g) return null;
    return [Number(g.dataset.r), Number(g.dataset.c)];
  }

  let lastPointerType = "mouse";
  boardSvg.addEventListener("click", (event) => {
    const rc = cellFromEvent(event);
    if (!rc) return;
    const [r, c] = rc;
    board.roving.at = rc;
    // On a phone with a big board, the first tap selects and the second confirms, so a fat finger
    // never plays the wrong cell.
    const touch = lastPointerType === "touch" && m.size >= 7;
    if (touch && m.actionAt(r, c) && !(m.armed && m.armed[0] === r && m.armed[1] === c)) {
      m.armed = [r, c];
      render();
      return;
    }
    play(r, c);
  });
  boardSvg.addEventListener("pointerdown", (event) => {
    lastPointerType = event.pointerType || "mouse";
  });

  boardSvg.addEventListener("keydown", (event) => {
    const rc = cellFromEvent(event);
    if (!rc || board.roving.onKey(event, rc[0], rc[1], play)) return;
    if (event.key === "Escape" && (m.powerMode || m.armed)) {
      m.powerMode = false;
      m.armed = null;
      render();
    }
  });

  boardSvg.addEventListener("focusin", (event) => {
    const rc = cellFromEvent(event);
    if (rc) board.roving.at = rc;
  });

  toolbar.powerBtn.addEventListener("click", () => {
    m.powerMode = !m.powerMode && m.canPower();
    m.armed = null;
    render();
    if (m.powerMode) {
      // jump the focus to the first target so keyboard users can start right away
      const target = (() => {
        for (let r = 0; r < m.size; r += 1) for (let c = 0; c < m.size; c += 1) if (m.actionAt(r, c)) return [r, c];
        return null;
      })();
      if (target) board.roving.moveTo(target[0], target[1]);
    }
  });

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    update(msg) {
      const prevSize = m.size;
      m.lastMsg = msg;
      m.view = msg.view;
      const { view } = m;
      if (!view || !Array.isArray(view.board)) return;
      const events = Array.isArray(msg.events) ? msg.events : [];
      const animateCells = new Set();
      for (const ev of events) {
        if ((ev.kind === "placed" || ev.kind === "power") && Array.isArray(ev.cell)) animateCells.add(cellKey(ev.cell[0], ev.cell[1]));
        if (ev.kind === "expanded") {
          // every coordinate shifted by one: keep the keyboard focus on the same cell
          board.roving.at = [board.roving.at[0] + 1, board.roving.at[1] + 1];
          lines.forget();
        }
      }
      const hadFocus = boardSvg.contains(document.activeElement);
      render(animateCells);
      // First paint, or a board that grew (every line moved): draw the lines as they are, no animation.
      lines.draw(prevSize !== m.size);
      lines.floatPoints(events);
      if (events.some((e) => e.kind === "expanded") && !prefersReducedMotion()) {
        boardSvg.classList.remove("tt-grow");
        void boardSvg.getBoundingClientRect();
        boardSvg.classList.add("tt-grow");
      }
      if (hadFocus && !boardSvg.contains(document.activeElement)) board.roving.moveTo(board.roving.at[0], board.roving.at[1]);
    },
    destroy() {
      lessonHint.clear();
      container.remove();
    },
    /** Optional hook of the lesson page: ring the cell a move names (and Power Play's button first). */
    hint: lessonHint.hook((action) => {
      const [r, c] = Array.isArray(action.cell) ? action.cell : [];
      const cell = boardSvg.querySelector(`.tt-cell[data-r="${r}"][data-c="${c}"]`);
      // A step already taken drops out: the ring moves on to what is left to do.
      return action.type === "power" ? [m.powerMode ? null : toolbar.powerBtn, cell] : [cell];
    }),
    /** Optional hook used by the room page: the marker shown beside each seat. */
    seatBadge(seat) {
      return markerBadge(m.markerOf(seat), seat);
    },
    ...logHooks(m),
  };
}
