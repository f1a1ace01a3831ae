// Tri-Tac renderer (view and actions: docs/games/tri-tac.md; contract: docs/protocol.md "Browser renderers").
//
// The board is one SVG: a grid of focusable cells (role=grid, roving tabindex, arrow keys + Enter/Space),
// X and O drawn as shapes, special squares as stars, scored lines as strokes through their cells (new ones
// drawn in), the last move ringed. It decides no rule: it offers empty cells on your turn, opponent markers
// in Power Play mode, and the two ballots during a vote; the server is the judge.

import { ensureStylesheet, h as el, s as svg } from "../../dom.js";
import { addStrings, playerName, seatLabel } from "../../i18n.js";

addStrings("en", {
  "tri-tac.board": "Tri-Tac board, {n} by {n}",
  "tri-tac.cell": "row {r}, column {c}",
  "tri-tac.empty": "empty",
  "tri-tac.special": "special square",
  "tri-tac.last": "last move",
  "tri-tac.scored": "in a scored line",
  "tri-tac.you_play": "You play {marker}",
  "tri-tac.power": "Power Play",
  "tri-tac.power_hint": "Power Play: pick one of your opponent's markers to replace it with yours. Once per game.",
  "tri-tac.power_used": "Power Play used",
  "tri-tac.power_cancel": "Cancel Power Play",
  "tri-tac.power_locked": "Unlocks at 5 points",
  "tri-tac.vote_title": "The board is full!",
  "tri-tac.vote_text": "Add a ring of empty cells around the board ({from}×{from} → {to}×{to}) and keep playing? Both players must agree.",
  "tri-tac.vote_yes": "Expand the board",
  "tri-tac.vote_no": "End the game",
  "tri-tac.voted": "Voted",
  "tri-tac.vote_waiting": "Waiting for the other vote…",
  "tri-tac.vote_you": "You voted: {choice}",
  "tri-tac.summary_turn": "{marker} to move.",
  "tri-tac.summary_scores": "Scores: {scores}.",
  "tri-tac.summary_last": "Last move: {marker} at row {r}, column {c}.",
  "tri-tac.summary_lines": "{n} scored line(s) on the board.",
  "tri-tac.summary_over": "The game is over.",
  "tri-tac.summary_vote": "The board is full; voting on expanding it.",
  "tri-tac.special_legend": "Special square: a new line through it is worth 2",
  "tri-tac.place_hint": "place an {marker} on an empty cell.",
  "tri-tac.tap_again": "Tap the cell again to place your marker there.",
  // the game log, results and refusals (keys the engine sends, docs/games/tri-tac.md)
  "tri-tac.log.placed": "{seat} placed at {cell}",
  "tri-tac.log.placed_scored": "{seat} placed at {cell} and scored {points, plural, one {# point} other {# points}} ({lines, plural, one {# line} other {# lines}})",
  "tri-tac.log.power": "{seat} used Power Play on {cell}",
  "tri-tac.log.power_scored": "{seat} used Power Play on {cell} and scored {points, plural, one {# point} other {# points}} ({lines, plural, one {# line} other {# lines}})",
  "tri-tac.log.passed": "{seat} lost the turn",
  "tri-tac.log.voted": "{seat} voted",
  "tri-tac.log.voted_grow": "{seat} voted; both agreed: the board grows to {size}×{size}",
  "tri-tac.log.voted_end": "{seat} voted; no agreement: the game ends",
  "tri-tac.result.draw": "Draw, {points}–{points}",
  "tri-tac.result.won": "{seat} wins {points}–{other_points}",
  "tri-tac.error.bad_cell": "Pick a cell of the board.",
  "tri-tac.error.off_board": "That cell is outside the {size}×{size} board.",
  "tri-tac.error.vote_now": "The board is full: vote on adding a ring of cells first.",
  "tri-tac.error.cell_taken": "The cell at {cell} is already taken.",
  "tri-tac.error.power_off": "Power Play is not enabled in this game.",
  "tri-tac.error.power_spent": "{seat} has already used Power Play.",
  "tri-tac.error.power_points": "Power Play needs at least {needed} points (you have {points}).",
  "tri-tac.error.power_empty": "The cell at {cell} is empty: Power Play replaces an opponent’s marker.",
  "tri-tac.error.power_own": "The cell at {cell} holds your own marker.",
  "tri-tac.error.bad_vote": "Vote yes or no.",
  "tri-tac.error.no_vote": "No vote is being held now.",
  "tri-tac.error.voted_already": "{seat} has already voted.",
});

addStrings("fr", {
  "tri-tac.board": "Plateau de Tri-Tac, {n} sur {n}",
  "tri-tac.cell": "ligne {r}, colonne {c}",
  "tri-tac.empty": "vide",
  "tri-tac.special": "case spéciale",
  "tri-tac.last": "dernier coup",
  "tri-tac.scored": "dans un alignement marqué",
  "tri-tac.you_play": "Vous jouez les {marker}",
  "tri-tac.power": "Coup de force",
  "tri-tac.power_hint": "Coup de force : choisissez un pion adverse pour le remplacer par le vôtre. Une fois par partie.",
  "tri-tac.power_used": "Coup de force utilisé",
  "tri-tac.power_cancel": "Annuler le coup de force",
  "tri-tac.power_locked": "Disponible à 5 points",
  "tri-tac.vote_title": "Le plateau est plein !",
  "tri-tac.vote_text": "Ajouter une couronne de cases vides autour du plateau ({from}×{from} → {to}×{to}) et continuer ? Les deux joueurs doivent être d’accord.",
  "tri-tac.vote_yes": "Agrandir le plateau",
  "tri-tac.vote_no": "Finir la partie",
  "tri-tac.voted": "A voté",
  "tri-tac.vote_waiting": "En attente de l’autre vote…",
  "tri-tac.vote_you": "Votre vote : {choice}",
  "tri-tac.summary_turn": "{marker} joue.",
  "tri-tac.summary_scores": "Scores : {scores}.",
  "tri-tac.summary_last": "Dernier coup : {marker} en ligne {r}, colonne {c}.",
  "tri-tac.summary_lines": "{n} alignement(s) marqué(s) sur le plateau.",
  "tri-tac.summary_over": "La partie est terminée.",
  "tri-tac.summary_vote": "Le plateau est plein ; vote pour l’agrandir.",
  "tri-tac.special_legend": "Case spéciale : un nouvel alignement qui la traverse vaut 2",
  "tri-tac.place_hint": "posez un {marker} sur une case vide.",
  "tri-tac.tap_again": "Touchez de nouveau la case pour y poser votre pion.",
  "tri-tac.log.placed": "{seat} joue en {cell}",
  "tri-tac.log.placed_scored": "{seat} joue en {cell} et marque {points, plural, one {# point} other {# points}} ({lines, plural, one {# alignement} other {# alignements}})",
  "tri-tac.log.power": "{seat} fait un coup de force en {cell}",
  "tri-tac.log.power_scored": "{seat} fait un coup de force en {cell} et marque {points, plural, one {# point} other {# points}} ({lines, plural, one {# alignement} other {# alignements}})",
  "tri-tac.log.passed": "{seat} perd son tour",
  "tri-tac.log.voted": "{seat} a voté",
  "tri-tac.log.voted_grow": "{seat} a voté ; accord : le plateau passe à {size}×{size}",
  "tri-tac.log.voted_end": "{seat} a voté ; pas d’accord : la partie s’arrête",
  "tri-tac.result.draw": "Match nul, {points} à {points}",
  "tri-tac.result.won": "{seat} gagne {points} à {other_points}",
  "tri-tac.error.bad_cell": "Choisissez une case du plateau.",
  "tri-tac.error.off_board": "Cette case est hors du plateau de {size}×{size}.",
  "tri-tac.error.vote_now": "Le plateau est plein : votez d’abord pour ajouter ou non une couronne de cases.",
  "tri-tac.error.cell_taken": "La case en {cell} est déjà prise.",
  "tri-tac.error.power_off": "Le coup de force n’est pas activé dans cette partie.",
  "tri-tac.error.power_spent": "{seat} a déjà utilisé son coup de force.",
  "tri-tac.error.power_points": "Le coup de force demande au moins {needed} points (vous en avez {points}).",
  "tri-tac.error.power_empty": "La case en {cell} est vide : le coup de force remplace un pion adverse.",
  "tri-tac.error.power_own": "La case en {cell} porte déjà votre pion.",
  "tri-tac.error.bad_vote": "Votez oui ou non.",
  "tri-tac.error.no_vote": "Aucun vote n’est en cours.",
  "tri-tac.error.voted_already": "{seat} a déjà voté.",
});

const CELL = 100;
const GAP = 6;
const PAD = 10;
const CSS_HREF = "/static/css/games/tri-tac.css";

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** An X or O marker centred on (cx, cy) with radius r, drawn as a shape (readable without colour). */
function markerShape(marker, cx, cy, r, cls = "") {
  if (marker === "O") {
    return svg("circle", { class: `tt-o ${cls}`, cx, cy, r: r * 0.92 });
  }
  const d = r * 0.78;
  return svg("path", {
    class: `tt-x ${cls}`,
    d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`,
  });
}

function starPath(cx, cy, outer, inner = outer * 0.45) {
  let d = "";
  for (let i = 0; i < 10; i += 1) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rad = i % 2 === 0 ? outer : inner;
    d += `${i === 0 ? "M" : "L"}${(cx + rad * Math.cos(a)).toFixed(1)} ${(cy + rad * Math.sin(a)).toFixed(1)}`;
  }
  return `${d}Z`;
}

/** A small standalone marker badge (players strip, result list). */
export function markerBadge(marker, seat) {
  const box = svg("svg", { viewBox: "0 0 40 40", class: `tt-badge tt-seat-${seat}`, "aria-hidden": "true", focusable: "false" });
  box.append(markerShape(marker, 20, 20, 13, `tt-seat-${seat}`));
  const wrap = el("span", { class: "tt-badge-wrap", title: marker });
  wrap.append(box);
  return wrap;
}

const cellKey = (r, c) => `${r},${c}`;
const lineKey = (line) => `${line.seat}:${line.cells.map((x) => x.join(".")).join("|")}`;

export function mount(root, ctx) {
  const t = ctx.t;
  const uid = `tt${Math.random().toString(36).slice(2, 8)}`;
  const mySeat = ctx.seat;

  let view = null;
  let lastMsg = null;
  let size = 0;
  let focus = [0, 0];
  let powerMode = false;
  let pending = false; // an action is on its way
  let waitVersion = -1; // acked at this version: stay quiet until that state arrives
  const busy = () => pending || (typeof lastMsg?.version === "number" && lastMsg.version < waitVersion);
  let armed = null; // touch: first tap arms a cell, second tap plays it
  let knownLines = null; // Set of line keys already drawn (null until the first update)
  let cells = []; // cells[r][c] = {g, bg, content, ghost}

  // ---- static structure ----------------------------------------------------------------------
  const statusText = el("p", { class: "tt-status", id: `${uid}-status` });
  const youChip = el("span", { class: "tt-you" });
  const powerBtn = el("button", { type: "button", class: "btn btn-secondary tt-power", "aria-pressed": "false", hidden: true });
  const powerNote = el("span", { class: "tt-power-note muted small" });
  const toolbar = el("div", { class: "tt-toolbar" }, el("div", { class: "tt-toolbar-main" }, youChip, statusText), el("div", { class: "tt-toolbar-side" }, powerNote, powerBtn));
  const votePanel = el("section", { class: "tt-vote", hidden: true, "aria-labelledby": `${uid}-vote-title` });

  const board = svg("svg", {
    class: "tt-board",
    role: "grid",
    "aria-describedby": `${uid}-summary`,
    "aria-labelledby": `${uid}-label`,
    focusable: "false",
  });
  const cellsLayer = svg("g", { class: "tt-cells" });
  const linesLayer = svg("g", { class: "tt-lines", "aria-hidden": "true" });
  const fxLayer = svg("g", { class: "tt-fx", "aria-hidden": "true" });
  const frame = svg("rect", { class: "tt-frame" });
  board.append(frame, cellsLayer, linesLayer, fxLayer);

  const label = el("h2", { class: "visually-hidden", id: `${uid}-label` });
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary` });
  const legend = el("p", { class: "tt-legend muted small", "aria-hidden": "true" });
  const boardWrap = el("div", { class: "tt-board-wrap" }, board);
  const container = el("div", { class: "tt", hidden: true }, label, toolbar, votePanel, boardWrap, summary, legend);
  root.append(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  // ---- helpers -------------------------------------------------------------------------------
  const markers = () => view?.markers || ["X", "O"];
  const markerOf = (seat) => markers()[seat] ?? (seat === 0 ? "X" : "O");
  const nameOf = (seat) => playerName(ctx.room?.seats?.[seat]?.player) || seatLabel(ctx.room?.seats?.[seat]?.label || `Player ${seat + 1}`);
  const who = (seat) => `${nameOf(seat)} (${markerOf(seat)})`;
  const isMyTurn = () => Boolean(view && mySeat !== null && mySeat !== undefined && view.phase === "turn" && view.to_move === mySeat && lastMsg && (lastMsg.to_act || []).includes(mySeat) && !lastMsg.outcome);
  const canPower = () => Boolean(view?.power_play && mySeat !== null && view.power_play[mySeat]?.available);

  /** What a click on (r, c) would do now, or null. */
  function actionAt(r, c) {
    if (!isMyTurn() || busy()) return null;
    const v = view.board[r]?.[c];
    if (powerMode) return v !== null && v !== undefined && v !== mySeat && canPower() ? { type: "power", cell: [r, c] } : null;
    return v === null ? { type: "place", cell: [r, c] } : null;
  }

  function geometry(n) {
    const total = PAD * 2 + n * CELL;
    return { total, x: (c) => PAD + c * CELL, y: (r) => PAD + r * CELL, cx: (c) => PAD + c * CELL + CELL / 2, cy: (r) => PAD + r * CELL + CELL / 2 };
  }

  // ---- building the grid (only when the size changes) ----------------------------------------
  function build(n) {
    size = n;
    const g = geometry(n);
    board.setAttribute("viewBox", `0 0 ${g.total} ${g.total}`);
    board.style.setProperty("--n", String(n));
    board.dataset.size = String(n);
    frame.setAttribute("width", g.total);
    frame.setAttribute("height", g.total);
    frame.setAttribute("rx", 18);
    cellsLayer.replaceChildren();
    cells = [];
    for (let r = 0; r < n; r += 1) {
      const row = svg("g", { role: "row" });
      const rowCells = [];
      for (let c = 0; c < n; c += 1) {
        const cell = svg("g", { class: "tt-cell", role: "gridcell", tabindex: "-1", "data-r": r, "data-c": c });
        const bg = svg("rect", { class: "tt-cell-bg", x: g.x(c) + GAP / 2, y: g.y(r) + GAP / 2, width: CELL - GAP, height: CELL - GAP, rx: 12 });
        const content = svg("g", { class: "tt-content" });
        const ghost = svg("g", { class: "tt-ghost" });
        cell.append(bg, content, ghost);
        row.append(cell);
        rowCells.push({ g: cell, bg, content, ghost, sig: "" });
      }
      cellsLayer.append(row);
      cells.push(rowCells);
    }
    focus = [Math.min(focus[0], n - 1), Math.min(focus[1], n - 1)];
  }

  // ---- drawing -------------------------------------------------------------------------------
  function drawCells(animateCells) {
    const g = geometry(size);
    const special = new Set((view.special || []).map(([r, c]) => cellKey(r, c)));
    const scored = new Set();
    for (const line of view.lines || []) if (!line.broken) for (const [r, c] of line.cells) scored.add(cellKey(r, c));
    const last = view.last_move && view.last_move.cell ? cellKey(view.last_move.cell[0], view.last_move.cell[1]) : null;
    const myTurn = isMyTurn();
    for (let r = 0; r < size; r += 1) {
      for (let c = 0; c < size; c += 1) {
        const cellObj = cells[r][c];
        const v = view.board[r][c];
        const key = cellKey(r, c);
        const isSpecial = special.has(key);
        const isLast = key === last;
        const action = actionAt(r, c);
        const sig = `${v}|${isSpecial}|${isLast}`;
        if (sig !== cellObj.sig) {
          cellObj.sig = sig;
          const parts = [];
          if (isSpecial) {
            parts.push(
              v === null
                ? svg("path", { class: "tt-star tt-star-big", d: starPath(g.cx(c), g.cy(r), CELL * 0.3) })
                : svg("path", { class: "tt-star tt-star-small", d: starPath(g.x(c) + CELL - 19, g.y(r) + 19, 11) }),
            );
          }
          if (v !== null && v !== undefined) {
            const pop = animateCells.has(key) && !reducedMotion() ? " tt-pop" : "";
            const shape = markerShape(markerOf(v), g.cx(c), g.cy(r), CELL * 0.3, `tt-seat-${v}${pop}`);
            shape.style.transformOrigin = `${g.cx(c)}px ${g.cy(r)}px`;
            parts.push(shape);
          }
          if (isLast) parts.push(svg("rect", { class: "tt-last", x: g.x(c) + GAP / 2 + 3, y: g.y(r) + GAP / 2 + 3, width: CELL - GAP - 6, height: CELL - GAP - 6, rx: 10 }));
          cellObj.content.replaceChildren(...parts);
        }
        // hover / focus preview of what a click would do
        const ghostSig = action ? `${action.type}` : "";
        if (cellObj.ghostSig !== ghostSig) {
          cellObj.ghostSig = ghostSig;
          cellObj.ghost.replaceChildren(
            ...(action ? [markerShape(markerOf(mySeat), g.cx(c), g.cy(r), CELL * 0.3, `tt-seat-${mySeat}`)] : []),
          );
        }
        cellObj.g.classList.toggle("is-playable", Boolean(action));
        cellObj.g.classList.toggle("is-target", Boolean(action && action.type === "power"));
        cellObj.g.classList.toggle("is-armed", Boolean(armed && armed[0] === r && armed[1] === c));
        cellObj.g.classList.toggle("is-last", isLast);
        cellObj.g.setAttribute("aria-disabled", action ? "false" : "true");
        const bits = [t("tri-tac.cell", { r: r + 1, c: c + 1 })];
        bits.push(v === null || v === undefined ? t("tri-tac.empty") : markerOf(v));
        if (isSpecial) bits.push(t("tri-tac.special"));
        if (scored.has(key)) bits.push(t("tri-tac.scored"));
        if (isLast) bits.push(t("tri-tac.last"));
        cellObj.g.setAttribute("aria-label", bits.join(", "));
        cellObj.g.setAttribute("tabindex", r === focus[0] && c === focus[1] ? "0" : "-1");
      }
    }
    board.classList.toggle("is-my-turn", myTurn);
    board.classList.toggle("is-power", powerMode);
    board.classList.toggle("is-busy", busy());
    board.setAttribute("aria-busy", busy() ? "true" : "false");
  }

  function drawLines() {
    const g = geometry(size);
    const lines = view.lines || [];
    const first = knownLines === null;
    const fresh = new Set();
    if (!first) for (const line of lines) if (!knownLines.has(lineKey(line))) fresh.add(lineKey(line));
    knownLines = new Set(lines.map(lineKey));
    const animate = !reducedMotion();
    linesLayer.replaceChildren(
      ...lines.map((line) => {
        const pts = [...line.cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const [r0, c0] = pts[0];
        const [r1, c1] = pts[pts.length - 1];
        // stretch a little beyond the end cells' centres so the stroke reads as "through"
        const dx = g.cx(c1) - g.cx(c0);
        const dy = g.cy(r1) - g.cy(r0);
        const len = Math.hypot(dx, dy) || 1;
        const ext = CELL * 0.28;
        const x0 = g.cx(c0) - (dx / len) * ext;
        const y0 = g.cy(r0) - (dy / len) * ext;
        const x1 = g.cx(c1) + (dx / len) * ext;
        const y1 = g.cy(r1) + (dy / len) * ext;
        const isNew = fresh.has(lineKey(line));
        return svg("line", {
          class: `tt-line tt-seat-${line.seat}${line.broken ? " is-broken" : ""}${line.points > 1 ? " is-double" : ""}${isNew && animate ? " is-new" : ""}`,
          x1: x0.toFixed(1),
          y1: y0.toFixed(1),
          x2: x1.toFixed(1),
          y2: y1.toFixed(1),
          pathLength: "1",
        });
      }),
    );
  }

  /** "+3" floating over the cell of a scoring move. */
  function floatPoints(events) {
    if (reducedMotion()) return;
    const g = geometry(size);
    for (const ev of events) {
      if (ev.kind !== "lines" || !ev.points) continue;
      const cell = view.last_move?.cell;
      if (!cell) continue;
      const text = svg("text", { class: `tt-float tt-seat-${ev.seat}`, x: g.cx(cell[1]), y: g.cy(cell[0]) - CELL * 0.2, "text-anchor": "middle" });
      text.textContent = `+${ev.points}`;
      fxLayer.append(text);
      setTimeout(() => text.remove(), 1400);
    }
  }

  function drawToolbar() {
    const spectator = mySeat === null || mySeat === undefined;
    youChip.replaceChildren();
    if (!spectator) {
      youChip.append(markerBadge(markerOf(mySeat), mySeat), el("span", {}, t("tri-tac.you_play", { marker: markerOf(mySeat) })));
    }
    youChip.hidden = spectator;

    let status;
    if (lastMsg?.outcome || view.phase === "over") status = t("tri-tac.summary_over");
    else if (view.phase === "vote") status = t("tri-tac.summary_vote");
    else if (isMyTurn()) {
      if (armed) status = t("tri-tac.tap_again");
      else status = powerMode ? t("tri-tac.power_hint") : `${t("room.your_turn")} — ${t("tri-tac.place_hint", { marker: markerOf(mySeat) })}`;
    } else if (view.to_move !== null && view.to_move !== undefined) status = t("room.waiting_for", { name: who(view.to_move) });
    else status = "";
    statusText.textContent = status;
    statusText.classList.toggle("is-you", isMyTurn());

    const pp = view.power_play;
    if (pp && !spectator && view.phase === "turn" && !lastMsg?.outcome) {
      const mine = pp[mySeat] || {};
      powerBtn.hidden = false;
      powerBtn.disabled = !mine.available || !isMyTurn() || busy();
      powerBtn.setAttribute("aria-pressed", powerMode ? "true" : "false");
      powerBtn.innerHTML = "";
      powerBtn.append(
        svg("svg", { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true" }, svg("path", { d: "M13 2L4 14h7l-1 8 9-12h-7z", fill: "currentColor" })),
        el("span", {}, powerMode ? t("tri-tac.power_cancel") : t("tri-tac.power")),
      );
      powerNote.textContent = mine.used ? t("tri-tac.power_used") : mine.available ? "" : t("tri-tac.power_locked");
    } else {
      powerBtn.hidden = true;
      powerNote.textContent = "";
    }
  }

  function drawVote() {
    if (view.phase !== "vote" || !view.votes) {
      votePanel.hidden = true;
      votePanel.replaceChildren();
      votePanel.dataset.sig = "";
      return;
    }
    const from = view.size;
    const to = Math.min(12, from + 2);
    const myVote = mySeat !== null && mySeat !== undefined ? view.votes[mySeat] : null;
    const sig = JSON.stringify([view.votes, busy()]);
    if (votePanel.dataset.sig === sig) return;
    const firstShow = votePanel.hidden;
    votePanel.dataset.sig = sig;
    const seatsState = view.votes.map((v, seat) =>
      el("li", { class: v.voted ? "is-voted" : "" },
        markerBadge(markerOf(seat), seat),
        el("span", {}, who(seat)),
        el("span", { class: "tt-vote-state" }, v.voted ? `✓ ${t("tri-tac.voted")}` : "…")),
    );
    const parts = [
      el("h3", { id: `${uid}-vote-title`, class: "tt-vote-title" }, t("tri-tac.vote_title")),
      el("p", {}, t("tri-tac.vote_text", { from, to })),
      el("ul", { class: "tt-vote-seats" }, seatsState),
    ];
    const canVote = myVote && !myVote.voted && (lastMsg?.to_act || []).includes(mySeat);
    if (canVote) {
      const vote = (expand) => {
        pending = true;
        drawVote();
        ctx.act({ type: "vote", expand }).then(noteAck).catch(() => {}).finally(() => {
          pending = false;
          render();
        });
      };
      parts.push(
        el("div", { class: "tt-vote-actions" },
          el("button", { type: "button", class: "btn btn-primary", disabled: busy(), onclick: () => vote(true) }, t("tri-tac.vote_yes")),
          el("button", { type: "button", class: "btn btn-secondary", disabled: busy(), onclick: () => vote(false) }, t("tri-tac.vote_no"))),
      );
    } else if (myVote && myVote.voted) {
      parts.push(el("p", { class: "muted" }, t("tri-tac.vote_you", { choice: myVote.expand ? t("tri-tac.vote_yes") : t("tri-tac.vote_no") }), " ", t("tri-tac.vote_waiting")));
    }
    votePanel.replaceChildren(...parts);
    votePanel.hidden = false;
    if (firstShow && canVote) votePanel.querySelector("button")?.focus();
  }

  function drawSummary() {
    const bits = [];
    const scores = (view.scores || []).map((s, seat) => `${who(seat)} ${s}`).join(", ");
    if (scores) bits.push(t("tri-tac.summary_scores", { scores }));
    if (view.phase === "turn" && view.to_move !== null && view.to_move !== undefined) bits.push(t("tri-tac.summary_turn", { marker: who(view.to_move) }));
    if (view.phase === "vote") bits.push(t("tri-tac.summary_vote"));
    if (view.phase === "over") bits.push(t("tri-tac.summary_over"));
    const lm = view.last_move;
    if (lm && lm.cell) bits.push(t("tri-tac.summary_last", { marker: who(lm.seat), r: lm.cell[0] + 1, c: lm.cell[1] + 1 }));
    const live = (view.lines || []).filter((l) => !l.broken).length;
    bits.push(t("tri-tac.summary_lines", { n: live }));
    summary.textContent = bits.join(" ");
    label.textContent = t("tri-tac.board", { n: view.size });
    const legendBits = [`${markerOf(0)} = ${nameOf(0)}`, `${markerOf(1)} = ${nameOf(1)}`];
    if ((view.special || []).length) legendBits.push(`★ ${t("tri-tac.special_legend")}`);
    legend.textContent = legendBits.join(" · ");
  }

  function render(animateCells = new Set()) {
    if (!view) return;
    if (view.size !== size || cells.length !== view.size) build(view.size);
    if (!isMyTurn()) {
      powerMode = false;
      armed = null;
    }
    if (powerMode && !canPower()) powerMode = false;
    drawCells(animateCells);
    drawToolbar();
    drawVote();
    drawSummary();
  }

  // ---- input ---------------------------------------------------------------------------------
  /** The ack may arrive before the state it produced: until that state is here, offer nothing. */
  function noteAck(ack) {
    if (ack && Number.isInteger(ack.version)) waitVersion = Math.max(waitVersion, ack.version);
  }

  function play(r, c) {
    const action = actionAt(r, c);
    if (!action) return;
    pending = true;
    armed = null;
    render();
    ctx
      .act(action)
      .then((ack) => {
        noteAck(ack);
        powerMode = false;
      })
      .catch(() => {})
      .finally(() => {
        pending = false;
        render();
      });
  }

  function focusCell(r, c) {
    r = Math.max(0, Math.min(size - 1, r));
    c = Math.max(0, Math.min(size - 1, c));
    const prev = cells[focus[0]]?.[focus[1]];
    if (prev) prev.g.setAttribute("tabindex", "-1");
    focus = [r, c];
    const cur = cells[r][c];
    cur.g.setAttribute("tabindex", "0");
    cur.g.focus();
  }

  function cellFromEvent(event) {
    const g = event.target.closest?.(".tt-cell");
    if (!g) return null;
    return [Number(g.dataset.r), Number(g.dataset.c)];
  }

  board.addEventListener("click", (event) => {
    const rc = cellFromEvent(event);
    if (!rc) return;
    const [r, c] = rc;
    focus = rc;
    // On a phone with a big board, the first tap selects and the second confirms, so a fat finger
    // never plays the wrong cell.
    const touch = lastPointerType === "touch" && size >= 7;
    if (touch && actionAt(r, c) && !(armed && armed[0] === r && armed[1] === c)) {
      armed = [r, c];
      render();
      return;
    }
    play(r, c);
  });
  let lastPointerType = "mouse";
  board.addEventListener("pointerdown", (event) => {
    lastPointerType = event.pointerType || "mouse";
  });

  board.addEventListener("keydown", (event) => {
    const rc = cellFromEvent(event);
    if (!rc) return;
    const [r, c] = rc;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      focusCell(r + moves[event.key][0], c + moves[event.key][1]);
    } else if (event.key === "Home") {
      event.preventDefault();
      focusCell(event.ctrlKey ? 0 : r, 0);
    } else if (event.key === "End") {
      event.preventDefault();
      focusCell(event.ctrlKey ? size - 1 : r, size - 1);
    } else if (event.key === "PageUp") {
      event.preventDefault();
      focusCell(0, c);
    } else if (event.key === "PageDown") {
      event.preventDefault();
      focusCell(size - 1, c);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      play(r, c);
    } else if (event.key === "Escape" && (powerMode || armed)) {
      powerMode = false;
      armed = null;
      render();
    }
  });

  board.addEventListener("focusin", (event) => {
    const rc = cellFromEvent(event);
    if (rc) focus = rc;
  });

  powerBtn.addEventListener("click", () => {
    powerMode = !powerMode && canPower();
    armed = null;
    render();
    if (powerMode) {
      // jump the focus to the first target so keyboard users can start right away
      const target = (() => {
        for (let r = 0; r < size; r += 1) for (let c = 0; c < size; c += 1) if (actionAt(r, c)) return [r, c];
        return null;
      })();
      if (target) focusCell(target[0], target[1]);
    }
  });

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    update(msg) {
      const prevSize = size;
      lastMsg = msg;
      view = msg.view;
      if (!view || !Array.isArray(view.board)) return;
      const events = Array.isArray(msg.events) ? msg.events : [];
      const animateCells = new Set();
      for (const ev of events) {
        if ((ev.kind === "placed" || ev.kind === "power") && Array.isArray(ev.cell)) animateCells.add(cellKey(ev.cell[0], ev.cell[1]));
        if (ev.kind === "expanded") {
          // every coordinate shifted by one: keep the keyboard focus on the same cell
          focus = [focus[0] + 1, focus[1] + 1];
          knownLines = null;
        }
      }
      const hadFocus = board.contains(document.activeElement);
      render(animateCells);
      // First paint, or a board that grew (every line moved): draw the lines as they are, no animation.
      if (knownLines === null || prevSize !== size) knownLines = new Set((view.lines || []).map(lineKey));
      drawLines();
      floatPoints(events);
      if (events.some((e) => e.kind === "expanded") && !reducedMotion()) {
        board.classList.remove("tt-grow");
        void board.getBoundingClientRect();
        board.classList.add("tt-grow");
      }
      if (hadFocus && !board.contains(document.activeElement)) focusCell(focus[0], focus[1]);
    },
    destroy() {
      container.remove();
    },
    /** Optional hook used by the room page: the marker shown beside each seat. */
    seatBadge(seat) {
      return markerBadge(markerOf(seat), seat);
    },
    /** Optional hooks of the log (static/js/log.js): a seat is its player's name and marker, a cell its
     * row and column. */
    seatName(seat, name) {
      return `${name} (${markerOf(seat)})`;
    },
    cellText(cell) {
      return t("tri-tac.cell", { r: Number(cell[0]) + 1, c: Number(cell[1]) + 1 });
    },
  };
}
