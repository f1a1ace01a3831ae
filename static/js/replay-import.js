// Import an exported game: the server replays it and reports the result it reaches (and a fingerprint of the
// final state, equal to the original's when the file is unchanged).

import { apiErrorText, t } from "./i18n.js";
import { entryText, logContext, reasonText, summaryText } from "./log.js";

const input = document.getElementById("import-file");
const out = document.getElementById("import-result");

function para(text, cls = "") {
  const p = document.createElement("p");
  p.textContent = text; // never markup: the file is untrusted
  if (cls) p.className = cls;
  return p;
}

input.addEventListener("change", async () => {
  const file = input.files?.[0];
  if (!file) return;
  out.replaceChildren(para(t("import.replaying", { file: file.name })));
  let body;
  try {
    body = JSON.parse(await file.text());
  } catch {
    out.replaceChildren(para(t("import.not_json"), "field-error"));
    return;
  }
  const response = await fetch("/api/history/import", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  // The log, the result and a refusal are entries (docs/protocol.md "Log entries"): the game's renderer,
  // mounted out of sight, words its cells and cards; the file's seats give the names.
  const seats = Array.isArray(data.seats) ? data.seats : (Array.isArray(body.seats) ? body.seats : []);
  const room = {
    game: body.engine,
    seats: seats.map((seat, index) => ({
      index,
      team: seat.team ?? null,
      direction: seat.direction ?? null,
      player: seat.name ? { id: null, name: seat.name, bot: Boolean(seat.bot), connected: true } : null,
    })),
  };
  let renderer = null;
  try {
    const module = await import(`../games/${encodeURIComponent(String(body.engine))}/index.js`);
    renderer = module.mount(document.createElement("div"), { seat: null, room, act: () => Promise.reject(), t });
  } catch (err) {
    console.error(err);
  }
  const ctx = logContext(room, renderer);
  if (!response.ok) {
    const reason = reasonText(data.reason, ctx) || apiErrorText(data);
    const text = data.step ? t("import.refused_at", { step: data.step, reason }) : t("import.refused", { reason });
    out.replaceChildren(para(text, "field-error"));
    return;
  }
  const list = document.createElement("ol");
  list.className = "log";
  for (const entry of data.log) {
    const li = document.createElement("li");
    li.textContent = entryText(entry, ctx);
    list.append(li);
  }
  const result = data.outcome ? summaryText(data.outcome.summary, ctx) || t("room.draw") : t("import.unfinished");
  out.replaceChildren(
    para(`${t("import.done", { n: data.steps })} ${result}`),
    para(t("import.fingerprint", { fingerprint: data.fingerprint }), "mono small"),
    list,
  );
});
