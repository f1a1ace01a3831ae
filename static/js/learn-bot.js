// "Play against a bot" at the end of a lesson: a new room for the game, opened with #practice so that the
// room page seats the learner and fills the other seats with bots at the normal level (static/js/room.js).
// A room needs a name first: the saved one, else the one the learner types here (as on the home page).

import { $, api, toast } from "./dom.js";
import { language } from "./i18n.js";
import { getMe, nameProblem, saveName } from "./me.js";
import { pageLanguageOptions } from "./schema-form.js";

async function createRoom(game) {
  const games = await api("GET", "/api/games");
  const info = (games || []).find((g) => g.name === game);
  // A game whose words come in several languages starts in the page's one, as from the home page.
  const options = pageLanguageOptions(info?.options_schema?.properties?.language ?? null, language());
  const room = await api("POST", "/api/rooms", options ? { game, options } : { game });
  location.assign(`/r/${encodeURIComponent(room.code)}#practice`);
}

function askName(game) {
  const form = $("#learn-name");
  const input = $("#learn-name-input");
  const error = $("#learn-name-error");
  form.hidden = false;
  input.focus();
  form.onsubmit = async (event) => {
    event.preventDefault();
    const problem = nameProblem(input.value);
    if (problem) {
      error.textContent = problem;
      error.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    try {
      await saveName(input.value);
      error.hidden = true;
      await createRoom(game);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  };
}

export async function playBot(game) {
  if (!getMe()) {
    askName(game);
    return;
  }
  try {
    await createRoom(game);
  } catch (err) {
    toast(err.message, "error");
  }
}
