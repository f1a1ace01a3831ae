// The lobby: seats, spectators, the host's game picker and options form, the Start button.
// Also the standings table, shared with the game view.

import { $, embedded, h } from "./dom.js";
import { Keyed, reconcile } from "./keyed.js";
import { formatNumber, has, language, playerName, seatLabel, t, teamName } from "./i18n.js";
import { personMenu, renderRemoved, roomSettingsForm, roomSettingsNotes } from "./host.js";
import { optionsForm, optionsSummary, pageLanguageOptions } from "./schema-form.js";

const GENERIC_ICON = "/static/img/generic-game.svg";
let icons = null;

/** A game's icon, from its folder: the page lists the server's games and their icons (app/game_folders.py);
 * a game it does not list gets the generic one. */
export function gameIcon(name) {
  if (icons === null) icons = embedded("game-icons") || {};
  return typeof icons[name] === "string" ? icons[name] : GENERIC_ICON;
}

export function blurb(name) {
  const key = `game.${name}.blurb`;
  return has(key) ? t(key) : t("game.generic.blurb");
}

/** A stable, pleasant hue per player id, for avatars (decoration only: names are always shown). */
function hue(id) {
  let x = Number(id) || 0;
  x = ((x * 2654435761) >>> 0) % 360;
  return x;
}

const BOT_LEVELS = ["easy", "normal", "strong"];

/** The host's choice of a bot seat's level: easy, normal or strong. */
function levelSelect(player, choose, seatName) {
  const select = h("select", { class: "bot-level", "aria-label": `${t("room.bot_level")}: ${seatName}`, title: t("room.bot_level"),
    onchange: (event) => choose(event.target.value) },
    BOT_LEVELS.map((level) => h("option", { value: level, selected: (player.level || "normal") === level }, t(`bot.level.${level}`))));
  return select;
}

export function botIcon() {
  const span = h("span", { class: "icon-wrap", "aria-hidden": "true" });
  span.innerHTML =
    '<svg class="icon" viewBox="0 0 24 24" focusable="false"><rect x="4" y="8" width="16" height="12" rx="3" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 4v4M9 13v1M15 13v1M9.5 17h5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><circle cx="12" cy="3.5" r="1.5" fill="currentColor"/></svg>';
  return span;
}

export function avatar(player, extraClass = "") {
  if (!player) return h("span", { class: ["avatar", "avatar-empty", extraClass], "aria-hidden": "true" });
  if (player.bot) return h("span", { class: ["avatar", "avatar-bot", extraClass], "aria-hidden": "true" }, botIcon());
  const initial = [...(player.name || "?").trim()][0]?.toUpperCase() || "?";
  return h("span", { class: ["avatar", extraClass], style: { "--avatar-hue": hue(player.id) }, "aria-hidden": "true" }, initial);
}

/** Connected / away, shown with a shape and a word, never by colour alone. */
export function presence(player) {
  if (!player || player.bot) return null;
  const on = player.connected !== false;
  return h(
    "span",
    { class: ["presence", on ? "presence-on" : "presence-away"] },
    h("span", { class: "presence-dot", "aria-hidden": "true" }),
    on ? t("room.online") : t("room.away"),
  );
}

/** "learning 3/6": the person is going through the game's lesson while the room waits (words, not colour). */
export function learningNote(player) {
  const progress = player?.learning;
  if (!progress || !Number.isInteger(progress.step) || !Number.isInteger(progress.of)) return null;
  const icon = h("span", { class: "icon-wrap", "aria-hidden": "true" });
  icon.innerHTML =
    '<svg class="icon" viewBox="0 0 24 24" focusable="false"><path d="M4 5.5C6.5 4.5 9.5 4.5 12 6.5c2.5-2 5.5-2 8-1v13c-2.5-1-5.5-1-8 1-2.5-2-5.5-2-8-1z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/><path d="M12 6.5v13" stroke="currentColor" stroke-width="2"/></svg>';
  return h("span", { class: "learning-note" }, icon, t("room.learning", { step: progress.step, of: progress.of }));
}

/** Online or away, and learning if they are: one line, so a seat card keeps its height. */
function seatStatus(player) {
  const parts = [presence(player), learningNote(player)].filter(Boolean);
  return parts.length ? h("span", { class: "seat-status" }, parts) : null;
}

export function standingsTable(room) {
  const rows = room?.standings || [];
  if (!rows.length) return null;
  const sorted = [...rows].sort((a, b) => b.points - a.points || b.wins - a.wins);
  return h(
    "table",
    { class: "standings" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("room.standings_player")),
      h("th", { scope: "col", class: "num" }, t("room.standings_played")),
      h("th", { scope: "col", class: "num" }, t("room.standings_wins")),
      h("th", { scope: "col", class: "num" }, t("room.standings_draws")),
      h("th", { scope: "col", class: "num" }, t("room.standings_points")))),
    h("tbody", {}, sorted.map((r) => h("tr", {},
      h("th", { scope: "row" }, r.name),
      h("td", { class: "num" }, formatNumber(r.played)),
      h("td", { class: "num" }, formatNumber(r.wins)),
      h("td", { class: "num" }, formatNumber(r.draws)),
      h("td", { class: "num" }, formatNumber(r.points))))),
  );
}

export function renderStandings(panel, room) {
  if (!panel) return;
  const table = standingsTable(room);
  panel.hidden = !table;
  const body = panel.querySelector(".standings-body");
  body.replaceChildren(...(table ? [table] : []));
}

export class Lobby {
  constructor(S, send) {
    this.S = S;
    this.send = send;
    this.seatList = $("#seat-list");
    this.spectatorList = $("#spectator-list");
    this.setup = $("#setup");
    this.startBtn = $("#start-btn");
    this.startNote = $("#start-note");
    this.startText = $("#start-text");
    this.form = null; // {el, setValues, game, schemaKey}
    this.setupKey = "";
    this.settingsForm = null;
    this.rows = new Keyed(); // the seat rows, kept while their seat is unchanged
    this.spectatorRows = new Keyed();
    this.shuffleBtn = $("#shuffle-btn");
    this.shuffleBtn?.addEventListener("click", () => this.send({ type: "shuffle" }));
    this.startBtn.addEventListener("click", () => {
      this.startBtn.disabled = true;
      this.send({ type: "start" });
      setTimeout(() => this.render(), 1500);
    });
  }

  render() {
    const { room } = this.S;
    if (!room) return;
    this.renderSeats();
    this.renderSpectators();
    this.renderSetup();
    this.renderStart();
    this.renderHostPanel();
    renderStandings($("#lobby-standings"), room);
  }

  renderHostPanel() {
    const { room } = this.S;
    const isHost = this.S.isHost();
    const panel = $("#lobby-host-panel");
    if (this.shuffleBtn) {
      this.shuffleBtn.hidden = !isHost || room.seats.length < 2 || room.status === "playing";
      this.shuffleBtn.title = t("host.shuffle");
    }
    const notes = $("#room-notes");
    if (notes) notes.textContent = roomSettingsNotes(room.settings).join(" ");
    if (!panel) return;
    panel.hidden = !isHost || !room.settings;
    if (panel.hidden) {
      this.settingsForm = null;
      panel.querySelector(".host-settings").replaceChildren();
      return;
    }
    if (!this.settingsForm) {
      this.settingsForm = roomSettingsForm(room.settings, this.send);
      panel.querySelector(".host-settings").replaceChildren(this.settingsForm.el);
    } else {
      this.settingsForm.setValues(room.settings);
    }
    renderRemoved(panel, room, this.send);
  }

  /** Whose the page is: nobody's on a shared screen (TV mode), which shows the room's seats, not the player's. */
  viewer() {
    return this.S.watching ? null : this.S.myId();
  }

  renderSeats() {
    const { room } = this.S;
    const myId = this.viewer();
    const isHost = this.S.isHost();
    // A screen takes no seat: its player sits from their phone (the host's tools stay, to run the room).
    const canSit = this.S.canSit() && !this.S.watching;
    const canHost = isHost && this.S.canSit();
    // A row depends on its own seat and on who is looking; the host's menu reads the other seats when it
    // opens. So a bot taking one seat leaves every other row, and a button being pressed on it, alone.
    const shared = [room.host, room.status, room.seats.length, room.game, isHost, canSit, canHost, myId];
    this.rows.begin();
    reconcile(this.seatList, room.seats.map((seat) =>
      this.rows.part(`seat-${seat.index}`, JSON.stringify([seat, ...shared]), () => this.seatRow(seat, { myId, isHost, canSit, canHost }))));
    this.rows.sweep();
  }

  seatRow(seat, { myId, isHost, canSit, canHost }) {
    const { room } = this.S;
    const p = seat.player;
    const mine = p && myId !== null && p.id === myId; // a bot has no id, nor a screen a viewer
    const host = p && p.id === room.host;
    const label = [seatLabel(seat), teamName(seat.team, room.game)].filter(Boolean).join(" · ");
    const lobby = room.status !== "playing"; // seats can change before a game and between games
    const actions = [];
    if (lobby && !p && (canSit || canHost)) {
      if (canSit) {
        actions.push(h("button", { type: "button", class: "btn btn-primary btn-sm", onclick: () => this.send({ type: "sit", seat: seat.index }),
          "aria-label": `${t("room.sit")}: ${seatLabel(seat)}` }, t("room.sit")));
      }
      if (canHost) {
        actions.push(h("button", { type: "button", class: "btn btn-ghost btn-sm", onclick: () => this.send({ type: "add_bot", seat: seat.index }),
          "aria-label": `${t("room.add_bot")}: ${seatLabel(seat)}`, title: t("room.add_bot") }, botIcon(), h("span", { class: "btn-text-sm" }, t("room.bot"))));
      }
    } else if (lobby && mine) {
      actions.push(h("button", { type: "button", class: "btn btn-ghost btn-sm", onclick: () => this.send({ type: "stand" }) }, t("room.stand")));
    } else if (lobby && p && p.bot && canHost) {
      actions.push(levelSelect(p, (level) => this.send({ type: "add_bot", seat: seat.index, level }), seatLabel(seat)));
      actions.push(h("button", { type: "button", class: "btn btn-ghost btn-sm", onclick: () => this.send({ type: "remove_bot", seat: seat.index }),
        "aria-label": `${t("room.remove_bot")}: ${seatLabel(seat)}` }, t("room.remove_bot")));
    }
    if (canHost) {
      const menu = personMenu(this.S, this.send, p, seat.index);
      if (menu) actions.push(menu);
    }
    return h(
      "li",
      { class: ["seat-card", p ? "seat-taken" : "seat-empty", mine && "seat-mine"], dataset: { team: seat.team ?? "" } },
      avatar(p),
      h("div", { class: "seat-info" },
        h("span", { class: "seat-label" }, label),
        p
          ? h("span", { class: "seat-player" },
            h("span", { class: "seat-name" }, playerName(p)),
            mine ? h("span", { class: "tag tag-you" }, t("room.you")) : null,
            host ? h("span", { class: "tag tag-host" }, t("room.host")) : null,
            p.bot ? h("span", { class: "tag" }, t("room.bot")) : null)
          : h("span", { class: "seat-player seat-player-empty" }, t("room.seat_empty")),
        seatStatus(p)),
      h("div", { class: "seat-actions" }, actions),
    );
  }

  renderSpectators() {
    const { room } = this.S;
    const myId = this.viewer();
    const isHost = this.S.isHost();
    const list = room.spectators || [];
    this.spectatorRows.begin();
    reconcile(this.spectatorList, list.length
      ? list.map((p) => this.spectatorRows.part(`spectator-${p.id}`, JSON.stringify([p, room.host, isHost, myId]), () =>
        h("li", { class: "spectator" }, avatar(p, "avatar-sm"),
          h("span", { class: "seat-name" }, p.name),
          p.id === myId ? h("span", { class: "tag tag-you" }, t("room.you")) : null,
          p.id === room.host ? h("span", { class: "tag tag-host" }, t("room.host")) : null,
          presence(p),
          learningNote(p),
          isHost ? personMenu(this.S, this.send, p, null) : null)))
      : [this.spectatorRows.part("none", "", () => h("li", { class: "muted small" }, t("room.no_spectators")))]);
    this.spectatorRows.sweep();
  }

  renderSetup() {
    const { room, games } = this.S;
    const isHost = this.S.isHost();
    const game = games?.find((g) => g.name === room.game);
    const key = `${isHost}|${room.game}|${games ? games.length : 0}`;
    if (key !== this.setupKey) {
      this.setupKey = key;
      this.form = null;
      const parts = [];
      if (isHost && games && games.length > 1) {
        parts.push(this.gamePicker(games, room.game));
      } else {
        parts.push(h("div", { class: "setup-game" },
          h("img", { src: gameIcon(room.game), alt: "", width: 48, height: 48 }),
          h("div", {}, h("p", { class: "setup-game-title" }, room.title || game?.title || room.game), h("p", { class: "muted small" }, blurb(room.game)))));
      }
      if (game) {
        parts.push(h("h3", { class: "subhead" }, t("room.options")));
        if (isHost) {
          this.form = optionsForm(game.options_schema, room.options, (options) => this.send({ type: "configure", options }), `opt.${game.name}`);
          parts.push(this.form.el);
        } else {
          this.summaryHolder = h("div", {}, optionsSummary(game.options_schema, room.options, `opt.${game.name}`));
          parts.push(this.summaryHolder, h("p", { class: "muted small" }, t("room.options_readonly")));
        }
      } else if (!games) {
        parts.push(h("p", { class: "muted" }, t("common.loading")));
      }
      this.setup.replaceChildren(...parts);
    } else if (game) {
      if (this.form) this.form.setValues(room.options);
      else if (this.summaryHolder) this.summaryHolder.replaceChildren(optionsSummary(game.options_schema, room.options, `opt.${game.name}`));
    }
    // keep the picker in step with the server
    for (const input of this.setup.querySelectorAll("input[name=game-pick]")) input.checked = input.value === room.game;
  }

  /** Called after a bad_options error: put the form back to what the server holds. */
  resetOptions() {
    if (this.form) this.form.setValues(this.S.room.options, { force: true });
    if (this.settingsForm && this.S.room.settings) this.settingsForm.setValues(this.S.room.settings, { force: true });
  }

  gamePicker(games, current) {
    return h(
      "fieldset",
      { class: "game-picker" },
      h("legend", { class: "field-label" }, t("room.game")),
      games.map((g) => {
        const id = `pick-${g.name}`;
        const input = h("input", { type: "radio", name: "game-pick", id, value: g.name, class: "visually-hidden", checked: g.name === current });
        input.addEventListener("change", () => {
          if (!input.checked) return;
          // A game with a language option (its words come in several) starts with the page's language.
          const msg = { type: "configure", game: g.name };
          const options = pageLanguageOptions(g.options_schema?.properties?.language, language());
          if (options) msg.options = options;
          this.send(msg);
        });
        return h("div", { class: "game-pick" },
          input,
          h("label", { for: id },
            h("img", { src: gameIcon(g.name), alt: "", width: 36, height: 36 }),
            h("span", { class: "game-pick-text" },
              h("span", { class: "game-pick-title" }, g.title),
              h("span", { class: "game-pick-seats" },
                g.min_seats === g.max_seats ? t("home.seats_exact", { n: g.min_seats }) : t("home.seats", { min: g.min_seats, max: g.max_seats })))));
      }),
    );
  }

  renderStart() {
    const { room } = this.S;
    const missing = room.seats.filter((s) => !s.player).length;
    const isHost = this.S.isHost();
    this.startBtn.hidden = !isHost;
    this.startBtn.disabled = !isHost || missing > 0 || room.status === "playing";
    this.startText.textContent = t("room.start");
    if (missing > 0) this.startNote.textContent = t("room.waiting_players", { n: missing });
    else this.startNote.textContent = isHost ? t("room.ready") : t("room.waiting_host");
  }
}
