// Optional sound effects: tiny blips synthesised with WebAudio (no audio files). Off until the player
// switches them on (the room bar's speaker button); the choice is remembered in localStorage.
//
//   import { play } from "./sound.js";   // renderers: import { play } from "../../js/sound.js";
//   play("move" | "turn" | "score" | "win" | "lose" | "draw" | "chat" | "error" | "tick" | "on");
//
// Browsers only start audio after a user gesture: switching sound on is one, so it always works from then on.

const KEY = "tf_sound";
const listeners = new Set();
let context = null;
const lastPlayed = new Map(); // name -> time, so a burst of events makes one sound
let memory = null; // the choice, when localStorage is unavailable

/** [frequency Hz, start s, duration s, waveform, volume] */
const SOUNDS = {
  on: [[660, 0, 0.08, "sine", 0.07], [990, 0.07, 0.1, "sine", 0.06]],
  move: [[520, 0, 0.06, "triangle", 0.06]],
  tick: [[1200, 0, 0.03, "square", 0.02]],
  turn: [[523.25, 0, 0.12, "sine", 0.08], [783.99, 0.11, 0.2, "sine", 0.07]],
  score: [[659.25, 0, 0.09, "triangle", 0.07], [783.99, 0.08, 0.09, "triangle", 0.07], [1046.5, 0.16, 0.18, "triangle", 0.07]],
  win: [[523.25, 0, 0.12, "triangle", 0.08], [659.25, 0.12, 0.12, "triangle", 0.08], [783.99, 0.24, 0.12, "triangle", 0.08], [1046.5, 0.36, 0.35, "triangle", 0.08]],
  lose: [[392, 0, 0.16, "sine", 0.07], [329.63, 0.15, 0.16, "sine", 0.07], [261.63, 0.3, 0.32, "sine", 0.07]],
  draw: [[440, 0, 0.14, "sine", 0.07], [440, 0.18, 0.2, "sine", 0.06]],
  chat: [[880, 0, 0.05, "sine", 0.04], [1174.7, 0.05, 0.07, "sine", 0.035]],
  error: [[196, 0, 0.12, "sawtooth", 0.035], [174.6, 0.1, 0.16, "sawtooth", 0.03]],
};

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* storage disabled: the choice lasts for this page only */
  }
  memory = on;
  for (const fn of listeners) fn(on);
  if (on) play("on");
}

const enabled = () => (memory === null ? soundOn() : memory);

export function onSoundChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function audio() {
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  if (!context) context = new Ctor();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Play a named sound if sound is on (never throws). */
export function play(name) {
  if (!enabled() || !SOUNDS[name]) return;
  const now = performance.now();
  if (now - (lastPlayed.get(name) || 0) < 120) return;
  lastPlayed.set(name, now);
  try {
    const ac = audio();
    if (!ac) return;
    const t0 = ac.currentTime + 0.01;
    for (const [freq, start, duration, type, volume] of SOUNDS[name]) {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.type = type;
      osc.frequency.setValueAtTime(freq, t0 + start);
      // A quick attack and an exponential release: a soft blip, no click.
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(volume, t0 + start + 0.012);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + duration);
      osc.connect(gain).connect(ac.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + duration + 0.02);
    }
  } catch {
    /* no audio: stay silent */
  }
}

/** Wire a toggle button (aria-pressed): its state follows the setting. */
export function soundToggle(button) {
  if (!button) return;
  const sync = (on) => {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.classList.toggle("is-on", on);
  };
  sync(enabled());
  onSoundChange(sync);
  button.addEventListener("click", () => setSound(!enabled()));
}

export const SOUND_NAMES = Object.keys(SOUNDS);
