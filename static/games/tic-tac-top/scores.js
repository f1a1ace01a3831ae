// After a turn and at the end: the scoring line by line (parts A, C, B, D), the standings, the previous
// turns' table and, at the end, the last turn's grids.

import { h as el } from "../../js/dom.js";
import { phrase } from "../../js/i18n.js";
import { logContext } from "../../js/log.js";
import { RANK_SIZE, ROW_STEP_MS } from "./bits.js";
import { controls } from "./controls.js";
import { allGrids } from "./grid-card.js";
import { themeTitle } from "./panels.js";
import { baseSig, nameOf, seatChip } from "./seats.js";

function scoringBlock(g, animate) {
  const { view, t } = g;
  const scoring = view.scoring;
  if (!scoring) return null;
  const turn = view.history?.[view.history.length - 1]?.turn ?? view.turn;
  return g.keyed.part("scoring", `${baseSig(g)}|${view.history?.length}`, () => {
    const rows = scoring.rows || [];
    const list = el("ol", { class: "ttt-score-rows" }, rows.map((row, i) =>
      el("li", { class: ["ttt-score-row", animate && "is-staged"], style: { "--d": `${i * ROW_STEP_MS}ms` } },
        el("span", { class: `ttt-part part-${row.part}`, title: t(`tic-tac-top.part_${row.part}`) }, row.part),
        seatChip(g, row.seat),
        el("span", { class: "ttt-score-text" }, phrase(row.reason, logContext(g.ctx.room))),
        el("span", { class: ["ttt-score-pts", row.points > 0 && "is-plus"] }, row.points > 0 ? `+${row.points}` : "0"))));
    const legend = el("dl", { class: "ttt-legend" }, ["A", "B", "C", "D"].flatMap((p) => [el("dt", { class: `ttt-part part-${p}` }, p), el("dd", {}, t(`tic-tac-top.part_${p}`))]));
    return el("section", { class: "ttt-panel ttt-scoring", "data-follow-target": "" },
      el("h3", { class: "ttt-panel-title" }, t("tic-tac-top.score_title", { turn })),
      list,
      el("details", { class: "ttt-legend-box" }, el("summary", {}, "A · B · C · D"), legend));
  });
}

function standingsBlock(g, animate, final) {
  const { view, t } = g;
  return g.keyed.part(`standings-${final}`, `${baseSig(g)}|${view.history?.length}|${JSON.stringify(view.standings)}`, () => {
    const points = view.scoring?.points || [];
    const winners = new Set(view.winners || []);
    const delay = animate ? (view.scoring?.rows?.length ?? 0) * ROW_STEP_MS : 0;
    const best = Math.max(1, ...(view.scores || [0]));
    return el("section", { class: ["ttt-panel", "ttt-standings", final && "is-final", animate && "is-staged"], style: { "--d": `${delay}ms` } },
      el("h3", { class: "ttt-panel-title" }, final ? `♛ ${t("tic-tac-top.final_title")}` : t("tic-tac-top.standings")),
      el("ol", { class: "ttt-standing-list" }, (view.standings || []).map((row) =>
        el("li", { class: ["ttt-standing", `ttt-c${row.seat % 7}`, winners.has(row.seat) && "is-winner", row.seat === g.mySeat && "is-me"], style: { "--share": String((view.scores?.[row.seat] ?? 0) / best) } },
          el("span", { class: "ttt-standing-rank" }, String(row.rank + 1)),
          seatChip(g, row.seat),
          winners.has(row.seat) ? el("span", { class: "ttt-winner-tag" }, t("tic-tac-top.winner")) : null,
          points[row.seat] ? el("span", { class: "ttt-standing-delta" }, `+${points[row.seat]}`) : null,
          el("span", { class: "ttt-standing-score" }, String(row.score)),
          el("span", { class: "ttt-standing-bar", "aria-hidden": "true" })))));
  });
}

function historyBlock(g, open) {
  const { view, t } = g;
  const history = view.history || [];
  if (!history.length) return null;
  return g.keyed.part("history", `${baseSig(g)}|${history.length}|${open}`, () => {
    const n = view.players;
    return el("details", { class: "ttt-history", open: open || null },
      el("summary", {}, `${t("tic-tac-top.history")} (${history.length})`),
      // it may scroll sideways, so it takes the keyboard focus (axe scrollable-region-focusable)
      el("div", { class: "ttt-table-wrap", tabindex: "0", role: "region", "aria-label": t("tic-tac-top.history") },
        el("table", { class: "ttt-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("tic-tac-top.history_turn")), el("th", { scope: "col" }, t("tic-tac-top.history_theme")),
            Array.from({ length: n }, (_, s) => el("th", { scope: "col", class: "num" }, seatChip(g, s))))),
          el("tbody", {}, history.map((h) => el("tr", {},
            el("th", { scope: "row" }, String(h.turn)),
            el("td", {}, el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ", nameOf(g, h.leader), " · ", h.theme),
            (h.points || []).map((p, s) => el("td", { class: ["num", s === h.leader && "is-leader"] }, String(p)))))))));
  });
}

export function renderScore(g, animate) {
  return [
    themeTitle(g),
    g.keyed.box("score-stage", "div", { class: "ttt-score-stage" }, [scoringBlock(g, animate), standingsBlock(g, animate, false)]),
    controls(g, g.t("tic-tac-top.next_turn")),
    ...allGrids(g, RANK_SIZE),
    historyBlock(g, false),
  ];
}

export function renderOver(g, animate) {
  const { keyed } = g;
  return [
    keyed.box("score-stage", "div", { class: "ttt-score-stage" }, [standingsBlock(g, false, true), scoringBlock(g, animate)]),
    // open under the result, but at the table, where the room's result fills the screen already
    historyBlock(g, !document.body.classList.contains("in-table")),
    g.view.grids
      ? keyed.box("over-grids", "details", { class: "ttt-history" }, [keyed.part("over-grids-summary", baseSig(g), () => el("summary", {}, g.t("tic-tac-top.last_grids"))), ...allGrids(g, RANK_SIZE)])
      : null,
  ];
}
