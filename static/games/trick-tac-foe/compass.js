// Where each seat sits around the grid, and which cell a seat's number names (docs/games/trick-tac-foe.md).

export const DIR_ANGLE = { north: 0, east: 90, south: 180, west: 270 };
export const POS_OF_ANGLE = { 0: "top", 90: "right", 180: "bottom", 270: "left" };

export const cellKey = (cell) => `${cell[0]},${cell[1]}`;

/** The canonical cell a seat (by direction key: "south") names with value k (docs/games/trick-tac-foe.md),
 * and its inverse. */
export function cellFor(direction, k) {
  const a = Math.floor((k - 1) / 3);
  const b = (k - 1) % 3;
  if (direction === "south") return [a, b];
  if (direction === "north") return [2 - a, 2 - b];
  if (direction === "west") return [b, 2 - a];
  return [2 - b, a]; // east
}

export function numberFor(direction, cell) {
  for (let k = 1; k <= 9; k += 1) {
    const [r, c] = cellFor(direction, k);
    if (r === cell[0] && c === cell[1]) return k;
  }
  return null;
}
