// Tic Tac Match renderer (view and actions: docs/games/tic-tac-match.md; contract: docs/protocol.md
// "Browser renderers").
//
// A card table: the 3×3 grid (top card of each stack, its height), the draw and discard piles, every seat with
// its ID card and hand size, the viewer's own hand of four. Colours are never the only cue: every Symbol card
// carries its colour's letter and pattern (blue stripes, green dots, red checks, yellow bands). The renderer
// decides no rule: a Symbol card offers exactly the cells the view lists for it, Wipe-Out exactly its targets.
// Keyboard: arrows move in the hand and on the grid, Enter/Space selects a card or plays on a cell, Escape
// cancels.

import { ensureStylesheet, h as el, s as svg } from "../../dom.js";
import { addStrings, playerName, seatLabel, teamName } from "../../i18n.js";

const CSS_HREF = "/static/css/games/tic-tac-match.css";
const COLOURS = {
  blue: { letter: "B", pattern: "stripes" },
  green: { letter: "G", pattern: "dots" },
  red: { letter: "R", pattern: "checks" },
  yellow: { letter: "Y", pattern: "bands" },
};
const CELL_NAMES = [
  ["top-left", "top", "top-right"],
  ["left", "centre", "right"],
  ["bottom-left", "bottom", "bottom-right"],
];

const EN = {
  board: "Tic Tac Match grid",
  your_turn: "Your turn",
  your_turn_hint: "choose a card from your hand",
  pick_cell: "Now choose a highlighted cell for your {card} — {n} legal",
  pick_cell_none: "Your {card} fits on no cell right now",
  waiting_for: "Waiting for {name}",
  double_you: "Double Play: {n} more {plays} — a Symbol card or a Flip",
  double_pill: "Double Play: {n} of 2 plays left",
  play_one: "play",
  play_many: "plays",
  double_fallback: "Double Play: no Symbol or Flip play is left — discard a Wipe-Out or Double Play, or forfeit the play",
  double_other: "{name} is making a Double Play ({n} left)",
  over: "Game over",
  spectating: "You are watching",
  you_are: "You are {sym}",
  your_id: "Your ID",
  their_id: "Their ID",
  id_of: "ID card of {name}: {sym}",
  draw_pile: "Draw pile",
  discard_pile: "Discard",
  cards_n: "{n} cards",
  empty_pile: "empty",
  hand: "Your hand",
  cell_empty: "empty",
  cell: "{where} cell",
  high: "{n} high",
  legal: "you can play here",
  winning: "winning line",
  last: "played last",
  play_flip: "Play Flip — every ID flips",
  play_double: "Play Double Play — two plays follow",
  wipe_label: "Wipe out whom?",
  wipe_target: "Wipe out {name}",
  partner: "partner",
  opponent: "opponent",
  discard_as_play: "Discard it as the second play",
  forfeit: "Forfeit the second play",
  cancel: "Cancel",
  flip_hint: "Flip: you become {sym}, the other side {other}.",
  wipe_hint: "Wipe-Out: they discard their hand, draw 4 and play next.",
  double_hint: "Double Play: then two Symbol or Flip plays, a line checked after each.",
  not_now: "not playable now",
  next_match: "Next match",
  match_of: "Match {n}",
  first_to: "first to {n}",
  dealer: "dealer",
  to_play: "to play",
  won_by: "{side} won match {n}: three {colour} {sym} in a row — their ID showed {sym}",
  winner_banner: "{side} wins: three {colour} {sym} in a row, and their ID card showed {sym}",
  winner_banner_team: "{side} win: three {colour} {sym} in a row, and their ID cards showed {sym}",
  ev_flip: "{name} played Flip — every ID card flips ({side} is now {sym})",
  ev_wipe: "{name} wiped out {target}: {target} draws a new hand and plays next",
  ev_double: "{name} played Double Play: two more plays follow",
  ev_play: "{name} played {card} on the {where} cell",
  ev_discard: "{name} discarded {card} as the second play",
  ev_forfeit: "{name} forfeited the second play",
  ev_forfeit_auto: "{name} had no second play: forfeited",
  ev_reshuffle: "Draw pile rebuilt: {a} discards and {b} covered cards shuffled (top cards stay)",
  ev_stuck: "{name} was stuck: new hand dealt (redraw {n})",
  ev_pass: "{name} stayed stuck after 10 redraws: the turn passes",
  ev_start: "Match {n} dealt by {name}: {card} turned up in the centre",
  matches: "Matches",
  summary: "Match {m}. {ids}. Score {score}. {turn} Draw pile {d}, discard {x}.",
  sides_ids: "{side}: {sym}",
  hand_sizes: "{name}: {n} cards",
  legend: "Card colours: B blue (stripes) · G green (dots) · R red (checks) · Y yellow (bands)",
  goal: "Three identical cards in a line win for the side whose ID shows that symbol at that moment — whoever plays the card.",
  flip: "Flip",
  wipeout: "Wipe-Out",
  double: "Double Play",
  card_sym: "{colour} {sym}",
  you: "you",
  legal_cells: "{n} legal cells",
  id_title: "ID {sym}",
  colour_blue: "blue",
  colour_green: "green",
  colour_red: "red",
  colour_yellow: "yellow",
  letter_blue: "B",
  letter_green: "G",
  letter_red: "R",
  letter_yellow: "Y",
  pattern_stripes: "stripes",
  pattern_dots: "dots",
  pattern_checks: "checks",
  pattern_bands: "bands",
  where_00: "top-left",
  where_01: "top",
  where_02: "top-right",
  where_10: "left",
  where_11: "centre",
  where_12: "right",
  where_20: "bottom-left",
  where_21: "bottom",
  where_22: "bottom-right",
  // the game log, results and refusals (keys the engine sends, docs/games/tic-tac-match.md)
  "log.played": "{seat} played {card} on the {cell} cell",
  "log.stacked": "{seat} played {card} on the {cell} cell (now {height} high)",
  "log.flipped": "{seat} played Flip: every ID card flips",
  "log.wiped_out": "{seat} played Wipe-Out on {target_seat}, who draws a new hand and plays next",
  "log.double": "{seat} played Double Play: two more plays follow",
  "log.discarded": "{seat} discarded {card} as the second play",
  "log.forfeited": "{seat} forfeited the second play",
  "log.no_second_play": "{seat} had no second play: forfeited",
  "log.reshuffled": "Draw pile rebuilt: {discards} discards and {grid_cards} covered cards shuffled",
  "log.redrew": "{seat} was stuck: new hand dealt (redraw {redraw})",
  "log.passed": "{seat} stayed stuck after 10 redraws: the turn passes",
  "log.match_won": "Three {card} in a row: {seats} {count, plural, one {wins} other {win}} match {match}",
  "log.dealt": "Match {match} dealt by {seat}: {card} turned up in the centre",
  "result.won": "{seats} {count, plural, one {wins} other {win}} with three {card} in a row",
  "result.series": "{seats} {count, plural, one {wins} other {win}} the series {wins}–{other_wins} (last match: three {card} in a row)",
  "error.no_second_play": "That is only possible as the second play of a Double Play.",
  "error.first_of_double": "The first play after a Double Play must be a Symbol or Flip card.",
  "error.second_must_play": "You have a legal Symbol or Flip play: the second play must be one of them.",
  "error.after_double": "After a Double Play, play Symbol or Flip cards.",
  "error.no_symbol_play": "You have no legal Symbol or Flip play.",
  "error.bad_card": "Choose a card from your hand.",
  "error.not_in_hand": "That card is not in your hand.",
  "error.wrong_card": "{card} cannot be played that way.",
  "error.bad_cell": "Choose a cell of the grid.",
  "error.double_needs_play": "Double Play needs a legal Symbol or Flip play to follow it.",
  "error.matches_both": "{card} cannot go on the {top_card} in the {cell} cell: it matches both its colour and its symbol.",
  "error.matches_neither": "{card} cannot go on the {top_card} in the {cell} cell: it matches neither its colour nor its symbol.",
  "error.bad_target": "Choose another player as the target.",
  "error.wipe_self": "You may never play Wipe-Out on yourself: choose another player.",
};
addStrings("en", Object.fromEntries(Object.entries(EN).map(([k, v]) => [`tic-tac-match.${k}`, v])));

// French (the English is the EN table above, looked up as "tic-tac-match.<key>").
addStrings("fr", {
  "tic-tac-match.board": "Grille de Tic Tac Match",
  "tic-tac-match.your_turn": "À vous",
  "tic-tac-match.your_turn_hint": "choisissez une carte de votre main",
  "tic-tac-match.pick_cell": "Choisissez maintenant une case en surbrillance pour votre {card} — {n} possible(s)",
  "tic-tac-match.pick_cell_none": "Votre {card} ne va sur aucune case pour l’instant",
  "tic-tac-match.waiting_for": "En attente de {name}",
  "tic-tac-match.double_you": "Double jeu : encore {n} {plays} — une carte Symbole ou une Inversion",
  "tic-tac-match.double_pill": "Double jeu : {n} coup(s) sur 2 restant(s)",
  "tic-tac-match.play_one": "coup",
  "tic-tac-match.play_many": "coups",
  "tic-tac-match.double_fallback": "Double jeu : plus aucun coup Symbole ou Inversion — défaussez un Balayage ou un Double jeu, ou renoncez au coup",
  "tic-tac-match.double_other": "{name} joue un Double jeu ({n} restant(s))",
  "tic-tac-match.over": "Partie terminée",
  "tic-tac-match.spectating": "Vous regardez",
  "tic-tac-match.you_are": "Vous êtes {sym}",
  "tic-tac-match.your_id": "Votre identité",
  "tic-tac-match.their_id": "Leur identité",
  "tic-tac-match.id_of": "Carte d’identité de {name} : {sym}",
  "tic-tac-match.draw_pile": "Pioche",
  "tic-tac-match.discard_pile": "Défausse",
  "tic-tac-match.cards_n": "{n} cartes",
  "tic-tac-match.empty_pile": "vide",
  "tic-tac-match.hand": "Votre main",
  "tic-tac-match.cell_empty": "vide",
  "tic-tac-match.cell": "case {where}",
  "tic-tac-match.high": "hauteur {n}",
  "tic-tac-match.legal": "vous pouvez jouer ici",
  "tic-tac-match.winning": "alignement gagnant",
  "tic-tac-match.last": "jouée en dernier",
  "tic-tac-match.play_flip": "Jouer Inversion — toutes les identités s’inversent",
  "tic-tac-match.play_double": "Jouer Double jeu — deux coups suivent",
  "tic-tac-match.wipe_label": "Balayer qui ?",
  "tic-tac-match.wipe_target": "Balayer {name}",
  "tic-tac-match.partner": "partenaire",
  "tic-tac-match.opponent": "adversaire",
  "tic-tac-match.discard_as_play": "La défausser comme second coup",
  "tic-tac-match.forfeit": "Renoncer au second coup",
  "tic-tac-match.cancel": "Annuler",
  "tic-tac-match.flip_hint": "Inversion : vous devenez {sym}, l’autre camp {other}.",
  "tic-tac-match.wipe_hint": "Balayage : il défausse sa main, pioche 4 cartes et joue ensuite.",
  "tic-tac-match.double_hint": "Double jeu : ensuite deux coups Symbole ou Inversion, alignement vérifié après chacun.",
  "tic-tac-match.not_now": "injouable pour l’instant",
  "tic-tac-match.next_match": "Manche suivante",
  "tic-tac-match.match_of": "Manche {n}",
  "tic-tac-match.first_to": "premier à {n}",
  "tic-tac-match.dealer": "donneur",
  "tic-tac-match.to_play": "à jouer",
  "tic-tac-match.won_by": "{side} remporte la manche {n} : trois {sym} identiques ({colour}) alignés — son identité montrait {sym}",
  "tic-tac-match.winner_banner": "{side} gagne : trois {sym} identiques ({colour}) alignés, et sa carte d’identité montrait {sym}",
  "tic-tac-match.winner_banner_team": "{side} gagnent : trois {sym} identiques ({colour}) alignés, et leurs cartes d’identité montraient {sym}",
  "tic-tac-match.ev_flip": "{name} a joué Inversion — toutes les identités s’inversent ({side} : désormais {sym})",
  "tic-tac-match.ev_wipe": "{name} a balayé {target} : {target} pioche une nouvelle main et joue ensuite",
  "tic-tac-match.ev_double": "{name} a joué Double jeu : deux coups suivent",
  "tic-tac-match.ev_play": "{name} a joué {card} sur la case {where}",
  "tic-tac-match.ev_discard": "{name} a défaussé {card} comme second coup",
  "tic-tac-match.ev_forfeit": "{name} a renoncé au second coup",
  "tic-tac-match.ev_forfeit_auto": "{name} n’avait pas de second coup : abandonné",
  "tic-tac-match.ev_reshuffle": "Pioche reconstituée : {a} cartes de la défausse et {b} cartes recouvertes mélangées (les cartes du dessus restent)",
  "tic-tac-match.ev_stuck": "{name} était bloqué : nouvelle main distribuée ({n}e pioche)",
  "tic-tac-match.ev_pass": "{name} est resté bloqué après 10 pioches : le tour passe",
  "tic-tac-match.ev_start": "Manche {n} distribuée par {name} : {card} retourné au centre",
  "tic-tac-match.matches": "Manches",
  "tic-tac-match.summary": "Manche {m}. {ids}. Score {score}. {turn} Pioche {d}, défausse {x}.",
  "tic-tac-match.sides_ids": "{side} : {sym}",
  "tic-tac-match.hand_sizes": "{name} : {n} cartes",
  "tic-tac-match.legend": "Couleurs des cartes : B bleu (rayures) · V vert (pois) · R rouge (carreaux) · J jaune (bandes)",
  "tic-tac-match.goal": "Trois cartes identiques alignées font gagner le camp dont l’identité montre ce symbole à cet instant — quel que soit celui qui pose la carte.",
  "tic-tac-match.flip": "Inversion",
  "tic-tac-match.wipeout": "Balayage",
  "tic-tac-match.double": "Double jeu",
  "tic-tac-match.card_sym": "{sym} {colour}",
  "tic-tac-match.you": "vous",
  "tic-tac-match.legal_cells": "{n} case(s) possible(s)",
  "tic-tac-match.id_title": "Identité {sym}",
  "tic-tac-match.colour_blue": "bleu",
  "tic-tac-match.colour_green": "vert",
  "tic-tac-match.colour_red": "rouge",
  "tic-tac-match.colour_yellow": "jaune",
  "tic-tac-match.letter_blue": "B",
  "tic-tac-match.letter_green": "V",
  "tic-tac-match.letter_red": "R",
  "tic-tac-match.letter_yellow": "J",
  "tic-tac-match.pattern_stripes": "rayures",
  "tic-tac-match.pattern_dots": "pois",
  "tic-tac-match.pattern_checks": "carreaux",
  "tic-tac-match.pattern_bands": "bandes",
  "tic-tac-match.where_00": "en haut à gauche",
  "tic-tac-match.where_01": "en haut au milieu",
  "tic-tac-match.where_02": "en haut à droite",
  "tic-tac-match.where_10": "au milieu à gauche",
  "tic-tac-match.where_11": "au centre",
  "tic-tac-match.where_12": "au milieu à droite",
  "tic-tac-match.where_20": "en bas à gauche",
  "tic-tac-match.where_21": "en bas au milieu",
  "tic-tac-match.where_22": "en bas à droite",
  "tic-tac-match.log.played": "{seat} a joué {card} sur la case {cell}",
  "tic-tac-match.log.stacked": "{seat} a joué {card} sur la case {cell} (hauteur {height})",
  "tic-tac-match.log.flipped": "{seat} a joué Inversion : toutes les identités s’inversent",
  "tic-tac-match.log.wiped_out": "{seat} a joué Balayage sur {target_seat}, qui pioche une nouvelle main et joue ensuite",
  "tic-tac-match.log.double": "{seat} a joué Double jeu : deux coups suivent",
  "tic-tac-match.log.discarded": "{seat} a défaussé {card} comme second coup",
  "tic-tac-match.log.forfeited": "{seat} a renoncé au second coup",
  "tic-tac-match.log.no_second_play": "{seat} n’avait pas de second coup : abandonné",
  "tic-tac-match.log.reshuffled": "Pioche reconstituée : {discards} cartes de la défausse et {grid_cards} cartes recouvertes mélangées",
  "tic-tac-match.log.redrew": "{seat} était bloqué : nouvelle main distribuée ({redraw}e pioche)",
  "tic-tac-match.log.passed": "{seat} est resté bloqué après 10 pioches : le tour passe",
  "tic-tac-match.log.match_won": "Trois {card} alignés : {seats} {count, plural, one {remporte} other {remportent}} la manche {match}",
  "tic-tac-match.log.dealt": "Manche {match} distribuée par {seat} : {card} retourné au centre",
  "tic-tac-match.result.won": "{seats} {count, plural, one {gagne} other {gagnent}} avec trois {card} alignés",
  "tic-tac-match.result.series": "{seats} {count, plural, one {remporte} other {remportent}} la série {wins} à {other_wins} (dernière manche : trois {card} alignés)",
  "tic-tac-match.error.no_second_play": "Ce n’est possible qu’au second coup d’un Double jeu.",
  "tic-tac-match.error.first_of_double": "Le premier coup après un Double jeu doit être une carte Symbole ou Inversion.",
  "tic-tac-match.error.second_must_play": "Vous avez un coup Symbole ou Inversion permis : le second coup doit en être un.",
  "tic-tac-match.error.after_double": "Après un Double jeu, jouez des cartes Symbole ou Inversion.",
  "tic-tac-match.error.no_symbol_play": "Vous n’avez aucun coup Symbole ou Inversion permis.",
  "tic-tac-match.error.bad_card": "Choisissez une carte de votre main.",
  "tic-tac-match.error.not_in_hand": "Cette carte n’est pas dans votre main.",
  "tic-tac-match.error.wrong_card": "{card} ne se joue pas ainsi.",
  "tic-tac-match.error.bad_cell": "Choisissez une case de la grille.",
  "tic-tac-match.error.double_needs_play": "Le Double jeu demande un coup Symbole ou Inversion permis pour le suivre.",
  "tic-tac-match.error.matches_both": "{card} ne peut pas aller sur le {top_card} de la case {cell} : même couleur et même symbole.",
  "tic-tac-match.error.matches_neither": "{card} ne peut pas aller sur le {top_card} de la case {cell} : ni la couleur ni le symbole ne correspondent.",
  "tic-tac-match.error.bad_target": "Choisissez un autre joueur comme cible.",
  "tic-tac-match.error.wipe_self": "Vous ne pouvez jamais jouer Balayage sur vous-même : choisissez un autre joueur.",
});

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** The big X or O of a card, in a 100×140 box. */
function symbolSvg(sym, cls = "ttm-sym-svg") {
  const box = svg("svg", { viewBox: "0 0 100 140", class: cls, "aria-hidden": "true", focusable: "false" });
  if (sym === "O") box.append(svg("circle", { class: "ttm-mark", cx: 50, cy: 70, r: 27 }));
  else box.append(svg("path", { class: "ttm-mark", d: "M26 46L74 94M74 46L26 94" }));
  return box;
}

function iconSvg(kind) {
  const box = svg("svg", { viewBox: "0 0 100 140", class: "ttm-sym-svg", "aria-hidden": "true", focusable: "false" });
  if (kind === "flip") {
    box.append(
      svg("path", { class: "ttm-icon", d: "M28 62a24 24 0 0 1 42-12" }),
      svg("path", { class: "ttm-icon-fill", d: "M74 36l2 20-19-4z" }),
      svg("path", { class: "ttm-icon", d: "M72 78a24 24 0 0 1-42 12" }),
      svg("path", { class: "ttm-icon-fill", d: "M26 104l-2-20 19 4z" }),
    );
  } else if (kind === "wipeout") {
    box.append(
      svg("path", { class: "ttm-icon", d: "M30 96l40-40" }),
      svg("path", { class: "ttm-icon-fill", d: "M22 92l18 18 14-14-18-18z" }),
      svg("path", { class: "ttm-icon ttm-icon-thin", d: "M58 98h20M52 108h26M64 88h14" }),
    );
  } else if (kind === "double") {
    box.append(
      svg("rect", { class: "ttm-icon ttm-icon-thin", x: 22, y: 44, width: 34, height: 48, rx: 6 }),
      svg("rect", { class: "ttm-icon-card", x: 42, y: 52, width: 34, height: 48, rx: 6 }),
      // "×2" drawn, not written: the card's text is its name alone.
      svg("path", { class: "ttm-icon ttm-icon-thin", d: "M46 70l10 10M56 70l-10 10M61 68a5 5 0 1 1 8 5l-9 9h11" }),
    );
  }
  return box;
}

function otherSym(sym) {
  return sym === "X" ? "O" : "X";
}

export function mount(root, ctx) {
  const uid = `ttm${Math.random().toString(36).slice(2, 8)}`;
  const mySeat = ctx.seat === undefined ? null : ctx.seat;
  const tr = (key, params) => {
    const full = `tic-tac-match.${key}`;
    let text = typeof ctx.t === "function" ? ctx.t(full, params) : full;
    if (!text || text === full) {
      text = EN[key] ?? key;
      if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
    }
    return text;
  };

  let view = null;
  let lastMsg = null;
  let selected = null; // card id selected in the hand
  let pending = false;
  let waitVersion = -1; // acked at this version: stay quiet until that state arrives (the ack can come first)
  const busy = () => pending || (typeof lastMsg?.version === "number" && lastMsg.version < waitVersion);
  let focusCell = [1, 1];
  let handIds = [];
  let lastCell = null; // "r,c" of the last Symbol card played this match
  let flipping = false; // a Flip was just played: the ID cards turn over
  let newsTimer = 0;
  const badges = new Map(); // seat -> Set of badge elements given to the room page

  // ---- static structure ----------------------------------------------------------------------
  const status = el("p", { class: "ttm-status", id: `${uid}-status`, "aria-live": "polite" });
  const idsBox = el("div", { class: "ttm-ids" });
  const seriesBox = el("div", { class: "ttm-series" });
  const topbar = el("div", { class: "ttm-topbar" }, el("div", { class: "ttm-topbar-main" }, status, seriesBox), idsBox);
  const news = el("p", { class: "ttm-news", role: "status", "aria-live": "polite" });
  const seatsBox = el("ul", { class: "ttm-seats", "aria-label": "Players" });

  const grid = el("div", { class: "ttm-grid", role: "grid", "aria-labelledby": `${uid}-label`, "aria-describedby": `${uid}-summary` });
  const cells = [];
  for (let r = 0; r < 3; r += 1) {
    const row = el("div", { class: "ttm-row", role: "row" });
    const rowCells = [];
    for (let c = 0; c < 3; c += 1) {
      const cell = el("div", { class: "ttm-cell", role: "gridcell", tabindex: r === 1 && c === 1 ? "0" : "-1", "data-r": r, "data-c": c });
      row.append(cell);
      rowCells.push({ node: cell, sig: "" });
    }
    grid.append(row);
    cells.push(rowCells);
  }
  const drawPile = el("div", { class: "ttm-pile ttm-pile-draw" });
  const discardPile = el("div", { class: "ttm-pile ttm-pile-discard" });
  const piles = el("div", { class: "ttm-piles" }, drawPile, discardPile);
  const tableArea = el("div", { class: "ttm-table" }, el("div", { class: "ttm-grid-wrap" }, grid), piles);

  const handBox = el("div", { class: "ttm-hand", role: "toolbar", "aria-label": tr("hand"), "aria-orientation": "horizontal" });
  const actionBox = el("div", { class: "ttm-actions", "aria-live": "polite" });
  const handArea = el("section", { class: "ttm-hand-area", "aria-label": tr("hand") }, el("h3", { class: "ttm-hand-title" }, tr("hand")), handBox, actionBox);
  const matchesBox = el("section", { class: "ttm-matches", hidden: true });
  const label = el("h2", { class: "visually-hidden", id: `${uid}-label` }, tr("board"));
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary` });
  const legend = el("p", { class: "ttm-legend muted small" }, tr("goal"), el("br"), tr("legend"));
  // two groups for the one-screen table layout (app.css body.in-table); elsewhere they do not box
  const container = el("div", { class: "ttm", hidden: true }, label,
    el("div", { class: "ttm-main" }, topbar, news, seatsBox, tableArea),
    el("div", { class: "ttm-side" }, handArea, matchesBox, legend), summary);
  root.append(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  // ---- helpers -------------------------------------------------------------------------------
  const nameOf = (seat) => {
    const s = ctx.room?.seats?.[seat];
    return playerName(s?.player) || seatLabel(s?.label || `Player ${seat + 1}`);
  };
  const sideOf = (seat) => seat % 2;
  const sideName = (side) => {
    if (!view) return "";
    if (view.players === 4) {
      const [a, b] = view.sides[side].seats;
      return `${teamName(side, "tic-tac-match")} (${nameOf(a)} & ${nameOf(b)})`;
    }
    return nameOf(view.sides[side].seats[0]);
  };
  const colourName = (colour) => tr(`colour_${colour}`);
  const cardName = (card) => {
    if (!card) return "";
    if (card.kind === "symbol") return tr("card_sym", { colour: colourName(card.colour), sym: card.symbol });
    return tr(card.kind);
  };
  const cellName = (r, c) => (CELL_NAMES[r]?.[c] ? tr(`where_${r}${c}`) : "");
  const isMyTurn = () =>
    Boolean(view && mySeat !== null && !view.over && view.turn === mySeat && lastMsg && !lastMsg.outcome && (lastMsg.to_act || []).includes(mySeat));
  const myHand = () => (Array.isArray(view?.hand) ? view.hand : []);
  const selectedCard = () => myHand().find((c) => c.id === selected) || null;
  const selectable = (card) => isMyTurn() && !busy() && (card.playable || card.discardable);
  const legalCellsOf = (card) => (card && card.kind === "symbol" && isMyTurn() && !busy() ? card.cells || [] : []);
  const legalAt = (r, c) => legalCellsOf(selectedCard()).some(([rr, cc]) => rr === r && cc === c);
  const winningCells = () => {
    const set = new Set();
    for (const line of view?.winning_lines || []) for (const [r, c] of line) set.add(`${r},${c}`);
    if (!set.size && view?.winning_line) for (const [r, c] of view.winning_line) set.add(`${r},${c}`);
    return set;
  };

  /** What a face-up card shows in words: its corner ("X R") or its action's name. Hand cards' and cells'
   * accessible names begin with it (axe: label-content-name-mismatch). */
  const cardShown = (card) => (card.kind === "symbol" ? `${card.symbol} ${tr(`letter_${card.colour}`)}` : tr(card.kind));

  /** A face-up card element. With `textless` (a hover preview) its corners are drawn by CSS, as the
   * rotated corner always is: the card's text is its first corner once. */
  function cardEl(card, extra = "", textless = false) {
    if (!card) return el("div", { class: `ttm-card ttm-back ${extra}` }, el("span", { class: "ttm-back-logo", "aria-hidden": "true" }, "TTM"));
    if (card.kind === "symbol") {
      const info = COLOURS[card.colour] || { letter: "?", pattern: "" };
      const letter = tr(`letter_${card.colour}`);
      const glyphs = () => [el("b", { "data-glyph": card.symbol }), el("i", { "data-glyph": letter })];
      return el(
        "div",
        { class: `ttm-card ttm-symbol ttm-${card.colour} ttm-pat-${info.pattern} ${extra}`, "data-card": card.id ?? "" },
        el("span", { class: "ttm-corner ttm-corner-tl", "aria-hidden": "true" }, ...(textless ? glyphs() : [el("b", {}, card.symbol), " ", el("i", {}, letter)])),
        symbolSvg(card.symbol),
        el("span", { class: "ttm-corner ttm-corner-br", "aria-hidden": "true" }, ...glyphs()),
      );
    }
    return el(
      "div",
      { class: `ttm-card ttm-action ttm-${card.kind} ${extra}`, "data-card": card.id ?? "" },
      iconSvg(card.kind),
      el("span", { class: "ttm-action-name", "aria-hidden": "true" }, tr(card.kind)),
    );
  }

  /** An ID card (purple, double-sided) showing ``sym``. */
  function idCard(sym, extra = "") {
    return el("span", { class: `ttm-id ${extra}`, "data-sym": sym }, symbolSvg(sym, "ttm-id-svg"));
  }

  // ---- drawing -------------------------------------------------------------------------------
  function drawTopbar() {
    let text;
    const dbl = view.double;
    if (view.over || lastMsg?.outcome) text = tr("over");
    else if (isMyTurn()) {
      if (dbl && dbl.fallback) text = tr("double_fallback");
      else if (dbl) text = tr("double_you", { n: dbl.plays_left, plays: tr(dbl.plays_left === 1 ? "play_one" : "play_many") });
      else if (selectedCard()?.kind === "symbol") {
        const n = legalCellsOf(selectedCard()).length;
        text = n ? tr("pick_cell", { card: cardName(selectedCard()), n }) : tr("pick_cell_none", { card: cardName(selectedCard()) });
      } else text = `${tr("your_turn")} — ${tr("your_turn_hint")}`;
    } else if (view.turn !== null && view.turn !== undefined) {
      text = dbl ? tr("double_other", { name: nameOf(view.turn), n: dbl.plays_left }) : tr("waiting_for", { name: nameOf(view.turn) });
    } else text = "";
    if (mySeat === null && !view.over) text = `${tr("spectating")} · ${text}`;
    status.textContent = text;
    status.classList.toggle("is-you", isMyTurn());
    status.classList.toggle("is-double", Boolean(dbl));

    // series
    const parts = [el("span", { class: "ttm-match-no" }, tr("match_of", { n: view.match }))];
    if (view.series > 1) parts.push(el("span", { class: "muted" }, ` · ${tr("first_to", { n: view.series })}`));
    const score = el("span", { class: "ttm-score", "aria-label": `${sideName(0)} ${view.sides[0].wins}, ${sideName(1)} ${view.sides[1].wins}` },
      el("span", { class: "ttm-score-side" }, view.players === 4 ? "A" : nameOf(0)),
      el("b", {}, `${view.sides[0].wins} – ${view.sides[1].wins}`),
      el("span", { class: "ttm-score-side" }, view.players === 4 ? "B" : nameOf(1)));
    const pill = dbl && !view.over
      ? el("span", { class: "ttm-double-pill", role: "img", "aria-label": tr("double_pill", { n: dbl.plays_left }) },
        el("span", { "aria-hidden": "true" }, "×2"),
        ...[0, 1].map((i) => el("span", { class: `ttm-pip${i < dbl.plays_left ? " is-on" : ""}`, "aria-hidden": "true" })))
      : null;
    seriesBox.replaceChildren(...parts, score, ...(pill ? [pill] : []));

    // ID cards: mine (or side A's for spectators) and the other side's
    const mine = view.your_side ?? 0;
    const anim = flipping && !reducedMotion() ? "is-flipping" : "";
    const idBlock = (side, labelText) => {
      const sym = view.sides[side].symbol;
      return el("div", { class: `ttm-id-block ttm-side-${side}`, "aria-label": `${labelText}: ${sideName(side)} ${sym}`, role: "group" },
        idCard(sym, anim),
        el("span", { class: "ttm-id-text" }, el("span", { class: "ttm-id-label" }, labelText),
          el("span", { class: "ttm-id-name", title: sideName(side) }, view.players === 4 ? teamName(side, "tic-tac-match") : sideName(side))));
    };
    idsBox.replaceChildren(
      idBlock(mine, mySeat === null ? "ID" : tr("your_id")),
      el("span", { class: "ttm-vs", "aria-hidden": "true" }, "vs"),
      idBlock(1 - mine, mySeat === null ? "ID" : tr("their_id")),
    );
  }

  function drawSeats(wipedTarget) {
    const n = view.players;
    const items = [];
    for (let seat = 0; seat < n; seat += 1) {
      const turn = !view.over && view.turn === seat;
      const side = sideOf(seat);
      const size = view.hand_sizes?.[seat] ?? 0;
      const backs = el("span", { class: "ttm-mini-backs", "aria-hidden": "true" }, ...Array.from({ length: Math.min(size, 6) }, () => el("span", { class: "ttm-mini-back" })));
      const rel = mySeat === null ? "" : seat === mySeat ? tr("you") : side === sideOf(mySeat) ? tr("partner") : tr("opponent");
      items.push(el("li", {
        class: `ttm-seat ttm-side-${side}${turn ? " is-turn" : ""}${seat === mySeat ? " is-me" : ""}${seat === wipedTarget && !reducedMotion() ? " is-wiped" : ""}`,
        "data-seat": seat,
        "aria-label": `${nameOf(seat)}${rel ? ` (${rel})` : ""}, ID ${view.ids[seat]}, ${tr("cards_n", { n: size })}${turn ? `, ${tr("to_play")}` : ""}${view.dealer === seat ? `, ${tr("dealer")}` : ""}`,
      },
      el("span", { class: "ttm-seat-turn", "aria-hidden": "true" }, turn ? "▶" : ""),
      idCard(view.ids[seat], `ttm-id-mini${flipping && !reducedMotion() ? " is-flipping" : ""}`),
      el("span", { class: "ttm-seat-text", "aria-hidden": "true" },
        el("span", { class: "ttm-seat-name" }, nameOf(seat)),
        el("span", { class: "ttm-seat-sub" }, [view.players === 4 ? "AB"[side] : "", rel, view.dealer === seat ? tr("dealer") : ""].filter(Boolean).join(" · "))),
      backs,
      el("span", { class: "ttm-seat-count", "aria-hidden": "true" }, String(size))));
    }
    seatsBox.replaceChildren(...items);
    seatsBox.classList.toggle("is-four", n === 4);
  }

  function drawGrid(dropCells) {
    const win = winningCells();
    const sel = selectedCard();
    const canPick = sel && sel.kind === "symbol" && isMyTurn() && !busy();
    for (let r = 0; r < 3; r += 1) {
      for (let c = 0; c < 3; c += 1) {
        const obj = cells[r][c];
        const cell = view.grid[r][c];
        const key = `${r},${c}`;
        const legal = canPick && legalAt(r, c);
        const sig = `${cell.top ? cell.top.id : "-"}|${cell.height}`;
        if (sig !== obj.sig || dropCells.has(key)) {
          obj.sig = sig;
          const parts = [];
          if (!cell.top) parts.push(el("div", { class: "ttm-slot", "aria-hidden": "true" }));
          else {
            const under = Math.min(cell.height - 1, 3);
            const stack = el("div", { class: "ttm-stack", "aria-hidden": "true", style: `--under:${under}` });
            for (let i = under; i >= 1; i -= 1) stack.append(el("div", { class: "ttm-card ttm-under", style: `--i:${i}` }));
            stack.append(cardEl(cell.top, `ttm-top${dropCells.has(key) && !reducedMotion() ? " is-dropping" : ""}`));
            parts.push(stack);
            if (cell.height > 1) parts.push(" ", el("span", { class: "ttm-height", "aria-hidden": "true", title: tr("high", { n: cell.height }) }, `×${cell.height}`));
          }
          parts.push(el("div", { class: "ttm-ghost", "aria-hidden": "true" }));
          obj.node.replaceChildren(...parts);
        }
        const ghost = obj.node.querySelector(".ttm-ghost");
        const ghostSig = legal ? String(sel.id) : "";
        if (ghost.dataset.sig !== ghostSig) {
          ghost.dataset.sig = ghostSig;
          ghost.replaceChildren(...(legal ? [cardEl(sel, "ttm-ghost-card", true)] : []));
        }
        obj.node.classList.toggle("is-legal", Boolean(legal));
        obj.node.classList.toggle("is-win", win.has(key));
        obj.node.classList.toggle("is-last", key === lastCell && !win.size);
        obj.node.classList.toggle("is-picking", Boolean(canPick));
        obj.node.setAttribute("aria-disabled", legal ? "false" : "true");
        // Begins with what the cell shows (the top card's corner, the stack's height), then says it in words.
        const shown = cell.top ? `${cardShown(cell.top)}${cell.height > 1 ? ` ×${cell.height}` : ""}` : null;
        const bits = [...(shown ? [shown] : []), tr("cell", { where: cellName(r, c) })];
        bits.push(cell.top ? cardName(cell.top) : tr("cell_empty"));
        if (cell.height > 1) bits.push(tr("high", { n: cell.height }));
        if (legal) bits.push(tr("legal"));
        if (win.has(key)) bits.push(tr("winning"));
        if (key === lastCell) bits.push(tr("last"));
        obj.node.setAttribute("aria-label", bits.join(", "));
        obj.node.setAttribute("tabindex", r === focusCell[0] && c === focusCell[1] ? "0" : "-1");
      }
    }
    grid.classList.toggle("is-picking", Boolean(canPick));
    grid.classList.toggle("is-over", Boolean(view.over));
    grid.setAttribute("aria-busy", busy() ? "true" : "false");
  }

  function drawPiles(pulse) {
    const backs = el("div", { class: "ttm-pile-stack", "aria-hidden": "true" },
      ...(view.draw_count > 0 ? Array.from({ length: Math.min(3, view.draw_count) }, (_, i) => cardEl(null, `ttm-pile-card${i ? " ttm-pile-under" : ""}`)) : [el("div", { class: "ttm-slot" })]));
    drawPile.replaceChildren(backs, el("span", { class: "ttm-pile-label" }, el("b", {}, String(view.draw_count)), ` ${tr("draw_pile")}`));
    drawPile.setAttribute("aria-label", `${tr("draw_pile")}: ${tr("cards_n", { n: view.draw_count })}`);
    drawPile.setAttribute("role", "img");
    drawPile.classList.toggle("is-pulsing", Boolean(pulse) && !reducedMotion());
    const top = view.discard_top;
    discardPile.replaceChildren(
      el("div", { class: "ttm-pile-stack", "aria-hidden": "true" }, top ? cardEl(top, "ttm-pile-card") : el("div", { class: "ttm-slot" })),
      el("span", { class: "ttm-pile-label" }, el("b", {}, String(view.discard_count)), ` ${tr("discard_pile")}`));
    discardPile.setAttribute("role", "img");
    discardPile.setAttribute("aria-label", `${tr("discard_pile")}: ${tr("cards_n", { n: view.discard_count })}${top ? `, ${cardName(top)}` : `, ${tr("empty_pile")}`}`);
  }

  function cardLabel(card) {
    // Begins with what the card shows ("X R", or the action's name), then says it in words.
    const bits = [cardName(card)];
    if (card.kind === "symbol" && COLOURS[card.colour]) bits[0] = `${cardShown(card)}, ${cardName(card)} (${tr(`pattern_${COLOURS[card.colour].pattern}`)})`;
    if (isMyTurn()) {
      if (card.kind === "symbol") bits.push(card.cells?.length ? tr("legal_cells", { n: card.cells.length }) : tr("not_now"));
      else if (card.discardable) bits.push(tr("discard_as_play"));
      else if (!card.playable) bits.push(tr("not_now"));
    }
    return bits.join(", ");
  }

  function drawHand(fresh) {
    if (mySeat === null || !Array.isArray(view.hand)) {
      handArea.hidden = true;
      return;
    }
    handArea.hidden = false;
    const hand = view.hand;
    if (selected !== null && !hand.some((c) => c.id === selected && selectable(c))) selected = null;
    const hadFocus = handBox.contains(document.activeElement);
    const focusedId = hadFocus ? Number(document.activeElement.dataset.cardId) : null;
    let tabbable = hand.findIndex((c) => c.id === (focusedId ?? selected));
    if (tabbable < 0) tabbable = Math.max(0, hand.findIndex((c) => selectable(c)));
    const buttons = hand.map((card, i) => {
      const can = selectable(card);
      const isSel = card.id === selected;
      const btn = el("button", {
        type: "button",
        class: `ttm-hand-card${can ? " is-playable" : ""}${isSel ? " is-selected" : ""}${fresh.has(card.id) && !reducedMotion() ? " is-dealt" : ""}`,
        "data-card-id": card.id,
        "data-kind": card.kind,
        "aria-pressed": isSel ? "true" : "false",
        "aria-disabled": can ? "false" : "true",
        "aria-label": cardLabel(card),
        tabindex: i === tabbable ? "0" : "-1",
        style: `--k:${i}`,
      }, cardEl(card));
      return btn;
    });
    handBox.replaceChildren(...buttons);
    handBox.classList.toggle("is-my-turn", isMyTurn());
    if (hadFocus && focusedId !== null) handBox.querySelector(`[data-card-id="${focusedId}"]`)?.focus();
    drawActions();
  }

  function drawActions() {
    const parts = [];
    const card = selectedCard();
    const my = isMyTurn() && !busy();
    if (my && card) {
      if (card.discardable) {
        parts.push(el("button", { type: "button", class: "btn btn-primary", "data-action": "discard", onclick: () => send({ type: "discard", card: card.id }) }, `${tr("discard_as_play")} (${cardName(card)})`));
      } else if (card.kind === "flip") {
        const me = view.ids[mySeat];
        parts.push(el("p", { class: "ttm-hint" }, tr("flip_hint", { sym: otherSym(me), other: me })));
        parts.push(el("button", { type: "button", class: "btn btn-primary", "data-action": "flip", onclick: () => send({ type: "flip", card: card.id }) }, tr("play_flip")));
      } else if (card.kind === "double") {
        parts.push(el("p", { class: "ttm-hint" }, tr("double_hint")));
        parts.push(el("button", { type: "button", class: "btn btn-primary", "data-action": "double", onclick: () => send({ type: "double", card: card.id }) }, tr("play_double")));
      } else if (card.kind === "wipeout") {
        parts.push(el("p", { class: "ttm-hint" }, `${tr("wipe_label")} ${tr("wipe_hint")}`));
        parts.push(el("div", { class: "ttm-targets", role: "group", "aria-label": tr("wipe_label") },
          ...(card.targets || []).map((target) => el("button", {
            type: "button",
            class: `btn btn-secondary ttm-target ttm-side-${sideOf(target)}`,
            "data-action": "wipeout",
            "data-target": target,
            onclick: () => send({ type: "wipeout", card: card.id, target }),
          }, idCard(view.ids[target], "ttm-id-mini"), `${tr("wipe_target", { name: nameOf(target) })} (${sideOf(target) === sideOf(mySeat) ? tr("partner") : tr("opponent")})`))));
      }
      parts.push(el("button", { type: "button", class: "btn btn-secondary btn-sm", "data-action": "cancel", onclick: () => select(null) }, tr("cancel")));
    }
    if (view.can_forfeit && isMyTurn() && !busy()) {
      parts.push(el("button", { type: "button", class: "btn btn-secondary", "data-action": "forfeit", onclick: () => send({ type: "forfeit" }) }, tr("forfeit")));
    }
    const sig = JSON.stringify([selected, my, view.can_forfeit, view.version ?? lastMsg?.version]);
    if (actionBox.dataset.sig === sig) return;
    actionBox.dataset.sig = sig;
    actionBox.replaceChildren(...parts);
  }

  function miniGrid(match, cls = "ttm-mini-grid") {
    const line = new Set((match.lines || [match.line]).flat().map(([r, c]) => r * 3 + c));
    return el("div", { class: cls, "aria-hidden": "true" },
      ...(match.grid || []).map((card, i) => el("span", { class: `ttm-mini-cell${line.has(i) ? " is-win" : ""}` }, card ? cardEl(card, "ttm-mini-card") : "")));
  }

  /** After a match of a series: its final grid with the winning line, over the new deal, for a few seconds. */
  let overlayTimer = 0;
  function showMatchOverlay(m) {
    clearTimeout(overlayTimer);
    tableArea.querySelector(".ttm-overlay")?.remove();
    const close = () => {
      clearTimeout(overlayTimer);
      overlay.remove();
    };
    const overlay = el("div", { class: `ttm-overlay ttm-side-${m.side}`, role: "status" },
      el("div", { class: "ttm-overlay-card" },
        el("p", { class: "ttm-overlay-title" }, tr("match_of", { n: m.match })),
        miniGrid(m, "ttm-mini-grid ttm-mini-big"),
        el("p", {}, matchText(m)),
        el("button", { type: "button", class: "btn btn-primary btn-sm", onclick: close }, tr("next_match"))));
    tableArea.append(overlay);
    overlayTimer = setTimeout(close, 4500);
  }

  function matchText(m) {
    return tr("won_by", { side: sideName(m.side), n: m.match, colour: colourName(m.colour), sym: m.symbol });
  }

  function drawMatches() {
    const list = view.matches || [];
    if (!list.length || view.series <= 1) {
      matchesBox.hidden = true;
      matchesBox.replaceChildren();
      return;
    }
    matchesBox.hidden = false;
    const sig = JSON.stringify(list.map((m) => m.match)) + view.over;
    if (matchesBox.dataset.sig === sig) return;
    matchesBox.dataset.sig = sig;
    matchesBox.replaceChildren(
      el("h3", { class: "ttm-matches-title" }, tr("matches")),
      el("ol", { class: "ttm-match-list" }, ...list.map((m) => el("li", { class: `ttm-match ttm-side-${m.side}` }, miniGrid(m), el("p", {}, matchText(m))))),
    );
  }

  function drawWinner() {
    const existing = container.querySelector(".ttm-winner");
    if (!view.over || !(view.matches || []).length) {
      existing?.remove();
      return;
    }
    const m = view.matches[view.matches.length - 1];
    const side = m.side;
    const text = tr(view.players === 4 ? "winner_banner_team" : "winner_banner", {
      side: sideName(side),
      colour: colourName(m.colour),
      sym: m.symbol,
    });
    const node = el("div", { class: `ttm-winner ttm-side-${side}`, role: "status" }, idCard(m.symbol, "ttm-id-mini"), el("span", {}, text));
    if (existing) existing.replaceWith(node);
    else news.after(node);
  }

  function drawSummary() {
    const ids = view.sides.map((s, i) => tr("sides_ids", { side: sideName(i), sym: s.symbol })).join(", ");
    const turn = view.over ? tr("over") + "." : view.turn !== null ? `${tr("waiting_for", { name: nameOf(view.turn) })}.` : "";
    const sizes = (view.hand_sizes || []).map((n, seat) => tr("hand_sizes", { name: nameOf(seat), n })).join(", ");
    summary.textContent = `${tr("summary", { m: view.match, ids, score: `${view.sides[0].wins}–${view.sides[1].wins}`, turn, d: view.draw_count, x: view.discard_count })} ${sizes}.`;
  }

  function refreshBadges() {
    for (const [seat, set] of badges) {
      for (const node of [...set]) {
        if (!node.isConnected) {
          set.delete(node);
          continue;
        }
        const sym = view?.ids?.[seat];
        if (!sym || node.dataset.sym === sym) continue;
        node.replaceChildren(symbolSvg(sym, "ttm-id-svg"));
        node.dataset.sym = sym;
        node.setAttribute("title", tr("id_title", { sym }));
        if (flipping && !reducedMotion()) {
          node.classList.remove("is-flipping");
          void node.offsetWidth;
          node.classList.add("is-flipping");
        }
      }
    }
  }

  function render({ drop = new Set(), fresh = new Set(), pulse = false, wiped = null } = {}) {
    if (!view) return;
    if (!isMyTurn()) selected = null;
    drawTopbar();
    drawSeats(wiped);
    drawGrid(drop);
    drawPiles(pulse);
    drawHand(fresh);
    drawMatches();
    drawWinner();
    drawSummary();
    refreshBadges();
    container.classList.toggle("is-my-turn", isMyTurn());
  }

  // ---- news from events ----------------------------------------------------------------------
  function eventText(ev) {
    const name = (s) => nameOf(s);
    switch (ev.kind) {
      case "play":
        return tr("ev_play", { name: name(ev.seat), card: cardName(ev.card), where: cellName(ev.cell[0], ev.cell[1]) });
      case "flip": {
        const side = view.your_side ?? 0;
        return tr("ev_flip", { name: name(ev.seat), side: mySeat === null ? sideName(side) : tr("you"), sym: (ev.ids || view.ids)[mySeat ?? side] });
      }
      case "wipeout":
        return tr("ev_wipe", { name: name(ev.seat), target: name(ev.target) });
      case "double":
        return tr("ev_double", { name: name(ev.seat) });
      case "discard":
        return tr("ev_discard", { name: name(ev.seat), card: cardName(ev.card) });
      case "forfeit":
        return ev.automatic ? tr("ev_forfeit_auto", { name: name(ev.seat) }) : tr("ev_forfeit", { name: name(ev.seat) });
      case "reshuffle":
        return tr("ev_reshuffle", { a: ev.from_discard, b: ev.from_grid });
      case "stuck":
        return tr("ev_stuck", { name: name(ev.seat), n: ev.redraw });
      case "pass":
        return tr("ev_pass", { name: name(ev.seat) });
      case "match_won":
        return matchText(ev);
      case "match_start":
        return ev.match > 1 ? tr("ev_start", { n: ev.match, name: name(ev.dealer), card: cardName(ev.centre) }) : "";
      default:
        return "";
    }
  }

  function showNews(events) {
    const texts = events.map(eventText).filter(Boolean);
    if (!texts.length) return;
    // The action itself first, then what followed automatically; draws are not news.
    news.textContent = texts.join(" · ");
    news.classList.remove("is-fresh");
    if (!reducedMotion()) {
      void news.offsetWidth;
      news.classList.add("is-fresh");
    }
    const kinds = new Set(events.map((e) => e.kind));
    news.dataset.kind = kinds.has("match_won") ? "match" : kinds.has("flip") ? "flip" : kinds.has("wipeout") ? "wipe" : kinds.has("double") ? "double" : kinds.has("reshuffle") ? "reshuffle" : "play";
    clearTimeout(newsTimer);
  }

  // ---- input ---------------------------------------------------------------------------------
  function send(action) {
    if (busy() || !isMyTurn()) return;
    pending = true;
    const hadFocusInHand = handBox.contains(document.activeElement) || actionBox.contains(document.activeElement) || grid.contains(document.activeElement);
    render();
    ctx
      .act(action)
      .then((ack) => {
        if (ack && Number.isInteger(ack.version)) waitVersion = Math.max(waitVersion, ack.version);
      })
      .catch(() => {})
      .finally(() => {
        pending = false;
        selected = null;
        render();
        if (hadFocusInHand) {
          const first = handBox.querySelector('button[tabindex="0"]');
          if (first && isMyTurn()) first.focus();
        }
      });
  }

  function select(cardId, { fromKeyboard = false } = {}) {
    selected = cardId;
    render();
    const card = selectedCard();
    if (!card) {
      handBox.querySelector('button[tabindex="0"]')?.focus();
      return;
    }
    if (fromKeyboard) {
      if (card.kind === "symbol" && card.cells?.length) moveFocus(card.cells[0][0], card.cells[0][1]);
      else actionBox.querySelector("button")?.focus();
    }
  }

  function moveFocus(r, c) {
    r = Math.max(0, Math.min(2, r));
    c = Math.max(0, Math.min(2, c));
    cells[focusCell[0]][focusCell[1]].node.setAttribute("tabindex", "-1");
    focusCell = [r, c];
    cells[r][c].node.setAttribute("tabindex", "0");
    cells[r][c].node.focus();
  }

  function playCell(r, c) {
    const card = selectedCard();
    if (!card || !legalAt(r, c)) return;
    send({ type: "play", card: card.id, cell: [r, c] });
  }

  handBox.addEventListener("click", (event) => {
    const btn = event.target.closest(".ttm-hand-card");
    if (!btn) return;
    const id = Number(btn.dataset.cardId);
    const card = myHand().find((c) => c.id === id);
    if (!card || !selectable(card)) return;
    select(selected === id ? null : id, { fromKeyboard: event.detail === 0 });
  });
  handBox.addEventListener("keydown", (event) => {
    const btn = event.target.closest(".ttm-hand-card");
    if (!btn) return;
    const all = [...handBox.querySelectorAll(".ttm-hand-card")];
    const i = all.indexOf(btn);
    let j = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") j = (i + 1) % all.length;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = (i - 1 + all.length) % all.length;
    else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = all.length - 1;
    else if (event.key === "Escape" && selected !== null) {
      event.preventDefault();
      select(null);
      return;
    }
    if (j !== null) {
      event.preventDefault();
      for (const b of all) b.setAttribute("tabindex", "-1");
      all[j].setAttribute("tabindex", "0");
      all[j].focus();
    }
  });

  grid.addEventListener("click", (event) => {
    const node = event.target.closest(".ttm-cell");
    if (!node) return;
    const r = Number(node.dataset.r);
    const c = Number(node.dataset.c);
    focusCell = [r, c];
    playCell(r, c);
  });
  grid.addEventListener("keydown", (event) => {
    const node = event.target.closest(".ttm-cell");
    if (!node) return;
    const r = Number(node.dataset.r);
    const c = Number(node.dataset.c);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      moveFocus(r + moves[event.key][0], c + moves[event.key][1]);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      playCell(r, c);
    } else if (event.key === "Escape" && selected !== null) {
      event.preventDefault();
      const id = selected;
      select(null);
      handBox.querySelector(`[data-card-id="${id}"]`)?.focus();
    }
  });
  actionBox.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected !== null) {
      event.preventDefault();
      const id = selected;
      select(null);
      handBox.querySelector(`[data-card-id="${id}"]`)?.focus();
    }
  });

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    update(msg) {
      lastMsg = msg;
      const v = msg.view;
      if (!v || !Array.isArray(v.grid)) return;
      view = v;
      const events = Array.isArray(msg.events) ? msg.events : [];
      const drop = new Set();
      const fresh = new Set();
      let pulse = false;
      let wiped = null;
      for (const ev of events) {
        if (ev.kind === "play" && Array.isArray(ev.cell)) {
          drop.add(`${ev.cell[0]},${ev.cell[1]}`);
          lastCell = `${ev.cell[0]},${ev.cell[1]}`;
        }
        if (ev.kind === "match_start") lastCell = null;
        if (ev.kind === "match_start") for (let r = 0; r < 3; r += 1) for (let c = 0; c < 3; c += 1) if (v.grid[r][c].top) drop.add(`${r},${c}`);
        if (ev.kind === "reshuffle") pulse = true;
        if (ev.kind === "wiped_out") wiped = ev.seat;
      }
      flipping = events.some((e) => e.kind === "flip");
      // cards new in my hand since the last state are dealt in
      const ids = myHand().map((c) => c.id);
      if (events.length && handIds.length) for (const id of ids) if (!handIds.includes(id)) fresh.add(id);
      handIds = ids;
      render({ drop, fresh, pulse, wiped });
      flipping = false;
      showNews(events);
      const won = events.find((e) => e.kind === "match_won");
      if (won && !won.series_over && !view.over) showMatchOverlay(won);
    },
    destroy() {
      clearTimeout(newsTimer);
      clearTimeout(overlayTimer);
      container.remove();
    },
    /** The room page's players strip shows each seat's ID card (kept up to date on every flip). */
    seatBadge(seat) {
      const sym = view?.ids?.[seat] ?? "X";
      const node = idCard(sym, "ttm-id-mini ttm-badge");
      node.setAttribute("title", tr("id_title", { sym }));
      if (!badges.has(seat)) badges.set(seat, new Set());
      badges.get(seat).add(node);
      return node;
    },
    /** Optional hooks of the log (static/js/log.js): cells and cards as the board names them. */
    cellText: (cell) => cellName(Number(cell[0]), Number(cell[1])),
    cardText: (card) => cardName(card),
  };
}
