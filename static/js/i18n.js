// Tiny translation layer: every user-visible string in the browser goes through t().
// One catalogue per language, the templates' too: static/i18n/<lang>/*.json and each game's
// static/games/<game>/i18n/<lang>.json, merged by the server (app/i18n.py) and fetched here from the address
// base.html preloads (named by its content, kept by the browser). tests/app/test_i18n_catalogues.py fails on
// any English key that French lacks or leaves untranslated. Placeholders: t("room.waiting_players", {n: 2})
// replaces "{n}".

export const LANGUAGES = ["en", "fr"];
/** Language → key → text: the page's language, from the server. */
const CATALOGS = {};

const COOKIE = "tf_lang";

function cookieLanguage() {
  const match = typeof document !== "undefined" ? document.cookie.match(/(?:^|;\s*)tf_lang=([^;]*)/) : null;
  return match ? decodeURIComponent(match[1]) : null;
}

/** The server picks the language (the tf_lang cookie, else the browser's Accept-Language) and writes it
 * into <html lang>, so scripts and templates always agree. */
function pickLanguage() {
  const doc = document.documentElement.lang;
  if (LANGUAGES.includes(doc)) return doc;
  const saved = cookieLanguage();
  if (LANGUAGES.includes(saved)) return saved;
  for (const lang of navigator.languages || []) {
    const short = lang.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

let current = typeof document !== "undefined" ? pickLanguage() : "en";

const LIST = { style: "long", type: "conjunction" };
const formatters = new Map();

/** One Intl formatter per kind, language and options, made once: making one costs far more than using it, and
 * a page formats every number and name of every log line on every update. */
function intl(Kind, options = undefined) {
  const key = `${Kind.name} ${current} ${options === undefined ? "" : JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Kind(current, options);
    formatters.set(key, made);
  }
  return made;
}

CATALOGS[current] = await loadCatalogue();

/** The page's catalogue (every module importing this one waits for it). Unreachable, the page still works
 * and shows keys: better than no page. */
async function loadCatalogue() {
  const link = typeof document !== "undefined" ? document.getElementById("i18n-catalogue") : null;
  if (!link) return {};
  try {
    const response = await fetch(link.href);
    if (response.ok) return await response.json();
  } catch {
    // offline: fall through
  }
  return {};
}

export function language() {
  return current;
}

/** Remember a language (a cookie for a year, read by the server for the templates). The page reloads to
 * show it: see static/js/prefs.js. */
export function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  current = lang;
  document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
  document.documentElement.lang = lang;
}

/** French: the space before : ; ! ? and inside « » does not break (as app/typography.py does for the
 * templates), so a line never starts with the mark. Applied to the catalogue's text, never to names. */
export function frenchSpacing(text) {
  return text
    .replace(/[ \t\n]+([;:!?»])/g, (m, mark) => (mark === ":" || mark === "»" ? "\u00a0" : "\u202f") + mark)
    .replace(/«[ \t\n]+/g, "«\u00a0");
}

/** Translate `key`, replacing {placeholders} from `params`; {n, plural, one {# point} other {# points}}
 * picks the language's plural form of the number n (French: 0 and 1 are singular), # standing for it. */
export function t(key, params) {
  return fill(template(key), params, formatValue);
}

function template(key) {
  const text = CATALOGS[current]?.[key] ?? CATALOGS.en?.[key] ?? key;
  return current === "fr" ? frenchSpacing(text) : text;
}

const PLURAL = /\{(\w+), plural,((?:\s*[\w=]+\s*\{[^{}]*\})+)\s*\}/g;
const BRANCH = /([\w=]+)\s*\{([^{}]*)\}/g;

function fill(text, params, format) {
  if (!params) return text;
  const has = (name) => Object.prototype.hasOwnProperty.call(params, name);
  const plural = text.replace(PLURAL, (m, name, branches) => {
    if (!has(name)) return m;
    const n = Number(params[name]);
    const forms = Object.fromEntries([...branches.matchAll(BRANCH)].map((b) => [b[1], b[2]]));
    const form = forms[`=${n}`] ?? forms[intl(Intl.PluralRules).select(n)] ?? forms.other ?? "";
    return form.replaceAll("#", formatValue(n));
  });
  return plural.replace(/\{(\w+)\}/g, (m, name) => (has(name) ? format(params[name], name) : m));
}

/**
 * A log entry, a result or a refusal ({key, params}, docs/protocol.md "Log entries") as a sentence in the
 * page's language. Parameters are typed by their name: "seat" or "…_seat" is a seat number and "seats" or
 * "…_seats" a list of them (named by `ctx.seat(index)`), "cell"/"…_cell" a cell (`ctx.cell`), "card"/
 * "…_card" a card and "cards" a list (`ctx.card`), "team"/"…_team" a team (`ctx.team`); numbers follow
 * the language, lists are joined as the language joins them ("Ada et Léa").
 */
export function phrase(entry, ctx = {}) {
  if (!entry || typeof entry !== "object") return String(entry ?? "");
  const kinds = [
    [/(^|_)seat$/, (v) => (ctx.seat ? ctx.seat(v) : t("seat.player", { n: Number(v) + 1 }))],
    [/(^|_)cell$/, (v) => (ctx.cell ? ctx.cell(v) : JSON.stringify(v))],
    [/(^|_)card$/, (v) => (ctx.card ? ctx.card(v) : String(v))],
    [/(^|_)team$/, (v) => (ctx.team ? ctx.team(v) : String(v))],
  ];
  const format = (value, name) => {
    // An entry inside an entry (the automa's reason): phrased in turn; several are clauses of one sentence.
    const isEntry = (v) => v && typeof v === "object" && !Array.isArray(v) && typeof v.key === "string";
    if (isEntry(value)) return phrase(value, ctx);
    if (Array.isArray(value) && value.length && value.every(isEntry)) return value.map((v) => phrase(v, ctx)).join(t("log.clause_join"));
    const plural = /(^|_)(seats|cards|cells|teams)$/.exec(name);
    if (plural && Array.isArray(value)) return joinList(value.map((v) => format(v, plural[2].slice(0, -1))));
    for (const [pattern, show] of kinds) if (pattern.test(name)) return show(value);
    if (ctx.value) {
      const shown = ctx.value(name, value);
      if (shown !== undefined && shown !== null) return shown;
    }
    return Array.isArray(value) ? joinList(value.map((v) => formatValue(v))) : formatValue(value);
  };
  return fill(template(entry.key), entry.params || {}, format);
}

/** What was wrong with an option (a bad_options reason, docs/protocol.md) as a sentence: its label is
 * "opt.<game>.<field>", a room setting's "host.<field>" ("Board size: must be a whole number"). */
export function optionsProblem(reason) {
  const game = reason?.params?.game;
  const label = (field) => {
    if (field === "game") return t("options.field_game");
    const key = game ? `opt.${game}.${field}` : `host.${field}`;
    return has(key) ? t(key) : String(field);
  };
  return phrase(reason, { value: (name, value) => (name === "field" ? label(value) : undefined) });
}

/** A refusal from the API (`{"code", "params"}`, app/errors.py) in the page's language: "err.<code>" with
 * its params; never the English `detail`, which is a note for developers. */
export function apiErrorText(data) {
  const code = data && typeof data.code === "string" ? data.code : "";
  const params = data && data.params && typeof data.params === "object" ? data.params : {};
  if (code === "bad_options" && params.reason && typeof params.reason === "object") return optionsProblem(params.reason);
  return code && has(`err.${code}`) ? t(`err.${code}`, params) : t("common.error");
}

/** Words joined as the language joins them: "Ada, Bob and Léa", « Ada, Bob et Léa ». */
export function joinList(items) {
  if (typeof Intl.ListFormat !== "function") return items.join(", ");
  return intl(Intl.ListFormat, LIST).format(items.map(String));
}

/** Numbers follow the language (e.g. 1,5 in French). */
export function formatValue(value) {
  if (typeof value === "number") return intl(Intl.NumberFormat).format(value);
  return String(value);
}

/** A number in the page's language. */
export function formatNumber(value, options) {
  return intl(Intl.NumberFormat, options).format(value);
}

/** A date and/or time in the page's language (options as for Intl.DateTimeFormat). */
export function formatDate(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  return intl(Intl.DateTimeFormat, options).format(value instanceof Date ? value : new Date(value));
}

/** Does the catalogue know this key? (used for optional strings such as game blurbs) */
export function has(key) {
  return key in (CATALOGS[current] || {}) || key in (CATALOGS.en || {});
}

/** Does the current language itself have this key (no English fallback)? */
export function hasOwn(key) {
  return key in (CATALOGS[current] || {});
}

/** A player's name in the page's language: the server names bots by their seat ("Bot 2"), and a bot's
 * level (a code) follows its name wherever it shows: seats, log and result. */
export function playerName(player) {
  if (!player) return "";
  const bot = player.bot ? /^Bot (\d+)$/.exec(String(player.name)) : null;
  const name = bot ? t("room.bot_n", { n: Number(bot[1]) }) : player.name;
  if (!player.bot || !player.level) return name;
  return t("room.bot_named", { name, level: t(`bot.level.${player.level}`) });
}

const SEAT_WORDS = { North: "seat.north", East: "seat.east", South: "seat.south", West: "seat.west" };

/** A seat's name in the page's language: its compass direction where the game seats by compass ("North"),
 * else its number ("Player 2"). `seat` is the server's data ({index, direction}, docs/protocol.md "Room
 * summary"); an English label ("Player 2", "North") still works for a renderer that passes one. */
export function seatLabel(seat) {
  if (seat === null || seat === undefined) return "";
  if (typeof seat === "object") {
    if (seat.direction) return t(`seat.${seat.direction}`);
    return Number.isInteger(seat.index) ? t("seat.player", { n: seat.index + 1 }) : "";
  }
  const text = String(seat);
  const player = /^Player (\d+)$/.exec(text);
  if (player) return t("seat.player", { n: Number(player[1]) });
  return SEAT_WORDS[text] ? t(SEAT_WORDS[text]) : text;
}

/** A team's name: the game's own ("Red", "Team A": "team.<game>.<n>") where it has one, so the lobby, the
 * players strip, the board and the log all say the same; else "Team 1". */
export function teamName(team, game) {
  if (team === null || team === undefined) return "";
  const own = `team.${game}.${team}`;
  return game && has(own) ? t(own) : t("room.team", { n: Number(team) + 1 });
}
