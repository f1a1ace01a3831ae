// Small DOM helpers shared by every page: element builders, toasts, JSON fetch, ids.

import { apiErrorText, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function applyAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      // Custom properties ("--hue") need setProperty; plain ones may be camelCase.
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith("--")) el.style.setProperty(name, String(v));
        else el.style[name] = v;
      }
    }
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
}

function appendChildren(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** h("button", {class: "btn", onclick: fn}, "Label") */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  appendChildren(el, children);
  return el;
}

/** s("circle", {cx: 1, cy: 2, r: 3}) — an SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs);
  appendChildren(el, children);
  return el;
}

/** Insert a stylesheet once (a game renderer's own CSS); resolves when loaded, or after 1.5 s at most so a
 * slow stylesheet never keeps a board hidden. */
export function ensureStylesheet(href) {
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href });
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => resolve());
    document.head.append(link);
    setTimeout(resolve, 1500);
  });
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

/** A random id that also works outside secure contexts (plain http on a LAN has no randomUUID). */
export function uid() {
  if (globalThis.crypto?.randomUUID && globalThis.isSecureContext) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---- toasts ----------------------------------------------------------------------------------

function toastRegion() {
  let region = document.getElementById("toasts");
  if (!region) {
    region = h("div", { id: "toasts", class: "toasts", "aria-live": "polite" });
    document.body.append(region);
  }
  return region;
}

/** Show a short message; kind = "info" | "error" | "success". Errors are announced assertively. */
export function toast(message, kind = "info", ms = 4500) {
  const region = toastRegion();
  const el = h(
    "div",
    { class: ["toast", `toast-${kind}`], role: kind === "error" ? "alert" : "status" },
    h("span", { class: "toast-text" }, message),
    h("button", { class: "toast-close", type: "button", "aria-label": t("common.close"), onclick: () => dismiss() }, "×"),
  );
  let timer = 0;
  const dismiss = () => {
    clearTimeout(timer);
    el.classList.add("toast-leaving");
    setTimeout(() => el.remove(), 200);
  };
  region.append(el);
  while (region.children.length > 4) region.firstElementChild.remove();
  timer = setTimeout(dismiss, ms);
  return dismiss;
}

// ---- HTTP ------------------------------------------------------------------------------------

export class ApiError extends Error {
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** fetch JSON; throws ApiError with the server's refusal (code and params) phrased as its message. */
export async function api(method, url, body) {
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(t("common.network"), 0, "network");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    // The refusal's code and params in the page's language (its detail is an English note for developers).
    throw new ApiError(apiErrorText(data), res.status, data && data.code);
  }
  return data;
}

/** Room codes: case-insensitive, spaces and dashes ignored. */
export const CODE_ALPHABET = "ACDEFHJKMNPRTWXY34679";
export function normaliseCode(raw) {
  return String(raw || "").toUpperCase().replace(/[\s\-_.]+/g, "");
}
export function isValidCode(code) {
  return code.length === 5 && [...code].every((ch) => CODE_ALPHABET.includes(ch));
}

/** Read JSON embedded in a <script type="application/json" id=...>. */
export function embedded(id) {
  const el = document.getElementById(id);
  if (!el) return null;
  try {
    return JSON.parse(el.textContent);
  } catch {
    return null;
  }
}

export function prefersReducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}
