// The coach of Trick-Tac-Foe (static/js/coach.js): what to do now, and why the grid or the score just
// changed. Built only from the state message (the view and this seat's redacted events): a card is named
// only once revealed, since the events carry no one else's card before that.

/** The number `cell` (canonical [row, column]) has as this viewer reads the grid (the view's `board`). */
function yourNumber(view, cell) {
  const entry = (view?.board || []).find((b) => b.cell[0] === cell[0] && b.cell[1] === cell[1]);
  return entry ? entry.number : null;
}

/** A line of cells as the viewer's numbers, lowest first: "1–5–9". */
function lineNumbers(view, line) {
  return line
    .map((cell) => yourNumber(view, cell))
    .filter((n) => n !== null)
    .sort((a, b) => a - b)
    .join("–");
}

/** Your hand while you may commit, or the nine cells while your wild 10 waits for its cell. */
export function coachTargets(msg, ctx, root) {
  const view = msg?.view;
  const seat = ctx?.seat;
  if (!view || seat === null || seat === undefined || msg.outcome || !(msg.to_act || []).includes(seat)) return [];
  if (view.phase === "commit" && !view.your_card) return [...root.querySelectorAll(".tf-hand-card")];
  if (view.phase === "wild" && view.wild_seat === seat) return [...root.querySelectorAll(".tf-cell")];
  return [];
}

/** One line per trick revealed, cell taken, line scored and round ended in `msg`'s events. */
export function coachLines(prev, msg, ctx) {
  const view = msg?.view;
  const events = Array.isArray(msg?.events) ? msg.events : [];
  if (!view) return [];
  const me = ctx?.seat ?? null;
  const lines = [];
  let reveal = null; // the reveal a following resolve belongs to
  for (const ev of events) {
    if (ev.kind === "reveal") {
      reveal = ev;
      if (ev.wild) {
        const params = { seat: ev.winner, card: ev.card };
        lines.push({ key: ev.winner === me ? "trick-tac-foe.coach.you_wild" : "trick-tac-foe.coach.wild_pending", params });
      }
    } else if (ev.kind === "resolve") {
      const params = { seat: ev.seat, number: ev.number, mine: yourNumber(view, ev.cell), cell: ev.cell, team: ev.team };
      const effect = { place: "placed", flip: "flipped", none: "unchanged" }[ev.effect] || "placed";
      const yours = ev.seat === me ? "you_" : "";
      if (ev.wild) {
        lines.push({ key: `trick-tac-foe.coach.${yours}wild_${effect}`, params });
      } else {
        const trick = reveal && reveal.winner === ev.seat ? reveal : null;
        if (trick) {
          params.card = trick.card;
          const i = trick.seats.indexOf(ev.seat);
          params.other_card = trick.cards[i === 0 ? 1 : 0];
        }
        lines.push({ key: `trick-tac-foe.coach.${yours}${effect}`, params });
      }
      reveal = null;
    } else if (ev.kind === "score") {
      const [red, black] = ev.scores || view.scores || [0, 0];
      const line = (ev.lines || []).map((l) => lineNumbers(view, l)).join(", ");
      lines.push({ key: "trick-tac-foe.coach.scored", params: { team: ev.team, line, red, black } });
    } else if (ev.kind === "round_end") {
      const [red, black] = ev.scores || [0, 0];
      lines.push({ key: "trick-tac-foe.coach.round_over", params: { round: ev.round, red, black } });
    }
  }
  return lines;
}
