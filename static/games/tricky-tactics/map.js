// The map: four suit Areas with their K, Q and J Locations, the cubes on each and who controls it; during
// your Action the Locations you may add to, and the cubes you may knock off, are buttons.
import { h as el } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { ink, keyOf } from "./art.js";
import { locText, put, reducedMotion, suitName } from "./state.js";

/** Draw the map of `T` into `panel`; `submit(action)` sends an add or a remove. */
export function drawMap(T, panel, submit) {
  const view = T.view;
  const { cube, suitIcon } = T.art;
  const pending = T.gate.pending;
  const pa = T.myPendingAction();
  const ids = T.playerIds();
  const prevCubes = new Map();
  for (const area of T.prevView?.map || []) for (const loc of area.locations) prevCubes.set(loc.id, loc.cubes);
  const animate = !reducedMotion() && !T.firstUpdate;
  const addSet = new Set(pa && T.mode === "add" ? pa.add : []);
  const removeMap = new Map();
  if (pa && T.mode === "remove") for (const r of pa.remove) removeMap.set(`${r.location}|${r.owner}`, r);

  function cubeGroups(loc, before, described) {
    const groups = [];
    loc.cubes.forEach((count, i) => {
      if (!count) return;
      const pid = ids[i];
      const cubesText = t("tricky-tactics.cube_count", { name: T.nameOf(pid), n: count });
      described.push(cubesText);
      const added = animate ? Math.max(0, count - (before[i] ?? 0)) : 0;
      const cubes = [];
      if (count <= 4) {
        for (let k = 0; k < count; k += 1) cubes.push(cube(pid, k >= count - added ? "tk-cube-new" : ""));
      } else {
        cubes.push(cube(pid, added ? "tk-cube-new" : ""), el("span", { class: "tk-cube-x" }, `×${count}`));
      }
      const target = removeMap.get(`${loc.id}|${pid}`);
      if (target) {
        const label = t("tricky-tactics.remove_from", { owner: T.nameOf(pid), loc: locText(loc.id) });
        groups.push(el("button", {
          type: "button",
          class: "tk-cube-group tk-cube-hit",
          title: label,
          "aria-label": label,
          disabled: pending,
          dataset: { focus: `maprm-${loc.id}-${pid}` },
          onclick: () => submit({ type: "remove", location: loc.id, owner: target.owner }),
        }, cubes));
      } else {
        groups.push(el("span", { class: "tk-cube-group", title: cubesText }, cubes));
      }
    });
    return groups;
  }

  function location(area, loc) {
    const before = prevCubes.get(loc.id) || loc.cubes;
    const lost = animate && loc.cubes.some((c, i) => c < (before[i] ?? 0));
    const described = [];
    const groups = cubeGroups(loc, before, described);
    const ctl = loc.controller;
    const tied = ctl === null && loc.total > 0;
    const ctlText = ctl !== null && ctl !== undefined ? t("tricky-tactics.loc_ctl", { name: T.nameOf(ctl) }) : tied ? t("tricky-tactics.loc_tied") : t("tricky-tactics.loc_empty");
    const label = t("tricky-tactics.loc_label", { loc: locText(loc.id), value: t("tricky-tactics.pts", { n: loc.value }), cubes: described.join(", ") || t("tricky-tactics.loc_cubes_none"), ctl: ctlText });
    const canAdd = addSet.has(loc.id);
    return el("li", {
      class: ["tk-loc", ctl !== null && ctl !== undefined && `tk-ctl-${keyOf(ctl)}`, tied && "is-tied", lost && "tk-loc-hit", (canAdd || [...removeMap.keys()].some((k) => k.startsWith(`${loc.id}|`))) && "is-target"],
      dataset: { loc: loc.id },
    },
    el("span", { class: "visually-hidden" }, label),
    el("span", { class: `tk-face ${ink(area.suit)}`, "aria-hidden": "true" },
      el("span", { class: "tk-face-rank" }, loc.rank), suitIcon(area.suit, "tk-face-suit"), el("span", { class: "tk-face-value" }, String(loc.value))),
    el("span", { class: "tk-loc-cubes", "aria-hidden": removeMap.size ? null : "true" }, groups.length ? groups : el("span", { class: "tk-loc-none" }, "·")),
    canAdd
      ? el("button", {
        type: "button",
        class: "tk-add-here",
        disabled: pending,
        "aria-label": t("tricky-tactics.add_to", { loc: locText(loc.id) }),
        dataset: { focus: `mapadd-${loc.id}` },
        onclick: () => submit({ type: "add", location: loc.id }),
      }, "+", cube(T.mySeat))
      : el("span", { class: "tk-loc-ctl", "aria-hidden": "true", title: ctlText },
        ctl !== null && ctl !== undefined ? [el("span", { class: "tk-crown" }, "♛"), cube(ctl)] : tied ? el("span", { class: "tk-tie" }, "=") : null));
  }

  const areas = (view.map || []).map((area) => {
    const pendingHere = view.phase === "action" && view.pending_action?.suit === area.suit;
    const rows = area.locations.map((loc) => location(area, loc));
    const whole = area.controller;
    return el("div", { class: ["tk-area", pendingHere && "is-pending", whole !== null && whole !== undefined && `tk-whole-${keyOf(whole)}`], dataset: { suit: area.suit } },
      el("div", { class: "tk-area-head" },
        suitIcon(area.suit, "tk-area-suit"),
        el("span", { class: "tk-area-name" }, suitName(area.suit)),
        whole !== null && whole !== undefined && view.area_bonus
          ? el("span", { class: "tk-area-holder", title: t("tricky-tactics.area_holds", { name: T.nameOf(whole), n: view.area_bonus }) }, cube(whole), `+${view.area_bonus}`)
          : null),
      el("ul", { class: "tk-locs" }, rows));
  });
  const legend = [t("tricky-tactics.map_legend", { k: view.values?.K ?? 3, q: view.values?.Q ?? 2, j: view.values?.J ?? 1 })];
  if (view.area_bonus) legend.push(t("tricky-tactics.map_bonus", { n: view.area_bonus }));
  put(panel,
    el("div", { class: "tk-map-head" },
      el("h3", { class: "tk-h", id: `${T.uid}-map-title` }, t("tricky-tactics.map_title")),
      el("p", { class: "tk-map-legend muted small" }, legend.join(" · ")),
      el("ul", { class: "tk-key", "aria-label": t("tricky-tactics.cubes_key") }, ids.map((pid) => el("li", {}, cube(pid), el("span", {}, T.whoOf(pid)))))),
    el("div", { class: "tk-map" }, areas),
  );
}
