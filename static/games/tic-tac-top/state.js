// One mount's state (the latest view, what the player is doing, what was already animated) and the
// queue that sends actions one at a time, so each carries the version its predecessor produced.

import { Keyed } from "../../js/keyed.js";

export function createState(ctx) {
  const mySeat = Number.isInteger(ctx.seat) ? ctx.seat : null;
  return {
    ctx,
    t: (key, params) => ctx.t(key, params),
    mySeat,
    tv: mySeat === null, // a seat-less viewer: the host's laptop or the TV
    uid: `ttt${Math.random().toString(36).slice(2, 8)}`,
    keyed: new Keyed(),
    render: () => {}, // set by index.js
    live: null, // the polite live region (index.js)
    container: null,
    msg: null,
    view: null,
    prevView: null,
    destroyed: false,
    queue: Promise.resolve(),

    // the player's grid
    sel: null, // {kind: "word", word} | {kind: "cell", cell}
    gridFocus: 4,
    pendingOps: [], // optimistic grid edits not yet confirmed: {id, type: "place"|"clear", cell, word}
    opSeq: 0,
    confirmLock: false,

    // the Leader's ranking
    rankKey: null, // `${game number}|${turn}` the local ranking belongs to
    ranking: [], // the ranking being built
    rankAdded: null, // the word just added (it slides in)
    draftTimer: 0,
    lastDraftSent: null,
    submitting: false,
    choosing: false,
    nexting: false,

    // animation bookkeeping
    freshFrom: 0, // announced words already on screen before this state (newer ones animate)
    scoreAnimatedFor: null, // `${game}|${turns scored}` whose scoring rows were already staged
    firstLineShownFor: null,
    bannerTimer: 0,
    lastSpokenSecond: null,
    badges: [], // [seat, node]: the badges we drew in the room page (players strip, result list)
  };
}

/** Send one action after the ones before it have been answered. */
export function send(g, action) {
  const p = g.queue.then(() => (g.destroyed ? Promise.reject(new Error("unmounted")) : g.ctx.act(action)));
  g.queue = p.catch(() => {});
  return p;
}

/** Say `text` in the live region: a fresh text, so a repeated message is announced too. */
export function say(g, text) {
  g.live.textContent = "";
  setTimeout(() => {
    g.live.textContent = text;
  }, 30);
}
