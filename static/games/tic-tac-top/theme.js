// The choose phase: the Leader's two theme cards to pick from; everyone else sees them face down.

import { h as el } from "../../js/dom.js";
import { baseSig, canAct, isLeader, nameOf } from "./seats.js";
import { send } from "./state.js";

function chooseTheme(g, index) {
  if (g.choosing || !canAct(g) || g.view.phase !== "choose") return;
  g.choosing = true;
  g.render();
  send(g, { type: "choose_theme", index }).catch(() => {}).finally(() => {
    g.choosing = false;
    g.render();
  });
}

export function renderChoose(g) {
  const { t, keyed } = g;
  const offered = g.view.offered || [];
  if (isLeader(g)) {
    return [
      keyed.part("choose-intro", baseSig(g), () =>
        el("div", { class: "ttt-intro" },
          el("h2", { class: "ttt-title" }, t("tic-tac-top.choose_title")),
          el("p", { class: "muted" }, t("tic-tac-top.choose_hint")))),
      keyed.part("offers", `${baseSig(g)}|${JSON.stringify(offered)}|${canAct(g)}|${g.choosing}`, () =>
        el("div", { class: "ttt-offers" },
          offered.map((theme, i) =>
            el("button", {
              type: "button",
              class: "ttt-offer",
              disabled: !canAct(g) || g.choosing,
              "data-key": `offer-${i}`,
              // named by what it shows, ending "Play “Sweets”" (axe label-content-name-mismatch)
              onclick: () => chooseTheme(g, i),
            },
            el("span", { class: "ttt-offer-kicker" }, `${t("tic-tac-top.theme")} ${String.fromCharCode(65 + i)}`),
            el("span", { class: "ttt-offer-name" }, theme.name),
            el("span", { class: "ttt-offer-words" }, (theme.words || []).map((w) => el("span", { class: "ttt-offer-word" }, w))),
            el("span", { class: "ttt-offer-cta" }, t("tic-tac-top.choose_pick", { name: theme.name })))))),
    ];
  }
  const names = offered.map((theme) => theme.name);
  return [
    keyed.part("waiting", `${baseSig(g)}|${JSON.stringify(names)}`, () =>
      el("div", { class: "ttt-waiting" },
        el("p", { class: "ttt-waiting-title" }, el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ", t("tic-tac-top.choosing", { name: nameOf(g, g.view.leader) })),
        el("div", { class: "ttt-offers is-facedown" },
          names.flatMap((name, i) => [
            i > 0 ? el("span", { class: "ttt-or" }, t("tic-tac-top.choosing_or")) : null,
            el("div", { class: "ttt-offer is-facedown" },
              el("span", { class: "ttt-offer-kicker" }, `${t("tic-tac-top.theme")} ${String.fromCharCode(65 + i)}`),
              el("span", { class: "ttt-offer-name" }, name)),
          ])))),
  ];
}
