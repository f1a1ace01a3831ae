// A lesson's hint on the board (static/js/learn.js calls a renderer's optional `hint(action)` hook): the
// controls that make the move are ringed with a dashed outline and an arrow (never colour alone), numbered
// when the move takes several ("1" the card, "2" the cell), described to screen readers, and carry
// data-hint-step="1", "2"… in order. Renderers redraw their parts at will, so the targets are found again
// after every change of the board, and the rings follow them.

import { h, uid } from "./dom.js";
import { t } from "./i18n.js";

const RING_PAD = 4;

/** The hint of one mounted renderer: `show(find)` with `find()` returning the target elements in the order
 * they are used (missing ones as null), `clear()` to take it away. */
export function createHint(container) {
  let find = null;
  let rings = [];
  let frame = 0;
  const noteId = `learn-hint-${uid()}`;
  const note = h("span", { class: "visually-hidden", id: noteId }, t("learn.hint_target"));
  const layer = h("div", { class: "learn-hint-layer", "aria-hidden": "true" });
  // The marks follow a redraw at once (what is ringed is what a click now does); the rings follow the
  // layout on the next frame.
  const mutations = new MutationObserver(() => find && refresh());
  const resizes = new ResizeObserver(() => schedule());
  const onMove = () => schedule();

  function schedule() {
    if (frame || !find) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      place();
    });
  }

  function unmark(el) {
    el.removeAttribute("data-hint-step");
    const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((id) => id && id !== noteId);
    if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
    else el.removeAttribute("aria-describedby");
  }

  function mark(el, step) {
    if (el.getAttribute("data-hint-step") !== String(step)) el.setAttribute("data-hint-step", String(step));
    const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    if (!ids.includes(noteId)) el.setAttribute("aria-describedby", [...ids, noteId].join(" "));
  }

  let targets = [];

  function refresh() {
    targets = find ? (find() || []).filter(Boolean) : [];
    for (const el of container.querySelectorAll("[data-hint-step]")) if (!targets.includes(el)) unmark(el);
    targets.forEach((el, i) => mark(el, i + 1));
    schedule();
  }

  function place() {
    while (rings.length > targets.length) rings.pop().remove();
    while (rings.length < targets.length) {
      const ring = h("div", { class: "learn-hint-ring" }, h("span", { class: "learn-hint-arrow" }));
      layer.append(ring);
      rings.push(ring);
    }
    // A target scrolled out of the board's column is not ringed over whatever is beside it.
    const view = (container.closest(".board-col") || container).getBoundingClientRect();
    targets.forEach((el, i) => {
      const box = el.getBoundingClientRect();
      const ring = rings[i];
      const outside = box.bottom <= view.top || box.top >= view.bottom || box.right <= view.left || box.left >= view.right;
      ring.hidden = (box.width === 0 && box.height === 0) || outside;
      ring.style.left = `${box.left - RING_PAD}px`;
      ring.style.top = `${box.top - RING_PAD}px`;
      ring.style.width = `${box.width + RING_PAD * 2}px`;
      ring.style.height = `${box.height + RING_PAD * 2}px`;
      ring.firstChild.textContent = targets.length > 1 ? `→ ${i + 1}` : "→";
    });
  }

  function show(finder) {
    find = finder;
    if (!layer.isConnected) document.body.append(layer, note);
    mutations.observe(container, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden", "class"] });
    resizes.observe(container);
    window.addEventListener("resize", onMove);
    document.addEventListener("scroll", onMove, true);
    refresh();
    place();
  }

  function clear() {
    find = null;
    targets = [];
    cancelAnimationFrame(frame);
    frame = 0;
    mutations.disconnect();
    resizes.disconnect();
    window.removeEventListener("resize", onMove);
    document.removeEventListener("scroll", onMove, true);
    for (const el of container.querySelectorAll("[data-hint-step]")) unmark(el);
    for (const ring of rings) ring.remove();
    rings = [];
    layer.remove();
    note.remove();
  }

  /** The renderer's `hint(action)` hook: `targetsOf(action)` finds the elements; null clears. */
  return {
    hook(targetsOf) {
      return (action) => {
        clear();
        if (action) show(() => targetsOf(action));
      };
    },
    clear,
  };
}
