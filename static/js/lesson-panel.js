// The lobby's lesson panel: anyone in the room may go through the chosen game's lesson (/learn/<game>, in an
// iframe) while the room waits: a side panel on a wide screen (the lobby and its chat stay usable), a dialog
// on a phone. The lesson page tells this page of each step ("threefold:lesson"), and the room is told in
// turn (`learning`, docs/protocol.md) so the others see "learning 3/6" on this player's seat. The panel
// closes when the game starts; the game then opens as for everyone.

import { $ } from "./dom.js";
import { t } from "./i18n.js";

const MAX_STEPS = 8; // what the server takes (docs/protocol.md, `learning`)
const PHONE = "(max-width: 700px)";

export class LessonPanel {
  /** `tell(progress)` sends `{step, of}` (or null: stopped) to the room; false when it could not. */
  constructor(S, code, tell) {
    this.S = S;
    this.code = code;
    this.tell = tell;
    this.dialog = $("#learn-panel");
    this.slot = $("#learn-frame-slot");
    this.button = $("#learn-btn");
    this.frame = null;
    this.game = null; // the game whose lesson is open
    this.progress = null; // the open lesson's step, as the room should show it: {step, of} or null
    this.button?.addEventListener("click", () => this.open());
    $("#learn-close")?.addEventListener("click", () => this.close());
    this.dialog?.addEventListener("close", () => this.closed()); // the close button, Escape or the game
    this.dialog?.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.dialog.open) this.close(); // a side panel is not modal: no Escape of its own
    });
    window.addEventListener("message", (event) => this.heard(event));
  }

  get isOpen() {
    return Boolean(this.dialog?.open);
  }

  /** Keep the button and the panel in step with the room; `inLobby`: the lobby is what the page shows. */
  render({ inLobby }) {
    const { room } = this.S;
    const waiting = Boolean(room) && room.status !== "playing";
    if (this.button) {
      this.button.hidden = !waiting || !inLobby;
      if (room) $("#learn-btn-text").textContent = t("room.learn", { game: room.title || room.game });
    }
    if (!this.isOpen) return;
    if (!waiting) this.close(); // the host started the game: the lesson gives way to it
    else if (room.game !== this.game) this.load(room.game); // the host chose another game: its lesson instead
  }

  open() {
    const { room } = this.S;
    if (!room || !this.dialog || this.isOpen) return;
    this.load(room.game);
    const phone = window.matchMedia(PHONE).matches;
    if (phone) this.dialog.showModal();
    else this.dialog.show();
    document.body.classList.toggle("lesson-open", !phone);
    this.frame.focus();
  }

  load(game) {
    const { room } = this.S;
    const title = room?.game === game ? room.title || game : game;
    this.game = game;
    this.progress = null; // a new lesson (the server forgot the last one when the game changed)
    const frame = document.createElement("iframe");
    frame.className = "learn-frame";
    frame.title = t("room.learn_frame", { game: title });
    frame.src = `/learn/${encodeURIComponent(game)}?embed=1&from=${encodeURIComponent(this.code)}`;
    this.slot.replaceChildren(frame);
    this.frame = frame;
    $("#learn-title").textContent = t("room.learn_title", { game: title });
  }

  close() {
    if (this.dialog?.open) this.dialog.close(); // then "close" runs closed()
  }

  closed() {
    document.body.classList.remove("lesson-open");
    this.slot.replaceChildren();
    this.frame = null;
    this.game = null;
    if (this.progress !== null) {
      this.progress = null;
      this.tell(null);
    }
    if (this.button && !this.button.hidden) this.button.focus({ preventScroll: true });
  }

  /** Only the lesson in our own iframe, from this site, may speak to the page. */
  heard(event) {
    if (!this.frame || event.source !== this.frame.contentWindow || event.origin !== location.origin) return;
    const data = event.data;
    if (!data || typeof data !== "object") return;
    if (data.type === "threefold:lesson-close") {
      this.close();
      return;
    }
    if (data.type !== "threefold:lesson" || data.game !== this.game) return;
    const { step, of } = data;
    if (!Number.isInteger(step) || !Number.isInteger(of) || step < 1 || step > of || of > MAX_STEPS) return;
    if (this.progress && this.progress.step === step && this.progress.of === of) return;
    this.progress = { step, of };
    this.tell(this.progress);
  }

  /** A new socket starts with nothing shown: tell the room again where the lesson is. */
  rejoined() {
    if (this.isOpen && this.progress !== null) this.tell(this.progress);
  }
}
