// Page-wide preferences in the header: the EN/FR language switch (a cookie the server reads, so templates
// and scripts change together; the page reloads in the new language), and light / dark / as the device
// (remembered in localStorage; every stylesheet's prefers-color-scheme rules are switched on or off), with
// the table's one-press light/dark toggle in the room bar.

import { language, setLanguage } from "./i18n.js";

for (const button of document.querySelectorAll(".lang-btn[data-lang]")) {
  button.addEventListener("click", () => {
    const lang = button.dataset.lang;
    if (lang === language() && document.documentElement.lang === lang) return;
    setLanguage(lang);
    // Keep the place on the page (and any typed room code in the URL); the server renders the new language.
    location.reload();
  });
}

// ---- colour scheme -------------------------------------------------------------------------------

const THEME_KEY = "tf_theme";
const DARK = /prefers-color-scheme:\s*dark/;

function savedTheme() {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

/** Each "(prefers-color-scheme: dark)" block of our stylesheets: on always (dark), never (light), or as the
 * device says (system: its own condition, kept in data). */
const originalMedia = new Map(); // "sheet href#rule index" -> the rule's own media condition

function applyTheme(theme) {
  for (const sheet of document.styleSheets) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // another origin's sheet
    }
    for (let i = 0; i < rules.length; i += 1) {
      const rule = rules[i];
      if (!(rule instanceof CSSMediaRule)) continue;
      const key = `${sheet.href || "inline"}#${i}`;
      if (!originalMedia.has(key)) originalMedia.set(key, rule.media.mediaText);
      const original = originalMedia.get(key);
      if (!DARK.test(original)) continue;
      const wanted = theme === "dark" ? "all" : theme === "light" ? "not all" : original;
      if (rule.media.mediaText !== wanted) rule.media.mediaText = wanted;
    }
  }
  document.documentElement.style.colorScheme = theme === "system" ? "" : theme;
  document.documentElement.dataset.theme = theme;
  for (const button of document.querySelectorAll(".theme-btn[data-theme]")) {
    button.setAttribute("aria-pressed", String(button.dataset.theme === theme));
  }
  for (const toggle of document.querySelectorAll(".theme-toggle")) toggle.setAttribute("aria-pressed", String(shownDark(theme)));
}

const deviceDark = window.matchMedia?.("(prefers-color-scheme: dark)");

/** Whether the page shows dark colours under `theme` ("system": as the device does now). */
function shownDark(theme) {
  return theme === "dark" || (theme === "system" && Boolean(deviceDark?.matches));
}

function choose(theme) {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    /* not remembered */
  }
  applyTheme(theme);
}

for (const button of document.querySelectorAll(".theme-btn[data-theme]")) {
  button.addEventListener("click", () => choose(button.dataset.theme));
}
// The table's one-press switch (the room bar): the other of light and dark than the page shows now.
for (const toggle of document.querySelectorAll(".theme-toggle")) {
  toggle.addEventListener("click", () => choose(shownDark(savedTheme()) ? "light" : "dark"));
}
deviceDark?.addEventListener?.("change", () => applyTheme(savedTheme()));
applyTheme(savedTheme());
// The games' stylesheets arrive later (a <link> each renderer adds): switch theirs as they load.
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const node of change.addedNodes) {
      if (node instanceof HTMLLinkElement && node.rel === "stylesheet") node.addEventListener("load", () => applyTheme(savedTheme()));
    }
  }
}).observe(document.head, { childList: true });
