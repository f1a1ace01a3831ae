// Trick-Tac-Foe renderer (view and actions: docs/games/trick-tac-foe.md; contract: docs/protocol.md
// "Browser renderers").
//
// Drawn from the view alone: the table seen from your seat (you at the bottom, your partner opposite in a
// 4-player game), each seat's plate with its hand and deck counts and its card on the table (a card back
// once committed, the face once its pair has revealed), the 3×3 grid exactly as you read it (the view's
// `board` is already in your own 1–9 order) with Red tokens as discs and Black tokens as squares, your hand
// as real playing cards (suit shape AND colour), the discard pile as a card-counting chart, team scores and
// round / trick progress. The events of each state message are played back as a short timeline (see
// timeline.js). It decides no rule: it offers your hand while you have not committed and the nine cells
// when your wild 10 won. This module wires the pieces: mount, update, destroy and the room page's hooks.

import { ensureStylesheet, h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { createHint } from "../../js/learn-hint.js";
import { tokenBadge } from "./art.js";
import { drawBar, statusLine, summaryLine } from "./bar.js";
import { discardPanel } from "./discard.js";
import { tableGrid } from "./grid.js";
import { handPanel } from "./hand.js";
import { trickRecords } from "./records.js";
import { seatPlates } from "./seats.js";
import { colourName, TableState } from "./state.js";
import { eventTimeline } from "./timeline.js";

// The game's styles sit beside its modules, in its folder.
const CSS_HREF = new URL("./style.css", import.meta.url).pathname;
// Events that change the board: a message with one of them cuts a running timeline short and plays its own.
const BOARD_EVENTS = ["reveal", "resolve", "clear", "round_start"];

export function mount(root, ctx) {
  const T = new TableState(ctx);

  // ---- actions -------------------------------------------------------------------------------
  function commit(card) {
    if (!card || !T.canCommit() || T.gate.pending) return;
    T.selected = null;
    T.preview = null;
    T.gate.send(ctx, { type: "commit", card }, render);
    render();
  }

  function chooseCell(i) {
    if (!T.canWild() || T.gate.pending) return;
    T.gate.send(ctx, { type: "wild", number: i + 1 }, render);
    render();
  }

  // ---- static structure ----------------------------------------------------------------------
  const bar = el("div", { class: "tf-bar" });
  const status = el("p", { class: "tf-status", role: "status", "aria-live": "polite" });
  const grid = tableGrid(T, chooseCell);
  const records = trickRecords(T);
  const timeline = eventTimeline(T, { render: () => render(), floatPoint: grid.floatPoint });
  const center = el("div", { class: "tf-center" }, grid.gridLabel, el("div", { class: "tf-grid-wrap" }, grid.gridSvg, timeline.banner));
  // the lens and the last tricks: under the grid, or in a corner of the felt where the grid needs the height
  const notes = el("div", { class: "tf-notes" }, grid.lens, records.records);
  const table = el("div", { class: "tf-table" }, center, notes);
  const seats = seatPlates(T, table);
  const hand = handPanel(T, { onPlay: commit, onChange: () => render(), onPreview: () => grid.draw() });
  const watchNote = el("p", { class: "tf-watch muted", hidden: !T.spectator }, t("trick-tac-foe.spectating"));
  const discard = discardPanel(T);
  const legend = el("p", { class: "tf-legend muted small" }, t("trick-tac-foe.legend"));
  const summary = el("p", { class: "visually-hidden", id: `${T.uid}-summary` });
  const container = el("div", { class: "tf", hidden: true, "aria-describedby": `${T.uid}-summary` },
    el("h2", { class: "visually-hidden" }, t("trick-tac-foe.title")),
    // two groups for the one-screen table layout (app.css body.in-table); elsewhere they do not box
    el("div", { class: "tf-main table-main" }, bar, status, watchNote, table),
    el("div", { class: "tf-side table-side" }, hand.panel, discard.panel, legend), summary);
  root.append(container);
  const lessonHint = createHint(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  function render() {
    const view = T.view;
    if (!view) return;
    drawBar(T, bar);
    status.textContent = statusLine(T);
    status.classList.toggle("is-you", T.canCommit() || T.canWild());
    seats.draw();
    grid.draw();
    records.draw();
    hand.draw();
    discard.draw();
    summary.textContent = summaryLine(T);
    grid.focusWild(container);
    container.classList.toggle("tf-4p", view.players === 4);
    container.classList.toggle("tf-2p", view.players !== 4);
    table.classList.toggle("tf-4p", view.players === 4);
  }

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    update(msg) {
      const before = T.view;
      if (!msg.view || !Array.isArray(msg.view.board)) return;
      T.lastMsg = msg;
      T.view = msg.view;
      const view = T.view;
      const events = Array.isArray(msg.events) ? msg.events : [];
      // A message that reveals or changes the board cuts a running timeline short (its final board is the
      // view we just got) and plays its own; a mere commit lets the running one finish.
      const playable = events.some((e) => BOARD_EVENTS.includes(e.kind));
      if (playable || !before) timeline.stop();
      if (T.preview && !(view.hand || []).includes(T.preview)) T.preview = null;
      render();
      if (before && playable) timeline.play(events, before);
    },
    destroy() {
      lessonHint.clear();
      timeline.destroy();
      container.remove();
    },
    /** Optional hook of the lesson page: ring the card to play and the Play button, or the wild 10's cell. */
    hint: lessonHint.hook((action) => {
      if (action.type === "wild") return [grid.gridSvg.querySelector(`.tf-cell[data-number="${Number(action.number)}"]`)];
      const card = [...hand.panel.querySelectorAll(".tf-hand-card")].find((b) => b.dataset.card === action.card);
      // A step already taken drops out: the ring moves on to what is left to do.
      return [T.selected === action.card ? null : card, hand.panel.querySelector(".tf-play-btn")];
    }),
    /** Optional hook used by the room page: the team token beside each seat. */
    seatBadge(seat) {
      const team = ctx.room?.seats?.[seat]?.team;
      const colour = T.view?.seats?.[seat]?.colour || (team === 1 ? "black" : team === 0 ? "red" : seat === 0 ? "black" : "red");
      const wrap = el("span", { class: "tf-badge-wrap", title: colourName(colour) });
      wrap.append(tokenBadge(colour, 26));
      return wrap;
    },
    ...T.logHooks,
  };
}
