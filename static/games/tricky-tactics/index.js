// Tricky Tactics renderer (view and actions: docs/games/tricky-tactics.md; contract: docs/protocol.md
// "Browser renderers").
//
// Drawn from the view alone: the players with their cubes (colour AND pattern AND a label), the trick on a
// felt table laid out by seat, the automa's Reveal Row and its one-line reasons, your hand as real playing
// cards (only the view's `playable` cards can be played), the map of four suit Areas with K, Q and J
// Locations, the Action chooser (only the view's `pending_action` targets), round scoring Location by
// Location and the final standings with tie-breaks. It decides no rule: the server is the judge. This module
// wires the pieces: mount, update, destroy and the room page's hooks.

import { ensureStylesheet, h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { createHint } from "../../js/learn-hint.js";
import { drawAction } from "./action.js";
import { cubeLabel } from "./art.js";
import { drawAutoma } from "./automa.js";
import { drawBanner, drawBar, summaryLine } from "./bar.js";
import { eventFeed } from "./feed.js";
import { drawFinal } from "./final.js";
import { handPanel } from "./hand.js";
import { drawMap } from "./map.js";
import { drawPlayers } from "./players.js";
import { drawScoring } from "./scoring.js";
import { TableState } from "./state.js";
import { finishedTrick, trickTable } from "./trick.js";

// The game's styles sit beside its modules, in its folder.
const CSS_HREF = new URL("./style.css", import.meta.url).pathname;
const TRICK_HOLD_MS = 1700;

export function mount(root, ctx) {
  const T = new TableState(ctx);
  const uid = T.uid;
  let holdTimer = 0;

  function submit(action) {
    T.gate.send(ctx, action, render);
    render();
  }

  // ---- static structure ----------------------------------------------------------------------
  const bar = el("div", { class: "tk-bar" });
  const banner = el("div", { class: "tk-banner", hidden: true });
  const players = el("ol", { class: "tk-players", "aria-label": t("tricky-tactics.players") });
  const table = el("section", { class: "tk-table", "aria-labelledby": `${uid}-table-title` });
  const trick = trickTable(T, table);
  const automaPanel = el("section", { class: "tk-automa", hidden: true, "aria-labelledby": `${uid}-automa-title` });
  const feed = eventFeed(T);
  const side = el("div", { class: "tk-side" }, automaPanel, feed.panel);
  const playArea = el("div", { class: "tk-play" }, table, side);
  const actionPanel = el("section", { class: "tk-action", hidden: true, "aria-labelledby": `${uid}-action-title` });
  const hand = handPanel(T, submit);
  const mapPanel = el("section", { class: "tk-map-panel", "aria-labelledby": `${uid}-map-title` });
  const finalPanel = el("section", { class: "tk-final", hidden: true, "aria-labelledby": `${uid}-final-title` });
  const scoringPanel = el("details", { class: "tk-scoring", hidden: true });
  const byRound = el("div", { class: "tk-byround" });
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary`, "aria-live": "off" });
  const moreToggle = el("button", { type: "button", class: "btn btn-secondary btn-sm tk-more-toggle", "aria-expanded": "false", "aria-controls": `${uid}-back` }, t("tricky-tactics.more_toggle"));
  moreToggle.addEventListener("click", () => {
    const open = moreToggle.getAttribute("aria-expanded") !== "true";
    moreToggle.setAttribute("aria-expanded", String(open));
    container.classList.toggle("is-back-open", open);
  });
  const container = el(
    "div",
    { class: "tk", hidden: true, "aria-describedby": `${uid}-summary` },
    T.art.buildDefs(),
    el("h2", { class: "visually-hidden" }, t("tricky-tactics.title")),
    // Two groups for the one-screen table layout (app.css body.in-table; elsewhere they do not box): what
    // the move needs, and the map and scores, which at the table sit in a column or behind moreToggle.
    el("div", { class: "tk-front table-main" }, el("div", { class: "tk-top" }, bar, moreToggle), finalPanel, banner, players, playArea, actionPanel, hand.panel),
    // it scrolls on its own at the table, so it takes the keyboard focus (axe scrollable-region-focusable)
    el("div", { class: "tk-back table-side", id: `${uid}-back`, tabindex: "0", role: "region", "aria-label": t("tricky-tactics.more_toggle") }, mapPanel, scoringPanel, byRound),
    summary,
  );
  root.append(container);
  const lessonHint = createHint(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  const highlight = (id, on) => mapPanel.querySelector(`[data-loc="${id}"]`)?.classList.toggle("is-hover", on);

  function render() {
    if (!T.view) return;
    const active = document.activeElement;
    const focusKey = container.contains(active) ? active?.dataset?.focus : null;
    drawBar(T, bar);
    drawFinal(T, finalPanel);
    drawBanner(T, banner, scoringPanel);
    drawPlayers(T, players);
    trick.draw();
    drawAutoma(T, automaPanel);
    drawAction(T, actionPanel, { submit, render, highlight });
    hand.draw();
    drawMap(T, mapPanel, submit);
    drawScoring(T, scoringPanel, byRound);
    feed.draw();
    summary.textContent = summaryLine(T);
    container.classList.toggle("is-busy", T.gate.pending);
    if (focusKey) {
      const again = container.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
      else if (focusKey.startsWith("card-") || focusKey.startsWith("target-") || focusKey.startsWith("map")) {
        const next = container.querySelector(".tk-hand-card.is-playable") || container.querySelector(".tk-target") || container.querySelector(".tk-hand-card[tabindex='0']");
        next?.focus({ preventScroll: true });
      }
    }
  }

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    // The final table (final.js) lists every place, the automa's too: the room's result panel leaves out
    // its own list of seats and the game's heading is not shown twice (tricky-tactics.css).
    ownsStandings: true,
    update(msg) {
      if (!msg || !msg.view || !Array.isArray(msg.view.players)) return;
      T.prevView = T.view;
      T.lastMsg = msg;
      T.view = msg.view;
      const view = T.view;
      const events = Array.isArray(msg.events) ? msg.events : [];
      feed.absorb(events);
      // A trick that finished in this update but is already off the table: keep it visible a moment.
      // (The trick comes from this update's events, or from the previous view when only its Action is new.)
      const done = finishedTrick(T, events);
      const tableShowsIt = view.phase === "action" || ((view.trick || []).length === 0 && view.last_trick);
      if (done && !T.firstUpdate && !tableShowsIt && view.phase !== "over") {
        T.hold = done;
        clearTimeout(holdTimer);
        holdTimer = setTimeout(() => {
          T.hold = null;
          render();
        }, TRICK_HOLD_MS);
      }
      if (view.phase === "over") {
        T.hold = null;
        clearTimeout(holdTimer);
      }
      render();
      T.firstUpdate = false;
    },
    destroy() {
      lessonHint.clear();
      clearTimeout(holdTimer);
      container.remove();
    },
    /** Optional hook of the lesson page: ring the card to play, or the Location's button of an Action. */
    hint: lessonHint.hook((action) => {
      const same = (el, name, value) => el.dataset[name] === String(value);
      if (action.type === "play") return [[...hand.panel.querySelectorAll(".tk-hand-card")].find((b) => same(b, "card", action.card))];
      const mode = actionPanel.querySelector(`.tk-mode[data-mode="${action.type}"]`);
      const target = [...actionPanel.querySelectorAll(".tk-target")].find((b) => same(b, "type", action.type) && same(b, "location", action.location) && (action.owner === undefined || same(b, "owner", action.owner)));
      // A step already taken drops out: the ring moves on to what is left to do.
      return [T.mode === action.type ? null : mode, target];
    }),
    /** Optional hook used by the room page: the cube shown beside each seat. */
    seatBadge(seat) {
      const wrap = el("span", { class: "tk-badge-wrap", title: cubeLabel(seat) });
      wrap.append(T.art.cube(seat, "tk-cube-lg"));
      // The badge lives outside the renderer's container: it needs the pattern defs, so inline a copy.
      return wrap;
    },
    ...T.logHooks,
  };
}
