// The board's heading, the position in words for screen readers, and the legend under the board.

import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";

export function createSummary(m) {
  const label = el("h2", { class: "visually-hidden", id: `${m.uid}-label` });
  const summary = el("p", { class: "visually-hidden", id: `${m.uid}-summary` });
  const legend = el("p", { class: "tt-legend muted small", "aria-hidden": "true" });

  function draw() {
    const { view } = m;
    const bits = [];
    const scores = (view.scores || []).map((s, seat) => `${m.who(seat)} ${s}`).join(", ");
    if (scores) bits.push(t("tri-tac.summary_scores", { scores }));
    if (view.phase === "turn" && view.to_move !== null && view.to_move !== undefined) bits.push(t("tri-tac.summary_turn", { marker: m.who(view.to_move) }));
    if (view.phase === "vote") bits.push(t("tri-tac.summary_vote"));
    if (view.phase === "over") bits.push(t("tri-tac.summary_over"));
    const lm = view.last_move;
    if (lm && lm.cell) bits.push(t("tri-tac.summary_last", { marker: m.who(lm.seat), r: lm.cell[0] + 1, c: lm.cell[1] + 1 }));
    const live = (view.lines || []).filter((l) => !l.broken).length;
    bits.push(t("tri-tac.summary_lines", { n: live }));
    summary.textContent = bits.join(" ");
    label.textContent = t("tri-tac.board", { n: view.size });
    const legendBits = [`${m.markerOf(0)} = ${m.nameOf(0)}`, `${m.markerOf(1)} = ${m.nameOf(1)}`];
    if ((view.special || []).length) legendBits.push(`★ ${t("tri-tac.special_legend")}`);
    legend.textContent = legendBits.join(" · ");
  }

  return { label, summary, legend, draw };
}
