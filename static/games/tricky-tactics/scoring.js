// The last round's scoring, Location by Location with the Area bonuses and the totals, and the points of
// every round so far.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { SYMBOL } from "../../js/table/cards.js";
import { SUITS } from "./art.js";
import { locText, put, scrollRegion, suitName } from "./state.js";

const th = (key) => el("th", { scope: "col" }, t(key));

/** One Area's Locations at the last scoring: cubes, and who scored them. */
function areaScoring(T, s, suit) {
  const { cube, suitIcon } = T.art;
  const ids = T.playerIds();
  const locs = s.locations.filter((l) => l.location[1] === suit);
  const bonus = (s.area_bonuses || []).find((b) => b.suit === suit);
  return el("div", { class: "tk-score-area" },
    el("div", { class: "tk-score-area-head" }, suitIcon(suit), suitName(suit)),
    el("table", { class: "tk-score-table" },
      el("thead", {}, el("tr", {}, th("tricky-tactics.scoring_loc"), th("tricky-tactics.scoring_cubes"), th("tricky-tactics.scoring_to"))),
      el("tbody", {},
        locs.map((l) =>
          el("tr", { class: l.controller !== null ? "is-scored" : "" },
            el("th", { scope: "row" }, locText(l.location)),
            el("td", {}, l.cubes.some((c) => c) ? l.cubes.map((c, i) => (c ? el("span", { class: "tk-sc-cubes" }, cube(ids[i]), String(c)) : null)) : el("span", { class: "muted" }, "—")),
            el("td", {}, l.controller !== null && l.controller !== undefined
              ? el("span", { class: "tk-sc-to" }, cube(l.controller), `${T.nameOf(l.controller)} +${l.points}`)
              : el("span", { class: "muted" }, l.cubes.some((c) => c) ? `${t("tricky-tactics.tied")}: ${t("tricky-tactics.scoring_nobody")}` : t("tricky-tactics.scoring_nobody"))))),
        bonus ? el("tr", { class: "tk-sc-bonus" }, el("td", { colspan: 3 }, "★ ", t("tricky-tactics.scoring_bonus", { suit: SYMBOL[suit], name: T.nameOf(bonus.player), n: bonus.points }))) : null)));
}

/** Draw the scoring of `T` into `panel` (a <details>) and the points by round into `byRound`. */
export function drawScoring(T, panel, byRound) {
  const view = T.view;
  const s = view.last_scoring;
  if (!s) {
    panel.hidden = true;
    panel.replaceChildren();
    byRound.replaceChildren();
    return;
  }
  const { cube } = T.art;
  const ids = T.playerIds();
  const wasOpen = panel.open;
  const player = (pid) => el("th", { scope: "row" }, el("span", { class: "tk-sc-to" }, cube(pid), T.whoOf(pid)));
  const totals = el("div", scrollRegion(t("tricky-tactics.scoring_total")), el("table", { class: "tk-score-totals" },
    el("thead", {}, el("tr", {}, th("tricky-tactics.scoring_player"), th("tricky-tactics.scoring_round"), th("tricky-tactics.scoring_controlled"), th("tricky-tactics.scoring_total"))),
    el("tbody", {}, ids.map((pid, i) =>
      el("tr", {}, player(pid), el("td", {}, `+${s.points?.[i] ?? 0}`), el("td", {}, String(s.controlled?.[i] ?? 0)), el("td", {}, el("strong", {}, String(s.totals?.[i] ?? 0))))))));
  panel.hidden = false;
  put(panel,
    el("summary", { class: "tk-scoring-summary", dataset: { focus: "scoring-summary" } }, el("span", { class: "tk-h" }, t("tricky-tactics.scoring_title", { round: s.round })), el("span", { class: "muted small" }, T.pointsLine(s.points))),
    el("div", { class: "tk-score-areas" }, SUITS.map((suit) => areaScoring(T, s, suit))),
    totals,
  );
  if (T.scoringOpenRound === s.round) {
    panel.open = true;
    T.scoringOpenRound = null;
  } else {
    panel.open = wasOpen;
  }
  const rp = view.round_points || [];
  if (rp.length > 0) {
    put(byRound,
      el("div", scrollRegion(t("tricky-tactics.by_round")), el("table", { class: "tk-byround-table" },
        el("caption", {}, t("tricky-tactics.by_round")),
        el("thead", {}, el("tr", {}, th("tricky-tactics.scoring_player"), rp.map((_, r) => el("th", { scope: "col" }, t("tricky-tactics.round_short", { n: r + 1 }))), th("tricky-tactics.scoring_total"))),
        el("tbody", {}, ids.map((pid, i) => el("tr", {}, player(pid), rp.map((pts) => el("td", {}, String(pts[i] ?? 0))), el("td", {}, el("strong", {}, String(T.playerOf(pid)?.score ?? 0)))))))));
  } else {
    byRound.replaceChildren();
  }
}
