// Replay of a finished game: step through it as any seat saw it ("what did I know then"), as a spectator,
// or with everything revealed (every seat's view side by side). Uses each game's own renderer, read-only.

import { apiErrorText, formatNumber, playerName, seatLabel, t } from "./i18n.js";
import { entryText, logContext } from "./log.js";

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const boards = document.getElementById("replay-boards");
const seatSelect = document.getElementById("replay-seat");
const slider = document.getElementById("replay-step");
const count = document.getElementById("replay-count");
const lineEl = document.getElementById("replay-line");

let meta = null;
let mounted = []; // [{seat, renderer, steps}]
let step = 0;

const readOnly = () => Promise.reject({ code: "replay", message: t("replay.read_only") });

function fakeRoom(data) {
  return {
    code: "",
    game: data.game,
    status: "finished",
    host: null,
    host_actions: [],
    options: {},
    seats: data.seats.map((info, index) => ({
      ...info,
      index,
      player: { id: null, name: data.players[index] || seatLabel({ ...info, index }), connected: true, bot: Boolean(data.bots?.[index]) },
    })),
    spectators: [],
    standings: [],
  };
}

async function fetchViews(seat) {
  const query = seat === null ? "" : `?seat=${seat}`;
  const response = await fetch(`/api/history/${gameId}/views${query}`);
  if (!response.ok) throw new Error(apiErrorText(await response.json().catch(() => null)));
  return response.json();
}

function stateAt(steps, index) {
  const s = steps[index];
  return {
    type: "state",
    version: index,
    game: meta.game,
    view: s.view,
    to_act: [],
    deadline: null,
    outcome: s.outcome,
    events: [],
    log: steps.slice(1, index + 1).flatMap((x) => x.log || []),
  };
}

async function mountAll(choice) {
  for (const m of mounted) m.renderer.destroy?.();
  mounted = [];
  boards.replaceChildren();
  const module = await import(`../games/${encodeURIComponent(meta.game)}/index.js`);
  const seats = choice === "all" ? meta.seats.map((_, i) => i) : [choice === "spectator" ? null : Number(choice)];
  const room = fakeRoom(meta);
  for (const seat of seats) {
    const data = seat === null && choice !== "all" ? meta.spectatorSteps : await fetchViews(seat);
    const frame = document.createElement("section");
    frame.className = "panel replay-board";
    const title = document.createElement("h2");
    title.className = "panel-title";
    title.textContent =
      seat === null ? t("room.spectator") : `${playerName(room.seats[seat].player)} — ${seatLabel(room.seats[seat])}`;
    const el = document.createElement("div");
    frame.append(title, el);
    boards.append(frame);
    const renderer = module.mount(el, { seat, room, act: readOnly, t });
    mounted.push({ seat, renderer, steps: data.steps });
  }
  show(step);
}

function show(index) {
  step = Math.max(0, Math.min(index, meta.spectatorSteps.steps.length - 1));
  slider.value = String(step);
  const total = meta.spectatorSteps.steps.length - 1;
  count.textContent = `${formatNumber(step)} / ${formatNumber(total)}`;
  // The step's log entries, phrased in the page's language with the players' names (static/js/log.js).
  const renderer = mounted[0]?.renderer;
  const ctx = logContext(fakeRoom(meta), renderer);
  const entries = meta.spectatorSteps.steps[step].log || [];
  lineEl.textContent = entries.map((entry) => entryText(entry, ctx)).join(" ");
  for (const m of mounted) {
    try {
      m.renderer.update(stateAt(m.steps, step));
    } catch (err) {
      console.error(err);
    }
  }
}

async function start() {
  const spectator = await fetchViews(null);
  meta = { ...spectator, spectatorSteps: spectator };
  document.getElementById("replay-title").textContent = t("replay.title", { id: gameId });
  const exportLink = document.getElementById("replay-export");
  exportLink.href = `/api/history/${gameId}/export`;
  // named after the game, its number and the day it is saved: tri-tac-game-12-2026-12-02.json
  exportLink.download = `${meta.game}-game-${gameId}-${new Date().toISOString().slice(0, 10)}.json`;
  slider.max = String(spectator.steps.length - 1);
  const options = [
    ["spectator", t("replay.spectator")],
    ...fakeRoom(spectator).seats.map((seat) => [String(seat.index), `${playerName(seat.player)} (${seatLabel(seat)})`]),
    ["all", t("replay.everything")],
  ];
  seatSelect.replaceChildren(
    ...options.map(([value, label]) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      return option;
    }),
  );
  seatSelect.addEventListener("change", () => mountAll(seatSelect.value));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.getElementById("replay-first").addEventListener("click", () => show(0));
  document.getElementById("replay-prev").addEventListener("click", () => show(step - 1));
  document.getElementById("replay-next").addEventListener("click", () => show(step + 1));
  document.getElementById("replay-last").addEventListener("click", () => show(Number(slider.max)));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowLeft") show(step - 1);
    if (event.key === "ArrowRight") show(step + 1);
  });
  await mountAll("spectator");
}

start().catch((err) => {
  lineEl.textContent = String(err.message || err);
});
