// The top bar (team scores, round and trick progress, reveal order), the status line and the screen-reader
// summary of the table.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { logContext, summaryText } from "../../js/log.js";
import { cardText } from "../../js/table/cards.js";
import { tokenBadge } from "./art.js";
import { displayGrid } from "./grid.js";
import { colourName } from "./state.js";

/** Draw the bar of `T` into `bar`. */
export function drawBar(T, bar) {
  const view = T.view;
  const teams = view.teams || [];
  const scoreChip = (team) => {
    const lead = teams.length === 2 && team.score > teams[1 - team.team].score;
    const members = team.seats.map((s) => T.nameOf(s)).join(" + ");
    const mine = view.your_team === team.team;
    const teamName = colourName(team.colour);
    return el("div", { class: ["tf-score", `tf-team-${team.colour}`, lead && "is-leading", mine && "is-mine"], role: "group", "aria-label": `${teamName}: ${team.score} (${members})` },
      tokenBadge(team.colour, 26),
      el("span", { class: "tf-score-text", "aria-hidden": "true" }, el("span", { class: "tf-score-name" }, teamName), el("span", { class: "tf-score-members" }, members)),
      el("span", { class: "tf-score-num", "aria-hidden": "true" }, String(team.score)));
  };
  const over = T.over();
  const perRound = t(view.players === 2 ? "trick-tac-foe.trick" : "trick-tac-foe.trick_set", { n: view.trick, total: view.tricks_in_round });
  const dots = el("span", { class: "tf-dots", "aria-hidden": "true" },
    Array.from({ length: view.tricks_in_round || 0 }, (_, i) => el("span", { class: ["tf-dot", i + 1 < view.trick && "is-done", i + 1 === view.trick && !over && "is-now"] })));
  const progress = el("div", { class: "tf-progress" },
    el("span", { class: "tf-progress-round" }, t("trick-tac-foe.round", { n: view.round, total: view.rounds })),
    el("span", { class: "tf-progress-trick" }, perRound), dots);
  const parts = [teams[0] ? scoreChip(teams[0]) : null, progress, teams[1] ? scoreChip(teams[1]) : null];
  const sig = JSON.stringify([teams, view.round, view.trick, view.order, view.step, view.start_seat, over, T.nameOf(0), T.nameOf(1), T.nameOf(2), T.nameOf(3)]);
  if (bar.dataset.sig === sig) return;
  bar.dataset.sig = sig;
  bar.replaceChildren(...parts);
  if (view.players === 4 && (view.order || []).length === 2 && !over) {
    const pairText = (p) => p.map((s) => T.seatWord(s)).join(` ${t("trick-tac-foe.vs")} `);
    const title = t("trick-tac-foe.reveal_order");
    bar.append(el("div", { class: "tf-order", role: "group", "aria-label": `${title}: 1. ${pairText(view.order[0])}, 2. ${pairText(view.order[1])}` },
      el("span", { class: "tf-order-title" }, title),
      el("span", { class: ["tf-order-pair", view.step === 0 && "is-now"] }, "① ", pairText(view.order[0])),
      el("span", { class: ["tf-order-pair", view.step === 1 && "is-now"] }, "② ", pairText(view.order[1]))));
  }
  if ((view.history || []).length) {
    bar.append(el("div", { class: "tf-history muted small" }, view.history.map((h) => el("span", {}, t("trick-tac-foe.history", { n: h.round, red: h.scores[0], black: h.scores[1] })))));
  }
}

/** The status line: whose move it is and what it is. */
export function statusLine(T) {
  const view = T.view;
  if (T.over()) {
    const summary = T.lastMsg?.outcome?.summary || view.outcome?.summary;
    return t("trick-tac-foe.status_over", { summary: summaryText(summary, logContext(T.ctx.room, T.logHooks)) });
  }
  if (T.busy()) return t("trick-tac-foe.status_busy");
  if (view.phase === "wild") {
    if (T.canWild()) return t("trick-tac-foe.status_wild_me");
    return t("trick-tac-foe.status_wild_other", { name: T.whoOf(view.wild_seat) });
  }
  const names = [...T.toAct()].sort().map((s) => T.nameOf(s)).join(t("trick-tac-foe.and"));
  if (T.canCommit()) {
    if (view.players === 4 && view.first_pair) return t("trick-tac-foe.status_choose_4p", { pair: view.first_pair.map((s) => T.seatWord(s)).join("–") });
    return t("trick-tac-foe.status_choose");
  }
  if (!T.spectator && view.your_card) return t("trick-tac-foe.status_wait", { names });
  return t("trick-tac-foe.status_watch", { names });
}

/** The table in one paragraph, for screen readers: scores, the grid from your side, your hand. */
export function summaryLine(T) {
  const view = T.view;
  const bits = [t("trick-tac-foe.summary_scores", { red: view.scores?.[0] ?? 0, black: view.scores?.[1] ?? 0 })];
  const grid = displayGrid(T);
  const cellsText = (view.board || []).map((b) => {
    const tok = grid[b.cell[0]][b.cell[1]];
    return `${b.number} ${tok ? colourName(tok) : t("trick-tac-foe.cell_empty")}`;
  }).join(", ");
  bits.push(t("trick-tac-foe.summary_grid", { cells: cellsText }));
  if (!T.spectator && (view.hand || []).length) bits.push(t("trick-tac-foe.summary_hand", { cards: view.hand.map(cardText).join(", ") }));
  return bits.join(" ");
}
