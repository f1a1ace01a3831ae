// Tic Tac Match renderer (view and actions: docs/games/tic-tac-match.md; contract: docs/protocol.md
// "Browser renderers").
//
// A card table: the 3×3 grid (top card of each stack, its height), the draw and discard piles, every seat with
// its ID card and hand size, the viewer's own hand of four. Colours are never the only cue: every Symbol card
// carries its colour's letter and pattern (blue stripes, green dots, red checks, yellow bands). The renderer
// decides no rule: a Symbol card offers exactly the cells the view lists for it, Wipe-Out exactly its targets.
// Keyboard: arrows move in the hand and on the grid, Enter/Space selects a card or plays on a cell, Escape
// cancels. This module wires the parts: each one draws a piece of the table from the shared model.

import { ensureStylesheet, h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { createHint } from "../../js/learn-hint.js";
import { createGrid } from "./grid.js";
import { createHand } from "./hand.js";
import { logHooks } from "./log-hooks.js";
import { createMatches } from "./matches.js";
import { createModel } from "./model.js";
import { createNews } from "./news.js";
import { createPiles } from "./piles.js";
import { createPrompt } from "./prompt.js";
import { createSeats } from "./seats.js";
import { createTopbar } from "./topbar.js";

// The game's styles sit beside its modules, in its folder.
const CSS_HREF = new URL("./style.css", import.meta.url).pathname;

export function mount(root, ctx) {
  const m = createModel(ctx);

  // ---- structure -----------------------------------------------------------------------------
  const topbar = createTopbar(m);
  const news = createNews(m);
  const seats = createSeats(m);
  const grid = createGrid(m);
  const piles = createPiles(m);
  const tableArea = el("div", { class: "ttm-table" }, el("div", { class: "ttm-grid-wrap" }, grid.node), piles.node);
  const prompt = createPrompt(m, { send, select, backToHand });
  const hand = createHand(m, prompt.node, select);
  const matches = createMatches(m, tableArea, news.node);
  const label = el("h2", { class: "visually-hidden", id: `${m.uid}-label` }, t("tic-tac-match.board"));
  const legend = el("p", { class: "ttm-legend muted small" }, t("tic-tac-match.goal"), el("br"), t("tic-tac-match.legend"));
  // two groups for the one-screen table layout (app.css body.in-table); elsewhere they do not box
  const container = el("div", { class: "ttm", hidden: true }, label,
    el("div", { class: "ttm-main table-main" }, topbar.node, news.node, seats.node, tableArea),
    el("div", { class: "ttm-side table-side" }, hand.area, matches.node, legend), news.summary);
  root.append(container);
  const lessonHint = createHint(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  function render({ drop = new Set(), fresh = new Set(), pulse = false, wiped = null } = {}) {
    if (!m.view) return;
    if (!m.isMyTurn()) m.selected = null;
    topbar.draw();
    seats.draw(wiped);
    grid.draw(drop);
    piles.draw(pulse);
    if (hand.draw(fresh)) prompt.draw();
    matches.draw(container);
    news.drawSummary();
    seats.refreshBadges();
    container.classList.toggle("is-my-turn", m.isMyTurn());
  }

  // ---- input ---------------------------------------------------------------------------------
  function send(action) {
    if (m.busy() || !m.isMyTurn()) return;
    const hadFocus = [hand.box, prompt.node, grid.node].some((part) => part.contains(document.activeElement));
    m.gate.send(ctx, action, () => {
      m.selected = null;
      render();
      if (hadFocus && m.isMyTurn()) hand.focus();
    });
    render();
  }

  function select(cardId, { fromKeyboard = false } = {}) {
    m.selected = cardId;
    render();
    const card = m.selectedCard();
    if (!card) {
      hand.focus();
      return;
    }
    if (fromKeyboard) {
      if (card.kind === "symbol" && card.cells?.length) grid.roving.moveTo(card.cells[0][0], card.cells[0][1]);
      else prompt.node.querySelector("button")?.focus();
    }
  }

  /** Escape on the grid or the prompt: drop the selection and go back to its card. */
  function backToHand() {
    const id = m.selected;
    select(null);
    hand.focus(id);
  }

  function playCell(r, c) {
    const card = m.selectedCard();
    if (!card || !m.legalAt(r, c)) return;
    send({ type: "play", card: card.id, cell: [r, c] });
  }

  const cellOf = (event) => {
    const node = event.target.closest(".ttm-cell");
    return node ? [Number(node.dataset.r), Number(node.dataset.c)] : null;
  };
  grid.node.addEventListener("click", (event) => {
    const rc = cellOf(event);
    if (!rc) return;
    grid.roving.at = rc;
    playCell(rc[0], rc[1]);
  });
  grid.node.addEventListener("keydown", (event) => {
    const rc = cellOf(event);
    if (!rc || grid.roving.onKey(event, rc[0], rc[1], playCell)) return;
    if (event.key === "Escape" && m.selected !== null) {
      event.preventDefault();
      backToHand();
    }
  });

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    update(msg) {
      m.lastMsg = msg;
      const v = msg.view;
      if (!v || !Array.isArray(v.grid)) return;
      m.view = v;
      const events = Array.isArray(msg.events) ? msg.events : [];
      const drop = new Set();
      const fresh = new Set();
      let pulse = false;
      let wiped = null;
      for (const ev of events) {
        if (ev.kind === "play" && Array.isArray(ev.cell)) {
          drop.add(`${ev.cell[0]},${ev.cell[1]}`);
          m.lastCell = `${ev.cell[0]},${ev.cell[1]}`;
        }
        if (ev.kind === "match_start") m.lastCell = null;
        if (ev.kind === "match_start") for (let r = 0; r < 3; r += 1) for (let c = 0; c < 3; c += 1) if (v.grid[r][c].top) drop.add(`${r},${c}`);
        if (ev.kind === "reshuffle") pulse = true;
        if (ev.kind === "wiped_out") wiped = ev.seat;
      }
      m.flipping = events.some((e) => e.kind === "flip");
      // cards new in my hand since the last state are dealt in
      const ids = m.myHand().map((c) => c.id);
      if (events.length && m.handIds.length) for (const id of ids) if (!m.handIds.includes(id)) fresh.add(id);
      m.handIds = ids;
      render({ drop, fresh, pulse, wiped });
      m.flipping = false;
      news.show(events);
      const won = events.find((e) => e.kind === "match_won");
      if (won && !won.series_over && !m.view.over) matches.showOverlay(won);
    },
    destroy() {
      lessonHint.clear();
      matches.destroy();
      container.remove();
    },
    /** Optional hook of the lesson page: ring the card, then the cell or the button that plays it. */
    hint: lessonHint.hook((action) => {
      // A step already taken drops out: the ring moves on to what is left to do.
      const card = m.selected === Number(action.card) ? null : hand.box.querySelector(`[data-card-id="${Number(action.card)}"]`);
      if (action.type === "play") {
        const [r, c] = Array.isArray(action.cell) ? action.cell : [];
        return [card, grid.node.querySelector(`.ttm-cell[data-r="${r}"][data-c="${c}"]`)];
      }
      const target = action.type === "wipeout" ? `[data-target="${Number(action.target)}"]` : "";
      return [card, prompt.node.querySelector(`[data-action="${action.type}"]${target}`)];
    }),
    /** The room page's players strip shows each seat's ID card (kept up to date on every flip). */
    seatBadge: (seat) => seats.badge(seat),
    ...logHooks,
  };
}
