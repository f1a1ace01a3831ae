// The seats' markers, X and O, as shapes coloured by seat (readable without the colour), on the board and as
// badges.

import { h as el, s as svg } from "../../js/dom.js";
import { xoShape } from "../../js/table/xo.js";

/** An X or O marker centred on (cx, cy) with radius r. */
export function markerShape(marker, cx, cy, r, cls = "") {
  return xoShape(marker, cx, cy, { o: r * 0.92, x: r * 0.78 }, `${marker === "O" ? "tt-o" : "tt-x"} ${cls}`);
}

/** A small standalone marker badge (players strip, result list, the vote). */
export function markerBadge(marker, seat) {
  const box = svg("svg", { viewBox: "0 0 40 40", class: `tt-badge tt-seat-${seat}`, "aria-hidden": "true", focusable: "false" });
  box.append(markerShape(marker, 20, 20, 13, `tt-seat-${seat}`));
  const wrap = el("span", { class: "tt-badge-wrap", title: marker });
  wrap.append(box);
  return wrap;
}
