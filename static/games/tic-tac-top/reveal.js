// The reveal: each announced word in large print with the 7 steps, the pacing controls, the Leader's own
// ranking (ticked off as it is read out) and every grid circling in.

import { h as el } from "../../js/dom.js";
import { RANK_SIZE, reducedMotion, syllableBreaks } from "./bits.js";
import { controls } from "./controls.js";
import { allGrids } from "./grid-card.js";
import { themeTitle } from "./panels.js";
import { baseSig, isLeader } from "./seats.js";

function announceCard(g, fresh) {
  const { t } = g;
  const words = g.view.announced || [];
  const k = words.length;
  return g.keyed.part("announce", `${baseSig(g)}|${words.join("|")}`, () => {
    const steps = el("ol", { class: "ttt-steps", "aria-label": t("tic-tac-top.ranking") },
      Array.from({ length: RANK_SIZE }, (_, i) => el("li", { class: ["ttt-step", i < k && "is-done", i === k - 1 && "is-current"] },
        el("span", { class: "ttt-step-n" }, String(i + 1)),
        el("span", { class: "ttt-step-word" }, words[i] ?? ""))));
    const body = k === 0
      ? el("p", { class: "ttt-announce-wait" }, t("tic-tac-top.get_ready"))
      : el("p", { class: ["ttt-announce-word", k > fresh && !reducedMotion() && "is-new"] }, syllableBreaks(words[k - 1]));
    return el("section", { class: "ttt-announce", "aria-label": t("tic-tac-top.reveal_title"), "data-follow-target": "" },
      el("p", { class: "ttt-announce-kicker" }, k === 0 ? t("tic-tac-top.reveal_title") : t("tic-tac-top.word_of", { k })),
      body,
      steps);
  });
}

function leaderRankingPanel(g) {
  const { view } = g;
  if (!isLeader(g) || !Array.isArray(view.ranking)) return null;
  const k = (view.announced || []).length;
  return g.keyed.part("leader-ranking", `${baseSig(g)}|${view.ranking.join("|")}|${k}`, () =>
    el("section", { class: "ttt-panel ttt-leader-panel" },
      el("h3", { class: "ttt-panel-title" }, g.t("tic-tac-top.your_ranking")),
      el("ol", { class: "ttt-ranklist is-compact" }, view.ranking.map((w, i) => el("li", { class: ["ttt-rank-item", i < k && "is-out", i === k && "is-next"] },
        el("span", { class: "ttt-rank-n" }, i < k ? "✓" : String(i + 1)), el("span", { class: "ttt-rank-word" }, syllableBreaks(w)))))));
}

export function renderReveal(g, fresh) {
  const { keyed, view } = g;
  const stage = keyed.box("stage", "div", { class: "ttt-stage" }, [announceCard(g, fresh), controls(g, g.t("tic-tac-top.next_word"))]);
  const ranking = leaderRankingPanel(g);
  // The table lays the reveal out as tiles (style.css): the announced word takes two, the Leader's
  // ranking one, each grid one; the number of tiles picks the columns.
  const grids = (view.grids || []).filter(Boolean).length;
  const tiles = 2 + (ranking ? 1 : 0) + grids;
  return [
    themeTitle(g),
    keyed.box("reveal-layout", "div", { class: "ttt-reveal-layout", "data-tiles": tiles, "data-grids": grids }, [
      keyed.box("reveal-side", "div", { class: "ttt-reveal-side" }, [stage, ranking]),
      keyed.box("reveal-grids", "div", { class: "ttt-reveal-grids" }, allGrids(g, fresh)),
    ]),
  ];
}
