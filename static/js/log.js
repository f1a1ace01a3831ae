// The game log and results as the reader reads them: the server sends entries ({v, key, params, actor},
// docs/protocol.md "Log entries"); this turns them into sentences in the page's language, with the
// people's names of the room's seats. Used by the room page, the replay page and the import page.

import { phrase, playerName, seatLabel, t, teamName } from "./i18n.js";

/** How a seat is named in a sentence: the player's name, with the seat's direction where it has one
 * ("Ada (South)"); a renderer's seatName(index, name) hook says what matters in its game ("Ada (X)"). */
export function seatName(room, renderer, index) {
  const seat = room?.seats?.[index];
  const label = seatLabel(seat);
  const name = playerName(seat?.player) || label || t("seat.player", { n: Number(index) + 1 });
  if (renderer?.seatName) {
    const named = renderer.seatName(index, name);
    if (named) return named;
  }
  if (!seat?.direction || name === label) return name; // "Ada (Player 1)" would tell nothing
  return t("log.seat_label", { name, label });
}

/** What phrase() needs to fill an entry in: seats named from the room, teams as the lobby names them, cells
 * and cards as the game's renderer words them (its optional cellText, cardText and valueText hooks). */
export function logContext(room, renderer) {
  return {
    seat: (index) => seatName(room, renderer, index),
    cell: (cell) => renderer?.cellText?.(cell) ?? JSON.stringify(cell),
    card: (card) => renderer?.cardText?.(card) ?? String(card),
    team: (team) => teamName(team, room?.game),
    value: (name, value) => renderer?.valueText?.(name, value),
  };
}

/** One entry as a line of the log: its sentence, and who acted for the seat when it was not its player. */
export function entryText(entry, ctx) {
  return actorNote(entry, phrase(entry, ctx));
}

function actorNote(entry, text) {
  const actor = entry?.actor;
  return actor === "timer" || actor === "standin" || actor === "host" ? t(`log.actor.${actor}`, { text }) : text;
}

/** The outcome's summary ({key, params}) as a sentence. */
export function summaryText(summary, ctx) {
  return summary ? phrase(summary, ctx) : "";
}

/** A refusal's reason ({key, params}) in the page's language. */
export function reasonText(reason, ctx) {
  return reason && typeof reason === "object" ? phrase(reason, ctx) : "";
}
