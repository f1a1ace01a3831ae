// What is said and called out: the "First line!" banner, the live announcements of each new state, and a
// text summary of the position for screen readers.

import { h as el } from "../../js/dom.js";
import { listNames, nameOf } from "./seats.js";
import { say } from "./state.js";

export function showBanner(g, banner, text, sub) {
  banner.replaceChildren(el("span", { class: "ttt-banner-title" }, text), sub ? el("span", { class: "ttt-banner-sub" }, sub) : null);
  banner.hidden = false;
  banner.classList.remove("is-on");
  void banner.offsetWidth;
  banner.classList.add("is-on");
  clearTimeout(g.bannerTimer);
  g.bannerTimer = setTimeout(() => {
    banner.hidden = true;
  }, 3200);
}

export function describe(g) {
  const { view, t } = g;
  const standings = (view.standings || []).map((r) => `${nameOf(g, r.seat)} ${r.score}`).join(", ");
  if (view.phase === "choose") return t("tic-tac-top.sr_choose", { turn: view.turn, leader: nameOf(g, view.leader) });
  if (view.phase === "write") {
    const ws = view.writers || [];
    return t("tic-tac-top.sr_write", { turn: view.turn, theme: view.theme?.name ?? "", done: ws.filter((w) => w.finished).length, total: ws.length });
  }
  if (view.phase === "reveal") return t("tic-tac-top.sr_reveal", { turn: view.turn, theme: view.theme?.name ?? "", words: (view.announced || []).join(", ") || "—" });
  if (view.phase === "score") return t("tic-tac-top.sr_score", { turn: view.turn, standings });
  return t("tic-tac-top.sr_over", { standings });
}

/** What to say and call out once per new state (not on re-renders caused by local taps). */
export function onNewState(g, banner, events) {
  const { view, t } = g;
  for (const ev of events) {
    if (ev.kind === "theme_chosen" && ev.theme?.name) say(g, t("tic-tac-top.sr_theme", { theme: ev.theme.name }));
    if (ev.kind === "announce") say(g, t("tic-tac-top.sr_word", { k: ev.index, word: ev.word }));
  }
  const fl = view.first_line;
  const flKey = `${g.ctx.room?.game_number ?? ""}|${view.turn}`;
  if (fl && fl.index > g.freshFrom && g.firstLineShownFor !== flKey && ["reveal", "score", "over"].includes(view.phase)) {
    g.firstLineShownFor = flKey;
    const sub = t("tic-tac-top.first_line_who", { names: listNames(g, fl.seats || []), k: fl.index });
    showBanner(g, banner, `★ ${t("tic-tac-top.first_line")}`, sub);
    say(g, `${t("tic-tac-top.first_line")} ${sub}`);
  }
  if (view.phase !== "write") {
    g.sel = null;
    g.confirmLock = false;
  }
  if (g.prevView && g.prevView.turn !== view.turn) {
    g.sel = null;
    g.pendingOps = [];
    g.gridFocus = 4;
  }
}
