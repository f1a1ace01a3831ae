// The news line: what the last state's events did, in words ("Ada played Flip — …"), and the position
// summarised for screen readers.

import { h as el, prefersReducedMotion } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { matchText } from "./matches.js";
import { cardName, cellName } from "./names.js";

export function createNews(m) {
  const node = el("p", { class: "ttm-news", role: "status", "aria-live": "polite" });
  const summary = el("p", { class: "visually-hidden", id: `${m.uid}-summary` });

  function eventText(ev) {
    const name = (s) => m.nameOf(s);
    switch (ev.kind) {
      case "play":
        return t("tic-tac-match.ev_play", { name: name(ev.seat), card: cardName(ev.card), where: cellName(ev.cell[0], ev.cell[1]) });
      case "flip": {
        const side = m.view.your_side ?? 0;
        return t("tic-tac-match.ev_flip", { name: name(ev.seat), side: m.mySeat === null ? m.sideName(side) : t("tic-tac-match.you"), sym: (ev.ids || m.view.ids)[m.mySeat ?? side] });
      }
      case "wipeout":
        return t("tic-tac-match.ev_wipe", { name: name(ev.seat), target: name(ev.target) });
      case "double":
        return t("tic-tac-match.ev_double", { name: name(ev.seat) });
      case "discard":
        return t("tic-tac-match.ev_discard", { name: name(ev.seat), card: cardName(ev.card) });
      case "forfeit":
        return ev.automatic ? t("tic-tac-match.ev_forfeit_auto", { name: name(ev.seat) }) : t("tic-tac-match.ev_forfeit", { name: name(ev.seat) });
      case "reshuffle":
        return t("tic-tac-match.ev_reshuffle", { a: ev.from_discard, b: ev.from_grid });
      case "stuck":
        return t("tic-tac-match.ev_stuck", { name: name(ev.seat), n: ev.redraw });
      case "pass":
        return t("tic-tac-match.ev_pass", { name: name(ev.seat) });
      case "match_won":
        return matchText(m, ev);
      case "match_start":
        return ev.match > 1 ? t("tic-tac-match.ev_start", { n: ev.match, name: name(ev.dealer), card: cardName(ev.centre) }) : "";
      default:
        return "";
    }
  }

  function show(events) {
    const texts = events.map(eventText).filter(Boolean);
    if (!texts.length) return;
    // The action itself first, then what followed automatically; draws are not news.
    node.textContent = texts.join(" · ");
    node.classList.remove("is-fresh");
    if (!prefersReducedMotion()) {
      void node.offsetWidth;
      node.classList.add("is-fresh");
    }
    const kinds = new Set(events.map((e) => e.kind));
    node.dataset.kind = kinds.has("match_won") ? "match" : kinds.has("flip") ? "flip" : kinds.has("wipeout") ? "wipe" : kinds.has("double") ? "double" : kinds.has("reshuffle") ? "reshuffle" : "play";
  }

  function drawSummary() {
    const { view } = m;
    const ids = view.sides.map((s, i) => t("tic-tac-match.sides_ids", { side: m.sideName(i), sym: s.symbol })).join(", ");
    const turn = view.over ? t("tic-tac-match.over") + "." : view.turn !== null ? `${t("tic-tac-match.waiting_for", { name: m.nameOf(view.turn) })}.` : "";
    const sizes = (view.hand_sizes || []).map((n, seat) => t("tic-tac-match.hand_sizes", { name: m.nameOf(seat), n })).join(", ");
    summary.textContent = `${t("tic-tac-match.summary", { m: view.match, ids, score: `${view.sides[0].wins}–${view.sides[1].wins}`, turn, d: view.draw_count, x: view.discard_count })} ${sizes}.`;
  }

  return { node, summary, show, drawSummary };
}
