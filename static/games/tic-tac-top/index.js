// Tic Tac Top renderer (view and actions: docs/games/tic-tac-top.md; contract: docs/protocol.md "Browser renderers").
//
// A party game on one shared screen plus phones. The same module draws every seat:
// - the Leader: two theme cards to pick from, then a tap-to-rank list of 7 words (reorder, undo, submit),
//   then the reveal with their ranking and a "Next word" button;
// - a player: the 12 words as chips and a 3×3 grid filled by tapping a word then a cell (or a cell then a
//   word; tapping a filled cell then another moves or swaps), then their grid circling in during the reveal;
// - a seat-less viewer (ctx.seat === null, usually the host's laptop or TV): the "TV view", big type, the
//   theme, who is still writing, the 5-second countdown, each announced word in large print, every grid
//   with its circles and lines, "First line!", the scoring line by line (A, C, B, D) and the standings.
// It decides no rule: the view says what is possible, the server is the judge.
// This file wires the phases' modules together: mount, render, update, destroy and the room page's hooks.

import { ensureStylesheet, h as el } from "../../js/dom.js";
import { createHint } from "../../js/learn-hint.js";
import { seatBadge, repaintBadges } from "./badges.js";
import { reducedMotion } from "./bits.js";
import { describe, onNewState } from "./callouts.js";
import { tickClocks } from "./clocks.js";
import { reconcile } from "../../js/keyed.js";
import { renderHead } from "./panels.js";
import { renderLeaderWrite } from "./ranking.js";
import { renderReveal } from "./reveal.js";
import { renderOver, renderScore } from "./scores.js";
import { isLeader } from "./seats.js";
import { createState } from "./state.js";
import { renderChoose } from "./theme.js";
import { markTvPage, renderSpectatorWrite } from "./tv.js";
import { renderPlayerWrite } from "./writing.js";

// The game's styles sit beside its modules, in its folder.
const CSS_HREF = new URL("./style.css", import.meta.url).pathname;

/** The current phase's sections, in order. */
function phaseParts(g) {
  const { view, msg } = g;
  const phase = view.phase;
  if (phase === "choose") return renderChoose(g);
  if (phase === "write") return isLeader(g) ? renderLeaderWrite(g) : g.mySeat === null ? renderSpectatorWrite(g) : renderPlayerWrite(g);
  if (phase === "reveal") return renderReveal(g, g.freshFrom);
  const key = `${g.ctx.room?.game_number ?? ""}|${view.history?.length ?? 0}`;
  const animate = g.scoreAnimatedFor !== key && !reducedMotion() && (msg?.events || []).some((e) => e.kind === "turn_scored");
  g.scoreAnimatedFor = key;
  return phase === "score" ? renderScore(g, animate) : renderOver(g, animate);
}

export function mount(root, ctx) {
  const g = createState(ctx);
  const { uid } = g;

  const live = el("p", { class: "visually-hidden", "aria-live": "polite", id: `${uid}-live` });
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary` });
  const head = el("header", { class: "ttt-head" });
  const main = el("div", { class: "ttt-main" });
  const banner = el("div", { class: "ttt-banner", role: "status", hidden: true });
  const container = el("section", { class: ["ttt", g.tv && "ttt-tv"], hidden: true, "aria-describedby": `${uid}-summary` }, head, banner, main, summary, live);
  g.live = live;
  g.container = container;
  root.append(container);
  const lessonHint = createHint(container);
  if (g.tv) markTvPage(true);
  ensureStylesheet(CSS_HREF).then(() => {
    if (!g.destroyed) container.hidden = false;
  });

  function render() {
    const { view } = g;
    if (!view || g.destroyed) return;
    const active = document.activeElement;
    const focusKey = container.contains(active) ? active?.dataset?.key : null;
    g.keyed.begin();
    renderHead(g, head);
    container.dataset.phase = view.phase;
    // The room page brings a new phase into view and gives it focus (game.js followPhase).
    main.dataset.follow = `${ctx.room?.game_number ?? ""}|${view.turn ?? ""}|${view.phase}`;
    reconcile(main, phaseParts(g));
    g.keyed.sweep();
    summary.textContent = describe(g);
    tickClocks(g);
    if (focusKey && !container.contains(document.activeElement)) {
      const again = main.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
    }
  }
  g.render = render;
  const clockTimer = setInterval(() => tickClocks(g), 200);

  return {
    update(stateMsg) {
      if (!stateMsg || !stateMsg.view || stateMsg.view.game !== "tic-tac-top") return;
      const prevView = g.view;
      g.prevView = prevView;
      g.msg = stateMsg;
      const view = (g.view = stateMsg.view);
      const events = Array.isArray(stateMsg.events) ? stateMsg.events : [];
      // What is new: the same turn continues from the previous count; a live move into a new turn
      // animates from 0; a first paint or a full sync animates nothing.
      const sameTurn = prevView && prevView.turn === view.turn && prevView.phase !== "over";
      if (sameTurn) g.freshFrom = (prevView.announced || []).length;
      else g.freshFrom = events.length && prevView ? 0 : (view.announced || []).length;
      onNewState(g, banner, events);
      render();
      g.freshFrom = (view.announced || []).length; // later local re-renders replay nothing
      repaintBadges(g);
    },
    destroy() {
      lessonHint.clear();
      g.destroyed = true;
      clearInterval(clockTimer);
      clearTimeout(g.draftTimer);
      clearTimeout(g.bannerTimer);
      markTvPage(false);
      container.remove();
    },
    /** Optional hook of the room page: the badge beside each seat in the players strip (the Leader's crown). */
    seatBadge: (seat) => seatBadge(g, seat),
    /** Optional hook of the lesson page: ring the word and the cell to write it in, the ranking's changes
     * and Submit, or Next. A step already taken drops out: the ring moves on to what is left to do. */
    hint: lessonHint.hook((action) => {
      const key = (k) => main.querySelector(`[data-key="${CSS.escape(k)}"]`);
      if (action.type === "place") {
        const chosen = g.sel?.kind === "word" && g.sel.word === action.word;
        const cellFirst = g.sel?.kind === "cell" && g.sel.cell === action.cell;
        return [chosen ? null : key(`chip-${action.word}`), cellFirst ? null : main.querySelector(`.ttt-own [data-cell="${Number(action.cell)}"]`)];
      }
      if (action.type === "rank") {
        const words = Array.isArray(action.words) ? action.words : [];
        const out = g.ranking.filter((w) => !words.includes(w)).map((w) => key(`rm-${w}`));
        const missing = words.filter((w) => !g.ranking.includes(w)).map((w) => key(`chip-${w}`));
        return [...out, ...missing, key("submit")];
      }
      return [key(action.type)];
    }),
  };
}
