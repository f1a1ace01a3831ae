// Room chat (and team chat in team games). Messages are plain text, always inserted as text, never markup.

import { h } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { play } from "./sound.js";

const OPENED = Date.now();

const MAX_LENGTH = 300;
const KEEP = 100;

export class Chat {
  constructor(S, send) {
    this.S = S;
    this.send = send;
    this.seen = new Set();
    this.list = h("ol", { class: "chat-list", tabindex: "0", "aria-labelledby": "chat-title" }, h("li", { class: "chat-empty muted small" }, t("chat.empty")));
    this.input = h("input", { type: "text", maxlength: MAX_LENGTH, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder"), enterkeyhint: "send" });
    this.scope = h("select", { class: "chat-scope", "aria-label": t("chat.scope"), hidden: true },
      h("option", { value: "all" }, t("chat.everyone")),
      h("option", { value: "team" }, t("chat.team")));
    this.form = h("form", { class: "chat-form", onsubmit: (e) => this.submit(e) },
      this.scope, this.input,
      h("button", { type: "submit", class: "btn btn-secondary btn-sm" }, t("chat.send")));
    this.el = h("section", { class: "panel chat-panel", "aria-labelledby": "chat-title" },
      h("h2", { class: "panel-title", id: "chat-title" }, t("chat.title")),
      h("div", { role: "log", "aria-labelledby": "chat-title" }, this.list), this.form);
  }

  /** Put the panel where it belongs (lobby or game) without losing what was typed. */
  mountIn(slot) {
    if (slot && this.el.parentElement !== slot) slot.append(this.el);
  }

  submit(event) {
    event.preventDefault();
    const text = this.input.value.replace(/\s+/g, " ").trim();
    if (!text) return;
    const msg = { type: "chat", text: text.slice(0, MAX_LENGTH) };
    if (!this.scope.hidden && this.scope.value === "team") msg.team = true;
    if (this.send(msg)) this.input.value = "";
  }

  /** Show the Everyone/Team choice only to a seated player in a team game. */
  render() {
    const seat = this.S.mySeat();
    const team = seat !== null ? this.S.room?.seats?.[seat]?.team : null;
    this.scope.hidden = team === null || team === undefined;
  }

  /** Show a line in its place: lines are ordered by their id (lines posted at the same moment through
   * different server processes can arrive in either order). History is replayed on every (re)connect. */
  add(msg) {
    const id = typeof msg.id === "number" ? msg.id : null;
    const key = id !== null ? `#${id}` : `${msg.from?.id}|${msg.at}|${msg.text}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.querySelector(".chat-empty")?.remove();
    const mine = msg.from?.id === this.S.myId();
    const time = typeof msg.at === "number"
      ? formatDate(msg.at, { hour: "2-digit", minute: "2-digit" })
      : "";
    const item = h("li", { class: ["chat-msg", mine && "chat-mine", msg.team !== null && msg.team !== undefined && "chat-team"] },
      h("span", { class: "chat-meta" },
        h("strong", { class: "chat-from" }, msg.from?.name ?? "?"),
        msg.team !== null && msg.team !== undefined ? h("span", { class: "tag" }, t("chat.team_tag")) : null,
        time ? h("time", { class: "chat-time", datetime: new Date(msg.at).toISOString() }, time) : null),
      h("span", { class: "chat-text" }, String(msg.text ?? "")));
    if (id !== null) item.dataset.id = String(id);
    const later = id === null ? null
      : [...this.list.children].find((other) => other.dataset.id !== undefined && Number(other.dataset.id) > id);
    this.list.insertBefore(item, later ?? null);
    if (!mine && typeof msg.at === "number" && msg.at > OPENED) play("chat"); // not the history replayed on connect
    while (this.list.children.length > KEEP) this.list.firstElementChild.remove();
    if (!later) this.list.scrollTop = this.list.scrollHeight;
  }
}
