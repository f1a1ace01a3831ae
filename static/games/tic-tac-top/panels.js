// The pieces several phases share: the header line, the theme's title, who is still writing, the Leader's
// status and the writing clock.

import { h as el } from "../../js/dom.js";
import { CELLS, lockIcon } from "./bits.js";
import { clock } from "./clocks.js";
import { reconcile } from "../../js/keyed.js";
import { baseSig, isHostViewer, isLeader, nameOf, seatChip } from "./seats.js";

export function renderHead(g, head) {
  const { view, t, tv } = g;
  const role = tv ? (isHostViewer() ? t("tic-tac-top.tv_host") : t("tic-tac-top.tv")) : isLeader(g) ? t("tic-tac-top.you_lead") : t("tic-tac-top.you_write");
  const sig = `${baseSig(g)}|${role}|${view.target}|${view.theme?.name}`;
  if (head.dataset.sig === sig) return;
  head.dataset.sig = sig;
  const over = view.phase === "over";
  reconcile(head, [
    el("span", { class: "ttt-turn" }, over ? t("tic-tac-top.game_over") : t("tic-tac-top.turn", { turn: view.turn, turns: view.turns })),
    over ? null : el("span", { class: "ttt-head-leader" }, el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ", t("tic-tac-top.leader_is", { name: nameOf(g, view.leader) })),
    // At the table the reveal and the scores name the theme here, leaving the height to the grids.
    view.theme && !over ? el("span", { class: "ttt-head-theme" }, el("span", { class: "ttt-theme-kicker" }, t("tic-tac-top.theme")), " ", view.theme.name) : null,
    view.target ? el("span", { class: "ttt-target muted" }, t("tic-tac-top.quick_target", { n: view.target })) : null,
    el("span", { class: ["ttt-role", isLeader(g) && "is-leader", tv && "is-tv"] }, role),
  ]);
}

export const themeTitle = (g, big = false) =>
  g.keyed.part("theme", `${baseSig(g)}|${g.view.theme?.name}|${big}`, () =>
    el("div", { class: ["ttt-theme", big && "is-big"] },
      el("span", { class: "ttt-theme-kicker" }, g.t("tic-tac-top.theme")),
      el("h2", { class: "ttt-theme-name" }, g.view.theme?.name ?? "")));

export const writersStrip = (g) =>
  g.keyed.part("writers", `${baseSig(g)}|${JSON.stringify(g.view.writers)}`, () => {
    const { t } = g;
    const rows = (g.view.writers || []).map((w) => {
      const dots = el("span", { class: "ttt-dots", "aria-hidden": "true" },
        Array.from({ length: CELLS }, (_, i) => el("span", { class: ["ttt-dot", i < w.filled && "is-on"] })));
      const text = w.finished ? (w.how === "locked" ? t("tic-tac-top.locked") : t("tic-tac-top.done")) : t("tic-tac-top.writing");
      return el("li", { class: ["ttt-writer", w.finished && "is-finished", w.seat === g.mySeat && "is-me"], "aria-label": `${nameOf(g, w.seat)}: ${w.filled}/9, ${text}` },
        seatChip(g, w.seat),
        dots,
        el("span", { class: "ttt-writer-state" }, w.finished ? (w.how === "locked" ? lockIcon() : "✓ ") : null, text));
    });
    return el("section", { class: "ttt-writers", "aria-label": t("tic-tac-top.writers") },
      el("h3", { class: "ttt-subhead" }, t("tic-tac-top.writers")),
      el("ul", { class: "ttt-writer-list" }, rows));
  });

export const leaderStatus = (g) =>
  g.keyed.part("leader-status", `${baseSig(g)}|${g.view.ranked}`, () =>
    el("p", { class: ["ttt-leader-status", g.view.ranked && "is-ranked"] },
      el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ",
      g.view.ranked ? g.t("tic-tac-top.leader_ranked", { name: nameOf(g, g.view.leader) }) : g.t("tic-tac-top.leader_ranking", { name: nameOf(g, g.view.leader) })));

export function countdownBlock(g) {
  const { view, msg } = g;
  if (view.phase !== "write" || !msg?.deadline) return null;
  const kind = view.countdown ? "countdown" : view.hard_timer && !view.ranked ? "timer" : null;
  if (!kind) return null;
  return g.keyed.part(`clock-${kind}`, `${kind}|${msg.deadline}`, () => clock(g, kind));
}
