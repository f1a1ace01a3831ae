// boardgame.io's own server (bench/boardgameio.py installs it outside the repository) with a game of the
// benchmark's shape: two players place marks on a 5x5 board in turn; a full board starts a new one inside
// the same match, since a finished boardgame.io match accepts no more moves (the project's rematch).
//
//   node server.js PORT memory|flatfile [DIR]
'use strict';

const { Server, FlatFile } = require('boardgame.io/server');
const { INVALID_MOVE } = require('boardgame.io/core');

const SIZE = 5;
const LINES = [];
for (let r = 0; r < SIZE; r++) {
  for (let c = 0; c < SIZE; c++) {
    for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
      const end = [r + 2 * dr, c + 2 * dc];
      if (end[0] >= 0 && end[0] < SIZE && end[1] >= 0 && end[1] < SIZE) {
        LINES.push([r * SIZE + c, (r + dr) * SIZE + c + dc, end[0] * SIZE + end[1]]);
      }
    }
  }
}

// Three in a row scores a point for its owner, as Tri-Tac counts rows; the board's end is when it is full.
function rows(cells, mark) {
  let count = 0;
  for (const [a, b, c] of LINES) {
    if (cells[a] === mark && cells[b] === mark && cells[c] === mark) count++;
  }
  return count;
}

const TriTac = {
  name: 'tritac',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ cells: Array(SIZE * SIZE).fill(null), scores: [0, 0], boards: 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    place: ({ G, playerID }, cell) => {
      if (!Number.isInteger(cell) || cell < 0 || cell >= SIZE * SIZE || G.cells[cell] !== null) {
        return INVALID_MOVE;
      }
      G.cells[cell] = playerID;
      if (G.cells.every((mark) => mark !== null)) {
        G.scores = [rows(G.cells, '0'), rows(G.cells, '1')];
        G.cells = Array(SIZE * SIZE).fill(null);
        G.boards += 1;
      }
    },
  },
};

const port = Number(process.argv[2]);
const storage = process.argv[3] || 'memory';
const options = { games: [TriTac] };
if (storage === 'flatfile') {
  options.db = new FlatFile({ dir: process.argv[4], logging: false });
} else if (storage !== 'memory') {
  throw new Error(`unknown storage ${storage}`);
}
const server = Server(options);
server.run(port, () => console.log(`listening ${port}`));
