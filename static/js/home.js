// Home page: save a name, join a room by code, create a room for a game.

import { $, $$, api, isValidCode, normaliseCode, prefersReducedMotion, toast } from "./dom.js";
import { language, t } from "./i18n.js";
import { getMe, nameProblem, onMeChange, saveName } from "./me.js";
import { pageLanguageOptions } from "./schema-form.js";

const nameForm = $("#name-form");
const nameInput = $("#name-input");
const nameError = $("#name-error");
const joinForm = $("#join-form");
const codeInput = $("#code-input");
const joinError = $("#join-error");

/** The schema of a game's language option, which the page puts on its Create button (none: null). */
function languageOption(button) {
  try {
    return JSON.parse(button.dataset.languageOption || "null");
  } catch {
    return null;
  }
}

function showError(el, input, message) {
  el.textContent = message;
  el.hidden = !message;
  if (input) input.setAttribute("aria-invalid", message ? "true" : "false");
}

/** Make sure we have a saved name; saves the typed one if it changed. Returns false when it can't. */
async function ensureName() {
  const typed = nameInput.value.trim();
  const me = getMe();
  if (me && (!typed || typed === me.name)) return true;
  const problem = nameProblem(typed);
  if (problem) {
    showError(nameError, nameInput, problem);
    nameInput.focus();
    nameInput.scrollIntoView({ block: "center", behavior: prefersReducedMotion() ? "auto" : "smooth" });
    return false;
  }
  try {
    await saveName(typed);
    showError(nameError, nameInput, "");
    return true;
  } catch (err) {
    showError(nameError, nameInput, err.message);
    return false;
  }
}

nameForm?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const problem = nameProblem(nameInput.value);
  if (problem) {
    showError(nameError, nameInput, problem);
    nameInput.focus();
    return;
  }
  try {
    const me = await saveName(nameInput.value);
    showError(nameError, nameInput, "");
    toast(t("me.saved", { name: me.name }), "success", 2500);
  } catch (err) {
    showError(nameError, nameInput, err.message);
  }
});

nameInput?.addEventListener("input", () => showError(nameError, nameInput, ""));

onMeChange((me) => {
  if (nameInput && document.activeElement !== nameInput) nameInput.value = me.name;
});

// ---- join by code ----------------------------------------------------------------------------

codeInput?.addEventListener("input", () => {
  // Show the normalised code as the user types (upper case, no spaces or dashes).
  const start = codeInput.selectionStart;
  const before = codeInput.value;
  const after = normaliseCode(before).slice(0, 12);
  if (after !== before) {
    codeInput.value = after;
    const pos = Math.max(0, (start ?? after.length) - (before.length - after.length));
    codeInput.setSelectionRange(pos, pos);
  }
  showError(joinError, codeInput, "");
});

joinForm?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = normaliseCode(codeInput.value);
  if (!isValidCode(code)) {
    showError(joinError, codeInput, t("home.code_bad"));
    codeInput.focus();
    return;
  }
  const button = joinForm.querySelector("button[type=submit]");
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
    // A typed name is worth keeping, but joining does not need one: the room page asks for it.
    if (nameInput.value.trim() && nameInput.value.trim() !== getMe()?.name && !nameProblem(nameInput.value)) {
      try {
        await saveName(nameInput.value);
      } catch {
        /* the room page will ask again */
      }
    }
    location.assign(`/r/${code}`);
  } catch (err) {
    showError(joinError, codeInput, err.status === 404 ? t("home.code_unknown", { code }) : err.message);
    codeInput.focus();
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
});

// ---- create ----------------------------------------------------------------------------------

for (const button of $$(".game-card-create")) {
  button.addEventListener("click", async () => {
    if (!(await ensureName())) return;
    const game = button.dataset.game;
    const original = button.innerHTML;
    for (const b of $$(".game-card-create")) b.disabled = true;
    button.setAttribute("aria-busy", "true");
    button.textContent = t("home.creating");
    try {
      // A game with a language option (its words come in several) starts with the page's language.
      const options = pageLanguageOptions(languageOption(button), language());
      const body = options ? { game, options } : { game };
      const room = await api("POST", "/api/rooms", body);
      // Prefer a same-origin path: the summary's url may use the LAN address.
      let target = `/r/${room.code}`;
      try {
        const url = new URL(room.url, location.href);
        if (url.origin === location.origin) target = url.pathname;
      } catch {
        /* keep /r/code */
      }
      location.assign(target);
    } catch (err) {
      toast(err.message, "error");
      button.innerHTML = original;
      button.removeAttribute("aria-busy");
      for (const b of $$(".game-card-create")) b.disabled = false;
    }
  });
}

// A "?code=XXXXX" (e.g. from an old link) pre-fills the join box.
const preset = new URLSearchParams(location.search).get("code");
if (preset && codeInput) codeInput.value = normaliseCode(preset);
