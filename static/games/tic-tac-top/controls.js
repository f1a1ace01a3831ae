// Pacing the show: the Leader's (or a seat-less host's) "Next word" / "Next turn" button, and for everyone
// the time until the show moves on by itself.

import { h as el } from "../../js/dom.js";
import { clock } from "./clocks.js";
import { baseSig, canAct, hostCanStep, isLeader } from "./seats.js";
import { send } from "./state.js";

function stepNext(g) {
  if (g.nexting || !(canAct(g) || hostCanStep(g)) || !["reveal", "score"].includes(g.view.phase)) return;
  g.nexting = true;
  g.render();
  send(g, { type: "next" }).catch(() => {}).finally(() => {
    g.nexting = false;
    g.render();
  });
}

export function controls(g, label) {
  const { msg } = g;
  const pacer = isLeader(g) || hostCanStep(g);
  const sig = `${baseSig(g)}|${pacer}|${canAct(g)}|${g.nexting}|${msg?.deadline}|${label}|${(g.view.announced || []).length}`;
  return g.keyed.part("controls", sig, () => {
    const bits = [];
    if (pacer) bits.push(el("button", { type: "button", class: "btn btn-primary btn-lg ttt-next", "data-key": "next", disabled: (isLeader(g) && !canAct(g)) || g.nexting, onclick: () => stepNext(g) }, `${label} →`));
    if (msg?.deadline) bits.push(clock(g, "auto"));
    return bits.length ? el("div", { class: "ttt-controls" }, bits) : el("div", { hidden: true });
  });
}
