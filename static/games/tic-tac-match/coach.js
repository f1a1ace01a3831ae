// Tic-Tac-Match's coach (the contract: static/js/coach.js): rings your playable cards, then the cells the
// picked card may go on, and says what each play did: the card and cell, the special cards' effects, the
// hands redealt, the line that won the match. Cards are named only from this seat's redacted events.

const myTurn = (msg, ctx) => ctx.seat !== null && ctx.seat !== undefined && !msg.outcome && (msg.to_act || []).includes(ctx.seat);

export function coachTargets(msg, ctx, root) {
  if (!msg?.view || !myTurn(msg, ctx)) return [];
  const cells = [...root.querySelectorAll(".ttm-cell.is-legal")];
  return cells.length ? cells : [...root.querySelectorAll(".ttm-hand-card.is-playable")];
}

function line(event, ctx) {
  const seat = event.seat;
  switch (event.kind) {
    case "play":
      return { key: "tic-tac-match.coach.play", params: { seat, card: event.card, cell: event.cell } };
    case "flip":
      return { key: "tic-tac-match.coach.flip", params: { seat, card: event.card } };
    case "double":
      return { key: "tic-tac-match.coach.double", params: { seat, card: event.card } };
    case "wipeout":
      return { key: "tic-tac-match.coach.wipeout", params: { seat, target_seat: event.target } };
    case "discard":
      return { key: "tic-tac-match.coach.discard", params: { seat, card: event.card } };
    case "forfeit":
      return { key: event.automatic ? "tic-tac-match.coach.forfeit_auto" : "tic-tac-match.coach.forfeit", params: { seat } };
    case "stuck":
      return { key: "tic-tac-match.coach.stuck", params: { seat } };
    case "pass":
      return { key: "tic-tac-match.coach.pass", params: { seat } };
    case "reshuffle":
      return { key: "tic-tac-match.coach.reshuffle", params: {} };
    case "draw":
      // Only your own draw carries its cards; another seat's is just a count, and is not worth a line.
      return event.seat === ctx?.seat && Array.isArray(event.cards) ? { key: "tic-tac-match.coach.drew", params: { cards: event.cards } } : null;
    case "match_won":
      return { key: event.series_over ? "tic-tac-match.coach.series_won" : "tic-tac-match.coach.match_won", params: { seat: event.placed_by, card: { kind: "symbol", colour: event.colour, symbol: event.symbol }, seats: event.seats } };
    default:
      return null;
  }
}

export function coachLines(prev, msg, ctx) {
  return (msg?.events || []).map((event) => line(event, ctx)).filter(Boolean);
}
