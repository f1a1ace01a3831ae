// Tri-Tac's coach (the contract: static/js/coach.js): rings the cells the board offers you now (a place, or a
// Power Play target once armed) or the vote's two buttons, and says what each move did: the cell taken, the
// marker Power Play replaced, the lines scored with their bonuses, a lost turn, the vote and the board growing.

const myTurn = (msg, ctx) => ctx.seat !== null && ctx.seat !== undefined && !msg.outcome && (msg.to_act || []).includes(ctx.seat);

export function coachTargets(msg, ctx, root) {
  if (!msg?.view || !myTurn(msg, ctx)) return [];
  if (msg.view.phase === "vote") return [...root.querySelectorAll(".tt-vote-actions button:not([disabled])")];
  return [...root.querySelectorAll(".tt-cell.is-playable")];
}

/** The lines one scoring move made, and where its extra points came from. */
function scored(event) {
  const lines = Array.isArray(event.lines) ? event.lines : [];
  const out = [{ key: "tri-tac.coach.scored", params: { seat: event.seat, lines: lines.length, points: event.points } }];
  const extra = event.breakdown || {};
  if (extra.special > 0) out.push({ key: "tri-tac.coach.special", params: { points: extra.special } });
  if (extra.bonus > 0) out.push({ key: "tri-tac.coach.bonus", params: { points: extra.bonus } });
  if (extra.combo > 0) out.push({ key: "tri-tac.coach.combo", params: { points: extra.combo } });
  return out;
}

export function coachLines(prev, msg) {
  const out = [];
  for (const event of msg?.events || []) {
    switch (event.kind) {
      case "placed":
        out.push({ key: "tri-tac.coach.placed", params: { seat: event.seat, cell: event.cell } });
        break;
      case "power":
        out.push({ key: "tri-tac.coach.power", params: { seat: event.seat, cell: event.cell, other_seat: event.replaced } });
        break;
      case "lines":
        out.push(...scored(event));
        break;
      case "pass":
        out.push({ key: "tri-tac.coach.passed", params: { seat: event.seat } });
        break;
      case "vote_open":
        out.push({ key: "tri-tac.coach.vote_open", params: { size: event.new_size } });
        break;
      case "expanded":
        out.push({ key: "tri-tac.coach.expanded", params: { size: event.size } });
        break;
      case "vote_result":
        if (!event.expanded) out.push({ key: "tri-tac.coach.vote_end", params: {} });
        break;
      case "game_over":
        if (msg.outcome?.summary) out.push({ key: "tri-tac.coach.over", params: { result: msg.outcome.summary } });
        break;
      default:
    }
  }
  return out;
}
