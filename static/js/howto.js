// The room page's "How to play" link opens an in-page dialog with the game's summary, taken from the
// "In short" section of its rules page (/rules/<game>, in the page's language), so the two never disagree.
// Without scripts, or if the page cannot be fetched, the link opens the full rules in a new tab.

import { t } from "./i18n.js";

const cache = new Map(); // game -> DocumentFragment of the summary

async function summaryOf(game) {
  if (cache.has(game)) return cache.get(game).cloneNode(true);
  const res = await fetch(`/rules/${encodeURIComponent(game)}`, { credentials: "same-origin" });
  if (!res.ok) throw new Error(String(res.status));
  const doc = new DOMParser().parseFromString(await res.text(), "text/html");
  const section = doc.querySelector(".rules-summary");
  if (!section) throw new Error("no summary");
  const fragment = document.createDocumentFragment();
  for (const child of [...section.children]) {
    if (child.matches("h2")) continue; // the dialog has its own title
    fragment.append(document.importNode(child, true));
  }
  cache.set(game, fragment);
  return fragment.cloneNode(true);
}

/** The dialog's link to the game's lesson (when it has one), which leads back to this room. */
function showLessonLink(game) {
  const learn = document.getElementById("howto-learn");
  if (!learn) return;
  let lessons = [];
  try {
    lessons = JSON.parse(learn.dataset.lessons || "[]");
  } catch {
    lessons = [];
  }
  const code = document.getElementById("room")?.dataset.code || "";
  learn.hidden = !lessons.includes(game);
  learn.href = `/learn/${encodeURIComponent(game)}${code ? `?from=${encodeURIComponent(code)}` : ""}`;
}

/** Wire the link; `current()` returns {game, title} for the room's current game. */
export function setupHowTo(current) {
  const link = document.getElementById("room-rules-link");
  const dialog = document.getElementById("howto-dialog");
  if (!link || !dialog || typeof dialog.showModal !== "function") return;
  const body = document.getElementById("howto-body");
  const title = document.getElementById("howto-title");
  const full = document.getElementById("howto-full");
  document.getElementById("howto-close")?.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close(); // a click on the backdrop
  });
  dialog.addEventListener("close", () => link.focus());

  link.addEventListener("click", async (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const { game, title: name } = current();
    try {
      body.replaceChildren(await summaryOf(game));
    } catch {
      window.open(link.href, "_blank", "noopener");
      return;
    }
    title.textContent = t("howto.title", { game: name || game });
    full.href = `/rules/${encodeURIComponent(game)}`;
    showLessonLink(game);
    dialog.showModal();
    body.scrollTop = 0;
    document.getElementById("howto-close")?.focus();
  });
}
