// Where a playing card's suit symbols go, by rank (2-10), as on a printed deck: [column, height], with columns
// 0-2 from left to right and heights from 0 (top row) to 1 (bottom row). Each renderer that draws cards maps
// these onto its own card art; symbols below the middle are drawn upside down, as on real cards.
export const PIPS = {
  2: [[1, 0], [1, 1]],
  3: [[1, 0], [1, 0.5], [1, 1]],
  4: [[0, 0], [2, 0], [0, 1], [2, 1]],
  5: [[0, 0], [2, 0], [1, 0.5], [0, 1], [2, 1]],
  6: [[0, 0], [2, 0], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  7: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  8: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [1, 0.75], [0, 1], [2, 1]],
  9: [[0, 0], [2, 0], [0, 1 / 3], [2, 1 / 3], [1, 0.5], [0, 2 / 3], [2, 2 / 3], [0, 1], [2, 1]],
  10: [[0, 0], [2, 0], [1, 1 / 6], [0, 1 / 3], [2, 1 / 3], [0, 2 / 3], [2, 2 / 3], [1, 5 / 6], [0, 1], [2, 1]],
};

/** The centres of a rank's suit symbols on a card face: columns at `xs`, rows from `top` down `height`;
 * `flip` marks those drawn upside down. */
export function pipSpots(rank, xs, top, height) {
  return (PIPS[rank] || []).map(([col, row]) => ({ x: xs[col], y: top + row * height, flip: row > 0.5 }));
}
