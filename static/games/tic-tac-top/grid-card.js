// The grids as everyone sees them from the reveal on: circles on the announced words, lines struck
// through, each seat's line count and first-line badge; your own grid big, then the wall of the others.

import { h as el, s as svg } from "../../js/dom.js";
import { centre, rc, reducedMotion, wordSpan } from "./bits.js";
import { baseSig, nameOf, seatChip } from "./seats.js";

/** The circles and strike lines over a grid (words numbered above `fresh` animate in). */
function overlay(grid, fresh) {
  const node = svg("svg", { class: "ttt-overlay", viewBox: "0 0 300 300", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" });
  (grid.marks || []).forEach((mark, cell) => {
    if (mark === null || mark === undefined) return;
    const [x, y] = centre(cell);
    node.append(svg("ellipse", { class: `ttt-ring${mark > fresh && !reducedMotion() ? " is-new" : ""}`, cx: x, cy: y, rx: 42, ry: 39, pathLength: 1 }));
  });
  for (const line of grid.lines || []) {
    const [x0, y0] = centre(line.cells[0]);
    const [x1, y1] = centre(line.cells[2]);
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const ex = ((x1 - x0) / len) * 34;
    const ey = ((y1 - y0) / len) * 34;
    node.append(svg("line", {
      class: `ttt-strike${line.word > fresh && !reducedMotion() ? " is-new" : ""}`,
      x1: (x0 - ex).toFixed(1), y1: (y0 - ey).toFixed(1), x2: (x1 + ex).toFixed(1), y2: (y1 + ey).toFixed(1),
      pathLength: 1,
    }));
  }
  return node;
}

/** One seat's grid `grid` ({words, marks, lines, line_count}) as a card. */
function revealGrid(g, seat, grid, fresh, big) {
  const { t, view } = g;
  const inLine = new Set();
  for (const line of grid.lines || []) for (const c of line.cells) inLine.add(c);
  const cells = (grid.words || []).map((w, cell) => {
    const mark = grid.marks?.[cell] ?? null;
    const isNew = mark !== null && mark > fresh && !reducedMotion();
    return el("div", {
      class: ["ttt-cell", w === null && "is-empty", mark !== null && "is-marked", isNew && "is-new", inLine.has(cell) && "in-line"],
      role: "gridcell",
      "aria-label": `${t("tic-tac-top.cell", rc(cell))}: ${w ?? t("tic-tac-top.empty")}${mark !== null ? ` (${t("tic-tac-top.word_of", { k: mark })})` : ""}`,
    }, wordSpan(w, "—", true), mark !== null ? el("span", { class: "ttt-mark-n", "aria-hidden": "true" }, String(mark)) : null);
  });
  const count = grid.line_count ?? (grid.lines || []).length;
  const lineText = count === 0 ? t("tic-tac-top.no_lines") : count === 1 ? t("tic-tac-top.line") : t("tic-tac-top.lines", { n: count });
  const first = (view.first_line?.seats || []).includes(seat);
  const newLine = (grid.lines || []).some((l) => l.word > fresh) && !reducedMotion();
  return el("figure", { class: ["ttt-gridcard", `ttt-c${seat % 7}`, big && "is-big", seat === g.mySeat && "is-me", first && "has-first", newLine && "is-hot"], "data-seat": seat },
    el("figcaption", { class: "ttt-gridcard-head" },
      seatChip(g, seat),
      el("span", { class: ["ttt-linecount", count > 0 && "has-lines"] }, lineText),
      first ? el("span", { class: "ttt-first-badge" }, `★ ${t("tic-tac-top.first_line_badge")}`) : null),
    el("div", { class: "ttt-gridwrap" },
      el("div", { class: "ttt-grid", role: "grid", "aria-label": t("tic-tac-top.sr_grid", { name: nameOf(g, seat), cells: (grid.words || []).map((w) => w ?? "—").join(", "), lines: lineText }) },
        [0, 1, 2].map((r) => el("div", { class: "ttt-grid-row", role: "row" }, cells.slice(r * 3, r * 3 + 3)))),
      overlay(grid, fresh)));
}

function gridCard(g, seat, fresh, big) {
  const grid = g.view.grids[seat];
  const sig = `${baseSig(g)}|${JSON.stringify(grid)}|${JSON.stringify(g.view.first_line?.seats || [])}|${big}`;
  return g.keyed.part(`grid-${seat}`, sig, () => revealGrid(g, seat, grid, fresh, big));
}

/** Your own grid big (if you have one), then everyone else's. */
export function allGrids(g, fresh) {
  const { view, mySeat, keyed } = g;
  const others = [];
  for (let s = 0; s < view.players; s += 1) if (s !== mySeat && view.grids?.[s]) others.push(s);
  const own = mySeat !== null && view.grids?.[mySeat] ? mySeat : null;
  return [
    own !== null ? keyed.box("own-reveal", "div", { class: "ttt-own-reveal" }, [gridCard(g, own, fresh, true)]) : null,
    others.length ? keyed.box("wall", "div", { class: ["ttt-gridwall", `n${others.length}`] }, others.map((s) => gridCard(g, s, fresh, false))) : null,
  ];
}
