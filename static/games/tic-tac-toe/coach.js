// Tic-Tac-Toe's coach (the contract: static/js/coach.js): rings the empty cells on your turn, and says what
// each move did: the cell taken, a row of two that the third cell would complete, the winning line, a draw.

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

const myTurn = (msg, ctx) => ctx.seat !== null && ctx.seat !== undefined && !msg.outcome && (msg.to_act || []).includes(ctx.seat);

/** The empty cells, when the seat is to move. */
export function coachTargets(msg, ctx, root) {
  const board = msg?.view?.board;
  if (!Array.isArray(board) || !myTurn(msg, ctx)) return [];
  return [...root.querySelectorAll(".ttt-cell[data-cell]")].filter((g) => board[Number(g.dataset.cell)] === null);
}

/** The cells that would complete a line of two of `seat`'s marks. */
function threats(board, seat) {
  const cells = new Set();
  for (const line of LINES) {
    const mine = line.filter((c) => board[c] === seat).length;
    const empty = line.filter((c) => board[c] === null);
    if (mine === 2 && empty.length === 1) cells.add(empty[0]);
  }
  return [...cells].sort((a, b) => a - b);
}

/** Which line won, in words a player finds on the board: row n, column n or a diagonal. */
function wonLine([a, b], seat) {
  if (b - a === 1) return { key: "tic-tac-toe.coach.won_row", params: { seat, n: Math.floor(a / 3) + 1 } };
  if (b - a === 3) return { key: "tic-tac-toe.coach.won_column", params: { seat, n: (a % 3) + 1 } };
  return { key: "tic-tac-toe.coach.won_diagonal", params: { seat } };
}

export function coachLines(prev, msg) {
  const board = msg?.view?.board;
  if (!Array.isArray(board)) return [];
  const lines = [];
  for (const event of msg.events || []) {
    if (event.kind === "placed") {
      const seat = event.seat;
      lines.push({ key: "tic-tac-toe.coach.placed", params: { seat, cell: event.cell } });
      if (!msg.outcome) {
        const open = threats(board, seat);
        if (open.length === 1) lines.push({ key: "tic-tac-toe.coach.threat", params: { seat, cell: open[0] } });
        else if (open.length > 1) lines.push({ key: "tic-tac-toe.coach.fork", params: { seat } });
      }
    } else if (event.kind === "game_over") {
      const line = msg.view.line;
      if (Array.isArray(line)) lines.push(wonLine(line, board[line[0]]));
      else lines.push({ key: "tic-tac-toe.coach.draw", params: {} });
    }
  }
  return lines;
}
