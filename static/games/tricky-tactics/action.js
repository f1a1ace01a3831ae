// The Action chooser after you win a trick: add a cube or remove an opponent's, on the Locations the view's
// `pending_action` offers in the led suit's Area.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { SYMBOL } from "../../js/table/cards.js";
import { locText, put, suitName } from "./state.js";

/** The Location `id` of the map, or null. */
export function findLoc(view, id) {
  for (const area of view.map || []) for (const loc of area.locations) if (loc.id === id) return loc;
  return null;
}

/**
 * Draw the Action chooser of `T` into `panel` (hidden unless you must choose). `submit(action)` sends the
 * choice, `render()` redraws after a mode change, `highlight(location, on)` marks a Location on the map.
 */
export function drawAction(T, panel, { submit, render, highlight }) {
  const view = T.view;
  const pa = T.myPendingAction();
  if (!pa) {
    panel.hidden = true;
    panel.replaceChildren();
    T.mode = null;
    T.modeFor = "";
    return;
  }
  const pending = T.gate.pending;
  const { cube, suitIcon } = T.art;
  const adds = pa.add || [];
  const removes = pa.remove || [];
  const key = `${view.round}|${(view.tricks || []).length}`;
  if (T.modeFor !== key || (T.mode === "add" && !adds.length) || (T.mode === "remove" && !removes.length)) {
    T.mode = adds.length ? "add" : "remove";
    T.modeFor = key;
  }
  const suit = pa.suit;
  const modeBtn = (m, count, label, none) =>
    el("button", {
      type: "button",
      class: ["tk-mode", T.mode === m && "is-on"],
      role: "radio",
      "aria-checked": T.mode === m ? "true" : "false",
      disabled: !count || pending,
      dataset: { mode: m, focus: `mode-${m}` },
      onclick: () => {
        T.mode = m;
        render();
      },
    }, el("span", { class: "tk-mode-icon", "aria-hidden": "true" }, m === "add" ? "+" : "−"), count ? label : none);
  const targets = (T.mode === "add" ? adds.map((loc) => ({ type: "add", location: loc })) : removes.map((r) => ({ type: "remove", location: r.location, owner: r.owner })));
  const buttons = targets.map((a) => {
    const loc = findLoc(view, a.location);
    const text = a.type === "add" ? t("tricky-tactics.add_to", { loc: locText(a.location) }) : t("tricky-tactics.remove_from", { owner: T.nameOf(a.owner), loc: locText(a.location) });
    return el("button", {
      type: "button",
      class: ["btn", a.type === "add" ? "btn-primary" : "btn-secondary", "tk-target"],
      disabled: pending,
      dataset: { type: a.type, location: a.location, owner: a.owner === undefined ? null : String(a.owner), focus: `target-${a.type}-${a.location}-${a.owner ?? ""}` },
      onclick: () => submit(a),
      onmouseenter: () => highlight(a.location, true),
      onmouseleave: () => highlight(a.location, false),
      onfocus: () => highlight(a.location, true),
      onblur: () => highlight(a.location, false),
    },
    a.type === "add" ? cube(T.mySeat) : cube(a.owner),
    el("span", {}, text),
    loc ? el("span", { class: "tk-target-value" }, t("tricky-tactics.pts", { n: loc.value })) : null);
  });
  const title = t("tricky-tactics.action_title", { suit: suitName(suit) });
  panel.hidden = false;
  put(panel,
    el("h3", { class: "tk-h", id: `${T.uid}-action-title` }, suitIcon(suit), title),
    el("p", { class: "tk-action-hint" }, t("tricky-tactics.action_hint", { suit: SYMBOL[suit] })),
    el("div", { class: "tk-modes", role: "radiogroup", "aria-label": title },
      modeBtn("add", adds.length, t("tricky-tactics.mode_add"), t("tricky-tactics.mode_add_none")),
      modeBtn("remove", removes.length, t("tricky-tactics.mode_remove"), t("tricky-tactics.mode_remove_none"))),
    el("div", { class: "tk-targets" }, buttons),
  );
}
