// The final result: who won (or shared, or the automa), everyone's points and the tie-breaks that decided.
import { h as el } from "../../js/dom.js";
import { joinList, t } from "../../js/i18n.js";
import { put, sameId, scrollRegion } from "./state.js";

/** The standings best first (ties in seat order). */
const ranked = (T, st) => [...st].sort((a, b) => a.place - b.place || T.indexOf(a.player) - T.indexOf(b.player));

export function finalHeadline(T, st) {
  const first = ranked(T, st).filter((s) => s.place === 0).map((s) => s.player);
  if (first.length > 1) return t("tricky-tactics.final_share", { names: joinList(first.map((pid) => T.whoOf(pid))) });
  if (first[0] === "automa") return t("tricky-tactics.final_automa");
  if (sameId(first[0], T.mySeat)) return t("tricky-tactics.final_you_win");
  return t("tricky-tactics.final_win", { name: T.nameOf(first[0]) });
}

export function finalPoints(T, st) {
  return t("tricky-tactics.final_points_line", { scores: ranked(T, st).map((s) => `${T.nameOf(s.player)} ${s.points}`).join(", ") });
}

/** Why a standing is ahead of those on the same points ("" if it is not). */
function tieBreak(order, s) {
  const same = order.filter((o) => o !== s && o.points === s.points);
  if (!same.length) return "";
  if (same.some((o) => o.controlled === s.controlled && o.on_map === s.on_map)) return t("tricky-tactics.final_shared");
  if (same.every((o) => o.controlled !== s.controlled) && same.some((o) => o.controlled < s.controlled)) return t("tricky-tactics.final_by_ctl");
  if (same.some((o) => o.controlled === s.controlled && o.on_map < s.on_map)) return t("tricky-tactics.final_by_map");
  return "";
}

/** Draw the final result of `T` into `panel` (hidden until the game is over). */
export function drawFinal(T, panel) {
  const view = T.view;
  const st = view.standings;
  if (view.phase !== "over" || !Array.isArray(st)) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const order = ranked(T, st);
  const { cube } = T.art;
  panel.hidden = false;
  put(panel,
    el("p", { class: "tk-final-kicker" }, t("tricky-tactics.final_title")),
    el("h3", { class: "tk-final-title", id: `${T.uid}-final-title` }, finalHeadline(T, st)),
    el("p", { class: "tk-final-summary" }, finalPoints(T, st)),
    el("div", scrollRegion(t("tricky-tactics.final_title")), el("table", { class: "tk-final-table" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", "aria-label": t("tricky-tactics.final_place"), title: t("tricky-tactics.final_place") }, "#"), el("th", { scope: "col" }, t("tricky-tactics.scoring_player")), el("th", { scope: "col" }, t("tricky-tactics.final_points")),
        el("th", { scope: "col" }, t("tricky-tactics.final_controlled")), el("th", { scope: "col" }, t("tricky-tactics.final_on_map")))),
      el("tbody", {}, order.map((s) => {
        const why = tieBreak(order, s);
        return el("tr", { class: s.place === 0 ? "is-first" : "" },
          el("td", {}, el("span", { class: "tk-place" }, String(s.place + 1))),
          el("th", { scope: "row" }, el("span", { class: "tk-sc-to" }, cube(s.player), T.whoOf(s.player)), why ? el("span", { class: "tk-why muted small" }, why) : null),
          el("td", {}, el("strong", {}, String(s.points))),
          el("td", {}, String(s.controlled)),
          el("td", {}, String(s.on_map)));
      })))),
    el("p", { class: "muted small" }, t("tricky-tactics.final_tiebreak")),
  );
}
