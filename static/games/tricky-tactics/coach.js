// The coach of Tricky Tactics (static/js/coach.js): what to do now, and why the map or the score just
// changed, the automa's rule included. Built only from the state message (the view and this seat's redacted
// events): cards are named only as they are played, the automa's by its reason, which names only the cards it
// has turned up.

const same = (a, b) => a !== null && a !== undefined && String(a) === String(b);

/** Your playable cards on your turn, or the Action's targets (panel and map) after you won a trick. */
export function coachTargets(msg, ctx, root) {
  const view = msg?.view;
  const seat = ctx?.seat;
  if (!view || seat === null || seat === undefined || msg.outcome || !(msg.to_act || []).includes(seat)) return [];
  if (view.phase === "play" && same(view.turn, seat)) {
    const playable = new Set(view.playable || []);
    return [...root.querySelectorAll(".tk-hand-card")].filter((b) => playable.has(b.dataset.card));
  }
  if (view.phase === "action" && same(view.pending_action?.player, seat)) {
    return [...root.querySelectorAll(".tk-target, .tk-add-here, .tk-cube-hit")];
  }
  return [];
}

/** The Location's value ("K" → 3) as the game's options set it. */
function valueOf(view, location) {
  return view?.values?.[String(location)[0]] ?? null;
}

/** Who gained most in a round's scoring (`points` follow the view's players), and how much. */
function bestOf(view, points) {
  const ids = (view.players || []).map((p) => p.id);
  const top = Math.max(0, ...points);
  return { seats: ids.filter((_, i) => points[i] === top && top > 0), points: top };
}

/** One line per automa play, trick won, Action and round scored in `msg`'s events. */
export function coachLines(prev, msg, ctx) {
  const view = msg?.view;
  const events = Array.isArray(msg?.events) ? msg.events : [];
  if (!view) return [];
  const me = ctx?.seat ?? null;
  const lines = [];
  for (const ev of events) {
    if (ev.kind === "play" && ev.player === "automa" && Array.isArray(ev.reason)) {
      lines.push({ key: "tricky-tactics.coach.automa_played", params: { card: ev.card, reason: ev.reason } });
    } else if (ev.kind === "trick") {
      const key = same(ev.winner, me) ? "tricky-tactics.coach.you_won_trick" : "tricky-tactics.coach.trick_won";
      lines.push({ key, params: { seat: ev.winner, card: ev.card, suit: ev.led } });
    } else if (ev.kind === "action") {
      if (ev.type === "skip") {
        lines.push({ key: "tricky-tactics.coach.skipped", params: { seat: ev.player, reason: ev.reason || [] } });
      } else if (ev.player === "automa" && Array.isArray(ev.reason)) {
        lines.push({ key: "tricky-tactics.coach.automa_action", params: { reason: ev.reason } });
      } else if (ev.type === "add") {
        lines.push({ key: "tricky-tactics.coach.added", params: { seat: ev.player, location: ev.location, value: valueOf(view, ev.location) } });
      } else if (ev.type === "remove") {
        lines.push({ key: "tricky-tactics.coach.removed", params: { seat: ev.player, owner_seat: ev.owner, location: ev.location } });
      }
    } else if (ev.kind === "round_scored") {
      const points = Array.isArray(ev.points) ? ev.points : [];
      const best = bestOf(view, points);
      const mine = (view.players || []).findIndex((p) => same(p.id, me));
      if (!best.seats.length) {
        lines.push({ key: "tricky-tactics.coach.round_scored_nobody", params: { round: ev.round } });
      } else if (mine >= 0 && best.seats.some((id) => same(id, me))) {
        lines.push({ key: "tricky-tactics.coach.round_scored_you_top", params: { round: ev.round, mine: points[mine] ?? 0 } });
      } else if (mine >= 0) {
        lines.push({ key: "tricky-tactics.coach.round_scored_you", params: { round: ev.round, mine: points[mine] ?? 0, seats: best.seats, points: best.points } });
      } else {
        lines.push({ key: "tricky-tactics.coach.round_scored", params: { round: ev.round, seats: best.seats, points: best.points } });
      }
    }
  }
  return lines;
}
