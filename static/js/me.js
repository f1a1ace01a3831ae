// The current player's identity, shared by every page: the header's name box and its dialog.
// Other modules: getMe(), saveName(name), onMeChange(fn).

import { api, embedded, toast } from "./dom.js";
import { t } from "./i18n.js";

let me = embedded("me-data");
const listeners = new Set();

export function getMe() {
  return me;
}

export function onMeChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Validate a name as the server will (1–24 characters after trimming); returns an error text or "". */
export function nameProblem(raw) {
  const name = String(raw || "").trim();
  if (!name) return t("me.empty");
  if ([...name].length > 24) return t("me.too_long");
  return "";
}

/** POST /api/me; updates the header and notifies listeners. Throws ApiError. */
export async function saveName(raw) {
  const name = String(raw || "").trim();
  const data = await api("POST", "/api/me", { name });
  me = { id: data.id, name: data.name };
  renderHeader();
  for (const fn of listeners) {
    try {
      fn(me);
    } catch (err) {
      console.error(err);
    }
  }
  return me;
}

function renderHeader() {
  const nameEl = document.getElementById("me-name");
  const labelEl = document.querySelector("#me-box .me-label");
  const editText = document.querySelector("#me-edit .me-edit-text");
  if (nameEl) {
    nameEl.textContent = me ? me.name : t("me.anonymous");
    nameEl.classList.toggle("is-anon", !me);
  }
  if (labelEl) labelEl.textContent = me ? t("me.playing_as") : "";
  if (editText) editText.textContent = me ? t("me.change") : t("me.set");
}

/** Open the name dialog (also used by pages that need a name before going on). */
export function openNameDialog() {
  const dialog = document.getElementById("me-dialog");
  const input = document.getElementById("me-dialog-input");
  const error = document.getElementById("me-dialog-error");
  if (!dialog || !input) return;
  input.value = me ? me.name : "";
  if (error) error.hidden = true;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  input.focus();
  input.select();
}

function setupDialog() {
  const dialog = document.getElementById("me-dialog");
  const form = document.getElementById("me-form");
  const input = document.getElementById("me-dialog-input");
  const error = document.getElementById("me-dialog-error");
  const edit = document.getElementById("me-edit");
  const cancel = document.getElementById("me-dialog-cancel");
  if (!dialog || !form || !input) return;
  edit?.addEventListener("click", openNameDialog);
  cancel?.addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = nameProblem(input.value);
    if (problem) {
      error.textContent = problem;
      error.hidden = false;
      input.focus();
      return;
    }
    try {
      await saveName(input.value);
      dialog.close();
      toast(t("me.saved", { name: me.name }), "success", 2500);
      edit?.focus();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
}

setupDialog();
