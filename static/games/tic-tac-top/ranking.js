// The Leader's writing phase: a tap-to-rank list of 7 of the theme's words (reorder by arrows or by
// dragging a number, undo, clear, submit), then their ranking as submitted.

import { h as el } from "../../js/dom.js";
import { DRAFT_DEBOUNCE_MS, RANK_SIZE, reducedMotion } from "./bits.js";
import { countdownBlock, themeTitle, writersStrip } from "./panels.js";
import { baseSig, canAct, isLeader } from "./seats.js";
import { send } from "./state.js";

const rankingOpen = (g) => g.view?.phase === "write" && isLeader(g) && !g.view.ranked && canAct(g);

/** A new turn (or game) starts the local ranking again, from the draft the server kept if any. */
function syncRanking(g) {
  const key = `${g.ctx.room?.game_number ?? ""}|${g.view.turn}`;
  if (key !== g.rankKey) {
    g.rankKey = key;
    g.ranking = Array.isArray(g.view.draft) ? g.view.draft.slice(0, RANK_SIZE) : [];
    g.lastDraftSent = JSON.stringify(g.ranking);
    g.submitting = false;
  }
}

/** The draft is private and only matters for the 90-second timer and a reload: saved after a pause. */
function rankingChanged(g) {
  clearTimeout(g.draftTimer);
  g.draftTimer = setTimeout(() => {
    if (!rankingOpen(g) || g.submitting) return;
    const body = JSON.stringify(g.ranking);
    if (body === g.lastDraftSent) return;
    g.lastDraftSent = body;
    send(g, { type: "draft", words: g.ranking.slice() }).catch(() => {});
  }, DRAFT_DEBOUNCE_MS);
  g.render();
  g.rankAdded = null;
}

function toggleRank(g, word) {
  if (!rankingOpen(g) || g.submitting) return;
  const at = g.ranking.indexOf(word);
  if (at >= 0) g.ranking.splice(at, 1);
  else if (g.ranking.length < RANK_SIZE) {
    g.ranking.push(word);
    g.rankAdded = word;
  } else return;
  rankingChanged(g);
}

function moveRank(g, i, delta) {
  const j = i + delta;
  if (j < 0 || j >= g.ranking.length) return;
  [g.ranking[i], g.ranking[j]] = [g.ranking[j], g.ranking[i]];
  rankingChanged(g);
}

/** Drag a ranked word by its number to another place in the list (mouse, touch or pen). */
function enableDrag(g, list) {
  let from = null;
  let over = null;
  const itemAt = (event) => document.elementFromPoint(event.clientX, event.clientY)?.closest?.(".ttt-rank-item[data-index]");
  list.addEventListener("pointerdown", (event) => {
    const grip = event.target.closest?.(".ttt-grip");
    const item = grip?.closest(".ttt-rank-item[data-index]");
    if (!item) return;
    event.preventDefault();
    from = Number(item.dataset.index);
    item.classList.add("is-dragging");
    list.setPointerCapture?.(event.pointerId);
  });
  list.addEventListener("pointermove", (event) => {
    if (from === null) return;
    const item = itemAt(event);
    for (const li of list.querySelectorAll(".is-drop")) li.classList.remove("is-drop");
    over = item && list.contains(item) ? Number(item.dataset.index) : null;
    if (over !== null && over !== from) item.classList.add("is-drop");
  });
  const finish = () => {
    if (from !== null && over !== null && over !== from && rankingOpen(g)) {
      const [word] = g.ranking.splice(from, 1);
      g.ranking.splice(over, 0, word);
      from = null;
      over = null;
      rankingChanged(g);
      return;
    }
    from = null;
    over = null;
    for (const li of list.querySelectorAll(".is-drop, .is-dragging")) li.classList.remove("is-drop", "is-dragging");
  };
  list.addEventListener("pointerup", finish);
  list.addEventListener("pointercancel", () => {
    over = null;
    finish();
  });
}

function submitRanking(g) {
  if (!rankingOpen(g) || g.ranking.length !== RANK_SIZE || g.submitting) return;
  clearTimeout(g.draftTimer);
  g.submitting = true;
  g.render();
  send(g, { type: "rank", words: g.ranking.slice() })
    .catch(() => {
      g.submitting = false;
    })
    .finally(g.render);
}

/** The 12 words as chips: a tap ranks a word, or takes a ranked one out. */
function rankChips(g, open) {
  const { ranking, submitting } = g;
  return el("div", { class: "ttt-chips", role: "group", "aria-label": g.t("tic-tac-top.words") },
    g.view.theme.words.map((w) => {
      const at = ranking.indexOf(w);
      return el("button", {
        type: "button",
        class: ["ttt-chip", at >= 0 && "is-ranked"],
        "aria-pressed": at >= 0 ? "true" : "false",
        "aria-label": at >= 0 ? `${w}, #${at + 1}` : w,
        "data-key": `chip-${w}`,
        disabled: !open || submitting || (at < 0 && ranking.length >= RANK_SIZE),
        onclick: () => toggleRank(g, w),
      }, at >= 0 ? el("span", { class: "ttt-chip-badge", "aria-hidden": "true" }, String(at + 1)) : null, el("span", { class: "ttt-chip-text" }, w));
    }));
}

/** The 7 places, filled in order, each with its up / down / remove tools. */
function rankSlots(g, open) {
  const { t, ranking, submitting } = g;
  const slots = el("ol", { class: "ttt-ranklist", "aria-label": t("tic-tac-top.your_ranking") },
    Array.from({ length: RANK_SIZE }, (_, i) => {
      const w = ranking[i];
      if (!w) {
        return el("li", { class: ["ttt-rank-item", "is-empty", i === ranking.length && "is-next"] },
          el("span", { class: "ttt-rank-n" }, String(i + 1)),
          el("span", { class: "ttt-rank-word muted" }, t("tic-tac-top.rank_slot_empty", { n: i + 1 })));
      }
      return el("li", { class: ["ttt-rank-item", w === g.rankAdded && !reducedMotion() && "is-new"], "data-word": w, "data-index": i },
        el("span", { class: "ttt-rank-n ttt-grip", title: t("tic-tac-top.drag_hint") }, String(i + 1)),
        el("span", { class: "ttt-rank-word" }, w),
        el("span", { class: "ttt-rank-tools" },
          el("button", { type: "button", class: "ttt-icon-btn", "data-key": `up-${w}`, disabled: i === 0 || !open || submitting, "aria-label": t("tic-tac-top.rank_up", { word: w }), onclick: () => moveRank(g, i, -1) }, "↑"),
          el("button", { type: "button", class: "ttt-icon-btn", "data-key": `down-${w}`, disabled: i === ranking.length - 1 || !open || submitting, "aria-label": t("tic-tac-top.rank_down", { word: w }), onclick: () => moveRank(g, i, 1) }, "↓"),
          el("button", { type: "button", class: "ttt-icon-btn is-remove", "data-key": `rm-${w}`, disabled: !open || submitting, "aria-label": t("tic-tac-top.rank_remove", { word: w }), onclick: () => toggleRank(g, w) }, "×")));
    }));
  if (open && !submitting) enableDrag(g, slots);
  return slots;
}

function ranker(g, open) {
  const { t, ranking, submitting } = g;
  const need = RANK_SIZE - ranking.length;
  return el("section", { class: "ttt-panel ttt-ranker" },
    el("h3", { class: "ttt-panel-title" }, t("tic-tac-top.rank_title"), el("span", { class: "ttt-count" }, `${ranking.length}/${RANK_SIZE}`)),
    el("p", { class: "muted small" }, t("tic-tac-top.rank_hint")),
    el("div", { class: "ttt-ranker-body" }, rankChips(g, open), rankSlots(g, open)),
    el("div", { class: "ttt-actions" },
      el("button", { type: "button", class: "btn btn-secondary", "data-key": "undo", disabled: !ranking.length || !open || submitting, onclick: () => { g.ranking.pop(); rankingChanged(g); } }, `↶ ${t("tic-tac-top.undo")}`),
      el("button", { type: "button", class: "btn btn-ghost", "data-key": "clear", disabled: !ranking.length || !open || submitting, onclick: () => { g.ranking = []; rankingChanged(g); } }, t("tic-tac-top.clear")),
      el("button", { type: "button", class: "btn btn-primary btn-lg ttt-submit", "data-key": "submit", disabled: need > 0 || !open || submitting, "aria-busy": submitting ? "true" : null, onclick: () => submitRanking(g) },
        need > 0 ? t("tic-tac-top.submit_need", { n: need }) : `✓ ${t("tic-tac-top.submit")}`)));
}

export function renderLeaderWrite(g) {
  syncRanking(g);
  const { view, t, keyed } = g;
  if (view.ranked) {
    const final = view.ranking || g.ranking;
    return [
      themeTitle(g),
      countdownBlock(g),
      keyed.part("ranked", `${baseSig(g)}|${JSON.stringify(final)}`, () =>
        el("section", { class: "ttt-panel" },
          el("h3", { class: "ttt-panel-title" }, `✓ ${t("tic-tac-top.ranked_title")}`),
          el("p", { class: "muted" }, t("tic-tac-top.ranked_hint")),
          el("ol", { class: "ttt-ranklist is-final" }, final.map((w, i) => el("li", { class: "ttt-rank-item" }, el("span", { class: "ttt-rank-n" }, String(i + 1)), el("span", { class: "ttt-rank-word" }, w)))))),
      writersStrip(g),
    ];
  }
  const open = rankingOpen(g);
  const sig = `${baseSig(g)}|${JSON.stringify([g.ranking, open, g.submitting, view.theme.words])}`;
  return [themeTitle(g), countdownBlock(g), keyed.part("ranker", sig, () => ranker(g, open)), writersStrip(g)];
}
