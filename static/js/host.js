// Host tools: room settings (lock, spectators, turn timer, grace period) and per-person actions
// (make host, remove from room, swap seats). Everything is sent to the server, which decides.

import { h } from "./dom.js";
import { playerName, seatLabel, t } from "./i18n.js";
import { optionsForm } from "./schema-form.js";

/** The room settings as a JSON Schema, so the generic form draws them like game options. */
function settingsSchema() {
  return {
    type: "object",
    properties: {
      locked: { type: "boolean", default: false, title: t("host.locked"), description: t("host.locked_hint") },
      spectators: { type: "boolean", default: true, title: t("host.spectators"), description: t("host.spectators_hint") },
      turn_seconds: {
        anyOf: [{ type: "integer", minimum: 5, maximum: 600, default: 60 }, { type: "null" }],
        default: null,
        title: t("host.turn_seconds"),
        description: t("host.turn_seconds_hint"),
      },
      grace_seconds: { type: "integer", minimum: 5, maximum: 600, default: 60, title: t("host.grace_seconds"), description: t("host.grace_seconds_hint") },
    },
  };
}

/** The host's room settings form: {el, setValues(settings)}. */
export function roomSettingsForm(settings, send) {
  return optionsForm(settingsSchema(), settings || {}, (values) => {
    send({
      type: "room_settings",
      locked: Boolean(values.locked),
      spectators: Boolean(values.spectators),
      turn_seconds: values.turn_seconds === null || values.turn_seconds === undefined ? 0 : values.turn_seconds,
      grace_seconds: values.grace_seconds,
    });
  });
}

/** A short, read-only description of the room settings (everyone sees whether the room is locked, etc.). */
export function roomSettingsNotes(settings) {
  if (!settings) return [];
  const notes = [];
  if (settings.locked) notes.push(t("host.note_locked"));
  if (settings.spectators === false) notes.push(t("host.note_no_spectators"));
  if (settings.turn_seconds) notes.push(t("host.note_turn", { s: settings.turn_seconds }));
  return notes;
}

/** People the host removed, each with a "let back in" button (a new invite); drawn under the settings. */
export function renderRemoved(panel, room, send) {
  let box = panel.querySelector(".host-removed");
  if (!box) {
    box = h("div", { class: "host-removed" });
    panel.querySelector(".host-settings").after(box);
  }
  const removed = room.removed || [];
  const sig = JSON.stringify(removed);
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.replaceChildren(
    ...(removed.length
      ? [
          h("h3", { class: "subhead" }, t("host.removed")),
          h("ul", { class: "spectator-list", role: "list" },
            removed.map((p) => h("li", { class: "spectator" }, h("span", {}, p.name), " ",
              h("button", { type: "button", class: "btn btn-secondary btn-sm", onclick: () => send({ type: "invite", player: p.id }) },
                t("host.invite"))))),
        ]
      : []),
  );
}

let openMenu = null;
document.addEventListener("click", (event) => {
  if (openMenu && !openMenu.contains(event.target)) {
    openMenu.open = false;
    openMenu = null;
  }
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && openMenu) {
    const summary = openMenu.querySelector("summary");
    openMenu.open = false;
    openMenu = null;
    summary?.focus();
  }
});

/** The items of the host's menu for one person, from the room as it is now. */
function personMenuItems(S, send, person, seatIndex) {
  const room = S.room;
  const items = [];
  const lobby = room.status !== "playing";
  if (seatIndex !== null && seatIndex !== undefined && lobby) {
    for (const other of room.seats) {
      if (other.index === seatIndex) continue;
      const who = other.player ? playerName(other.player) : t("room.seat_empty");
      items.push(
        h("button", { type: "button", role: "menuitem", onclick: () => send({ type: "move_seat", seat: seatIndex, to: other.index }) },
          t("host.swap", { label: seatLabel(other), who })),
      );
    }
  }
  if (person && person.id !== null && person.id !== undefined && !person.bot && person.id !== S.myId()) {
    if (person.connected !== false && person.id !== room.host) {
      items.push(h("button", { type: "button", role: "menuitem", onclick: () => send({ type: "make_host", player: person.id }) }, t("host.make_host")));
    }
    items.push(
      h("button", {
        type: "button",
        role: "menuitem",
        class: "danger",
        onclick: () => {
          if (window.confirm(t("host.kick_confirm", { name: person.name }))) send({ type: "kick", player: person.id });
        },
      }, t("host.kick")),
    );
  }
  return items;
}

/**
 * The host's "⋯" menu for one person: make host, remove from room, and (lobby, seated) swap seats.
 * person = {id, name}; seatIndex = their seat or null. Its items are built again each time it opens (the
 * swaps name the other seats' players), so the row holding it need not be redrawn when another seat changes.
 */
export function personMenu(S, send, person, seatIndex) {
  const items = personMenuItems(S, send, person, seatIndex);
  if (!items.length) return null;
  const list = h("div", { class: "menu-list", role: "menu" }, items);
  const details = h(
    "details",
    { class: "menu" },
    h("summary", { class: "btn btn-ghost btn-sm menu-button", "aria-label": t("host.actions_for", { name: person?.name || "" }), title: t("host.actions") }, "⋯"),
    list,
  );
  details.addEventListener("toggle", () => {
    if (details.open) {
      list.replaceChildren(...personMenuItems(S, send, person, seatIndex));
      if (openMenu && openMenu !== details) openMenu.open = false;
      openMenu = details;
      details.querySelector(".menu-list button")?.focus();
    }
  });
  details.addEventListener("click", (event) => {
    if (event.target.closest(".menu-list button")) {
      details.open = false;
      openMenu = null;
    }
  });
  return details;
}
