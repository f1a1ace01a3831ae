// The coach at the table: a per-player switch, one short line saying why the board or the score just
// changed, and a ring on where the move at hand can go. Only this player's screen shows it; it is built from
// the `state` messages the page already gets (view, to_act, this seat's redacted events), never from
// sentences of the server, so it can name no card the seat may not see.
//
// How a game plugs in: `static/games/<game>/coach.js` (loaded lazily with the renderer; a game without one
// has no switch) exports two functions:
//
//   coachTargets(msg, ctx, root) -> Element[]
//     The renderer's elements to ring for the move at hand (the legal targets of the current step, e.g. the
//     card to play, then the cells once a card is picked); [] when ctx.seat is not to act. `msg` is the
//     latest `state` message, `ctx` the renderer's ctx (ctx.seat, ctx.room, ctx.t), `root` the element the
//     renderer was mounted in: query it by the renderer's own class names and data attributes. It is asked
//     again after every state and whenever the renderer redraws or the player clicks or types on the board.
//
//   coachLines(prev, msg, ctx) -> [{key, params}]
//     What changed between the previous `state` message `prev` (null for the first one) and `msg`, from
//     `msg.events` (flat: {kind, ...fields}, this seat's redaction) and the two views. Keys are `<game>.coach.<name>` in the game's catalogues (EN and FR,
//     at most about 20 words each). Params are phrased as the log phrases them (static/js/i18n.js `phrase`):
//     a param named `seat` / `*_seat`, `cell` / `*_cell`, `card` / `*_card` goes through the renderer's
//     seatName / cellText / cardText hooks, `seats` / `cells` / `cards` become lists, a {key, params} value
//     is phrased in turn, anything else through the renderer's valueText or as it is.
//
// The room page (static/js/game.js) calls `coach.attach(game)` when it loads a renderer, `coach.update(msg,
// renderer, ctx)` after every `renderer.update`, and `coach.detach()` when the renderer goes. The switch is on
// by default when the server's `welcome` says `coach: true` (a seated player's first game of that kind),
// else off; once the player touches it, their choice for that game kind is remembered in localStorage.

import { $ } from "./dom.js";
import { phrase } from "./i18n.js";
import { logContext } from "./log.js";

const STORE_PREFIX = "tf_coach_";
export const TARGET_CLASS = "coach-target";

/** The player's own choice for `game` (true / false), or null when they never touched the switch. */
export function savedChoice(game) {
  try {
    const value = localStorage.getItem(STORE_PREFIX + game);
    return value === "on" ? true : value === "off" ? false : null;
  } catch {
    return null;
  }
}

function saveChoice(game, on) {
  try {
    localStorage.setItem(STORE_PREFIX + game, on ? "on" : "off");
  } catch {
    /* not remembered: the switch still works for this page */
  }
}

/** A game's coach module, or null when the game has none. */
export async function loadCoach(game) {
  try {
    const mod = await import(`../games/${encodeURIComponent(game)}/coach.js`);
    return typeof mod.coachLines === "function" && typeof mod.coachTargets === "function" ? mod : null;
  } catch {
    return null;
  }
}

/** The lines of one update as one sentence group, phrased like the log (names, cells, cards). */
export function linesText(lines, room, renderer) {
  const ctx = logContext(room, renderer);
  return (lines || [])
    .map((line) => {
      try {
        return phrase(line, ctx);
      } catch (err) {
        console.error(err);
        return "";
      }
    })
    .filter(Boolean)
    .join(" ");
}

/** When the side column stands beside the board (app.css: the side toggle is hidden from this width). */
const SIDE_BESIDE = "(min-width: 901px)";

export class Coach {
  /**
   * @param {object} S the room page's state (S.you.coach is the server's default, S.room the room)
   * @param {{toggle?: HTMLElement, line?: HTMLElement, board?: HTMLElement}} parts
   */
  constructor(S, { toggle = $("#coach-toggle"), line = $("#coach-line"), board = $("#board") } = {}) {
    this.S = S;
    this.toggle = toggle;
    this.lineEl = line;
    this.board = board;
    this.game = "";
    this.mod = null;
    this.prev = null;
    this.msg = null;
    this.renderer = null;
    this.ctx = null;
    this.ringed = [];
    this.frame = 0;
    this.shown = false; // a renderer is on the board (the switch is shown at the table only)
    this.toggle?.addEventListener("click", () => this.flip());
    this.placeLine();
    // The renderer redraws on its own too (a card picked, an ack): ring the targets again after it does.
    const again = () => this.scheduleTargets();
    if (this.board && typeof MutationObserver === "function") new MutationObserver(again).observe(this.board, { childList: true, subtree: true });
    for (const type of ["click", "keyup", "focusin"]) this.board?.addEventListener(type, again);
    this.render();
  }

  /** Is the coach on for the current game kind? */
  get on() {
    if (!this.mod) return false;
    const chosen = savedChoice(this.game);
    return chosen ?? this.S?.you?.coach === true;
  }

  /** A renderer of `game` is being mounted: load its coach module (null: no switch for this game). */
  async attach(game) {
    if (game !== this.game) {
      this.game = game;
      this.mod = null;
    }
    this.prev = null;
    this.msg = null;
    const mod = await loadCoach(game);
    if (this.game !== game) return; // another game meanwhile
    this.mod = mod;
    this.refresh();
  }

  detach() {
    this.shown = false;
    this.clearTargets();
    this.prev = null;
    this.msg = null;
    this.renderer = null;
    this.setLine("");
  }

  /** After every `renderer.update(msg)`: the line for what changed, and the targets of the move at hand. */
  update(msg, renderer, ctx) {
    this.renderer = renderer;
    this.ctx = ctx;
    if (!this.shown) {
      this.shown = true;
      this.render();
    }
    const prev = this.msg;
    this.msg = msg;
    this.prev = prev;
    if (!this.mod) return;
    if (this.on) {
      let lines = [];
      try {
        lines = this.mod.coachLines(prev, msg, ctx) || [];
      } catch (err) {
        console.error("coach lines failed", err);
      }
      // One short line: an update that brought several events says what its last one did (the log has all).
      if (lines.length) this.setLine(linesText(lines.slice(-1), this.S?.room, renderer));
      else if (msg?.outcome) this.setLine("");
    }
    this.applyTargets();
  }

  flip() {
    if (!this.mod) return;
    saveChoice(this.game, !this.on);
    this.refresh();
  }

  /** The switch and the rings again (the server's default may have come with a later `welcome`). */
  refresh() {
    this.render();
    this.applyTargets();
  }

  /** The switch: shown when the game has a coach, its state announced (role=switch, aria-checked). */
  render() {
    const toggle = this.toggle;
    if (toggle) {
      toggle.hidden = !this.mod || !this.shown;
      toggle.setAttribute("aria-checked", String(this.on));
    }
    // The line stays in place while the coach is on (a live region must exist before its text changes).
    if (this.lineEl) this.lineEl.hidden = !this.on || !this.shown;
    if (!this.on) this.setLine("");
  }

  /**
   * Where the line sits: beside the board, at the top of the side column, while that column is shown beside
   * it (wide screens), so that it takes no height from the table; above the board where the side column is a
   * drawer (phones, narrow windows).
   */
  placeLine() {
    const line = this.lineEl;
    const side = $("#side-col");
    const boardCol = this.board?.closest(".board-col");
    if (!line || !side || !boardCol || typeof window.matchMedia !== "function") return;
    const wide = window.matchMedia(SIDE_BESIDE);
    const place = () => {
      if (wide.matches) side.querySelector(".side-close-row")?.after(line);
      else boardCol.insertBefore(line, this.board);
      line.classList.toggle("coach-line-side", wide.matches);
    };
    wide.addEventListener("change", place);
    place();
  }

  setLine(text) {
    if (!this.lineEl) return;
    if (this.lineEl.textContent !== text) this.lineEl.textContent = text;
  }

  scheduleTargets() {
    if (this.frame || !this.mod) return;
    const next = typeof requestAnimationFrame === "function" ? requestAnimationFrame : (fn) => setTimeout(fn, 16);
    this.frame = next(() => {
      this.frame = 0;
      this.applyTargets();
    });
  }

  clearTargets() {
    for (const el of this.ringed) el.classList.remove(TARGET_CLASS);
    for (const el of this.board?.querySelectorAll(`.${TARGET_CLASS}`) || []) el.classList.remove(TARGET_CLASS);
    this.ringed = [];
  }

  applyTargets() {
    let targets = [];
    if (this.on && this.mod && this.msg && !this.msg.outcome && this.board) {
      try {
        targets = Array.from(this.mod.coachTargets(this.msg, this.ctx, this.board) || []).filter(Boolean);
      } catch (err) {
        console.error("coach targets failed", err);
      }
    }
    const keep = new Set(targets);
    if (this.ringed.length === keep.size && this.ringed.every((el) => keep.has(el) && el.classList.contains(TARGET_CLASS))) return;
    this.clearTargets();
    for (const el of targets) el.classList.add(TARGET_CLASS);
    this.ringed = targets;
  }
}
