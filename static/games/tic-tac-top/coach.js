// The coach of Tic Tac Top (static/js/coach.js): what to tap now, and why the scores move as the Leader's
// words come out. Built only from the state message (the view and this seat's redacted events): a ranked word
// is named only once announced, a grid's words only once the reveal made them public.

/** The Leader's bonus for the turn's first line on word `index` (docs/games/tic-tac-top.md, part A). */
const LEADER_BONUS = { 3: 3, 4: 2, 5: 1 };

const enabled = (nodes) => [...nodes].filter((n) => !n.disabled);

/** The part of the screen the move at hand uses: the offered themes, the words and cells while writing, the
 * ranking's words (then Submit), or the Leader's "Next" button during the reveal and the score screen. */
export function coachTargets(msg, ctx, root) {
  const view = msg?.view;
  const seat = ctx?.seat;
  if (!view || seat === null || seat === undefined || msg.outcome || !(msg.to_act || []).includes(seat)) return [];
  const leader = view.leader === seat;
  if (view.phase === "choose" && leader) return enabled(root.querySelectorAll(".ttt-offer"));
  if (view.phase === "write" && leader) {
    const words = enabled(root.querySelectorAll(".ttt-ranker .ttt-chip:not(.is-ranked)"));
    return words.length ? words : enabled(root.querySelectorAll(".ttt-submit"));
  }
  if (view.phase === "write") {
    const cells = enabled(root.querySelectorAll(".ttt-writer-panel .ttt-cell.is-empty"));
    if (!cells.length) return enabled(root.querySelectorAll(".ttt-writer-panel .ttt-lock"));
    return [...enabled(root.querySelectorAll(".ttt-writer-panel .ttt-chip:not(.is-used)")), ...cells];
  }
  if ((view.phase === "reveal" || view.phase === "score") && leader) return enabled(root.querySelectorAll(".ttt-next"));
  return [];
}

/** A turn's scoring rows added up by part (A, B: the Leader's; C, D: the players'). */
function partsOf(scoring, seat) {
  const parts = { A: 0, B: 0, C: 0, D: 0 };
  for (const row of scoring?.rows || []) if (row.seat === seat && row.part in parts) parts[row.part] += row.points;
  return parts;
}

/** One line per announced word (its circles, lines and the first-line bonuses) and per turn scored. */
export function coachLines(prev, msg, ctx) {
  const view = msg?.view;
  const events = Array.isArray(msg?.events) ? msg.events : [];
  if (!view) return [];
  const me = ctx?.seat ?? null;
  const lines = [];
  for (const ev of events) {
    if (ev.kind === "ranked" && ev.countdown && ev.seat !== me) {
      lines.push({ key: "tic-tac-top.coach.countdown", params: { seat: ev.seat, seconds: ev.countdown } });
    } else if (ev.kind === "announce") {
      const base = { word_number: ev.index, word: ev.word };
      const lineSeats = [...new Set((ev.lines || []).map((l) => l.seat))];
      if (ev.first_line) {
        const bonus = LEADER_BONUS[ev.first_line.index] ?? 0;
        const key = bonus ? "tic-tac-top.coach.first_line" : "tic-tac-top.coach.first_line_late";
        lines.push({ key, params: { ...base, seats: ev.first_line.seats, bonus, leader_seat: view.leader } });
      } else if (lineSeats.length) {
        lines.push({ key: "tic-tac-top.coach.line", params: { ...base, seats: lineSeats } });
      } else if ((ev.circled || []).some((c) => c.seat === me)) {
        lines.push({ key: "tic-tac-top.coach.circled_you", params: base });
      } else {
        lines.push({ key: "tic-tac-top.coach.announced", params: { ...base, count: (ev.circled || []).length } });
      }
    } else if (ev.kind === "turn_scored" && ev.scoring) {
      const leader = ev.scoring.leader;
      const lead = partsOf(ev.scoring, leader);
      const key = leader === me ? "tic-tac-top.coach.you_led_scored" : "tic-tac-top.coach.leader_scored";
      lines.push({ key, params: { seat: leader, points: lead.A + lead.B, first: lead.A, best: lead.B } });
      if (me !== null && me !== leader && Array.isArray(ev.scoring.points) && me < ev.scoring.points.length) {
        const mine = partsOf(ev.scoring, me);
        lines.push({ key: "tic-tac-top.coach.you_scored", params: { points: mine.C + mine.D, first: mine.C, lines: mine.D } });
      }
    }
  }
  return lines;
}
