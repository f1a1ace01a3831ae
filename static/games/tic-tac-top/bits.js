// Small pure pieces every phase uses: the game's sizes, cell geometry, the seat glyphs, icons, word spans.

import { h as el, s as svg } from "../../js/dom.js";

export const RANK_SIZE = 7;
export const CELLS = 9;
export const DRAFT_DEBOUNCE_MS = 2000;
export const ROW_STEP_MS = 650;

export { prefersReducedMotion as reducedMotion } from "../../js/dom.js";
export const rc = (cell) => ({ r: Math.floor(cell / 3) + 1, c: (cell % 3) + 1 });
export const centre = (cell) => [(cell % 3) * 100 + 50, Math.floor(cell / 3) * 100 + 50];

/** The seat's pattern glyph, so a seat reads without its colour. */
export const SEAT_GLYPHS = ["●", "▲", "■", "◆", "★", "✚", "♥"];

export function lockIcon() {
  return svg("svg", { viewBox: "0 0 24 24", class: "ttt-icon", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 5, y: 10.5, width: 14, height: 10, rx: 2.5, fill: "currentColor" }),
    svg("path", { d: "M8 10.5V8a4 4 0 0 1 8 0v2.5", fill: "none", stroke: "currentColor", "stroke-width": 2.4 }));
}

/** How many letters a line of the word needs and on how many lines: one line for a single word, two for a
 * phrase split where its longer line is shortest; the cell's text shrinks to fit (see the CSS, --len). */
function measure(text) {
  const tokens = String(text ?? "").split(/\s+/).filter(Boolean);
  if (tokens.length < 2) return { len: Math.max(4, tokens[0]?.length ?? 0), lines: 1 };
  let len = Infinity;
  for (let cut = 1; cut < tokens.length; cut += 1) {
    len = Math.min(len, Math.max(tokens.slice(0, cut).join(" ").length, tokens.slice(cut).join(" ").length));
  }
  return { len: Math.max(4, len), lines: 2 };
}

export function wordSpan(word, placeholder = "", breakable = false) {
  const text = word ?? placeholder;
  const { len, lines } = measure(text);
  return el("span", { class: "ttt-word", style: { "--len": len, "--lines": lines } }, breakable ? syllableBreaks(text) : text);
}

// Where a long word may break across lines, with a hyphen, when its cell is narrower than it: before a
// consonant (or a consonant pair that starts syllables, "gr", "ph") followed by a vowel, three letters
// from either end ("Announce-ments", "Straw-berry"). Browsers without hyphenation dictionaries would cut
// such a word anywhere.
const VOWEL = "aeiouyàâäéèêëîïôöûùüÿœæ";
const ONSETS = new Set(["bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "ph", "pl", "pr", "sh", "th", "tr", "wh"]);
const isVowel = (ch) => VOWEL.includes(ch.toLowerCase());

function breakToken(token) {
  if (token.length < 8) return token;
  const cuts = new Set();
  for (let i = 3; i <= token.length - 3; i += 1) {
    const [a, b, c] = [token[i - 1], token[i], token[i + 1]];
    if (isVowel(b) || !/\p{L}/u.test(a) || !/\p{L}/u.test(b)) continue;
    if (isVowel(c)) cuts.add(ONSETS.has((a + b).toLowerCase()) && i - 1 >= 2 ? i - 1 : i);
  }
  return [...token].map((ch, i) => (cuts.has(i) ? `\u00ad${ch}` : ch)).join("");
}

export const syllableBreaks = (text) => text.split(/(\s+|-)/).map(breakToken).join("");

/** A tiny 3×3 with one cell lit: where a used word sits, on its chip. */
export function miniGridIcon(cell) {
  const icon = svg("svg", { viewBox: "0 0 30 30", class: "ttt-mini", "aria-hidden": "true", focusable: "false" });
  for (let i = 0; i < CELLS; i += 1) {
    icon.append(svg("rect", { x: (i % 3) * 10 + 1, y: Math.floor(i / 3) * 10 + 1, width: 8, height: 8, rx: 2, class: i === cell ? "is-on" : "" }));
  }
  return icon;
}
