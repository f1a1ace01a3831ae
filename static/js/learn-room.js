// The room a lesson's renderer believes it sits in (ctx.room, docs/protocol.md "Room summary"): the step's
// seats, the learner's named by their saved name (else "You") and the others named as bots are in a game
// ("Bot 2"), which the renderers, the log's sentences and the refusals read.

import { getMe } from "./me.js";
import { t } from "./i18n.js";

export function lessonRoom(game, step) {
  const me = getMe();
  const you = { id: me?.id ?? -1, name: me?.name || t("room.you"), bot: false, connected: true };
  return {
    code: "",
    game,
    title: t(`${game}.lesson.title`),
    status: "playing",
    // A step is a game of its own: renderers that remember per game (what they animated) start afresh.
    game_number: step.step,
    host: you.id,
    host_actions: [],
    seats: step.seats.map((seat) => ({
      ...seat,
      player: seat.index === step.seat ? you : { id: -2 - seat.index, name: `Bot ${seat.index + 1}`, bot: true, connected: true },
    })),
    spectators: [],
    standings: [],
  };
}
