// The lesson page (/learn/<game>, docs/lessons.md): each step's position comes from /api/learn/<game>, is drawn
// by the game's own renderer (static/games/<game>/index.js, as in a room) and the learner's move is judged by
// the server's engine. A refused move is explained from its refusal, a move that misses the point is played
// out then taken back, and after two misses (or on "Show me") the renderer's hint hook shows the move.

import { $, api, h, prefersReducedMotion } from "./dom.js";
import { t } from "./i18n.js";
import { playBot } from "./learn-bot.js";
import { lessonRoom } from "./learn-room.js";
import { logContext, reasonText } from "./log.js";

const root = $("#learn");
const game = root.dataset.game;
const fromRoom = root.dataset.from || null;
const embed = root.dataset.embed === "1";
const boardEl = $("#board");
const promptEl = $("#learn-prompt");
const feedbackEl = $("#learn-feedback");
const actionsEl = $("#learn-actions");
const counterEl = $("#learn-counter");
const announcer = $("#learn-announcer");
const endEl = $("#learn-end");

const MISSES_BEFORE_HINT = 2;
const FRAME_PAUSE_MS = 650; // how long each move of a played-out try stays before the next (no pause with reduced motion)

/** Everything about the step on screen. */
const L = {
  n: 1,
  of: 0,
  step: null, // the API's step
  room: null, // the room summary the renderer reads (ctx.room)
  renderer: null,
  module: null,
  version: 0,
  misses: 0,
  hinted: false,
  settled: false, // the try was played out: the board waits for "Try again" or "Next"
  token: 0, // a newer step or reset makes older playbacks stop
};

const text = (suffix) => t(`${game}.lesson.${L.step.id}.${suffix}`);

function say(message) {
  // A fresh text, so a repeated message is announced again.
  announcer.textContent = "";
  setTimeout(() => {
    announcer.textContent = message;
  }, 30);
}

function tell(message, kind = "") {
  feedbackEl.textContent = message;
  feedbackEl.hidden = !message;
  feedbackEl.className = ["learn-feedback", kind && `learn-feedback-${kind}`].filter(Boolean).join(" ");
}

function button(label, cls, onclick, name) {
  return h("button", { type: "button", class: ["btn", cls], dataset: { learn: name }, onclick }, label);
}

function postParent(message) {
  if (embed && window.parent !== window) window.parent.postMessage(message, location.origin);
}

// ---- the renderer ----------------------------------------------------------------------------

function rendererCtx() {
  return {
    seat: L.step.seat,
    get room() {
      return L.room;
    },
    act: (action) => act(action),
    t,
  };
}

/** The step's position as a game's `state` message, with the next version. */
function stateMsg(frame) {
  L.version += 1;
  return { type: "state", version: L.version, game, view: frame.view, to_act: frame.to_act, deadline: null, outcome: null, events: frame.events, log: frame.log };
}

function update(frame) {
  try {
    L.renderer.update(stateMsg(frame));
  } catch (err) {
    console.error("renderer update failed", err);
  }
}

/** A fresh renderer on the step's position: a step, or a try taken back, starts from nothing the last one kept. */
function mountStep() {
  L.token += 1;
  delete root.dataset.verdict;
  L.settled = false;
  boardEl.inert = false;
  if (L.renderer) {
    try {
      L.renderer.hint?.(null);
      L.renderer.destroy();
    } catch (err) {
      console.error(err);
    }
  }
  boardEl.replaceChildren();
  L.renderer = L.module.mount(boardEl, rendererCtx());
  update(L.step.frame);
  if (L.hinted) showHint();
}

/** Ring the step's move; `after` is what the learner was just told (a refusal), kept before the note. */
function showHint(after = "") {
  L.hinted = true;
  L.renderer?.hint?.(L.step.hint);
  const note = t("learn.hint_shown");
  tell(after ? `${after} ${note}` : note, after ? "refused" : "hint");
  say(after ? `${after} ${note}` : note);
}

// ---- a try ---------------------------------------------------------------------------------

class Refused extends Error {
  constructor(message, reason) {
    super(message);
    this.code = "refused";
    this.reason = reason;
  }
}

async function act(action) {
  if (L.settled) throw new Refused(t("learn.wait"), null);
  if (L.step.unjudged.includes(action?.type)) return { id: 0, version: L.version };
  const token = L.token;
  // The move is made: the hint has done its work (it comes back if the move is refused).
  L.renderer?.hint?.(null);
  let result;
  try {
    result = await api("POST", `/api/learn/${encodeURIComponent(game)}/steps/${L.n}/try`, { action });
  } catch (err) {
    tell(err.message, "error");
    if (L.hinted) L.renderer?.hint?.(L.step.hint);
    throw err;
  }
  if (token !== L.token) throw new Refused("stale", null);
  if (result.verdict === "refused") {
    const why = reasonText(result.reason, logContext(L.room, L.renderer)) || t("common.error");
    const message = t("learn.refused", { reason: why });
    tell(message, "refused");
    say(message);
    if (L.hinted) L.renderer?.hint?.(L.step.hint);
    countMiss(message);
    throw new Refused(message, result.reason);
  }
  const ack = { id: 0, version: L.version + result.frames.length };
  L.settled = true;
  playOut(result, token);
  return ack;
}

/** A refused or missed try; the second one shows the move. `told`: what the learner was just told. */
function countMiss(told = "") {
  L.misses += 1;
  if (L.misses >= MISSES_BEFORE_HINT && !L.hinted) showHint(told);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The try's moves one after the other (the renderer animates each), then what it did. */
async function playOut(result, token) {
  await Promise.resolve(); // the renderer hears its ack first, as from a room
  for (const [i, frame] of result.frames.entries()) {
    if (token !== L.token) return;
    if (i > 0 && !prefersReducedMotion()) await pause(FRAME_PAUSE_MS);
    if (token !== L.token) return;
    update(frame);
  }
  if (token !== L.token) return;
  boardEl.inert = true; // the position after the try is to look at, not to play on
  if (result.verdict === "done") stepDone();
  else stepMissed();
}

function stepMissed() {
  root.dataset.verdict = "missed";
  // The board shows what the move led to; a second miss rings the move once it is taken back.
  L.misses += 1;
  const hintNow = L.misses >= MISSES_BEFORE_HINT && !L.hinted;
  if (hintNow) L.hinted = true;
  const again = button(t("learn.try_again"), "btn-primary", () => {
    mountStep();
    renderActions();
    tell(L.hinted ? t("learn.hint_shown") : "", "hint");
    focusBoard();
  }, "again");
  const said = hintNow ? `${text("miss")} ${t("learn.hint_next")}` : text("miss");
  tell(said, "miss");
  say(said);
  actionsEl.replaceChildren(again, hintButton());
  again.focus();
}

function stepDone() {
  root.dataset.verdict = "done";
  const last = L.n >= L.of;
  const next = button(last ? t("learn.finish") : t("learn.next"), "btn-primary", () => (last ? finish() : loadStep(L.n + 1)), "next");
  tell(text("done"), "done");
  say(text("done"));
  actionsEl.replaceChildren(next);
  next.focus();
  if (last) postParent({ type: "threefold:lesson", game, step: L.n, of: L.of, finished: true });
}

function hintButton() {
  return button(t("learn.show_me"), "btn-secondary", () => {
    if (L.settled) {
      mountStep();
      renderActions();
    }
    showHint();
    focusBoard();
  }, "hint");
}

function renderActions() {
  actionsEl.replaceChildren(hintButton());
}

/** The focus goes where the move is made: the hinted target when there is one, else the board's first
 * control that takes the focus. */
function focusBoard() {
  requestAnimationFrame(() => {
    const target =
      boardEl.querySelector('[data-hint-step="1"]') ||
      boardEl.querySelector('[tabindex="0"], button:not([disabled]), input:not([disabled]), [role="gridcell"][tabindex="0"]');
    target?.focus?.({ preventScroll: false });
  });
}

// ---- steps ---------------------------------------------------------------------------------

async function loadStep(n) {
  L.token += 1;
  let step;
  try {
    step = await api("GET", `/api/learn/${encodeURIComponent(game)}/steps/${n}`);
  } catch (err) {
    tell(err.message, "error");
    return;
  }
  L.n = n;
  L.of = step.of;
  L.step = step;
  L.misses = 0;
  L.hinted = false;
  L.room = lessonRoom(game, step);
  counterEl.hidden = false;
  counterEl.textContent = t("learn.counter", { n, of: step.of });
  counterEl.setAttribute("aria-label", t("learn.counter_label", { n, of: step.of }));
  root.dataset.step = String(n);
  root.dataset.stepId = step.id;
  promptEl.textContent = text("prompt");
  tell("");
  renderActions();
  mountStep();
  // The prompt is read first (it says what to do), then the focus goes to where it is done.
  promptEl.focus({ preventScroll: true });
  say(`${counterEl.getAttribute("aria-label")}. ${text("prompt")}`);
  postParent({ type: "threefold:lesson", game, step: n, of: step.of, finished: false });
  if (n > 1) focusBoard();
}

// ---- the end -------------------------------------------------------------------------------

function finish() {
  L.token += 1;
  try {
    L.renderer?.hint?.(null);
    L.renderer?.destroy();
  } catch (err) {
    console.error(err);
  }
  L.renderer = null;
  $(".learn-main").hidden = true;
  counterEl.textContent = t("learn.counter", { n: L.of, of: L.of });
  const actions = [];
  if (embed) {
    actions.push(button(t("learn.back_to_room"), "btn-primary", () => postParent({ type: "threefold:lesson-close" }), "close"));
  } else {
    actions.push(button(t("learn.play_bot"), "btn-primary", () => playBot(game), "bot"));
    if (fromRoom) actions.push(h("a", { class: "btn btn-secondary", href: `/r/${encodeURIComponent(fromRoom)}`, dataset: { learn: "room" } }, t("learn.back_to_room")));
    actions.push(button(t("learn.again"), "btn-ghost", () => restart(), "restart"));
  }
  $("#learn-end-actions").replaceChildren(...actions);
  endEl.hidden = false;
  endEl.focus();
  say(`${t("learn.end_title")} ${t(`${game}.lesson.finished`)}`);
}

function restart() {
  endEl.hidden = true;
  $(".learn-main").hidden = false;
  loadStep(1);
}

// ---- start ---------------------------------------------------------------------------------

try {
  L.module = await import(`../games/${encodeURIComponent(game)}/index.js`);
} catch (err) {
  console.error(err);
  tell(t("common.error"), "error");
}
if (L.module) await loadStep(1);

// For browser tests and the console.
window.threefold = { lesson: L, act };
