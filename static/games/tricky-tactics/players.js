// The players' list: cube, name, dealer and leader tags, supply, cubes on the map, cards, tricks and score.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { keyOf } from "./art.js";
import { put, reducedMotion, sameId } from "./state.js";

/** Draw the players of `T` into the list `players`. */
export function drawPlayers(T, players) {
  const view = T.view;
  const { cube } = T.art;
  const prevScores = new Map((T.prevView?.players || []).map((p) => [String(p.id), p.score]));
  const items = view.players.map((p) => {
    const turn = view.phase !== "over" && (sameId(view.turn, p.id) || (view.phase === "action" && sameId(view.pending_action?.player, p.id)));
    const bumped = prevScores.has(String(p.id)) && prevScores.get(String(p.id)) !== p.score && !reducedMotion();
    const tags = [];
    if (sameId(view.dealer, p.id)) tags.push(el("span", { class: "tk-tag" }, t("tricky-tactics.dealer")));
    if (view.phase !== "over" && sameId(view.leader, p.id)) tags.push(el("span", { class: "tk-tag tk-tag-lead" }, t("tricky-tactics.leads")));
    return el(
      "li",
      { class: ["tk-player", `tk-p-${keyOf(p.id)}`, turn && "is-turn", sameId(p.id, T.mySeat) && "is-me"], dataset: { player: String(p.id) } },
      el("span", { class: "tk-player-cube" }, cube(p.id, "tk-cube-lg")),
      el("span", { class: "tk-player-main" },
        el("span", { class: "tk-player-name" }, turn ? el("span", { class: "tk-turn-dot", "aria-hidden": "true" }, "▶") : null, T.whoOf(p.id), ...tags),
        el("span", { class: "tk-player-stats" },
          el("span", { class: "tk-stat-supply" }, cube(p.id), t("tricky-tactics.supply", { n: p.supply })),
          el("span", {}, t("tricky-tactics.on_map", { n: p.on_map })),
          el("span", {}, t("tricky-tactics.cards", { n: p.hand_size })),
          el("span", {}, t("tricky-tactics.tricks", { n: p.tricks_won })))),
      el("span", { class: ["tk-player-score", bumped && "tk-bump"] }, el("span", { "aria-hidden": "true" }, String(p.score)), el("span", { class: "visually-hidden" }, t("tricky-tactics.score_label", { n: p.score }))),
    );
  });
  put(players, ...items);
}
