// The game half of the room page: players strip (names, scores, whose turn, countdown), the game's own
// renderer (static/games/<game>/index.js, see docs/protocol.md "Browser renderers"), the log, the result.

import { Coach } from "./coach.js";
import { $, h, prefersReducedMotion } from "./dom.js";
import { formatNumber, playerName, seatLabel, t, teamName } from "./i18n.js";
import { personMenu, renderRemoved, roomSettingsForm } from "./host.js";
import { avatar, presence, renderStandings } from "./lobby.js";
import { entryText, logContext, summaryText } from "./log.js";
import { play } from "./sound.js";

/** A renderer for games that have none yet: the view as text, so a game is at least watchable. */
const fallbackRenderer = {
  mount(el) {
    const pre = h("pre", { class: "fallback-view" });
    el.replaceChildren(h("p", { class: "muted" }, t("room.renderer_missing")), pre);
    return {
      update(msg) {
        pre.textContent = JSON.stringify(msg.view, null, 2);
      },
      destroy() {
        el.replaceChildren();
      },
    };
  },
};

function clockEl() {
  const clock = h("span", { class: "player-clock", hidden: true });
  clock.innerHTML =
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" stroke-width="2.2"/><path d="M12 9v4.5l3 2M9.5 2.5h5" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></svg><span class="player-clock-text"></span>';
  return clock;
}

export class GameView {
  constructor(S, { act, send }) {
    this.S = S;
    this.act = act;
    this.send = send;
    this.players = $("#players");
    this.boardEl = $("#board");
    this.logEl = $("#log");
    this.resultEl = $("#result");
    this.renderer = null;
    this.rendererKey = "";
    this.loadingKey = "";
    this.logLines = [];
    this.logScroll = 0; // the frame that will scroll the log to its end, if one is asked for
    this.deadlineTimer = 0;
    this.deadlineTotal = new Map(); // deadline -> total ms when first seen
    this.resultShownFor = "";
    this.announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
    document.body.append(this.announcer);
    this.lastAnnounce = 0;
    this.coach = new Coach(S, { board: this.boardEl });
    this.rendererContext = null;
  }

  /** Called on every room or state change. */
  update({ stateChanged = false } = {}) {
    const { state } = this.S;
    if (!state) return;
    // The renderer first: the players strip asks it for badges (seatBadge) drawn from the new view.
    if (stateChanged) {
      this.ensureRenderer();
      if (this.renderer) this.safeUpdate(state);
    }
    this.sound = null;
    if (!stateChanged) this.coach.refresh();
    this.renderPlayers();
    this.renderResult();
    this.renderHostPanel();
    renderStandings($("#game-standings"), this.S.room);
    if (stateChanged) {
      this.announceTurn(state);
      this.renderLog(state);
      if (!state.outcome) this.sawPlay = true;
    }
    if (this.sound) play(this.sound);
    this.tickDeadline();
    if (stateChanged) this.followPhase();
  }

  /**
   * Phones follow the game: when the renderer's phase key (data-follow on its phase element) changes, the
   * part that matters (its [data-follow-target], else the element) scrolls into view in the board column
   * and takes the focus, so a screen reader reads it, unless the player is typing or in the side panel.
   */
  followPhase() {
    const holder = this.boardEl.querySelector("[data-follow]");
    const key = holder?.dataset.follow || "";
    if (!key || key === this.followKey) return;
    const first = this.followKey === undefined;
    this.followKey = key;
    if (first) return; // a page just opened shows the phase from the top
    const target = holder.querySelector("[data-follow-target]") || holder;
    const box = target.getBoundingClientRect();
    const view = this.boardEl.closest(".board-col")?.getBoundingClientRect() ?? { top: 0, bottom: window.innerHeight };
    if (box.top < Math.max(0, view.top) || box.bottom > Math.min(window.innerHeight, view.bottom)) {
      target.scrollIntoView({ block: "start", behavior: prefersReducedMotion() ? "auto" : "smooth" });
    }
    const active = document.activeElement;
    const busy = active && active !== document.body && (active.matches("input, textarea, select, [contenteditable='true']") || $("#side-col")?.contains(active));
    if (busy) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }

  /** The sound for this update: the most telling one wins (a result over a turn over a move). */
  cue(name) {
    const rank = ["move", "turn", "draw", "lose", "win"];
    if (!this.sound || rank.indexOf(name) > rank.indexOf(this.sound)) this.sound = name;
  }

  /** "Your turn" for screen readers, and in the tab title while the page is in the background. */
  announceTurn(state) {
    const seat = this.S.mySeat();
    const mine = seat !== null && !state.outcome && (state.to_act || []).includes(seat);
    if (mine && !this.wasMyTurn) {
      this.announcer.textContent = t("room.your_turn");
      this.cue("turn");
    }
    this.wasMyTurn = mine;
    const base = document.title.replace(/^\(\S[^)]*\) /, "");
    document.title = mine && document.hidden ? `(${t("room.your_turn")}) ${base}` : base;
  }

  // ---- renderer ------------------------------------------------------------------------------

  rendererCtx() {
    const S = this.S;
    const seat = S.mySeat();
    return {
      seat,
      get room() {
        return S.room;
      },
      act: (action) => this.act(action),
      t,
    };
  }

  ensureRenderer() {
    const { state, room } = this.S;
    const seat = this.S.mySeat();
    const key = `${state.game}|${seat}|${room?.game_number ?? ""}`;
    if (key === this.rendererKey || key === this.loadingKey) return;
    this.loadingKey = key;
    const game = state.game;
    this.coach.attach(game);
    import(`../games/${encodeURIComponent(game)}/index.js`)
      .catch((err) => {
        console.warn(`no renderer for ${game}`, err);
        return fallbackRenderer;
      })
      .then((mod) => {
        if (this.loadingKey !== key) return; // superseded meanwhile
        this.loadingKey = "";
        if (this.renderer) {
          try {
            this.renderer.destroy();
          } catch (err) {
            console.error(err);
          }
        }
        this.coach.detach();
        this.boardEl.replaceChildren();
        this.rendererKey = key;
        this.rendererContext = this.rendererCtx();
        try {
          this.renderer = mod.mount(this.boardEl, this.rendererContext);
        } catch (err) {
          console.error(err);
          this.renderer = fallbackRenderer.mount(this.boardEl);
        }
        if (this.S.state) this.safeUpdate(this.S.state);
        this.followPhase();
        this.renderPlayers();
        if (this.S.state) {
          this.logLines = []; // draw the log again, with the renderer's words for cells and cards
          this.renderLog(this.S.state);
          this.renderResult();
        }
      });
  }

  safeUpdate(state) {
    try {
      this.renderer.update(state);
    } catch (err) {
      console.error("renderer update failed", err);
    }
    // The coach reads the board the renderer has just drawn (static/js/coach.js).
    this.coach.update(state, this.renderer, this.rendererContext);
  }

  destroy() {
    if (this.renderer) this.renderer.destroy();
    this.coach.detach();
    this.renderer = null;
    this.rendererKey = "";
    this.followKey = undefined;
    clearInterval(this.deadlineTimer);
  }

  // ---- players strip -------------------------------------------------------------------------

  /** The seat's score from the view: per seat, or per team when the view scores teams. */
  scoreOf(seat) {
    const { state, room } = this.S;
    const seats = room?.seats || [];
    const viewScores = state?.view?.scores;
    const team = seats[seat]?.team;
    // A view that lists its teams (with their seats and score) is the authority: in a 2-player
    // Trick-Tac-Foe, seat 0 (South) plays for Black, the second entry of the per-team scores.
    const teams = state?.view?.teams;
    if (Array.isArray(teams)) {
      const mine = teams.find((tm) => Array.isArray(tm?.seats) && tm.seats.includes(seat));
      if (mine && typeof mine.score === "number") return mine.score;
    }
    if (Array.isArray(viewScores)) {
      if (viewScores.length === seats.length && typeof viewScores[seat] === "number") return viewScores[seat];
      if (team !== null && team !== undefined && typeof viewScores[team] === "number") return viewScores[team];
      return null;
    }
    if (viewScores && typeof viewScores === "object") {
      if (typeof viewScores[seat] === "number") return viewScores[seat];
      return null;
    }
    const outcomeScores = state?.outcome?.scores;
    if (Array.isArray(outcomeScores) && typeof outcomeScores[seat] === "number") return outcomeScores[seat];
    return null;
  }

  renderPlayers() {
    const { room, state } = this.S;
    if (!room || !state) return;
    const toAct = new Set(state.to_act || []);
    const mySeat = this.S.mySeat();
    const over = Boolean(state.outcome);
    const items = room.seats.map((seat) => {
      const p = seat.player;
      const moving = !over && toAct.has(seat.index);
      const score = this.scoreOf(seat.index);
      const badge = this.renderer?.seatBadge?.(seat.index) ?? null;
      const winner = over && (state.outcome.winners || []).includes(seat.index);
      return h(
        "li",
        { class: ["player", moving && "player-moving", seat.index === mySeat && "player-mine", winner && "player-winner", p && p.connected === false && "player-away"], dataset: { seat: seat.index } },
        h("span", { class: "player-turn", "aria-hidden": "true" }, moving ? "▶" : ""),
        badge ? h("span", { class: "player-badge" }, badge) : avatar(p, "avatar-sm"),
        h("span", { class: "player-info" },
          h("span", { class: "player-name" }, h("span", { class: "player-name-text" }, p ? playerName(p) : t("room.seat_empty"))),
          h("span", { class: "player-label" },
            [seatLabel(seat), teamName(seat.team, room.game)].filter(Boolean).join(" · "),
            seat.index === mySeat ? h("span", { class: "tag tag-you" }, t("room.you")) : null,
            p && p.bot ? h("span", { class: "tag" }, t("room.bot")) : null,
            p && p.connected === false && !p.bot ? presence(p) : null,
            p && p.standin ? h("span", { class: "tag" }, t("room.standin")) : null)),
        score !== null ? h("span", { class: "player-score", "aria-label": `${t("room.score")}: ${formatNumber(score)}` }, formatNumber(score)) : null,
        moving ? h("span", { class: "player-status" }, h("span", { class: "to-move" }, t("room.to_move")), clockEl()) : null,
      );
    });
    this.players.replaceChildren(...items);
    // A score that went up gets a brief bump (none with reduced motion).
    const scores = new Map(room.seats.map((seat) => [seat.index, this.scoreOf(seat.index)]));
    if (this.lastScores && !prefersReducedMotion()) {
      for (const [index, score] of scores) {
        const before = this.lastScores.get(index);
        if (score !== null && before !== null && before !== undefined && score > before) {
          this.players.querySelector(`[data-seat="${index}"] .player-score`)?.classList.add("score-bump");
        }
      }
    }
    this.lastScores = scores;
    this.tickDeadline();
  }

  // ---- host panel (room settings and people, during a game) --------------------------------

  renderHostPanel() {
    const panel = $("#game-host-panel");
    const { room } = this.S;
    if (!panel || !room) return;
    const isHost = this.S.isHost();
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
    const myId = this.S.myId();
    const people = [
      ...room.seats.filter((s) => s.player && !s.player.bot).map((s) => ({ person: s.player, seat: s.index, label: seatLabel(s) })),
      ...(room.spectators || []).map((p) => ({ person: p, seat: null, label: t("room.spectating") })),
    ].filter((x) => x.person.id !== myId);
    const list = panel.querySelector(".people-list");
    // Keep an open menu open: only rebuild when the people change.
    const sig = JSON.stringify(people.map((x) => [x.person.id, x.person.name, x.seat, x.person.connected, room.host]));
    if (list.dataset.sig === sig) return;
    list.dataset.sig = sig;
    list.replaceChildren(
      ...(people.length
        ? people.map((x) => h("li", { class: "spectator" }, avatar(x.person, "avatar-sm"),
          h("span", { class: "seat-name" }, x.person.name), h("span", { class: "muted small" }, x.label), presence(x.person),
          personMenu(this.S, this.send, x.person, x.seat)))
        : [h("li", { class: "muted small" }, t("room.no_spectators"))]),
    );
  }

  // ---- countdown -----------------------------------------------------------------------------

  tickDeadline() {
    const { state } = this.S;
    clearInterval(this.deadlineTimer);
    if (!state || !state.deadline || state.outcome) return;
    const deadline = Number(state.deadline) - (this.S.clockOffset || 0);
    if (!this.deadlineTotal.has(state.deadline)) {
      this.deadlineTotal.clear();
      this.deadlineTotal.set(state.deadline, Math.max(1000, deadline - Date.now()));
    }
    const total = this.deadlineTotal.get(state.deadline);
    const mine = (state.to_act || []).includes(this.S.mySeat());
    let lastSpoken = null;
    const tick = () => {
      const left = Math.max(0, deadline - Date.now());
      const secs = Math.ceil(left / 1000);
      for (const clock of this.players.querySelectorAll(".player-clock")) {
        clock.hidden = false;
        clock.querySelector(".player-clock-text").textContent = t("room.time_left", { s: secs });
        clock.classList.toggle("urgent", secs <= 5);
        clock.style.setProperty("--left", String(Math.min(1, left / total)));
      }
      if (mine && (secs === 10 || secs === 5) && lastSpoken !== secs) {
        lastSpoken = secs;
        this.announcer.textContent = t("room.time_left", { s: secs });
      }
      if (left <= 0) clearInterval(this.deadlineTimer);
    };
    tick();
    this.deadlineTimer = setInterval(tick, 250);
  }

  // ---- log -----------------------------------------------------------------------------------

  /** The context log entries are phrased in: this room's seats, this game's renderer. */
  logCtx() {
    return logContext(this.S.room, this.renderer);
  }

  /** A log entry in the page's language (static/js/log.js). */
  logText(entry) {
    try {
      return entryText(entry, this.logCtx());
    } catch (err) {
      console.error(err);
      return "";
    }
  }

  /** A log line, with its entry's key and actor as data (for styles and tests). */
  logItem(entry, cls = "") {
    return h("li", { class: cls, dataset: { key: entry?.key ?? "", actor: entry?.actor ?? "" } }, this.logText(entry));
  }

  renderLog(state) {
    const entries = Array.isArray(state.log) ? state.log : [];
    const old = this.logLines;
    // Append only what is new, so screen readers announce just the new lines (role=log): the log goes on
    // from the last entry drawn, if it is still there.
    let fresh = null;
    if (old.length) {
      const last = JSON.stringify(old[old.length - 1]);
      const at = entries.findLastIndex((e) => JSON.stringify(e) === last);
      if (at >= 0) fresh = entries.slice(at + 1);
    }
    if (fresh === null) {
      this.logEl.replaceChildren(...(entries.length ? entries.map((e) => this.logItem(e)) : [h("li", { class: "muted log-empty" }, t("room.log_empty"))]));
    } else {
      this.logEl.querySelector(".log-empty")?.remove();
      for (const e of fresh) this.logEl.append(this.logItem(e, "log-new"));
      if (fresh.length) this.cue("move");
      while (this.logEl.children.length > 200) this.logEl.firstElementChild.remove();
    }
    this.logLines = entries.slice();
    this.scrollLogToEnd();
  }

  /** The log shows its newest line: scrolled once per frame, not once per update, since reading the log's
   * height makes the browser lay out the whole page there and then. */
  scrollLogToEnd() {
    if (this.logScroll) return;
    this.logScroll = requestAnimationFrame(() => {
      this.logScroll = 0;
      this.logEl.scrollTop = this.logEl.scrollHeight;
    });
  }

  // ---- result --------------------------------------------------------------------------------

  /** After a result: the host starts a rematch at once; another seated player accepts one (it starts once
   * every seated person has); anyone else waits for the host. */
  rematchControl(isHost, mySeat) {
    const room = this.S.room;
    const people = room.seats.filter((s) => s.player && !s.player.bot).map((s) => s.player.id);
    const accepted = (room.rematch || []).filter((id) => people.includes(id));
    const count = { n: accepted.length, total: people.length };
    const button = (label) => h("button", { type: "button", class: "btn btn-primary btn-lg", onclick: (e) => {
      e.currentTarget.disabled = true;
      this.send({ type: "rematch" });
    } }, label);
    if (isHost) return button(accepted.length ? t("room.rematch_now", count) : t("room.rematch"));
    if (mySeat === null) return h("p", { class: "muted result-wait" }, t("room.rematch_wait"));
    if (accepted.includes(this.S.myId())) return h("p", { class: "muted result-wait" }, t("room.rematch_accepted", count));
    return button(accepted.length ? t("room.rematch_accept", count) : t("room.rematch"));
  }

  renderResult() {
    const { state, room } = this.S;
    const outcome = state?.outcome;
    if (!outcome) {
      this.resultEl.hidden = true;
      this.resultEl.replaceChildren();
      this.resultShownFor = "";
      return;
    }
    const mySeat = this.S.mySeat();
    const seats = room.seats;
    const nameOf = (i) => playerName(seats[i]?.player) || seatLabel(seats[i]) || `#${i + 1}`;
    const winners = outcome.winners || [];
    let title;
    const ranks = outcome.ranks || [];
    const shared = ranks.length > 0 && ranks.every((r) => r === 0);
    // No winning seat is a draw only when everyone shares first place (the automa may win alone).
    const summary = summaryText(outcome.summary, this.logCtx());
    if (!winners.length) title = shared || !summary ? t("room.draw") : summary;
    else if (mySeat !== null && winners.includes(mySeat)) title = t("room.you_win");
    else if (winners.length === 1) title = t("room.winner", { name: nameOf(winners[0]) });
    else title = t("room.winners", { names: winners.map(nameOf).join(" & ") });

    const replayId = (this.S.pastGames || []).find((g) => g.number === room.game_number)?.id ?? null;
    const order = seats.map((s) => s.index).sort((a, b) => (outcome.ranks?.[a] ?? 0) - (outcome.ranks?.[b] ?? 0));
    const isHost = this.S.isHost();
    let trophy = null;
    if (winners.length) {
      trophy = h("span", { class: "result-trophy", "aria-hidden": "true" });
      trophy.innerHTML =
        '<svg viewBox="0 0 48 48" focusable="false"><path d="M14 6h20v10a10 10 0 0 1-20 0z" fill="currentColor"/><path d="M14 9H7v3a7 7 0 0 0 7 7M34 9h7v3a7 7 0 0 1-7 7" fill="none" stroke="currentColor" stroke-width="3"/><path d="M21 26h6v8h-6zM15 36h18v5H15z" fill="currentColor"/></svg>';
    } else {
      trophy = h("span", { class: "result-trophy result-draw", "aria-hidden": "true" });
      trophy.innerHTML =
        '<svg viewBox="0 0 48 48" focusable="false"><path d="M8 20h32M8 28h32" stroke="currentColor" stroke-width="5" stroke-linecap="round"/></svg>';
    }
    const content = [
      h("div", { class: "result-head" },
        trophy,
        h("div", {},
          h("p", { class: "result-kicker" }, t("room.result")),
          h("h2", { class: "result-title", id: "result-title" }, title))),
      summary ? h("p", { class: "result-summary" }, summary) : null,
      this.renderer?.ownsStandings ? null : h("ol", { class: "result-scores" },
        order.map((i) => h("li", { class: winners.includes(i) ? "is-winner" : "" },
          h("span", { class: "result-rank" }, String((outcome.ranks?.[i] ?? 0) + 1)),
          this.renderer?.seatBadge?.(i) ?? avatar(seats[i]?.player, "avatar-sm"),
          h("span", { class: "result-name" }, nameOf(i)),
          h("span", { class: "result-points" }, t(outcome.scores?.[i] === 1 ? "room.point" : "room.points", { n: outcome.scores?.[i] ?? 0 }))))),
      h("div", { class: "result-actions" },
        this.rematchControl(isHost, mySeat),
        h("button", { type: "button", class: "btn btn-secondary", onclick: () => this.S.openLobby() },
          isHost ? t("room.change_game") : t("room.open_lobby")),
        replayId ? h("a", { class: "btn btn-ghost result-replay", href: `/replay/${replayId}` }, t("room.replay")) : null),
    ];
    this.resultEl.replaceChildren(...content.filter(Boolean));
    this.resultEl.hidden = false;
    const key = `${room.game_number}|${state.version}`;
    if (!this.resultShownFor) {
      this.resultShownFor = key;
      // A result seen live (not on opening a finished room) gets its sound.
      if (this.sawPlay) this.cue(!winners.length ? "draw" : mySeat === null || winners.includes(mySeat) ? "win" : "lose");
      if (!prefersReducedMotion()) this.resultEl.classList.add("result-enter");
      // Move focus to the result only if the user is not typing somewhere.
      const active = document.activeElement;
      if (!active || active === document.body || this.boardEl.contains(active)) {
        this.resultEl.focus({ preventScroll: false });
      }
    }
  }
}
