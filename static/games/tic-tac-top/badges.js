// The badge beside each seat in the room page's players strip and result list: the seat's glyph, or the
// Leader's crown. The strip is drawn just before our update, so the badges we made are kept in step.

import { h as el } from "../../js/dom.js";
import { SEAT_GLYPHS } from "./bits.js";

function paintBadge(g, node, seat) {
  const leader = Boolean(g.view) && g.view.leader === seat && g.view.phase !== "over";
  node.classList.toggle("is-leader", leader);
  node.textContent = leader ? "♛" : SEAT_GLYPHS[seat % 7];
  node.title = leader ? g.t("tic-tac-top.leader") : "";
}

export function seatBadge(g, seat) {
  const node = el("span", { class: `ttt-badge ttt-c${seat % 7}`, "aria-hidden": "true" });
  paintBadge(g, node, seat);
  g.badges.push([seat, node]);
  return node;
}

/** Repaint the badges still on the page (the others were replaced by the room page). */
export function repaintBadges(g) {
  g.badges = g.badges.filter(([, node]) => node.isConnected);
  for (const [seat, node] of g.badges) paintBadge(g, node, seat);
}
