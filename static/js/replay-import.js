// Import an exported game: the server replays it and reports the result it reaches (and a fingerprint of the
// final state, equal to the original's when the file is unchanged).

import { t } from "./i18n.js";

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
  if (!response.ok) {
    out.replaceChildren(para(t("import.refused", { reason: data.detail }), "field-error"));
    return;
  }
  const list = document.createElement("ol");
  list.className = "log";
  for (const line of data.log) {
    const li = document.createElement("li");
    li.textContent = line;
    list.append(li);
  }
  out.replaceChildren(
    para(`${t("import.done", { n: data.steps })} ${data.outcome ? data.outcome.summary : t("import.unfinished")}`),
    para(t("import.fingerprint", { fingerprint: data.fingerprint }), "mono small"),
    list,
  );
});
