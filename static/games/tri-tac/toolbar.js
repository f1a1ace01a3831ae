// The bar above the board: the viewer's marker, whose turn and what to do, and the Power Play button.

import { h as el, s as svg } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { markerBadge } from "./markers.js";

export function createToolbar(m) {
  const statusText = el("p", { class: "tt-status", id: `${m.uid}-status` });
  const youChip = el("span", { class: "tt-you" });
  const powerBtn = el("button", { type: "button", class: "btn btn-secondary tt-power", "aria-pressed": "false", hidden: true });
  const powerNote = el("span", { class: "tt-power-note muted small" });
  const node = el("div", { class: "tt-toolbar" }, el("div", { class: "tt-toolbar-main" }, youChip, statusText), el("div", { class: "tt-toolbar-side" }, powerNote, powerBtn));

  function status() {
    const { view, mySeat } = m;
    if (m.lastMsg?.outcome || view.phase === "over") return t("tri-tac.summary_over");
    if (view.phase === "vote") return t("tri-tac.summary_vote");
    if (m.isMyTurn()) {
      if (m.armed) return t("tri-tac.tap_again");
      return m.powerMode ? t("tri-tac.power_hint") : `${t("room.your_turn")} — ${t("tri-tac.place_hint", { marker: m.markerOf(mySeat) })}`;
    }
    if (view.to_move !== null && view.to_move !== undefined) return t("room.waiting_for", { name: m.who(view.to_move) });
    return "";
  }

  function drawPower(spectator) {
    const pp = m.view.power_play;
    if (pp && !spectator && m.view.phase === "turn" && !m.lastMsg?.outcome) {
      const mine = pp[m.mySeat] || {};
      powerBtn.hidden = false;
      powerBtn.disabled = !mine.available || !m.isMyTurn() || m.busy();
      powerBtn.setAttribute("aria-pressed", m.powerMode ? "true" : "false");
      powerBtn.innerHTML = "";
      powerBtn.append(
        svg("svg", { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true" }, svg("path", { d: "M13 2L4 14h7l-1 8 9-12h-7z", fill: "currentColor" })),
        el("span", {}, m.powerMode ? t("tri-tac.power_cancel") : t("tri-tac.power")),
      );
      powerNote.textContent = mine.used ? t("tri-tac.power_used") : mine.available ? "" : t("tri-tac.power_locked");
    } else {
      powerBtn.hidden = true;
      powerNote.textContent = "";
    }
  }

  return {
    node,
    powerBtn,
    draw() {
      const spectator = m.mySeat === null || m.mySeat === undefined;
      youChip.replaceChildren();
      if (!spectator) {
        youChip.append(markerBadge(m.markerOf(m.mySeat), m.mySeat), el("span", {}, t("tri-tac.you_play", { marker: m.markerOf(m.mySeat) })));
      }
      youChip.hidden = spectator;
      statusText.textContent = status();
      statusText.classList.toggle("is-you", m.isMyTurn());
      drawPower(spectator);
    },
  };
}
