// Tiny translation layer: every user-visible string in the browser goes through t().
// Add a language by adding a dictionary to CATALOGS; missing keys fall back to English, then to the key.
// Placeholders: t("room.waiting", {n: 2}) replaces "{n}".

const en = {
  // generic
  "app.name": "Threefold",
  "common.cancel": "Cancel",
  "common.save": "Save",
  "common.close": "Close",
  "common.yes": "Yes",
  "common.no": "No",
  "common.you": "you",
  "common.on": "on",
  "common.off": "off",
  "common.loading": "Loading…",
  "common.error": "Something went wrong.",
  "common.network": "Could not reach the server. Check your connection and try again.",

  // identity
  "me.label": "Your name",
  "me.placeholder": "e.g. Ada",
  "me.save": "Save name",
  "me.saved": "Name saved. Hi, {name}!",
  "me.empty": "Please type a name first (1 to 24 characters).",
  "me.too_long": "Names are at most 24 characters.",
  "me.change": "Change name",
  "me.playing_as": "Playing as",
  "me.anonymous": "No name yet",

  // home
  "home.name_hint": "Friends will see this name at the table.",
  "home.create": "Create a room",
  "home.create_btn": "New {title} room",
  "home.creating": "Creating room…",
  "home.seats": "{min}–{max} players",
  "home.seats_exact": "{n} players",
  "home.join_btn": "Join",
  "home.join_checking": "Looking for room…",
  "home.code_bad": "Room codes are 5 letters or digits, e.g. K7HXM.",
  "home.code_unknown": "No room with the code {code}. Check the code and try again.",
  "home.no_games": "No games are available right now.",

  // game blurbs (home cards, lobby picker)
  "game.tri-tac.blurb": "Place your marks and score every fresh line of three on a board from 3×3 to 12×12. Power plays, combos and special squares optional.",
  "game.trick-tac-foe.blurb": "Win tricks with your cards to claim, flip and line up cells on a shared grid. One-on-one or two teams of two.",
  "game.tic-tac-match.blurb": "Stack symbol cards that match colour or symbol, but not both — and watch out for flips that swap sides.",
  "game.tricky-tactics.blurb": "A trick-taking game of area control: win tricks to add or remove cubes across the map. Two players face an automa.",
  "game.tic-tac-top.blurb": "A party game for 3–7: fill your grid with words from a theme and hope the Leader's ranking lines them up.",
  "game.generic.blurb": "A three-in-a-row game for friends.",

  // connection
  "conn.connecting": "Connecting…",
  "conn.online": "Connected",
  "conn.reconnecting": "Reconnecting…",
  "conn.retry_in": "({s} s)",
  "conn.offline": "Offline",
  "conn.closed": "Disconnected",
  "conn.room_gone": "This room does not exist (any more).",
  "conn.auth": "Please choose a name to join this room.",

  // room / lobby
  "room.title": "Room {code}",
  "room.code": "Room code",
  "room.code_hint": "Read it out or share the link:",
  "room.copy": "Copy link",
  "room.copied": "Link copied!",
  "room.copy_failed": "Could not copy. Select the link and copy it by hand.",
  "room.qr_alt": "QR code to join room {code}",
  "room.share": "Share",
  "room.seats": "Seats",
  "room.seat_empty": "Empty seat",
  "room.sit": "Sit here",
  "room.stand": "Stand up",
  "room.you": "You",
  "room.host": "Host",
  "room.bot": "Bot",
  "room.add_bot": "Add a bot",
  "room.remove_bot": "Remove bot",
  "room.standin": "a bot plays for now",
  "room.online": "online",
  "room.away": "away",
  "room.team": "Team {n}",
  "room.spectators": "Spectators",
  "room.no_spectators": "Nobody is watching yet.",
  "room.game": "Game",
  "room.options": "Options",
  "room.options_readonly": "The host chooses the game and its options.",
  "room.no_options": "This game has no options.",
  "room.start": "Start game",
  "room.waiting_players": "Waiting for {n} more player(s) to sit down…",
  "room.waiting_host": "Waiting for the host to start…",
  "room.ready": "Everyone is seated. Ready when you are!",
  "room.name_prompt_title": "Pick a name to join",
  "room.name_prompt_text": "Your friends will see it at the table.",
  "room.join": "Join room",
  "room.lobby": "Lobby",
  "room.standings": "Standings",
  "room.standings_player": "Player",
  "room.standings_played": "Played",
  "room.standings_wins": "Wins",
  "room.standings_draws": "Draws",
  "room.standings_points": "Points",
  "room.game_number": "Game {n}",
  "room.spectating": "Spectating",
  "room.spectating_hint": "You are watching. Seats are taken in the lobby.",
  "room.rematch": "Rematch",
  "room.rematch_wait": "Waiting for the host to start a rematch…",
  "room.change_game": "Change game or options",
  "room.open_lobby": "Lobby",
  "room.log": "Game log",
  "room.log_empty": "Moves will appear here.",
  "room.to_move": "to move",
  "room.your_turn": "Your turn",
  "room.waiting_for": "Waiting for {name}",
  "room.time_left": "{s} s left",
  "room.score": "Score",
  "room.result": "Result",
  "room.winner": "{name} wins!",
  "room.winners": "{names} win!",
  "room.you_win": "You win!",
  "room.draw": "It's a draw!",
  "room.points": "{n} pts",
  "room.point": "{n} pt",
  "room.hide_result": "Show board",
  "room.show_result": "Show result",
  "room.renderer_missing": "This game has no board in the browser yet.",
  "room.options_invalid": "Invalid JSON.",
  "room.enabled": "Enabled",

  // host tools
  "host.locked": "Lock the room",
  "host.locked_hint": "Nobody new may join; seated players and the host still can.",
  "host.spectators": "Allow spectators",
  "host.spectators_hint": "People without a seat may watch a game in progress.",
  "host.turn_seconds": "Turn timer",
  "host.turn_seconds_hint": "Seconds per move (5–600) for games without their own clock; when time runs out the default move is played.",
  "host.grace_seconds": "Away grace period (seconds)",
  "host.grace_seconds_hint": "How long a player may be away before a bot stands in for them.",
  "host.note_locked": "The room is locked.",
  "host.note_no_spectators": "No spectators during games.",
  "host.note_turn": "Turn timer: {s} s.",
  "host.swap": "Swap with {label} ({who})",
  "host.make_host": "Make host",
  "host.kick": "Remove from room",
  "host.kick_confirm": "Remove {name} from this room? They will not be able to come back.",
  "host.actions": "Host actions",
  "host.actions_for": "Host actions for {name}",
  "host.shuffle": "Shuffle seats",

  // chat
  "chat.title": "Chat",
  "chat.empty": "Say hello!",
  "chat.placeholder": "Write a message…",
  "chat.send": "Send",
  "chat.scope": "Send to",
  "chat.everyone": "Everyone",
  "chat.team": "My team",
  "chat.team_tag": "team",

  // closed room
  "closed.kicked_title": "You were removed from this room",
  "closed.forbidden_title": "You can't join this room",
  "closed.gone_title": "This room doesn't exist",

  // server error codes
  "err.bad_json": "The server could not read that message.",
  "err.bad_message": "That message was not understood.",
  "err.too_large": "That message was too large.",
  "err.rate_limited": "Slow down a little!",
  "err.not_host": "Only the host can do that.",
  "err.not_seated": "Take a seat to play.",
  "err.not_your_turn": "It's not your turn.",
  "err.stale_version": "The game moved on; your view has been refreshed.",
  "err.duplicate": "That move was already sent.",
  "err.illegal": "That move is not allowed.",
  "err.bad_options": "Those options are not valid.",
  "err.seat_taken": "That seat is already taken.",
  "err.not_in_lobby": "That can only be done in the lobby.",
  "err.not_playing": "No game is in progress.",
  "err.seats_empty": "Every seat must be filled to start.",
  "err.disconnected": "Not connected — your move was not sent.",
  "err.no_bot": "This game has no bot yet.",
  "err.kicked": "The host removed you from this room.",
  "err.internal": "The server hit a problem; nothing was changed.",

  // error page
  "error.home": "Back to the home page",

};

export const CATALOGS = { en };

const STORAGE_KEY = "tf_lang";

function pickLanguage() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && CATALOGS[saved]) return saved;
  } catch {
    /* storage may be disabled */
  }
  const doc = document.documentElement.lang;
  if (doc && CATALOGS[doc]) return doc;
  for (const lang of navigator.languages || []) {
    const short = lang.slice(0, 2).toLowerCase();
    if (CATALOGS[short]) return short;
  }
  return "en";
}

let current = typeof document !== "undefined" ? pickLanguage() : "en";

export function language() {
  return current;
}

export function setLanguage(lang) {
  if (!CATALOGS[lang]) return;
  current = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    /* ignore */
  }
  // The server renders the templates in the cookie's language (templates/_i18n.html).
  document.cookie = `${STORAGE_KEY}=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
  document.documentElement.lang = lang;
}

/**
 * Add strings to a language's catalogue (game renderers register their own "<game>.*" keys this way,
 * so each game keeps its strings in its own module). Existing keys are not overwritten.
 */
export function addStrings(lang, dict) {
  if (!CATALOGS[lang]) CATALOGS[lang] = {};
  for (const [key, value] of Object.entries(dict)) {
    if (!(key in CATALOGS[lang])) CATALOGS[lang][key] = value;
  }
}

/** Translate `key`, replacing {placeholders} from `params`. */
export function t(key, params) {
  const dict = CATALOGS[current] || en;
  let text = dict[key] ?? en[key] ?? key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, name) =>
      Object.prototype.hasOwnProperty.call(params, name) ? formatValue(params[name]) : m,
    );
  }
  return text;
}

/** Numbers follow the language (e.g. 1,5 in French). */
export function formatValue(value) {
  if (typeof value === "number") return new Intl.NumberFormat(current).format(value);
  return String(value);
}

/** Does the catalogue know this key? (used for optional strings such as game blurbs) */
export function has(key) {
  const dict = CATALOGS[current] || en;
  return key in dict || key in en;
}
