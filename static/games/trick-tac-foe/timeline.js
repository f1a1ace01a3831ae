// The events of a state message played back as a short timeline: both cards of a pair flip, the winner is
// marked, the target cell lights up, a token is placed or flipped, a line is scored and the grid cleared
// (all instant with prefers-reduced-motion), with a banner over the grid for the big moments.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { cellKey } from "./compass.js";
import { colourName, reducedMotion, sleep } from "./state.js";

const SHOWN = ["reveal", "resolve", "score", "clear", "round_end", "round_start"];

/** The timeline of `T`: `render()` draws the table, `floatPoint(cell, colour)` marks a scored point. */
export function eventTimeline(T, { render, floatPoint }) {
  const banner = el("div", { class: "tf-banner", "aria-hidden": "true", hidden: true });
  let bannerTimer = 0;

  function showBanner(text, cls = "") {
    clearTimeout(bannerTimer);
    banner.textContent = text;
    banner.className = `tf-banner ${cls}`;
    banner.hidden = false;
    bannerTimer = setTimeout(() => {
      banner.hidden = true;
    }, reducedMotion() ? 2200 : 1800);
  }

  /** Before the reveal: every seat that had committed (or just did) shows a back; yours shows its face. */
  function slotsBefore(events, before) {
    const slots = new Map();
    const committedNow = new Set(events.filter((e) => e.kind === "commit").map((e) => e.seat));
    for (const info of before.seats || []) {
      const s = info.seat;
      if (!(info.committed || committedNow.has(s))) continue;
      if (info.card) {
        const rec = (before.current || []).find((r) => r.seats.includes(s));
        slots.set(s, { card: info.card, up: true, win: rec ? rec.winner === s : false, lose: rec ? rec.winner !== s : false });
      } else if (s === T.mySeat) {
        const mine = before.your_card || events.find((e) => e.kind === "commit" && e.seat === s)?.card || null;
        slots.set(s, mine ? { card: mine, up: true, mine: true } : { card: null, up: false });
      } else slots.set(s, { card: null, up: false });
    }
    return slots;
  }

  /** Play back this message's events (reveal, resolve, score, clear) from the previous view's board. */
  async function play(events, before) {
    const token = ++T.animToken;
    const steps = events.filter((e) => SHOWN.includes(e.kind));
    if (!steps.length || !before) return;
    if (!events.some((e) => e.kind === "reveal" || e.kind === "resolve")) {
      for (const e of steps) {
        if (e.kind === "round_start") showBanner(t("trick-tac-foe.banner_round_start", { n: e.round }));
      }
      return;
    }
    const quick = reducedMotion();
    const anim = { grid: (before.grid || T.view.grid).map((row) => row.slice()), slots: slotsBefore(events, before), lines: null, cellFx: new Map(), target: null };
    T.anim = anim;
    const still = () => token === T.animToken;
    render();
    for (const e of steps) {
      if (!still()) return;
      if (e.kind === "reveal") {
        e.seats.forEach((s, i) => anim.slots.set(s, { card: e.cards[i], up: true, flip: true }));
        anim.target = null;
        render();
        await sleep(quick ? 0 : 900);
        if (!still()) return;
        e.seats.forEach((s, i) => anim.slots.set(s, { card: e.cards[i], up: true, win: s === e.winner, lose: s !== e.winner }));
        render();
        await sleep(quick ? 0 : 450);
      } else if (e.kind === "resolve") {
        anim.grid[e.cell[0]][e.cell[1]] = e.colour;
        anim.cellFx = new Map([[cellKey(e.cell), e.effect]]);
        anim.target = e.cell;
        render();
        await sleep(quick ? 0 : 750);
      } else if (e.kind === "score") {
        anim.lines = e.lines;
        anim.lineColour = e.colour;
        anim.cellFx = new Map();
        render();
        const last = e.lines?.[0]?.[1];
        if (last) floatPoint(last, e.colour);
        showBanner(t("trick-tac-foe.banner_score", { colour: colourName(e.colour) }), `tf-banner-${e.colour}`);
        await sleep(quick ? 0 : 1300);
      } else if (e.kind === "clear") {
        const fx = new Map();
        anim.grid.forEach((row, r) => row.forEach((v, c) => v && fx.set(cellKey([r, c]), "clear")));
        anim.cellFx = fx;
        anim.lines = null;
        anim.target = null;
        render();
        await sleep(quick ? 0 : 550);
        if (!still()) return;
        anim.grid = [[null, null, null], [null, null, null], [null, null, null]];
        anim.cellFx = new Map();
        if (e.reason === "round") showBanner(t("trick-tac-foe.banner_clear"));
        render();
      } else if (e.kind === "round_end") {
        showBanner(t("trick-tac-foe.banner_round_end", { n: e.round }));
        await sleep(quick ? 0 : 900);
      } else if (e.kind === "round_start") {
        showBanner(t("trick-tac-foe.banner_round_start", { n: e.round }));
      }
    }
    if (!still()) return;
    T.anim = null;
    render();
  }

  /** Cut a running timeline short (its final board is the view just received). */
  function stop() {
    T.animToken += 1;
    T.anim = null;
  }

  function destroy() {
    T.animToken += 1;
    clearTimeout(bannerTimer);
  }

  return { banner, play, stop, destroy };
}
