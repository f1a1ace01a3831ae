// The browser's WebSocket client for one room (protocol: docs/protocol.md).
//
//   const client = new RoomClient("K7HXM");
//   client.on("state", (msg) => ...);     // "welcome" | "room" | "state" | "ack" | "error" | "pong" | "*"
//   client.on("status", (st) => ...);     // {status: "connecting"|"online"|"reconnecting"|"closed", retryAt, closeCode}
//   client.connect();
//   await client.act({type: "place", cell: [1, 2]});   // resolves on ack, rejects on error (same id)
//
// Reconnects with exponential backoff and jitter (capped at ~10 s) and, after a reconnect, sends `sync`
// with the last version it saw. It never decides a rule: it only carries messages.

import { uid } from "./dom.js";

const BASE_DELAY_MS = 400;
const MAX_DELAY_MS = 10_000;
const PING_EVERY_MS = 20_000;
const SILENCE_LIMIT_MS = 45_000;
const ACT_TIMEOUT_MS = 15_000;

/** Close codes after which reconnecting is pointless until something changes. */
export const CLOSE_UNKNOWN_ROOM = 4404;
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_FORBIDDEN = 4403;

export class ActError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class RoomClient {
  // The page's cookie identifies the player: a token never goes into the socket's URL, where access logs
  // would keep it.
  constructor(code, { url = null } = {}) {
    this.code = code;
    this.url = url;
    this.watch = false; // a shared screen's socket: the public view, whatever seat the player holds
    this.ws = null;
    this.lastVersion = null;
    this.status = "idle";
    this.attempt = 0;
    this.everConnected = false;
    this.listeners = new Map();
    this.pending = new Map(); // id -> {resolve, reject, timer}
    this.outbox = []; // messages sent while the socket was not open yet
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.lastMessageAt = 0;
    this.stopped = false;
    this._onOnline = () => this._reconnectNow();
    this._onVisible = () => {
      if (document.visibilityState === "visible") this._reconnectNow();
    };
  }

  // ---- listeners -----------------------------------------------------------------------------

  /** Subscribe to a message type ("*" = every message); returns an unsubscribe function. */
  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type)?.delete(fn);
  }

  _emit(type, payload) {
    for (const key of [type, "*"]) {
      for (const fn of this.listeners.get(key) || []) {
        try {
          fn(payload, type);
        } catch (err) {
          console.error(err);
        }
      }
    }
  }

  _setStatus(status, extra = {}) {
    this.status = status;
    this._emit("status", { status, ...extra });
  }

  // ---- connection ----------------------------------------------------------------------------

  socketUrl() {
    if (this.url) return this.url;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}${this.watch ? "?watch=1" : ""}`;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    window.addEventListener("online", this._onOnline);
    document.addEventListener("visibilitychange", this._onVisible);
    this._setStatus(this.everConnected ? "reconnecting" : "connecting", { retryAt: null });
    let ws;
    try {
      ws = new WebSocket(this.socketUrl());
    } catch (err) {
      console.error(err);
      this._scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      const wasReconnect = this.everConnected;
      this.everConnected = true;
      this.attempt = 0;
      this.lastMessageAt = Date.now();
      this._setStatus("online");
      for (const queued of this.outbox.splice(0)) this.ws.send(JSON.stringify(queued));
      if (wasReconnect) {
        // The server sends a fresh state anyway; this asks explicitly, with what we already have.
        this.send(this.lastVersion === null ? { type: "sync" } : { type: "sync", version: this.lastVersion });
      }
      this._startHeartbeat();
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      this.lastMessageAt = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!msg || typeof msg.type !== "string") return;
      this._handle(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this._stopHeartbeat();
      this._failPending("disconnected");
      if (this.stopped) {
        this._setStatus("closed", { closeCode: event.code });
        return;
      }
      if (event.code === CLOSE_UNKNOWN_ROOM || event.code === CLOSE_UNAUTHORISED || event.code === CLOSE_FORBIDDEN) {
        this.stopped = true;
        this._setStatus("closed", { closeCode: event.code });
        return;
      }
      this._scheduleReconnect();
    });
    // "error" is always followed by "close": nothing to do here.
  }

  _scheduleReconnect() {
    clearTimeout(this.retryTimer);
    const base = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** this.attempt);
    const delay = Math.round(base / 2 + Math.random() * (base / 2)); // "equal jitter"
    this.attempt += 1;
    const retryAt = Date.now() + delay;
    this._setStatus("reconnecting", { retryAt });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  _reconnectNow() {
    if (this.stopped || this.ws) return;
    this.attempt = 0;
    this.connect();
  }

  /** Drop the socket and connect again at once (e.g. after a name change). */
  restart() {
    this.stopped = false;
    const ws = this.ws;
    this.ws = null;
    this._stopHeartbeat();
    if (ws) ws.close(1000, "restart");
    this._failPending("disconnected");
    this.attempt = 0;
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this._stopHeartbeat();
    window.removeEventListener("online", this._onOnline);
    document.removeEventListener("visibilitychange", this._onVisible);
    if (this.ws) this.ws.close(1000, "bye");
  }

  _startHeartbeat() {
    this._stopHeartbeat();
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.lastMessageAt > SILENCE_LIMIT_MS) {
        // A silent socket (sleeping laptop, dead Wi-Fi): drop it and reconnect.
        const ws = this.ws;
        this.ws = null;
        ws.close(4000, "silent");
        this._failPending("disconnected");
        this._scheduleReconnect();
        return;
      }
      this.send({ type: "ping" });
    }, PING_EVERY_MS);
  }

  _stopHeartbeat() {
    clearInterval(this.pingTimer);
    this.pingTimer = 0;
  }

  // ---- messages ------------------------------------------------------------------------------

  /** Send a raw message; returns false when not connected. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      // A lobby click before the socket is open is sent on open, not lost (a move is refused instead).
      if (!["ping", "sync", "act"].includes(msg.type)) this.outbox.push(msg);
      return false;
    }
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  _handle(msg) {
    if (msg.type === "state" && Number.isInteger(msg.version)) this.lastVersion = msg.version;
    if (msg.type === "ack" && msg.id && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve(msg);
    }
    if (msg.type === "error" && msg.id && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.reject(new ActError(msg.code, msg.message));
    }
    this._emit(msg.type, msg);
  }

  /** Play an action; resolves with the ack, rejects with an ActError. */
  act(action) {
    const id = uid();
    const msg = { type: "act", action, version: this.lastVersion ?? 0, id };
    return new Promise((resolve, reject) => {
      if (!this.send(msg)) {
        reject(new ActError("disconnected"));
        return;
      }
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new ActError("timeout"));
      }, ACT_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  _failPending(code) {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new ActError(code));
      this.pending.delete(id);
    }
  }
}
