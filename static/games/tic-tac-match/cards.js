// The cards as drawn: Symbol cards (colour, letter and pattern), the three action cards, backs and ID cards.

import { h as el, s as svg } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { xoShape } from "../../js/table/xo.js";
import { COLOURS } from "./names.js";

/** The big X or O of a card, in a 100×140 box. */
export function symbolSvg(sym, cls = "ttm-sym-svg") {
  const box = svg("svg", { viewBox: "0 0 100 140", class: cls, "aria-hidden": "true", focusable: "false" });
  box.append(xoShape(sym, 50, 70, { o: 27, x: 24 }, "ttm-mark"));
  return box;
}

function iconSvg(kind) {
  const box = svg("svg", { viewBox: "0 0 100 140", class: "ttm-sym-svg", "aria-hidden": "true", focusable: "false" });
  if (kind === "flip") {
    box.append(
      svg("path", { class: "ttm-icon", d: "M28 62a24 24 0 0 1 42-12" }),
      svg("path", { class: "ttm-icon-fill", d: "M74 36l2 20-19-4z" }),
      svg("path", { class: "ttm-icon", d: "M72 78a24 24 0 0 1-42 12" }),
      svg("path", { class: "ttm-icon-fill", d: "M26 104l-2-20 19 4z" }),
    );
  } else if (kind === "wipeout") {
    box.append(
      svg("path", { class: "ttm-icon", d: "M30 96l40-40" }),
      svg("path", { class: "ttm-icon-fill", d: "M22 92l18 18 14-14-18-18z" }),
      svg("path", { class: "ttm-icon ttm-icon-thin", d: "M58 98h20M52 108h26M64 88h14" }),
    );
  } else if (kind === "double") {
    box.append(
      svg("rect", { class: "ttm-icon ttm-icon-thin", x: 22, y: 44, width: 34, height: 48, rx: 6 }),
      svg("rect", { class: "ttm-icon-card", x: 42, y: 52, width: 34, height: 48, rx: 6 }),
      // "×2" drawn, not written: the card's text is its name alone.
      svg("path", { class: "ttm-icon ttm-icon-thin", d: "M46 70l10 10M56 70l-10 10M61 68a5 5 0 1 1 8 5l-9 9h11" }),
    );
  }
  return box;
}

/** A face-up card element (a back when `card` is null). With `textless` (a hover preview) its corners are
 * drawn by CSS, as the rotated corner always is: the card's text is its first corner once. */
export function cardEl(card, extra = "", textless = false) {
  if (!card) return el("div", { class: `ttm-card ttm-back ${extra}` }, el("span", { class: "ttm-back-logo", "aria-hidden": "true" }, "TTM"));
  if (card.kind === "symbol") {
    const info = COLOURS[card.colour] || { letter: "?", pattern: "" };
    const letter = t(`tic-tac-match.letter_${card.colour}`);
    const glyphs = () => [el("b", { "data-glyph": card.symbol }), el("i", { "data-glyph": letter })];
    return el(
      "div",
      { class: `ttm-card ttm-symbol ttm-${card.colour} ttm-pat-${info.pattern} ${extra}`, "data-card": card.id ?? "" },
      el("span", { class: "ttm-corner ttm-corner-tl", "aria-hidden": "true" }, ...(textless ? glyphs() : [el("b", {}, card.symbol), " ", el("i", {}, letter)])),
      symbolSvg(card.symbol),
      el("span", { class: "ttm-corner ttm-corner-br", "aria-hidden": "true" }, ...glyphs()),
    );
  }
  return el(
    "div",
    { class: `ttm-card ttm-action ttm-${card.kind} ${extra}`, "data-card": card.id ?? "" },
    iconSvg(card.kind),
    el("span", { class: "ttm-action-name", "aria-hidden": "true" }, t(`tic-tac-match.${card.kind}`)),
  );
}

/** An ID card (purple, double-sided) showing ``sym``. */
export function idCard(sym, extra = "") {
  return el("span", { class: `ttm-id ${extra}`, "data-sym": sym }, symbolSvg(sym, "ttm-id-svg"));
}
