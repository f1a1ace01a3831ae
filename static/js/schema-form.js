// A small form generator for a game's options, driven by its JSON Schema (pydantic's model_json_schema):
// booleans → switches, integers/numbers → number inputs (min/max/step), enums → selects, strings → text,
// arrays and objects → a JSON textarea. Nullable fields (anyOf [..., {type: null}]) get an "Enabled" switch.
// Titles and descriptions from the schema label each field.

import { h } from "./dom.js";
import { hasOwn, t } from "./i18n.js";

let formCounter = 0;

function resolve(schema, root) {
  let node = schema || {};
  for (let guard = 0; node && node.$ref && guard < 10; guard += 1) {
    const path = node.$ref.replace(/^#\//, "").split("/");
    let target = root;
    for (const part of path) target = target?.[part];
    const { $ref, ...rest } = node;
    node = { ...(target || {}), ...rest };
  }
  // allOf with a single $ref (older pydantic) → merge.
  if (node && Array.isArray(node.allOf) && node.allOf.length === 1) {
    const { allOf, ...rest } = node;
    node = { ...resolve(allOf[0], root), ...rest };
  }
  return node || {};
}

/** Describe one property: {kind, nullable, inner, enumValues, ...}. */
function analyse(prop, root) {
  let node = resolve(prop, root);
  let nullable = false;
  const variants = node.anyOf || node.oneOf;
  if (Array.isArray(variants)) {
    const resolved = variants.map((v) => resolve(v, root));
    const nonNull = resolved.filter((v) => v.type !== "null");
    nullable = nonNull.length < resolved.length;
    if (nonNull.length === 1) {
      const { anyOf, oneOf, ...outer } = node;
      node = { ...nonNull[0], ...outer };
    } else if (nonNull.length > 1 && nonNull.every((v) => "const" in v)) {
      const { anyOf, oneOf, ...outer } = node;
      node = { ...outer, enum: nonNull.map((v) => v.const), enumTitles: nonNull.map((v) => v.title || null) };
    }
  }
  let type = node.type;
  if (Array.isArray(type)) {
    nullable = nullable || type.includes("null");
    type = type.find((x) => x !== "null");
  }
  let kind = "json";
  if ("const" in node) kind = "const";
  else if (Array.isArray(node.enum)) kind = "enum";
  else if (type === "boolean") kind = "boolean";
  else if (type === "integer" || type === "number") kind = "number";
  else if (type === "string") kind = "string";
  return { node, type, kind, nullable };
}

function humanise(key) {
  const text = key.replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function defaultFor(info) {
  const n = info.node;
  if (n.default !== undefined && n.default !== null) return n.default;
  if (Array.isArray(n.examples) && n.examples.length) return n.examples[0];
  if (info.kind === "boolean") return false;
  if (info.kind === "number") {
    const min = n.minimum ?? (n.exclusiveMinimum !== undefined ? n.exclusiveMinimum + 1 : 0);
    return min;
  }
  if (info.kind === "enum") return n.enum[0];
  if (info.kind === "string") return "";
  return info.type === "array" ? [] : {};
}

function displayValue(info, value) {
  if (value === null || value === undefined) return t("common.off");
  if (info.kind === "boolean") return value ? t("common.on") : t("common.off");
  if (info.kind === "enum") {
    const i = info.node.enum.indexOf(value);
    return (info.node.enumTitles && info.node.enumTitles[i]) || String(value);
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A translation of a schema text when the page's language has one ("opt.<game>.<field>…"), else null. */
function localText(ns, key) {
  return ns && hasOwn(`${ns}.${key}`) ? t(`${ns}.${key}`) : null;
}

/**
 * The options that start a game in the page's language, or null: for a game with a `language` choice that
 * offers it (Tic Tac Top's theme decks come in English and French) when it is not already the default.
 * `language` is the schema's property (options_schema.properties.language), if any.
 */
export function pageLanguageOptions(language, pageLanguage) {
  const choices = language && Array.isArray(language.enum) ? language.enum : [];
  return choices.includes(pageLanguage) && language.default !== pageLanguage ? { language: pageLanguage } : null;
}

/**
 * Properties of the options schema, in schema order, analysed. `ns` ("opt.<game>") names the catalogue keys
 * that translate the server's English titles, hints and choices: "<ns>.<field>", "<ns>.<field>.hint" and
 * "<ns>.<field>.<value>".
 */
export function fields(schema, ns = null) {
  const root = schema || {};
  const props = resolve(root, root).properties || {};
  return Object.entries(props).map(([key, prop]) => {
    const info = analyse(prop, root);
    // Optional extension: "x-show-if": "<boolean field>" shows this field only while that field is on.
    const showIf = prop["x-show-if"] ?? info.node["x-show-if"] ?? prop.depends_on ?? null;
    if (info.kind === "enum" && ns) {
      const titles = info.node.enum.map((v, i) => localText(ns, `${key}.${v}`) ?? info.node.enumTitles?.[i] ?? null);
      if (titles.some((x) => x !== null)) info.node = { ...info.node, enumTitles: titles };
    }
    return {
      key,
      ...info,
      showIf,
      title: localText(ns, key) ?? (info.node.title || prop.title || humanise(key)),
      description: localText(ns, `${key}.hint`) ?? (info.node.description || prop.description || ""),
    };
  });
}

/** A read-only summary (definition list) for non-hosts. */
export function optionsSummary(schema, values, ns = null) {
  const list = fields(schema, ns).filter((f) => f.kind !== "const" && (!f.showIf || !values || values[f.showIf]));
  if (!list.length) return h("p", { class: "muted" }, t("room.no_options"));
  return h(
    "dl",
    { class: "options-summary" },
    list.map((f) => {
      const value = values && f.key in values ? values[f.key] : f.node.default;
      return h("div", { class: "options-summary-row" }, h("dt", {}, f.title), h("dd", {}, displayValue(f, value)));
    }),
  );
}

/**
 * The editable form for the host. onChange(values) is called with every option (debounced for text).
 * Returns {el, setValues(values)}; setValues leaves the focused control alone.
 */
export function optionsForm(schema, values, onChange, ns = null) {
  const id = `opt${(formCounter += 1)}`;
  const list = fields(schema, ns);
  const controls = new Map(); // key -> {get(), set(v), el}
  let timer = 0;
  let lastLocal = 0; // when the user last changed something
  let settleTimer = 0;
  const SETTLE_MS = 1500;

  const collect = () => {
    const out = {};
    for (const [key, c] of controls) {
      const v = c.get();
      if (v !== undefined) out[key] = v;
    }
    return out;
  };
  const fire = (delay = 0) => {
    lastLocal = Date.now();
    clearTimeout(timer);
    timer = setTimeout(() => {
      lastLocal = Date.now();
      onChange(collect());
    }, delay);
  };

  const form = h("form", { class: "options-form", novalidate: true, onsubmit: (e) => e.preventDefault() });
  if (!list.length) form.append(h("p", { class: "muted" }, t("room.no_options")));

  for (const f of list) {
    const fid = `${id}-${f.key}`;
    const hintId = f.description ? `${fid}-hint` : null;
    const hint = f.description ? h("span", { class: "field-hint", id: hintId }, f.description) : null;
    const n = f.node;
    let control;

    if (f.kind === "const") {
      controls.set(f.key, { get: () => n.const, set() {}, el: null });
      continue;
    }

    if (f.kind === "boolean") {
      const input = h("input", { type: "checkbox", role: "switch", id: fid, class: "switch-input", "aria-describedby": hintId });
      input.addEventListener("change", () => fire());
      control = {
        el: input,
        get: () => input.checked,
        set: (v) => {
          input.checked = Boolean(v);
        },
      };
      control.field = h("div", { class: "field field-switch" },
        h("label", { for: fid, class: "switch" }, input, h("span", { class: "switch-track", "aria-hidden": "true" }, h("span", { class: "switch-thumb" })), h("span", { class: "field-label" }, f.title)),
        hint);
      form.append(control.field);
      controls.set(f.key, control);
      continue;
    }

    let input;
    if (f.kind === "number") {
      const integer = f.type === "integer";
      input = h("input", {
        type: "number",
        id: fid,
        inputmode: integer ? "numeric" : "decimal",
        min: n.minimum ?? (n.exclusiveMinimum !== undefined ? n.exclusiveMinimum + (integer ? 1 : 0) : undefined),
        max: n.maximum ?? (n.exclusiveMaximum !== undefined ? n.exclusiveMaximum - (integer ? 1 : 0) : undefined),
        step: n.multipleOf ?? (integer ? 1 : "any"),
        "aria-describedby": hintId,
      });
      const clamp = () => {
        let v = Number(input.value);
        if (input.value === "" || Number.isNaN(v)) return undefined;
        if (input.min !== "" && v < Number(input.min)) v = Number(input.min);
        if (input.max !== "" && v > Number(input.max)) v = Number(input.max);
        return integer ? Math.round(v) : v;
      };
      const stepBy = (dir) => {
        const step = Number(input.step) || 1;
        const current = clamp() ?? Number(defaultFor(f));
        input.value = String(current + dir * step);
        input.value = String(clamp());
        fire();
      };
      input.addEventListener("input", () => fire(600));
      input.addEventListener("change", () => {
        const v = clamp();
        if (v !== undefined) input.value = String(v);
        fire();
      });
      const numberControl = {
        el: input,
        get: clamp,
        set: (v) => {
          if (v !== null && v !== undefined) input.value = String(v);
        },
      };
      const stepper = h("div", { class: "stepper" },
        h("button", { type: "button", class: "stepper-btn", tabindex: "-1", "aria-hidden": "true", onclick: () => stepBy(-1) }, "−"),
        input,
        h("button", { type: "button", class: "stepper-btn", tabindex: "-1", "aria-hidden": "true", onclick: () => stepBy(1) }, "+"));
      control = { ...numberControl, wrap: stepper };
    } else if (f.kind === "enum") {
      input = h("select", { id: fid, "aria-describedby": hintId },
        n.enum.map((v, i) => h("option", { value: JSON.stringify(v) }, (n.enumTitles && n.enumTitles[i]) || String(v))));
      input.addEventListener("change", () => fire());
      control = {
        el: input,
        get: () => JSON.parse(input.value),
        set: (v) => {
          input.value = JSON.stringify(v);
        },
      };
    } else if (f.kind === "string") {
      input = h("input", { type: "text", id: fid, maxlength: n.maxLength, "aria-describedby": hintId });
      input.addEventListener("input", () => fire(600));
      control = {
        el: input,
        get: () => input.value,
        set: (v) => {
          input.value = v ?? "";
        },
      };
    } else {
      input = h("textarea", { id: fid, rows: 3, class: "mono", spellcheck: "false", "aria-describedby": hintId });
      const error = h("span", { class: "field-error", hidden: true, role: "alert" });
      let lastGood;
      input.addEventListener("change", () => {
        try {
          lastGood = input.value.trim() ? JSON.parse(input.value) : defaultFor(f);
          error.hidden = true;
          input.removeAttribute("aria-invalid");
          fire();
        } catch {
          error.textContent = t("room.options_invalid");
          error.hidden = false;
          input.setAttribute("aria-invalid", "true");
        }
      });
      control = {
        el: input,
        get: () => lastGood,
        set: (v) => {
          lastGood = v;
          input.value = v === undefined ? "" : JSON.stringify(v, null, 1);
        },
        extra: error,
      };
    }

    const body = control.wrap || input;
    if (f.nullable) {
      // Optional value: a switch turns it on (with a sensible default) or off (null).
      const sid = `${fid}-on`;
      const on = h("input", { type: "checkbox", role: "switch", id: sid, class: "switch-input", "aria-describedby": hintId });
      const inner = control;
      const valueRow = h("div", { class: "field-nested" }, h("label", { for: fid, class: "field-label field-label-sub" }, f.title), body, control.extra);
      const sync = () => {
        valueRow.hidden = !on.checked;
      };
      on.addEventListener("change", () => {
        if (on.checked && inner.get() === undefined) inner.set(defaultFor(f));
        sync();
        fire();
      });
      control = {
        el: on,
        get: () => (on.checked ? inner.get() : null),
        set: (v) => {
          on.checked = v !== null && v !== undefined;
          if (on.checked) inner.set(v);
          sync();
        },
      };
      control.field = h("div", { class: "field field-switch" },
        h("label", { for: sid, class: "switch" }, on, h("span", { class: "switch-track", "aria-hidden": "true" }, h("span", { class: "switch-thumb" })), h("span", { class: "field-label" }, f.title)),
        hint, valueRow);
    } else {
      control.field = h("div", { class: "field" }, h("label", { for: fid, class: "field-label" }, f.title), body, control.extra, hint);
    }
    form.append(control.field);
    controls.set(f.key, control);
  }

  // The server echoes every change; while the user is still clicking, an older echo must not undo a newer
  // local change, so echoes are applied once the form has been quiet for a moment.
  // Fields that only matter while another (boolean) field is on.
  const applyShowIf = () => {
    for (const f of list) {
      if (!f.showIf || !controls.has(f.key) || !controls.has(f.showIf)) continue;
      const field = controls.get(f.key).field;
      if (field) field.hidden = !controls.get(f.showIf).get();
    }
  };
  form.addEventListener("change", applyShowIf);

  const setValues = (vals, { force = false } = {}) => {
    clearTimeout(settleTimer);
    const quietFor = Date.now() - lastLocal;
    if (!force && quietFor < SETTLE_MS) {
      settleTimer = setTimeout(() => setValues(vals), SETTLE_MS - quietFor + 20);
      return;
    }
    for (const [key, c] of controls) {
      const f = list.find((x) => x.key === key);
      const v = vals && key in vals ? vals[key] : f?.node.default;
      const active = document.activeElement;
      const typing = active && c.field && c.field.contains(active) && active.matches("input[type=number], input[type=text], textarea");
      if (typing) continue;
      c.set(v === undefined ? defaultFor(f) : v);
    }
    applyShowIf();
  };
  setValues(values, { force: true });
  applyShowIf();
  return { el: form, setValues };
}
