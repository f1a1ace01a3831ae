// The clocks, driven by the state's deadline (epoch ms): "countdown", the big 5-4-3-2-1 once the Leader
// submits; "timer", the 90-second timer; "auto", the show's pace.

import { h as el } from "../../js/dom.js";
import { reducedMotion } from "./bits.js";
import { say } from "./state.js";

export function clock(g, kind) {
  const node = el("div", { class: ["ttt-clock", `ttt-clock-${kind}`], "data-clock": kind });
  if (kind === "countdown") {
    node.append(el("span", { class: "ttt-clock-label" }, g.t("tic-tac-top.countdown")), el("span", { class: "ttt-clock-num", "aria-hidden": "true" }, ""));
  } else if (kind === "timer") {
    node.append(el("span", { class: "ttt-clock-label" }, g.t("tic-tac-top.hard_timer")), el("span", { class: "ttt-clock-num" }, ""), el("span", { class: "ttt-clock-track", "aria-hidden": "true" }));
  } else {
    node.append(el("span", { class: "ttt-clock-num" }, ""), el("span", { class: "ttt-clock-track", "aria-hidden": "true" }));
  }
  return node;
}

/** Bring every clock on screen up to date (called several times a second). */
export function tickClocks(g) {
  const { msg } = g;
  const nodes = g.container.querySelectorAll("[data-clock]");
  if (!nodes.length || !msg?.deadline) return;
  const left = Math.max(0, Number(msg.deadline) - Date.now());
  const total = Math.max(1000, (g.view?.timer?.seconds ?? 5) * 1000);
  const secs = Math.ceil(left / 1000);
  for (const node of nodes) {
    const kind = node.dataset.clock;
    const num = node.querySelector(".ttt-clock-num");
    node.style.setProperty("--left", String(Math.min(1, left / total)));
    if (kind === "countdown") {
      if (num.textContent !== String(secs)) {
        num.textContent = String(secs);
        if (!reducedMotion()) {
          num.classList.remove("ttt-tick");
          void num.offsetWidth;
          num.classList.add("ttt-tick");
        }
        if (!g.tv && (secs === 5 || secs === 3) && g.lastSpokenSecond !== `${msg.deadline}|${secs}`) {
          g.lastSpokenSecond = `${msg.deadline}|${secs}`;
          say(g, g.t("tic-tac-top.countdown_sr", { s: secs }));
        }
      }
    } else if (kind === "timer") {
      num.textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
      node.classList.toggle("is-urgent", secs <= 10);
    } else {
      num.textContent = g.t("tic-tac-top.auto_next", { s: secs });
    }
  }
}
