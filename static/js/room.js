// The room page: name prompt (if needed), one WebSocket, the lobby and the game.

import { Chat } from "./chat.js";
import { ActError, CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED, CLOSE_UNKNOWN_ROOM, RoomClient } from "./client.js";
import { $, api, embedded, h, toast } from "./dom.js";
import { GameView } from "./game.js";
import { setupHowTo } from "./howto.js";
import { play, soundToggle } from "./sound.js";
import { optionsProblem, t } from "./i18n.js";
import { logContext, reasonText } from "./log.js";
import { LessonPanel } from "./lesson-panel.js";
import { Lobby, gameIcon } from "./lobby.js";
import { getMe, nameProblem, onMeChange, saveName } from "./me.js";

const LOG_KEPT = 200; // log entries the page keeps, as many as the log panel shows
const meta = embedded("room-meta") || {};
const code = meta.code || $("#room")?.dataset.code;

/** Everything the page knows; lobby.js and game.js read from it. */
const S = {
  me: getMe(),
  you: null, // from "welcome"
  room: embedded("room-data"),
  state: null,
  games: null,
  clockOffset: 0, // server clock − local clock, if the server tells us its time
  connected: false,
  lobbyView: false, // after a game: looking at the lobby (seats, game, options) instead of the result
  watching: false, // TV mode: the page is a shared screen and shows the table as a spectator sees it
  openLobby() {
    this.lobbyView = true;
    render();
    document.getElementById("lobby")?.scrollIntoView({ block: "start" });
  },
  myId() {
    return this.you?.id ?? this.me?.id ?? null;
  },
  mySeat() {
    if (this.watching) return null;
    const id = this.myId();
    const seat = this.room?.seats?.find((s) => s.player && s.player.id === id);
    if (seat) return seat.index;
    if (this.you && Number.isInteger(this.you.seat) && !this.room) return this.you.seat;
    return null;
  },
  isHost() {
    const id = this.myId();
    if (this.room && id !== null) return this.room.host === id;
    return Boolean(this.you?.host);
  },
  canSit() {
    return this.connected;
  },
};

let client = null;
const lobby = new Lobby(S, send);
const game = new GameView(S, { act, send });
const chat = new Chat(S, send);
const lesson = new LessonPanel(S, code, tellLearning);
let closedReason = null; // {code, message} of the error that came with a refusing close

function send(msg) {
  if (!client || !client.send(msg)) {
    toast(t("err.disconnected"), "error");
    return false;
  }
  return true;
}

/** The lesson's progress for the others' lobby (`learning`): a hint, so nothing is said when it cannot be
 * sent (the page sends it again on reconnecting) and a refusal is not shown (see the "error" handler). */
let learningIds = 0;
function tellLearning(progress) {
  if (!client || !S.connected) return false;
  const msg = progress === null ? { type: "learning", step: null } : { type: "learning", step: progress.step, of: progress.of };
  return client.send({ ...msg, id: `learning-${++learningIds}` });
}

function act(action) {
  if (!client) return Promise.reject(new ActError("disconnected"));
  return client.act(action).catch((err) => {
    // The server's own error message already produced a toast; only report local failures here.
    if (err.code === "disconnected" || err.code === "timeout") toast(t("err.disconnected"), "error");
    throw err;
  });
}

// ---- rendering -------------------------------------------------------------------------------

function render({ stateChanged = false } = {}) {
  const { room } = S;
  if (!room || !$("#room-closed").hidden) return;
  const root = $("#room");
  root.dataset.status = room.status;
  root.dataset.guest = String(!S.isHost()); // a guest's phone shows the seats before the code and QR
  if (room.status === "playing") S.lobbyView = false;
  const inGame = room.status !== "lobby" && S.state && !S.lobbyView;
  $("#back-to-game").hidden = !(S.lobbyView && S.state && room.status !== "lobby");
  const wasInGame = !$("#game").hidden;
  $("#lobby").hidden = Boolean(inGame);
  $("#game").hidden = !inGame;
  // At the table the page itself does not scroll: the board, hand and prompt fill one screen and the log,
  // chat and settings sit in a side column (a drawer on narrow screens) that scrolls on its own.
  document.body.classList.toggle("in-table", Boolean(inGame));
  $("#side-toggle").hidden = !inGame;
  if (!inGame) setSideOpen(false);
  lesson.render({ inLobby: !inGame }); // before the focus moves to a game that just started
  if (inGame && !wasInGame) {
    // The game just started (or we came back to it): show it from the top, and keep keyboard users
    // in the game rather than on a vanished Start button.
    const gameEl = $("#game");
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected || $("#lobby").contains(active)) {
      gameEl.focus({ preventScroll: true });
    }
    window.scrollTo(0, 0);
  }
  $("#room-heading").textContent = room.title || room.game;
  const rules = $("#room-rules-link");
  if (rules) rules.href = `/rules/${encodeURIComponent(room.game)}`;
  const icon = $("#room-game-icon");
  if (icon && !icon.src.endsWith(gameIcon(room.game))) icon.src = gameIcon(room.game);
  $("#room-game-number").textContent = room.game_number ? t("room.game_number", { n: room.game_number }) : "";
  document.title = `${room.title || room.game} · ${t("room.title", { code: room.code || code })}`;

  const spectator = S.you !== null && S.mySeat() === null && room.status !== "lobby";
  const badge = $("#spectator-badge");
  badge.hidden = !spectator;
  $("#spectator-text").textContent = t("room.spectating");
  badge.title = t("room.spectating_hint");

  renderPastGames();
  chat.mountIn(inGame ? $("#chat-slot-game") : $("#chat-slot-lobby"));
  chat.render();
  if (!inGame) lobby.render();
  else game.update({ stateChanged });
}

/** The room's finished games with links to their replays (the lobby's "Past games"; the result's link). */
let pastFor = "";
function renderPastGames() {
  const { room } = S;
  const key = room ? `${room.game_number}|${room.status}` : "";
  if (!room || !room.game_number || key === pastFor) return;
  pastFor = key;
  api("GET", `/api/history/rooms/${encodeURIComponent(room.code || code)}`)
    .then((games) => {
      const done = (Array.isArray(games) ? games : []).filter((g) => g.status === "finished");
      S.pastGames = done;
      const panel = $("#past-games");
      panel.hidden = !done.length;
      panel.querySelector(".past-games").replaceChildren(
        ...done.slice().reverse().map((g) => h("li", {}, h("a", { href: `/replay/${g.id}` }, t("room.past_game", { n: g.number })))),
      );
      game.update();
    })
    .catch(() => {});
}

function renderConnection(st) {
  const el = $("#conn");
  const text = $("#conn-text");
  const count = $("#conn-count");
  el.dataset.status = st.status;
  clearInterval(renderConnection.timer);
  count.textContent = "";
  // The text is a live region: it changes once per status; the seconds tick in a hidden-to-AT span.
  const setText = (value) => {
    if (text.textContent !== value) text.textContent = value;
  };
  if (st.status === "online") setText(t("conn.online"));
  else if (st.status === "connecting") setText(t("conn.connecting"));
  else if (st.status === "reconnecting" && st.retryAt) {
    setText(t("conn.reconnecting"));
    const tick = () => {
      const s = Math.max(0, Math.ceil((st.retryAt - Date.now()) / 1000));
      count.textContent = s > 0 ? ` ${t("conn.retry_in", { s })}` : "";
    };
    tick();
    renderConnection.timer = setInterval(tick, 500);
  } else if (st.status === "reconnecting") setText(t("conn.reconnecting"));
  else if (st.status === "closed") {
    setText(st.closeCode === CLOSE_UNKNOWN_ROOM ? t("conn.room_gone") : t("conn.closed"));
  } else setText(t("conn.offline"));
}

// ---- messages --------------------------------------------------------------------------------

function errorText(msg) {
  // Refused options name their field and problem ({key, params}): "Board size: must be a whole number".
  if (msg.code === "bad_options" && msg.reason && typeof msg.reason === "object") return optionsProblem(msg.reason);
  // A move the rules refuse comes with the engine's reason ({key, params}), phrased like the log; a refused
  // entry (forbidden) with why ("room.refused.<why>").
  const reason = reasonText(msg.reason, logContext(S.room, game.renderer));
  if (reason) return reason;
  const key = `err.${msg.code}`;
  const translated = t(key);
  return translated !== key ? translated : t("common.error");
}

// "#practice" (a lesson's "Play against a bot", static/js/learn-bot.js): once, in the lobby, the host takes a
// seat and bots at the normal level fill the others, ready for Start.
let practice = location.hash === "#practice";
function setUpPractice() {
  const { room } = S;
  if (!practice || !room || room.status !== "lobby" || !S.connected || !S.isHost()) return;
  practice = false;
  history.replaceState(history.state, "", location.pathname + location.search);
  let mine = S.mySeat();
  if (mine === null) {
    mine = room.seats.find((seat) => !seat.player)?.index ?? null;
    if (mine !== null) send({ type: "sit", seat: mine });
  }
  for (const seat of room.seats) if (!seat.player && seat.index !== mine) send({ type: "add_bot", seat: seat.index, level: "normal" });
}

function connect() {
  client = new RoomClient(code);
  client.watch = S.watching;
  client.on("status", (st) => {
    S.connected = st.status === "online";
    renderConnection(st);
    if (st.status === "closed" && st.closeCode === CLOSE_UNAUTHORISED) showNamePrompt();
    if (st.status === "closed" && (st.closeCode === CLOSE_FORBIDDEN || st.closeCode === CLOSE_UNKNOWN_ROOM)) showClosed(st.closeCode);
    render();
  });
  client.on("welcome", (msg) => {
    S.you = msg.you || null;
    render();
    lesson.rejoined();
  });
  client.on("room", (msg) => {
    const before = S.room;
    S.room = msg.room;
    // A rematch (new game number) or a return to the lobby drops the old game.
    if (before && (before.game_number !== S.room.game_number || S.room.status === "lobby") && S.state) {
      if (S.room.status === "lobby") {
        S.state = null;
        game.destroy();
      }
    }
    render();
    setUpPractice();
  });
  client.on("state", (msg) => {
    if (typeof msg.now === "number") {
      S.clockOffset = msg.now - Date.now();
      S.clockFromServer = true;
    }
    // A move's state carries only the log entries after the version this socket had (log_since): the
    // page keeps the rest. A full state (no log_since) brings the whole recent log.
    if (msg.log_since !== undefined && Array.isArray(S.state?.log)) {
      if (S.state.version !== msg.log_since) client.send({ type: "sync" }); // a gap: get the whole log
      msg.log = [...S.state.log.filter((e) => e.v <= msg.log_since), ...(msg.log || [])].slice(-LOG_KEPT);
    }
    S.state = msg;
    if (S.room && S.room.status === "lobby") S.room = { ...S.room, status: msg.outcome ? "finished" : "playing" };
    render({ stateChanged: true });
  });
  client.on("chat", (msg) => chat.add(msg));
  client.on("error", (msg) => {
    // The lesson's progress raced the game's start: the lesson is closing anyway.
    if (typeof msg.id === "string" && msg.id.startsWith("learning-")) return;
    if (msg.code === "kicked" || msg.code === "forbidden" || msg.code === "unknown_room") closedReason = msg;
    if (msg.code === "stale_version") client.send({ type: "sync", version: client.lastVersion ?? undefined });
    if (msg.code === "bad_options") lobby.resetOptions();
    play("error");
    toast(errorText(msg), "error");
  });
  client.connect();
}

function showClosed(closeCode) {
  const panel = $("#room-closed");
  let title = t("closed.forbidden_title");
  if (closedReason?.code === "kicked") title = t("closed.kicked_title");
  else if (closeCode === CLOSE_UNKNOWN_ROOM) title = t("closed.gone_title");
  $("#room-closed-title").textContent = title;
  // The refusal's code in the page's language (its message is an English note for developers).
  $("#room-closed-text").textContent = closedReason && closedReason.code !== "kicked" ? errorText(closedReason) : "";
  panel.hidden = false;
  $("#lobby").hidden = true;
  $("#game").hidden = true;
  lesson.close();
  game.destroy();
  S.room = null; // nothing more to show
}

// ---- name prompt -----------------------------------------------------------------------------

function showNamePrompt() {
  const prompt = $("#name-prompt");
  prompt.hidden = false;
  $("#lobby").hidden = true;
  $("#game").hidden = true;
  const input = $("#name-prompt-input");
  if (S.me) input.value = S.me.name;
  input.focus();
}

$("#name-prompt-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("#name-prompt-input");
  const error = $("#name-prompt-error");
  const problem = nameProblem(input.value);
  if (problem) {
    error.textContent = problem;
    error.hidden = false;
    input.focus();
    return;
  }
  try {
    await saveName(input.value); // onMeChange (below) connects
    error.hidden = true;
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
});

// A name was chosen (prompt or header): connect, or reconnect so the room sees the new name.
onMeChange((me) => {
  S.me = me;
  $("#name-prompt").hidden = true;
  if (!client) connect();
  else client.restart();
  render();
});

// ---- share -----------------------------------------------------------------------------------

$("#copy-link")?.addEventListener("click", async () => {
  const input = $("#share-url");
  const url = input.value || location.href;
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(url);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    // Plain http on a LAN has no clipboard API: fall back to selecting and copying.
    input.focus();
    input.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
  }
  toast(ok ? t("room.copied") : t("room.copy_failed"), ok ? "success" : "error", 2500);
});
$("#share-url")?.addEventListener("focus", (e) => e.target.select());

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) document.title = document.title.replace(/^\([^)]*\) /, "");
});

$("#back-to-game")?.addEventListener("click", () => {
  S.lobbyView = false;
  render({ stateChanged: true });
});

// ---- TV mode: fullscreen, no site chrome; the code and QR fill the lobby, the table fills the screen ------

function setTvMode(on, { fullscreen = false } = {}) {
  document.documentElement.classList.toggle("tv-mode", on);
  document.body.classList.toggle("tv-mode", on);
  $("#tv-toggle")?.setAttribute("aria-pressed", String(on));
  const url = new URL(location.href);
  if (on) url.searchParams.set("tv", "1");
  else url.searchParams.delete("tv");
  history.replaceState(history.state, "", url);
  // The TV's socket is a spectator's (docs/protocol.md, `?watch=1`): a seated host's hand or words never
  // reach the shared screen, and their phone still plays. Switching reconnects; the board waits for it.
  if (S.watching !== on) {
    S.watching = on;
    if (client) {
      client.watch = on;
      game.destroy();
      client.restart();
    }
  }
  try {
    if (on && fullscreen && !document.fullscreenElement) document.documentElement.requestFullscreen?.().catch(() => {});
    if (!on && document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
  } catch {
    /* fullscreen is a nicety */
  }
}
$("#tv-toggle")?.addEventListener("click", () => setTvMode(!document.body.classList.contains("tv-mode"), { fullscreen: true }));
$("#tv-exit")?.addEventListener("click", () => {
  setTvMode(false);
  $("#tv-toggle")?.focus();
});
if (new URLSearchParams(location.search).has("tv")) setTvMode(true);

// ---- side drawer (log, chat, settings) on narrow screens ---------------------------------------

function setSideOpen(open) {
  const toggle = $("#side-toggle");
  const side = $("#side-col");
  if (!toggle || !side) return;
  const was = toggle.getAttribute("aria-expanded") === "true";
  toggle.setAttribute("aria-expanded", String(open));
  side.classList.toggle("is-open", open);
  if (open && !was) side.querySelector("#side-close")?.focus({ preventScroll: true });
  if (!open && was && side.contains(document.activeElement)) toggle.focus({ preventScroll: true });
}
$("#side-toggle")?.addEventListener("click", () => setSideOpen($("#side-toggle").getAttribute("aria-expanded") !== "true"));
$("#side-close")?.addEventListener("click", () => setSideOpen(false));
$("#side-col")?.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && $("#side-col").classList.contains("is-open")) setSideOpen(false);
});

// ---- clock -----------------------------------------------------------------------------------

/** Deadlines are server epoch ms: estimate how far this device's clock is off, from the HTTP Date header
 * (second resolution, so only a clear difference is corrected). A `now` field in `state`, if the server
 * sends one, wins. */
async function measureClock() {
  try {
    const t0 = Date.now();
    const res = await fetch("/healthz", { cache: "no-store" });
    const t1 = Date.now();
    const date = Date.parse(res.headers.get("Date") || "");
    if (Number.isNaN(date)) return;
    const offset = date + 500 - (t0 + t1) / 2;
    if (Math.abs(offset) > 2000 && !S.clockFromServer) {
      S.clockOffset = offset;
      render();
    }
  } catch {
    /* keep the local clock */
  }
}
measureClock();

// ---- how to play ------------------------------------------------------------------------------

setupHowTo(() => ({ game: S.room?.game || S.games?.[0]?.name || "", title: S.room?.title || "" }));
soundToggle($("#sound-toggle"));

// ---- start -----------------------------------------------------------------------------------

// (Fetched rather than embedded: Jinja's tojson sorts keys, and the schema's property order is the form's.)
api("GET", "/api/games")
  .then((games) => {
    S.games = Array.isArray(games) ? games : [];
    render();
  })
  .catch(() => {
    S.games = [];
    render();
  });

render();
if (S.me) connect();
else showNamePrompt();

// Debugging aid for the console and for browser tests.
window.threefold = { S, get client() { return client; } };
