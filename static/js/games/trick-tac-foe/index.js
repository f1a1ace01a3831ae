// Trick-Tac-Foe renderer (view and actions: docs/games/trick-tac-foe.md; contract: docs/protocol.md
// "Browser renderers").
//
// Drawn from the view alone: the table seen from your seat (you at the bottom, your partner opposite in a
// 4-player game), each seat's plate with its hand and deck counts and its card on the table (a card back
// once committed, the face once its pair has revealed), the 3×3 grid exactly as you read it (the view's
// `board` is already in your own 1–9 order) with Red tokens as discs and Black tokens as squares, your hand
// as real playing cards (suit shape AND colour), the discard pile as a card-counting chart, team scores and
// round / trick progress. The events of each state message are played back as a short timeline: both cards
// of a pair flip, the winner is marked, the target cell lights up, a token is placed or flipped, a scoring
// line is drawn and the grid is cleared (all instant with prefers-reduced-motion). It decides no rule: it
// offers your hand while you have not committed and the nine cells when your wild 10 won.

import { ensureStylesheet, h as el, s as svg } from "../../dom.js";
import { addStrings, playerName, seatLabel } from "../../i18n.js";
import { logContext, summaryText } from "../../log.js";
import { PIPS } from "../card-pips.js";

const CSS_HREF = "/static/css/games/trick-tac-foe.css";
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED_SUITS = new Set(["H", "D"]);
const SUIT_ORDER = ["S", "H", "D", "C"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
const DIR_ANGLE = { North: 0, East: 90, South: 180, West: 270 };
const POS_OF_ANGLE = { 0: "top", 90: "right", 180: "bottom", 270: "left" };

// English fallbacks; ctx.t("trick-tac-foe.<key>") wins when the catalogue has the key.
const EN = {
  title: "Trick-Tac-Foe table",
  "suit.S": "spades",
  "suit.H": "hearts",
  "suit.D": "diamonds",
  "suit.C": "clubs",
  you: "you",
  you_paren: "{name} (you)",
  round: "Round {n} of {total}",
  trick: "Trick {n} of {total}",
  trick_set: "Trick set {n} of {total}",
  hand_n: "{n} in hand",
  deck_n: "{n} in deck",
  starts: "Starts",
  reveal_order: "Reveal order",
  reveals_first: "reveals first",
  reveals_second: "reveals second",
  vs: "vs",
  committed: "Card down",
  thinking: "Choosing…",
  picking: "Wild 10: picking a cell…",
  your_card_down: "Your card (face down)",
  no_card: "No card yet",
  last_trick: "Last trick",
  wins: "wins",
  status_over: "Game over: {summary}",
  status_choose: "Your turn: choose a card to play face down.",
  status_choose_4p: "Your turn: choose a card to play face down. {pair} reveal first.",
  status_wild_me: "You won with a wild 10: pick any cell on the grid.",
  status_wild_other: "{name} won with a wild 10 and is picking a cell.",
  status_wait: "Card down. Waiting for {names}.",
  status_watch: "Waiting for {names} to choose a card.",
  status_busy: "Sending…",
  spectating: "You are watching: hands and face-down cards stay hidden.",
  hand_title: "Your hand",
  hand_empty: "Your hand is empty.",
  hand_hint_pick: "Pick a card, then play it. If it wins, it targets the cell with its number as you read the grid; a 10 is wild.",
  hand_hint_wait: "You have played your card for this trick.",
  hand_hint_idle: "Your cards become playable when a new trick starts.",
  play_card: "Play {card} face down",
  play_select: "Choose a card",
  target_hint: "If it wins: your cell {n}",
  target_hint_wild: "If it wins: any cell you like (wild)",
  card_wild: "{card}, wild",
  card_name: "{rank} of {suit}",
  ace: "Ace",
  card_target: "{card}, targets your cell {n}",
  card_selected: "selected",
  cell: "Cell {n}",
  your_cell: "your cell {n}",
  cell_empty: "empty",
  cell_red: "Red token",
  cell_black: "Black token",
  cell_target: "last target",
  grid_label: "The grid as you read it (1 top left, 9 bottom right)",
  numbers_as: "Numbers as read by",
  grid_label_watch: "The grid as South reads it (1 top left, 9 bottom right)",
  pick_cell: "Pick cell {n}",
  rec_pending: "{winner} wins with a wild {card} and is picking a cell",
  rec_place: "{label}'s {n}: {colour} token placed",
  rec_flip: "{label}'s {n}: flipped to {colour}",
  rec_none: "{label}'s {n}: already {colour}, no change",
  rec_scored: "line! +1 {colour}",
  discard_title: "Played this round",
  played: "played",
  unseen: "unseen",
  discard_count: "{n} cards played",
  discard_none: "No cards played yet this round.",
  discard_hint: "White cards are still unseen this round; grey struck-through ones have been played.",
  history: "After round {n}: Red {red}, Black {black}",
  banner_score: "{colour} completes a line: +1",
  banner_round_end: "Round {n} is over",
  banner_round_start: "Round {n}: new deal",
  banner_clear: "The grid is cleared",
  summary_scores: "Scores: Red {red}, Black {black}.",
  summary_grid: "Grid from your side: {cells}.",
  summary_hand: "Your hand: {cards}.",
  colour_red: "Red",
  colour_black: "Black",
  legend: "Red tokens are discs, Black tokens are squares. Numbers are the cells as you read them.",
  and: " and ",
  // the game log, results and refusals (keys the engine sends, docs/games/trick-tac-foe.md)
  "log.committed": "{seat} committed a card",
  "log.trick": "{first_seat} {first_card} vs {second_seat} {second_card}: {winner_seat} wins the trick",
  "log.trick_wild": "{first_seat} {first_card} vs {second_seat} {second_card}: {winner_seat} wins with a wild {card} and chooses a cell",
  "log.placed": "{seat}’s {number} ({cell}): {team} token placed",
  "log.flipped": "{seat}’s {number} ({cell}): flipped to {team}",
  "log.unchanged": "{seat}’s {number} ({cell}): already {team}, no change",
  "log.wild_placed": "{seat} picks their {number} ({cell}): {team} token placed",
  "log.wild_flipped": "{seat} picks their {number} ({cell}): flipped to {team}",
  "log.wild_unchanged": "{seat} picks their {number} ({cell}): already {team}, no change",
  "log.scored": "{team} completes a line and scores (Red {red}, Black {black})",
  "log.cleared": "The grid is cleared",
  "log.starts": "{seat} now starts",
  "log.round_over": "Round {round} is over (Red {red}, Black {black})",
  "result.draw": "Draw, {points}–{points}",
  "result.won": "{seat} wins {points}–{other_points} for {team}",
  "result.team_won": "{team} wins {points}–{other_points} ({seats})",
  "error.bad_card": "That is not a card.",
  "error.bad_number": "Pick a cell numbered 1 to 9.",
  "error.wild_first": "Wait: {seat} is choosing a cell for a wild 10.",
  "error.committed": "{seat} has already played a card this trick.",
  "error.not_in_hand": "{card} is not in your hand.",
  "error.no_wild": "There is no wild 10 to resolve now.",
  "error.wild_of": "{seat} chooses the cell for the wild 10.",
  compass_00: "north-west corner",
  compass_01: "north edge",
  compass_02: "north-east corner",
  compass_10: "west edge",
  compass_11: "centre",
  compass_12: "east edge",
  compass_20: "south-west corner",
  compass_21: "south edge",
  compass_22: "south-east corner",
};

addStrings("en", Object.fromEntries(Object.entries(EN).map(([k, v]) => [`trick-tac-foe.${k}`, v])));
addStrings("fr", {
  "trick-tac-foe.title": "Table de Trick-Tac-Foe",
  "trick-tac-foe.suit.S": "pique",
  "trick-tac-foe.suit.H": "cœur",
  "trick-tac-foe.suit.D": "carreau",
  "trick-tac-foe.suit.C": "trèfle",
  "trick-tac-foe.you": "vous",
  "trick-tac-foe.you_paren": "{name} (vous)",
  "trick-tac-foe.round": "Manche {n} sur {total}",
  "trick-tac-foe.trick": "Pli {n} sur {total}",
  "trick-tac-foe.trick_set": "Série de plis {n} sur {total}",
  "trick-tac-foe.hand_n": "{n} en main",
  "trick-tac-foe.deck_n": "{n} dans la pioche",
  "trick-tac-foe.starts": "Commence",
  "trick-tac-foe.reveal_order": "Ordre de révélation",
  "trick-tac-foe.reveals_first": "révèle en premier",
  "trick-tac-foe.reveals_second": "révèle en second",
  "trick-tac-foe.vs": "contre",
  "trick-tac-foe.committed": "Carte posée",
  "trick-tac-foe.thinking": "Choisit…",
  "trick-tac-foe.picking": "10 joker : choisit une case…",
  "trick-tac-foe.your_card_down": "Votre carte (face cachée)",
  "trick-tac-foe.no_card": "Pas encore de carte",
  "trick-tac-foe.last_trick": "Dernier pli",
  "trick-tac-foe.wins": "gagne",
  "trick-tac-foe.status_over": "Partie terminée : {summary}",
  "trick-tac-foe.status_choose": "À vous : choisissez une carte à poser face cachée.",
  "trick-tac-foe.status_choose_4p": "À vous : choisissez une carte à poser face cachée. {pair} révèlent en premier.",
  "trick-tac-foe.status_wild_me": "Vous gagnez avec un 10 joker : choisissez n’importe quelle case de la grille.",
  "trick-tac-foe.status_wild_other": "{name} gagne avec un 10 joker et choisit une case.",
  "trick-tac-foe.status_wait": "Carte posée. En attente de {names}.",
  "trick-tac-foe.status_watch": "En attente que {names} choisisse une carte.",
  "trick-tac-foe.status_busy": "Envoi…",
  "trick-tac-foe.spectating": "Vous regardez : les mains et les cartes face cachée restent secrètes.",
  "trick-tac-foe.hand_title": "Votre main",
  "trick-tac-foe.hand_empty": "Votre main est vide.",
  "trick-tac-foe.hand_hint_pick": "Choisissez une carte, puis jouez-la. Si elle gagne, elle vise la case de son numéro telle que vous lisez la grille ; un 10 est un joker.",
  "trick-tac-foe.hand_hint_wait": "Vous avez joué votre carte pour ce pli.",
  "trick-tac-foe.hand_hint_idle": "Vos cartes deviennent jouables au début du prochain pli.",
  "trick-tac-foe.play_card": "Poser {card} face cachée",
  "trick-tac-foe.play_select": "Choisissez une carte",
  "trick-tac-foe.target_hint": "Si elle gagne : votre case {n}",
  "trick-tac-foe.target_hint_wild": "Si elle gagne : la case de votre choix (joker)",
  "trick-tac-foe.card_wild": "{card}, joker",
  "trick-tac-foe.card_name": "{rank} de {suit}",
  "trick-tac-foe.ace": "As",
  "trick-tac-foe.card_target": "{card}, vise votre case {n}",
  "trick-tac-foe.card_selected": "choisie",
  "trick-tac-foe.cell": "Case {n}",
  "trick-tac-foe.your_cell": "votre case {n}",
  "trick-tac-foe.cell_empty": "vide",
  "trick-tac-foe.cell_red": "jeton Rouge",
  "trick-tac-foe.cell_black": "jeton Noir",
  "trick-tac-foe.cell_target": "dernière cible",
  "trick-tac-foe.grid_label": "La grille telle que vous la lisez (1 en haut à gauche, 9 en bas à droite)",
  "trick-tac-foe.numbers_as": "Numéros lus par",
  "trick-tac-foe.grid_label_watch": "La grille telle que Sud la lit (1 en haut à gauche, 9 en bas à droite)",
  "trick-tac-foe.pick_cell": "Choisir la case {n}",
  "trick-tac-foe.rec_pending": "{winner} gagne avec un {card} joker et choisit une case",
  "trick-tac-foe.rec_place": "{n} de {label} : jeton {colour} posé",
  "trick-tac-foe.rec_flip": "{n} de {label} : retourné en {colour}",
  "trick-tac-foe.rec_none": "{n} de {label} : déjà {colour}, rien ne change",
  "trick-tac-foe.rec_scored": "ligne ! +1 {colour}",
  "trick-tac-foe.discard_title": "Joué cette manche",
  "trick-tac-foe.played": "jouée",
  "trick-tac-foe.unseen": "pas encore vue",
  "trick-tac-foe.discard_count": "{n} cartes jouées",
  "trick-tac-foe.discard_none": "Aucune carte jouée dans cette manche.",
  "trick-tac-foe.discard_hint": "Les cartes blanches n’ont pas encore été vues cette manche ; les grises barrées ont été jouées.",
  "trick-tac-foe.history": "Après la manche {n} : Rouge {red}, Noir {black}",
  "trick-tac-foe.banner_score": "{colour} aligne trois jetons : +1",
  "trick-tac-foe.banner_round_end": "La manche {n} est terminée",
  "trick-tac-foe.banner_round_start": "Manche {n} : nouvelle donne",
  "trick-tac-foe.banner_clear": "La grille est vidée",
  "trick-tac-foe.summary_scores": "Scores : Rouge {red}, Noir {black}.",
  "trick-tac-foe.summary_grid": "La grille de votre côté : {cells}.",
  "trick-tac-foe.summary_hand": "Votre main : {cards}.",
  "trick-tac-foe.colour_red": "Rouge",
  "trick-tac-foe.colour_black": "Noir",
  "trick-tac-foe.legend": "Les jetons Rouges sont des disques, les Noirs des carrés. Les numéros sont les cases telles que vous les lisez.",
  "trick-tac-foe.and": " et ",
  "trick-tac-foe.log.committed": "{seat} a posé une carte",
  "trick-tac-foe.log.trick": "{first_seat} {first_card} contre {second_seat} {second_card} : {winner_seat} remporte le pli",
  "trick-tac-foe.log.trick_wild": "{first_seat} {first_card} contre {second_seat} {second_card} : {winner_seat} gagne avec un {card} joker et choisit une case",
  "trick-tac-foe.log.placed": "case {number} de {seat} ({cell}) : jeton {team} posé",
  "trick-tac-foe.log.flipped": "case {number} de {seat} ({cell}) : retourné en {team}",
  "trick-tac-foe.log.unchanged": "case {number} de {seat} ({cell}) : déjà {team}, rien ne change",
  "trick-tac-foe.log.wild_placed": "{seat} choisit sa case {number} ({cell}) : jeton {team} posé",
  "trick-tac-foe.log.wild_flipped": "{seat} choisit sa case {number} ({cell}) : retourné en {team}",
  "trick-tac-foe.log.wild_unchanged": "{seat} choisit sa case {number} ({cell}) : déjà {team}, rien ne change",
  "trick-tac-foe.log.scored": "{team} aligne trois jetons et marque (Rouge {red}, Noir {black})",
  "trick-tac-foe.log.cleared": "La grille est vidée",
  "trick-tac-foe.log.starts": "{seat} commence désormais",
  "trick-tac-foe.log.round_over": "La manche {round} est finie (Rouge {red}, Noir {black})",
  "trick-tac-foe.result.draw": "Match nul, {points} à {points}",
  "trick-tac-foe.result.won": "{seat} gagne {points} à {other_points} pour l’équipe {team}",
  "trick-tac-foe.result.team_won": "L’équipe {team} gagne {points} à {other_points} ({seats})",
  "trick-tac-foe.error.bad_card": "Ce n’est pas une carte.",
  "trick-tac-foe.error.bad_number": "Choisissez une case numérotée de 1 à 9.",
  "trick-tac-foe.error.wild_first": "Attendez : {seat} choisit une case pour un 10 joker.",
  "trick-tac-foe.error.committed": "{seat} a déjà posé une carte à ce pli.",
  "trick-tac-foe.error.not_in_hand": "{card} n’est pas dans votre main.",
  "trick-tac-foe.error.no_wild": "Aucun 10 joker n’est à résoudre maintenant.",
  "trick-tac-foe.error.wild_of": "{seat} choisit la case du 10 joker.",
  "trick-tac-foe.compass_00": "coin nord-ouest",
  "trick-tac-foe.compass_01": "bord nord",
  "trick-tac-foe.compass_02": "coin nord-est",
  "trick-tac-foe.compass_10": "bord ouest",
  "trick-tac-foe.compass_11": "centre",
  "trick-tac-foe.compass_12": "bord est",
  "trick-tac-foe.compass_20": "coin sud-ouest",
  "trick-tac-foe.compass_21": "bord sud",
  "trick-tac-foe.compass_22": "coin sud-est",
});

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m));
}

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
const cardSuit = (card) => card.slice(-1);
const cardRankText = (card) => card.slice(0, -1);
const cardRank = (card) => RANKS.indexOf(cardRankText(card)) + 1;
const cardText = (card) => `${cardRankText(card)}${SYMBOL[cardSuit(card)]}`;
const cellKey = (cell) => `${cell[0]},${cell[1]}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The canonical cell a seat names with value k (docs/games/trick-tac-foe.md), and its inverse. */
function cellFor(direction, k) {
  const a = Math.floor((k - 1) / 3);
  const b = (k - 1) % 3;
  if (direction === "South") return [a, b];
  if (direction === "North") return [2 - a, 2 - b];
  if (direction === "West") return [b, 2 - a];
  return [2 - b, a]; // East
}
function numberFor(direction, cell) {
  for (let k = 1; k <= 9; k += 1) {
    const [r, c] = cellFor(direction, k);
    if (r === cell[0] && c === cell[1]) return k;
  }
  return null;
}

// ---- drawing: suits, cards, tokens ------------------------------------------------------------------------

const SUIT_PATHS = {
  S: "M50 5C62 23 93 39 93 62C93 75 83 85 71 85C63 85 57 81 54 75C55 84 59 91 67 96H33C41 91 45 84 46 75C43 81 37 85 29 85C17 85 7 75 7 62C7 39 38 23 50 5Z",
  H: "M50 91C22 69 6 53 6 32C6 17 17 6 31 6C40 6 47 12 50 20C53 12 60 6 69 6C83 6 94 17 94 32C94 53 78 69 50 91Z",
  D: "M50 4L85 50L50 96L15 50Z",
  C: "M31 29a19 19 0 1 1 38 0a19 19 0 1 1 -38 0ZM9 59a19 19 0 1 1 38 0a19 19 0 1 1 -38 0ZM53 59a19 19 0 1 1 38 0a19 19 0 1 1 -38 0ZM40 38H60V66H40ZM46 62C46 76 42 86 34 95H66C58 86 54 76 54 62Z",
};

const PIP_X = [34, 50, 66];
const PIP_Y = (f) => 31 + f * 78;

function suitShape(suit, x, y, size, rotate = false) {
  const s = size / 100;
  const transform = `translate(${x} ${y}) scale(${s})${rotate ? " rotate(180 50 50)" : ""}`;
  return svg("path", { d: SUIT_PATHS[suit], transform, class: "tf-pip" });
}

/** An inline suit symbol (for text lines): the shape, not only the colour. */
function suitIcon(suit) {
  return svg("svg", { viewBox: "0 0 100 100", class: `tf-suit-icon ${RED_SUITS.has(suit) ? "tf-ink-red" : "tf-ink-black"}`, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: SUIT_PATHS[suit] }));
}

let faceIds = 0;

function cardFaceSvg(card) {
  const suit = cardSuit(card);
  const rank = cardRankText(card);
  const node = svg("svg", { viewBox: "0 0 100 140", class: `tf-face-svg ${RED_SUITS.has(suit) ? "tf-ink-red" : "tf-ink-black"}`, "aria-hidden": "true", focusable: "false" });
  node.append(svg("rect", { class: "tf-face-bg", x: 1.5, y: 1.5, width: 97, height: 137, rx: 9 }));
  // The rotated corner repeats the first through <use>: the card's visible text is its rank once, as the
  // hand button's accessible name begins (axe: label-content-name-mismatch).
  const id = `tf-corner-${(faceIds += 1)}`;
  const g = svg("g", { id });
  const text = svg("text", { class: `tf-index${rank === "10" ? " is-ten" : ""}`, x: 12.5, y: 24, "text-anchor": "middle" });
  text.textContent = rank;
  g.append(text, suitShape(suit, 5.5, 28, 14));
  node.append(g, svg("use", { href: `#${id}`, transform: "rotate(180 50 70)" }));
  if (rank === "A") {
    node.append(suitShape(suit, 24, 44, 52));
  } else {
    for (const [col, row] of PIPS[rank] || []) {
      const cx = PIP_X[col];
      const cy = PIP_Y(row);
      node.append(suitShape(suit, cx - 8, cy - 8, 16, row > 0.5));
    }
  }
  if (rank === "10") {
    // the wild mark: a small star in the free corners
    const star = (cx, cy) => svg("path", { class: "tf-wild-star", d: starPath(cx, cy, 7) });
    node.append(star(87, 14), star(13, 126));
  }
  return node;
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

function cardBackSvg() {
  const node = svg("svg", { viewBox: "0 0 100 140", class: "tf-back-svg", "aria-hidden": "true", focusable: "false" });
  node.append(
    svg("rect", { class: "tf-back-bg", x: 1.5, y: 1.5, width: 97, height: 137, rx: 9 }),
    svg("rect", { class: "tf-back-inner", x: 9, y: 9, width: 82, height: 122, rx: 6 }),
    svg("path", { class: "tf-back-emblem", d: "M50 46L66 70L50 94L34 70Z" }),
    svg("circle", { class: "tf-back-ring", cx: 50, cy: 70, r: 30 }),
  );
  return node;
}

/**
 * A two-sided card element. `card` null = a face-down card nobody may see. `up` says which side shows.
 * Flipping is a CSS transition on .tf-card-inner.
 */
function cardEl(card, { up = true, cls = "", label = null } = {}) {
  const inner = el("div", { class: "tf-card-inner" },
    el("div", { class: "tf-card-side tf-card-back" }, cardBackSvg()),
    card ? el("div", { class: "tf-card-side tf-card-front" }, cardFaceSvg(card)) : null);
  return el("div", { class: ["tf-card", up && card ? "is-up" : "is-down", cls], role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true", dataset: card ? { card } : {} }, inner);
}

/** A team token: Red = disc, Black = rounded square (shape first, colour second). */
function tokenShape(colour, cx, cy, r, cls = "") {
  const g = svg("g", { class: `tf-token tf-token-${colour} ${cls}` });
  if (colour === "red") {
    g.append(svg("circle", { class: "tf-token-body", cx, cy, r }), svg("circle", { class: "tf-token-mark", cx, cy, r: r * 0.55 }));
  } else {
    const s = r * 0.9;
    g.append(
      svg("rect", { class: "tf-token-body", x: cx - s, y: cy - s, width: 2 * s, height: 2 * s, rx: r * 0.22 }),
      svg("rect", { class: "tf-token-mark", x: cx - s * 0.52, y: cy - s * 0.52, width: s * 1.04, height: s * 1.04, rx: r * 0.1 }),
    );
  }
  g.style.transformOrigin = `${cx}px ${cy}px`;
  return g;
}

function tokenBadge(colour, size = 22) {
  const box = svg("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "tf-token-badge", "aria-hidden": "true", focusable: "false" });
  box.append(tokenShape(colour, 20, 20, 15));
  return box;
}

// ---- the renderer ---------------------------------------------------------------------------------------

export function mount(root, ctx) {
  const uid = `tf${Math.random().toString(36).slice(2, 8)}`;
  const mySeat = ctx.seat === undefined ? null : ctx.seat;
  const spectator = mySeat === null;

  const tr = (key, params) => {
    const full = `trick-tac-foe.${key}`;
    let text = typeof ctx.t === "function" ? ctx.t(full, params) : full;
    if (text === full || typeof text !== "string") text = fill(EN[key] ?? key, params);
    return text;
  };

  let view = null;
  let lastMsg = null;
  let prevView = null;
  let pending = false;
  let wildFocusedFor = "";
  let waitVersion = -1; // the version our last ack announced
  let selected = null; // a card code chosen in the hand, not yet played
  let preview = null; // a card whose target is shown on the grid (hover / focus / selection)
  let gridFocus = 4; // index in `board` of the roving focus during a wild choice
  let handFocus = 0;
  // Timeline overrides while the events of a message play back (null = draw the view).
  let anim = null; // {grid, slots: Map seat -> {card, up, flip, win, lose}, lines, cellFx: Map key -> fx, target}
  let animToken = 0;
  let bannerTimer = 0;
  let lensSeat = null; // show the grid's numbers as this seat reads them (null: as you read them)
  let shownHand = null; // the hand last drawn, so newly drawn cards can slide in

  // ---- static structure ----------------------------------------------------------------------
  const bar = el("div", { class: "tf-bar" });
  const status = el("p", { class: "tf-status", role: "status", "aria-live": "polite" });
  const banner = el("div", { class: "tf-banner", "aria-hidden": "true", hidden: true });
  const seatEls = new Map(); // seat -> {plate, slot}
  const gridSvg = svg("svg", { class: "tf-grid", viewBox: "-16 -16 352 352", role: "grid", "aria-labelledby": `${uid}-grid-label`, focusable: "false" });
  const gridLabel = el("h3", { class: "visually-hidden", id: `${uid}-grid-label` });
  const records = el("ul", { class: "tf-records", "aria-label": tr("last_trick") });
  const lens = el("div", { class: "tf-lens", role: "group", "aria-label": tr("numbers_as") });
  const center = el("div", { class: "tf-center" }, gridLabel, el("div", { class: "tf-grid-wrap" }, gridSvg, banner), lens, records);
  const table = el("div", { class: "tf-table" }, center);
  const handPanel = el("section", { class: "tf-hand-panel", hidden: spectator, "aria-labelledby": `${uid}-hand-title` });
  const watchNote = el("p", { class: "tf-watch muted", hidden: !spectator }, tr("spectating"));
  const discardPanel = el("details", { class: "tf-discard" });
  const legend = el("p", { class: "tf-legend muted small" }, tr("legend"));
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary` });
  const container = el("div", { class: "tf", hidden: true, "aria-describedby": `${uid}-summary` },
    el("h2", { class: "visually-hidden" }, tr("title")),
    // two groups for the one-screen table layout (app.css body.in-table); elsewhere they do not box
    el("div", { class: "tf-main" }, bar, status, watchNote, table),
    el("div", { class: "tf-side" }, handPanel, discardPanel, legend), summary);
  root.append(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  // grid cells: built once, 3×3 in the viewer's reading order
  const CELL = 100;
  const PAD = 10;
  const cells = [];
  const cellsLayer = svg("g", { class: "tf-cells" });
  const linesLayer = svg("g", { class: "tf-lines", "aria-hidden": "true" });
  const fxLayer = svg("g", { class: "tf-fx", "aria-hidden": "true" });
  const compass = new Map(); // direction -> text on the grid's edge
  const compassLayer = svg("g", { class: "tf-compass", "aria-hidden": "true" });
  for (const d of Object.keys(DIR_ANGLE)) {
    const text = svg("text", { class: "tf-compass-letter", "text-anchor": "middle", "dominant-baseline": "central" });
    text.textContent = seatLabel(d).slice(0, 1); // N E S W (N E S O in French)
    compass.set(d, text);
    compassLayer.append(text);
  }
  gridSvg.append(svg("rect", { class: "tf-grid-frame", x: 0, y: 0, width: 320, height: 320, rx: 18 }), compassLayer, cellsLayer, linesLayer, fxLayer);
  for (let vr = 0; vr < 3; vr += 1) {
    const row = svg("g", { role: "row" });
    for (let vc = 0; vc < 3; vc += 1) {
      const i = vr * 3 + vc;
      const x = PAD + vc * CELL;
      const y = PAD + vr * CELL;
      const g = svg("g", { class: "tf-cell", role: "gridcell", tabindex: "-1", "data-index": i, "data-number": i + 1 });
      const bg = svg("rect", { class: "tf-cell-bg", x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 14 });
      const num = svg("text", { class: "tf-cell-num", x: x + 16, y: y + 27, "text-anchor": "middle" });
      num.textContent = String(i + 1);
      const content = svg("g", { class: "tf-cell-content" });
      const ring = svg("rect", { class: "tf-cell-ring", x: x + 8, y: y + 8, width: CELL - 16, height: CELL - 16, rx: 11 });
      g.append(bg, ring, content, num);
      row.append(g);
      cells.push({ g, bg, content, num, ring, x, y, cx: x + CELL / 2, cy: y + CELL / 2, sig: "" });
    }
    cellsLayer.append(row);
  }

  // ---- helpers -------------------------------------------------------------------------------
  const nSeats = () => view?.players || 2;
  const seatInfo = (s) => view?.seats?.[s] || null;
  const labelOf = (s) => seatInfo(s)?.label || ctx.room?.seats?.[s]?.label || `Seat ${s + 1}`; // for rules
  const seatWord = (s) => seatLabel(labelOf(s)); // for people, in the page's language
  const colourOf = (s) => seatInfo(s)?.colour || "red";
  const rawName = (s) => playerName(ctx.room?.seats?.[s]?.player) || seatWord(s);
  const nameOf = (s) => {
    const seats = ctx.room?.seats || [];
    const name = playerName(seats[s]?.player);
    if (!name) return seatWord(s);
    // two namesakes at one table: add the seat so lines stay unambiguous
    const twins = seats.filter((x) => playerName(x?.player) === name).length > 1;
    return twins ? `${name} (${seatWord(s)})` : name;
  };
  const whoOf = (s) => (s === mySeat ? tr("you_paren", { name: nameOf(s) }) : nameOf(s).includes("(") ? nameOf(s) : `${nameOf(s)} (${seatWord(s)})`);
  const colourName = (c) => tr(c === "red" ? "colour_red" : "colour_black");
  /** Hooks of the log (static/js/log.js): a cell by where it lies on the grid, a card by rank and suit. */
  const logHooks = {
    cellText: (cell) => tr(`compass_${Number(cell[0])}${Number(cell[1])}`),
    cardText: (card) => cardText(String(card)),
  };
  const toAct = () => new Set(lastMsg?.to_act || []);
  const over = () => Boolean(lastMsg?.outcome) || view?.phase === "over";
  // The ack can arrive before the state it produced: until that state is here, offer nothing.
  const busy = () => pending || Boolean(lastMsg && Number(lastMsg.version) < waitVersion);
  const noteAck = (ack) => {
    if (ack && Number.isInteger(ack.version)) waitVersion = Math.max(waitVersion, ack.version);
  };
  const canCommit = () => Boolean(view && !busy() && !spectator && !over() && view.phase === "commit" && toAct().has(mySeat) && !view.your_card && (view.hand || []).length);
  const canWild = () => Boolean(view && !busy() && !spectator && !over() && view.phase === "wild" && view.wild_seat === mySeat && toAct().has(mySeat));
  const boardIndexOf = (cell) => (view?.board || []).findIndex((b) => b.cell[0] === cell[0] && b.cell[1] === cell[1]);
  const positionOf = (s) => {
    const label = labelOf(s);
    const angle = ((DIR_ANGLE[label] ?? 0) + (view?.rotation ?? 0)) % 360;
    return POS_OF_ANGLE[angle] || "top";
  };
  /** "7 of spades (7♠)"; a 10 adds ", wild". */
  const cardBase = (card) => {
    const rank = cardRankText(card) === "A" ? tr("ace") : cardRankText(card);
    return `${tr("card_name", { rank, suit: tr(`suit.${cardSuit(card)}`) })} (${cardText(card)})`;
  };
  const cardLabel = (card) => (cardRank(card) === 10 ? tr("card_wild", { card: cardBase(card) }) : cardBase(card));

  // ---- the seat plates -----------------------------------------------------------------------
  function ensureSeats() {
    const n = nSeats();
    if (seatEls.size === n && [...seatEls.keys()].every((s) => s < n)) return;
    for (const { plate } of seatEls.values()) plate.remove();
    seatEls.clear();
    for (let s = 0; s < n; s += 1) {
      const slot = el("div", { class: "tf-slot" });
      const head = el("div", { class: "tf-plate-head" });
      const counts = el("div", { class: "tf-plate-counts" });
      const state = el("div", { class: "tf-plate-state" });
      const plate = el("section", { class: "tf-plate", dataset: { seat: s } }, el("div", { class: "tf-plate-info" }, head, counts, state), slot);
      seatEls.set(s, { plate, slot, head, counts, state, sig: "", slotSig: "" });
      table.append(plate);
    }
  }

  /** What each seat's slot shows, from the view (or the timeline's override). */
  function slotModel(s) {
    if (anim && anim.slots.has(s)) return anim.slots.get(s);
    const info = seatInfo(s);
    if (!info) return null;
    const rec = [...(view.current || [])].reverse().find((r) => r.seats.includes(s));
    if (info.committed) {
      if (info.card) return { card: info.card, up: true, win: rec ? rec.winner === s : false, lose: rec ? rec.winner !== s : false };
      if (s === mySeat && view.your_card) return { card: view.your_card, up: true, mine: true };
      return { card: null, up: false };
    }
    const prev = (view.previous || []).find((r) => r.seats.includes(s));
    if (prev && !(view.current || []).length) {
      const card = prev.cards[prev.seats.indexOf(s)];
      return { card, up: true, win: prev.winner === s, lose: prev.winner !== s, last: true };
    }
    return null;
  }

  function drawSeats() {
    ensureSeats();
    const acting = toAct();
    const order = view.order || [];
    for (const [s, parts] of seatEls) {
      const info = seatInfo(s);
      if (!info) continue;
      const pos = positionOf(s);
      parts.plate.className = ["tf-plate", `tf-pos-${pos}`, `tf-team-${info.colour}`, s === mySeat && "is-me", acting.has(s) && !over() && "is-acting"].filter(Boolean).join(" ");
      const pairIdx = order.findIndex((p) => p.includes(s));
      const sig = JSON.stringify([info, nameOf(s), acting.has(s), view.start_seat, pairIdx, view.step, view.phase, view.wild_seat, over(), Boolean(anim)]);
      if (sig !== parts.sig) {
        parts.sig = sig;
        const badges = [];
        if (view.players === 4 && view.start_seat === s) badges.push(el("span", { class: "tf-badge tf-badge-start", title: tr("starts") }, "★ ", tr("starts")));
        if (view.players === 4 && pairIdx >= 0) {
          badges.push(el("span", { class: ["tf-badge tf-badge-order", pairIdx === 0 && "is-first"], title: tr(pairIdx === 0 ? "reveals_first" : "reveals_second") }, pairIdx === 0 ? "①" : "②"));
        }
        parts.head.replaceChildren(
          tokenBadge(info.colour, 20),
          el("span", { class: "tf-plate-name" }, s === mySeat ? tr("you_paren", { name: rawName(s) }) : rawName(s)),
          el("span", { class: "tf-plate-label" }, `${seatWord(s)} · ${colourName(info.colour)}`),
          ...badges,
        );
        const fan = el("span", { class: "tf-fan", "aria-hidden": "true" }, Array.from({ length: info.hand_count }, () => el("span", { class: "tf-mini-back" })));
        parts.counts.replaceChildren(
          el("span", { class: "tf-count", title: tr("hand_n", { n: info.hand_count }) }, fan, el("span", { class: "visually-hidden" }, tr("hand_n", { n: info.hand_count })), el("span", { "aria-hidden": "true" }, String(info.hand_count))),
          el("span", { class: "tf-count tf-count-deck", title: tr("deck_n", { n: info.deck_count }) }, el("span", { class: "tf-deck-icon", "aria-hidden": "true" }), el("span", { class: "visually-hidden" }, tr("deck_n", { n: info.deck_count })), el("span", { "aria-hidden": "true" }, String(info.deck_count))),
        );
        let stateText = "";
        if (over() || anim) stateText = ""; // during a reveal the plates would already speak of the next trick
        else if (view.phase === "wild" && view.wild_seat === s) stateText = tr("picking");
        else if (view.phase === "commit" || view.phase === "wild") stateText = info.committed ? (info.card ? "" : tr("committed")) : acting.has(s) ? tr("thinking") : "";
        parts.state.textContent = stateText;
        parts.state.className = ["tf-plate-state", info.committed && !info.card && "is-down", acting.has(s) && "is-thinking"].filter(Boolean).join(" ");
      }
      const model = slotModel(s);
      const slotSig = JSON.stringify(model);
      if (slotSig !== parts.slotSig) {
        parts.slotSig = slotSig;
        drawSlot(parts.slot, s, model);
      }
    }
  }

  function drawSlot(slot, s, model) {
    if (!model) {
      slot.replaceChildren(el("div", { class: "tf-slot-empty", "aria-hidden": "true" }), el("span", { class: "visually-hidden" }, `${nameOf(s)}: ${tr("no_card")}`));
      return;
    }
    let label;
    if (model.card && model.up) label = model.mine ? `${tr("your_card_down")}: ${cardLabel(model.card)}` : `${nameOf(s)}: ${cardLabel(model.card)}${model.win ? ` (${tr("wins")})` : ""}`;
    else label = `${nameOf(s)}: ${tr("committed")}`;
    const flip = model.flip && !reducedMotion();
    const card = cardEl(model.card, { up: flip ? false : model.up, cls: [model.win && "is-winner", model.lose && "is-loser", model.mine && "is-mine", model.last && "is-last", model.fresh && !reducedMotion() && "is-dealt"].filter(Boolean).join(" "), label });
    const parts = [card];
    if (model.win) parts.push(el("span", { class: "tf-win-tag" }, "✓ ", tr("wins")));
    else if (model.mine) parts.push(el("span", { class: "tf-mine-tag" }, tr("your_card_down")));
    slot.replaceChildren(...parts);
    if (flip) {
      void card.offsetWidth;
      requestAnimationFrame(() => card.classList.replace("is-down", "is-up"));
    }
  }

  // ---- the grid ------------------------------------------------------------------------------
  /** At the end the engine has cleared the grid: show the position the game ended on (and its line). */
  function displayGrid() {
    return anim?.grid || (view.phase === "over" && view.final?.grid) || view.grid;
  }

  function drawGrid() {
    const grid = displayGrid();
    const board = view.board || [];
    const wild = canWild();
    const latest = latestRecords();
    const targetKeys = new Set();
    if (anim) {
      if (anim.target) targetKeys.add(cellKey(anim.target));
    } else for (const r of latest) if (r.cell) targetKeys.add(cellKey(r.cell));
    const previewIdx = new Set();
    let previewWild = false;
    if (preview && canCommit()) {
      const k = cardRank(preview);
      if (k === 10) previewWild = true;
      else previewIdx.add(k - 1);
    }
    for (let i = 0; i < 9; i += 1) {
      const c = cells[i];
      const b = board[i];
      if (!b) continue;
      const token = grid[b.cell[0]][b.cell[1]];
      const fx = anim?.cellFx?.get(cellKey(b.cell)) || null;
      const sig = `${token}|${fx || ""}`;
      if (sig !== c.sig) {
        c.sig = sig;
        const parts = [];
        if (fx === "flip" && token && !reducedMotion()) {
          const old = token === "red" ? "black" : "red";
          parts.push(tokenShape(old, c.cx, c.cy + 6, 29, "tf-flip-out"), tokenShape(token, c.cx, c.cy + 6, 29, "tf-flip-in"));
        } else if (fx === "clear" && token && !reducedMotion()) {
          parts.push(tokenShape(token, c.cx, c.cy + 6, 29, "tf-clearing"));
        } else if (token && fx !== "clear") {
          parts.push(tokenShape(token, c.cx, c.cy + 6, 29, fx === "place" && !reducedMotion() ? "tf-pop" : ""));
        }
        c.content.replaceChildren(...parts);
      }
      const other = lensSeat !== null && lensSeat !== mySeat && seatInfo(lensSeat) ? numberFor(labelOf(lensSeat), b.cell) : null;
      const numText = String(other ?? i + 1);
      if (c.num.textContent !== numText) c.num.textContent = numText;
      c.g.classList.toggle("is-lens", other !== null);
      const isTarget = targetKeys.has(cellKey(b.cell));
      c.g.classList.toggle("is-target", isTarget);
      c.g.classList.toggle("is-preview", previewIdx.has(i) || previewWild);
      c.g.classList.toggle("is-playable", wild);
      c.g.classList.toggle("is-red", token === "red");
      c.g.classList.toggle("is-black", token === "black");
      const bits = [tr("cell", { n: i + 1 }), token === "red" ? tr("cell_red") : token === "black" ? tr("cell_black") : tr("cell_empty")];
      if (isTarget) bits.push(tr("cell_target"));
      c.g.setAttribute("aria-label", wild ? `${tr("pick_cell", { n: i + 1 })}: ${bits.slice(1).join(", ")}` : bits.join(", "));
      c.g.setAttribute("aria-disabled", wild ? "false" : "true");
      c.g.setAttribute("tabindex", wild && i === gridFocus ? "0" : "-1");
    }
    // N / E / S / W on the grid's edges, turned with the table (the log names cells by compass)
    const EDGE = { top: [160, -8], right: [328, 160], bottom: [160, 328], left: [-8, 160] };
    for (const [d, text] of compass) {
      const [x, y] = EDGE[POS_OF_ANGLE[(DIR_ANGLE[d] + (view.rotation || 0)) % 360]];
      text.setAttribute("x", x);
      text.setAttribute("y", y);
    }
    drawLens();
    gridSvg.classList.toggle("is-wild", wild);
    gridSvg.classList.toggle("is-busy", pending);
    gridLabel.textContent = tr(spectator ? "grid_label_watch" : "grid_label");
    drawLines();
  }

  /** "Numbers as read by: you · North · …": see which cell another seat's card would target. */
  function drawLens() {
    const seats = (view.seats || []).map((x) => x.seat);
    const own = spectator ? null : mySeat;
    const current = lensSeat === null || lensSeat === own ? own : lensSeat;
    const sig = JSON.stringify([seats, current, nameOf(0), nameOf(1), nameOf(2), nameOf(3)]);
    if (lens.dataset.sig === sig) return;
    lens.dataset.sig = sig;
    const button = (seat, text) => el("button", {
      type: "button",
      class: "tf-lens-btn",
      "aria-pressed": seat === current || (seat === null && current === null) ? "true" : "false",
      onclick: () => {
        lensSeat = seat;
        drawGrid();
      },
    }, text);
    const parts = [el("span", { class: "tf-lens-title" }, tr("numbers_as"))];
    parts.push(button(own, spectator ? seatWord(view.players === 2 ? 0 : 2) : tr("you")));
    for (const s of seats) if (s !== own && !(spectator && labelOf(s) === "South")) parts.push(button(s, seatWord(s)));
    lens.replaceChildren(...parts);
  }

  function drawLines() {
    const final = !anim && view.phase === "over" ? view.final : null;
    const lines = anim?.lines || final?.lines || null;
    if (!lines) {
      linesLayer.replaceChildren();
      return;
    }
    const colour = (anim ? anim.lineColour : final.colour) || "red";
    linesLayer.replaceChildren(
      ...lines.map((line) => {
        const pts = line.map((cell) => {
          const i = boardIndexOf(cell);
          return cells[i];
        }).filter(Boolean);
        if (pts.length < 2) return null;
        pts.sort((a, b) => a.y - b.y || a.x - b.x);
        const a = pts[0];
        const z = pts[pts.length - 1];
        const dx = z.cx - a.cx;
        const dy = z.cy - a.cy;
        const len = Math.hypot(dx, dy) || 1;
        const ext = 30;
        return svg("line", {
          class: `tf-line tf-line-${colour}${reducedMotion() ? "" : " is-new"}`,
          x1: (a.cx - (dx / len) * ext).toFixed(1),
          y1: (a.cy + 6 - (dy / len) * ext).toFixed(1),
          x2: (z.cx + (dx / len) * ext).toFixed(1),
          y2: (z.cy + 6 + (dy / len) * ext).toFixed(1),
          pathLength: "1",
        });
      }),
    );
  }

  function floatPoint(cell, colour) {
    if (reducedMotion()) return;
    const i = boardIndexOf(cell);
    const c = cells[i];
    if (!c) return;
    const text = svg("text", { class: `tf-float tf-float-${colour}`, x: c.cx, y: c.cy - 20, "text-anchor": "middle" });
    text.textContent = "+1";
    fxLayer.append(text);
    setTimeout(() => text.remove(), 1500);
  }

  function showBanner(text, cls = "") {
    clearTimeout(bannerTimer);
    banner.textContent = text;
    banner.className = `tf-banner ${cls}`;
    banner.hidden = false;
    bannerTimer = setTimeout(() => {
      banner.hidden = true;
    }, reducedMotion() ? 2200 : 1800);
  }

  // ---- trick records (who won, which cell) ------------------------------------------------------
  function latestRecords() {
    if ((view.current || []).length) return view.current;
    return view.previous || [];
  }

  function recordLine(r) {
    const [a, b] = r.seats;
    const [ca, cb] = r.cards;
    const cardSpan = (card) => el("span", { class: `tf-inline-card ${RED_SUITS.has(cardSuit(card)) ? "tf-ink-red" : "tf-ink-black"}` }, cardRankText(card), suitIcon(cardSuit(card)), el("span", { class: "visually-hidden" }, ` ${tr(`suit.${cardSuit(card)}`)}`));
    const loser = r.winner === a ? b : a;
    const loserCard = r.winner === a ? cb : ca;
    const colour = colourOf(r.winner);
    const bits = [
      tokenBadge(colour, 16),
      el("strong", {}, nameOf(r.winner)), " ", cardSpan(r.card), " ", el("span", { class: "muted" }, tr("vs")), " ", nameOf(loser), " ", cardSpan(loserCard), " → ",
    ];
    if (r.cell === null || r.cell === undefined) {
      bits.push(el("em", {}, tr("rec_pending", { winner: nameOf(r.winner), card: cardText(r.card) })));
    } else {
      const key = r.effect === "flip" ? "rec_flip" : r.effect === "none" ? "rec_none" : "rec_place";
      const mine = boardIndexOf(r.cell) + 1;
      const txt = tr(key, { label: seatWord(r.winner), n: r.number, colour: colourName(colour) });
      bits.push(el("span", {}, txt));
      if (r.winner !== mySeat && !spectator) bits.push(el("span", { class: "muted" }, ` (${tr("your_cell", { n: mine })})`));
      if (r.scored) bits.push(" ", el("strong", { class: "tf-scored" }, tr("rec_scored", { colour: colourName(colour) })));
    }
    return el("li", { class: ["tf-record", `tf-team-${colour}`] }, bits);
  }

  function drawRecords() {
    const recs = anim ? [] : latestRecords();
    const title = (view.current || []).length ? null : recs.length ? tr("last_trick") : null;
    const sig = JSON.stringify([recs, title, nameOf(0), nameOf(1)]);
    if (records.dataset.sig === sig) return;
    records.dataset.sig = sig;
    records.replaceChildren(...(title ? [el("li", { class: "tf-records-title" }, title)] : []), ...recs.map(recordLine));
  }

  // ---- the bar: scores, progress, reveal order ---------------------------------------------------
  function drawBar() {
    const teams = view.teams || [];
    const scoreChip = (team) => {
      const lead = teams.length === 2 && team.score > teams[1 - team.team].score;
      const members = team.seats.map((s) => nameOf(s)).join(" + ");
      const mine = view.your_team === team.team;
      const teamName = colourName(team.colour);
      return el("div", { class: ["tf-score", `tf-team-${team.colour}`, lead && "is-leading", mine && "is-mine"], role: "group", "aria-label": `${teamName}: ${team.score} (${members})` },
        tokenBadge(team.colour, 26),
        el("span", { class: "tf-score-text", "aria-hidden": "true" }, el("span", { class: "tf-score-name" }, teamName), el("span", { class: "tf-score-members" }, members)),
        el("span", { class: "tf-score-num", "aria-hidden": "true" }, String(team.score)));
    };
    const perRound = view.players === 2 ? tr("trick", { n: view.trick, total: view.tricks_in_round }) : tr("trick_set", { n: view.trick, total: view.tricks_in_round });
    const dots = el("span", { class: "tf-dots", "aria-hidden": "true" },
      Array.from({ length: view.tricks_in_round || 0 }, (_, i) => el("span", { class: ["tf-dot", i + 1 < view.trick && "is-done", i + 1 === view.trick && !over() && "is-now"] })));
    const progress = el("div", { class: "tf-progress" },
      el("span", { class: "tf-progress-round" }, tr("round", { n: view.round, total: view.rounds })),
      el("span", { class: "tf-progress-trick" }, perRound), dots);
    const parts = [teams[0] ? scoreChip(teams[0]) : null, progress, teams[1] ? scoreChip(teams[1]) : null];
    const sig = JSON.stringify([teams, view.round, view.trick, view.order, view.step, view.start_seat, over(), nameOf(0), nameOf(1), nameOf(2), nameOf(3)]);
    if (bar.dataset.sig === sig) return;
    bar.dataset.sig = sig;
    bar.replaceChildren(...parts);
    if (view.players === 4 && (view.order || []).length === 2 && !over()) {
      const pairText = (p) => p.map((s) => seatWord(s)).join(` ${tr("vs")} `);
      bar.append(el("div", { class: "tf-order", role: "group", "aria-label": `${tr("reveal_order")}: 1. ${pairText(view.order[0])}, 2. ${pairText(view.order[1])}` },
        el("span", { class: "tf-order-title" }, tr("reveal_order")),
        el("span", { class: ["tf-order-pair", view.step === 0 && "is-now"] }, "① ", pairText(view.order[0])),
        el("span", { class: ["tf-order-pair", view.step === 1 && "is-now"] }, "② ", pairText(view.order[1]))));
    }
    if ((view.history || []).length) {
      bar.append(el("div", { class: "tf-history muted small" }, view.history.map((h) => el("span", {}, tr("history", { n: h.round, red: h.scores[0], black: h.scores[1] })))));
    }
  }

  // ---- status line ---------------------------------------------------------------------------
  function statusLine() {
    if (over()) {
      const summary = lastMsg?.outcome?.summary || view.outcome?.summary;
      return tr("status_over", { summary: summaryText(summary, logContext(ctx.room, logHooks)) });
    }
    if (busy()) return tr("status_busy");
    if (view.phase === "wild") {
      if (canWild()) return tr("status_wild_me");
      return tr("status_wild_other", { name: whoOf(view.wild_seat) });
    }
    const waiting = [...toAct()].sort().map((s) => nameOf(s));
    const names = waiting.join(tr("and"));
    if (canCommit()) {
      if (view.players === 4 && view.first_pair) return tr("status_choose_4p", { pair: view.first_pair.map((s) => seatWord(s)).join("–") });
      return tr("status_choose");
    }
    if (!spectator && view.your_card) return tr("status_wait", { names });
    return tr("status_watch", { names });
  }

  // ---- the hand ------------------------------------------------------------------------------
  function drawHand() {
    if (spectator) return;
    const hand = view.hand || [];
    const playable = canCommit() && !pending;
    if (selected && (!hand.includes(selected) || !playable)) selected = null;
    const sig = JSON.stringify([hand, playable, selected, pending, view.players === 4 ? view.seats?.[mySeat]?.deck_count : view.seats?.[mySeat]?.deck_count]);
    if (handPanel.dataset.sig === sig) return;
    const hadFocus = handPanel.contains(document.activeElement);
    handPanel.dataset.sig = sig;
    handFocus = Math.max(0, Math.min(handFocus, hand.length - 1));
    const me = view.seats?.[mySeat];
    const fresh = new Set(shownHand === null ? [] : hand.filter((c) => !shownHand.includes(c)));
    shownHand = hand.slice();
    const cardsEls = hand.map((card, i) => {
      const k = cardRank(card);
      // Begins with what the button shows (the rank and the target: "7♠ → 7"), then says it in words.
      const shown = `${cardText(card)} ${k === 10 ? "★" : `→ ${k}`}`;
      const label = `${shown}, ${k === 10 ? cardLabel(card) : tr("card_target", { card: cardBase(card), n: k })}${card === selected ? `, ${tr("card_selected")}` : ""}`;
      const btn = el("button", {
        type: "button",
        class: ["tf-hand-card", card === selected && "is-selected", fresh.has(card) && !reducedMotion() && "is-dealt"],
        "aria-label": label,
        "aria-pressed": card === selected ? "true" : "false",
        "aria-disabled": playable ? "false" : "true",
        tabindex: i === handFocus ? "0" : "-1",
        dataset: { card, index: i },
      }, cardEl(card, { up: true }), el("span", { class: "tf-hand-target", "aria-hidden": "true" }, k === 10 ? "★" : `→ ${k}`));
      return btn;
    });
    const hint = over() ? "" : !playable ? (view.your_card ? tr("hand_hint_wait") : tr("hand_hint_idle")) : selected ? (cardRank(selected) === 10 ? tr("target_hint_wild") : tr("target_hint", { n: cardRank(selected) })) : tr("hand_hint_pick");
    const playBtn = el("button", { type: "button", class: "btn btn-primary tf-play-btn", disabled: !playable || !selected, onclick: () => commit(selected) },
      selected ? tr("play_card", { card: cardText(selected) }) : tr("play_select"));
    handPanel.replaceChildren(
      el("div", { class: "tf-hand-head" },
        el("h3", { class: "tf-h", id: `${uid}-hand-title` }, tr("hand_title")),
        me ? el("span", { class: "tf-hand-deck muted small" }, el("span", { class: "tf-deck-icon", "aria-hidden": "true" }), tr("deck_n", { n: me.deck_count })) : null),
      hand.length ? el("div", { class: ["tf-hand", playable && "is-playable"], role: "group", "aria-label": tr("hand_title") }, cardsEls) : el("p", { class: "muted" }, tr("hand_empty")),
      el("div", { class: "tf-hand-foot" }, el("p", { class: "tf-hand-hint muted small" }, hint), playable ? playBtn : null),
    );
    if (hadFocus) {
      const target = handPanel.querySelector(`.tf-hand-card[data-index="${handFocus}"]`) || handPanel.querySelector(".tf-play-btn");
      target?.focus();
    }
  }

  function commit(card) {
    if (!card || !canCommit() || pending) return;
    pending = true;
    selected = null;
    preview = null;
    render();
    ctx.act({ type: "commit", card }).then(noteAck).catch(() => {}).finally(() => {
      pending = false;
      render();
    });
  }

  function chooseCell(i) {
    if (!canWild() || pending) return;
    pending = true;
    render();
    ctx.act({ type: "wild", number: i + 1 }).then(noteAck).catch(() => {}).finally(() => {
      pending = false;
      render();
    });
  }

  handPanel.addEventListener("click", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (!btn) return;
    const card = btn.dataset.card;
    handFocus = Number(btn.dataset.index);
    if (!canCommit() || pending) return;
    if (selected === card) commit(card);
    else {
      selected = card;
      preview = card;
      render();
    }
  });
  handPanel.addEventListener("keydown", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (!btn) return;
    const n = (view?.hand || []).length;
    const i = Number(btn.dataset.index);
    const move = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[event.key];
    if (move) {
      event.preventDefault();
      handFocus = (i + move + n) % n;
      for (const b of handPanel.querySelectorAll(".tf-hand-card")) b.setAttribute("tabindex", Number(b.dataset.index) === handFocus ? "0" : "-1");
      handPanel.querySelector(`.tf-hand-card[data-index="${handFocus}"]`)?.focus();
    } else if (event.key === "Escape" && selected) {
      selected = null;
      preview = null;
      render();
    }
  });
  const setPreview = (card) => {
    if (preview === card) return;
    preview = card;
    if (view) drawGrid();
  };
  handPanel.addEventListener("pointerover", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (btn) setPreview(btn.dataset.card);
  });
  handPanel.addEventListener("pointerleave", () => setPreview(selected));
  handPanel.addEventListener("focusin", (event) => {
    const btn = event.target.closest?.(".tf-hand-card");
    if (btn) {
      handFocus = Number(btn.dataset.index);
      setPreview(btn.dataset.card);
    }
  });
  handPanel.addEventListener("focusout", () => setPreview(selected));

  // grid input (wild choice)
  const cellFromEvent = (event) => {
    const g = event.target.closest?.(".tf-cell");
    return g ? Number(g.dataset.index) : null;
  };
  gridSvg.addEventListener("click", (event) => {
    const i = cellFromEvent(event);
    if (i === null) return;
    gridFocus = i;
    chooseCell(i);
  });
  gridSvg.addEventListener("keydown", (event) => {
    const i = cellFromEvent(event);
    if (i === null) return;
    const moves = { ArrowUp: -3, ArrowDown: 3, ArrowLeft: -1, ArrowRight: 1 };
    if (moves[event.key] !== undefined) {
      event.preventDefault();
      const r = Math.floor(i / 3);
      const c = i % 3;
      let j = i;
      if (event.key === "ArrowLeft" && c > 0) j = i - 1;
      if (event.key === "ArrowRight" && c < 2) j = i + 1;
      if (event.key === "ArrowUp" && r > 0) j = i - 3;
      if (event.key === "ArrowDown" && r < 2) j = i + 3;
      gridFocus = j;
      for (const cell of cells) cell.g.setAttribute("tabindex", "-1");
      cells[j].g.setAttribute("tabindex", "0");
      cells[j].g.focus();
    } else if (/^[1-9]$/.test(event.key) && canWild()) {
      event.preventDefault();
      chooseCell(Number(event.key) - 1);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      chooseCell(i);
    }
  });

  // ---- discard pile --------------------------------------------------------------------------
  function drawDiscard() {
    const discard = view.discard || [];
    const sig = JSON.stringify([discard, view.round]);
    if (discardPanel.dataset.sig === sig) return;
    const wasOpen = discardPanel.open;
    discardPanel.dataset.sig = sig;
    const seen = new Set(discard);
    const top = discard.length ? discard[discard.length - 1] : null;
    const pile = el("span", { class: "tf-pile", "aria-hidden": "true" },
      discard.length > 2 ? el("span", { class: "tf-pile-under" }) : null,
      top ? cardEl(top, { up: true, cls: "tf-card-mini" }) : el("span", { class: "tf-slot-empty tf-card-mini" }));
    const rows = SUIT_ORDER.map((suit) =>
      el("div", { class: "tf-chart-row", role: "row" },
        el("span", { class: "tf-chart-suit", role: "rowheader" }, suitIcon(suit), el("span", { class: "visually-hidden" }, tr(`suit.${suit}`))),
        RANKS.map((rank) => {
          const code = rank + suit;
          const played = seen.has(code);
          return el("span", { class: ["tf-chart-cell", played && "is-played", RED_SUITS.has(suit) ? "tf-ink-red" : "tf-ink-black"], role: "cell", "aria-label": `${cardText(code)}: ${tr(played ? "played" : "unseen")}` }, rank);
        })));
    discardPanel.replaceChildren(
      el("summary", {}, pile, el("span", { class: "tf-discard-title" }, tr("discard_title")), el("span", { class: "muted small" }, discard.length ? tr("discard_count", { n: discard.length }) : tr("discard_none"))),
      el("p", { class: "muted small" }, tr("discard_hint")),
      el("div", { class: "tf-chart", role: "table", "aria-label": tr("discard_title") }, rows),
    );
    discardPanel.open = wasOpen;
  }

  function drawSummary() {
    const bits = [];
    bits.push(tr("summary_scores", { red: view.scores?.[0] ?? 0, black: view.scores?.[1] ?? 0 }));
    const grid = displayGrid();
    const cellsText = (view.board || []).map((b) => {
      const tok = grid[b.cell[0]][b.cell[1]];
      return `${b.number} ${tok ? colourName(tok) : tr("cell_empty")}`;
    }).join(", ");
    bits.push(tr("summary_grid", { cells: cellsText }));
    if (!spectator && (view.hand || []).length) bits.push(tr("summary_hand", { cards: view.hand.map(cardText).join(", ") }));
    summary.textContent = bits.join(" ");
  }

  /** Your wild 10 won: once per choice, the grid takes the keyboard focus (unless you type elsewhere). */
  function focusWild() {
    const key = `${view.round}|${view.trick}|${view.step}`;
    if (!canWild() || wildFocusedFor === key) return;
    wildFocusedFor = key;
    gridFocus = 4;
    for (const cell of cells) cell.g.setAttribute("tabindex", "-1");
    cells[4].g.setAttribute("tabindex", "0");
    const active = document.activeElement;
    if (!active || active === document.body || container.contains(active)) cells[4].g.focus({ preventScroll: true });
  }

  function render() {
    if (!view) return;
    drawBar();
    status.textContent = statusLine();
    status.classList.toggle("is-you", canCommit() || canWild());
    drawSeats();
    drawGrid();
    drawRecords();
    drawHand();
    drawDiscard();
    drawSummary();
    focusWild();
    container.classList.toggle("tf-4p", view.players === 4);
    container.classList.toggle("tf-2p", view.players !== 4);
    table.classList.toggle("tf-4p", view.players === 4);
  }

  // ---- event timeline ------------------------------------------------------------------------
  /** Play back this message's events (reveal, resolve, score, clear) from the previous view's board. */
  async function playEvents(events, before) {
    const token = ++animToken;
    const steps = events.filter((e) => ["reveal", "resolve", "score", "clear", "round_end", "round_start"].includes(e.kind));
    if (!steps.length || !before) return;
    if (!events.some((e) => e.kind === "reveal" || e.kind === "resolve")) {
      for (const e of steps) {
        if (e.kind === "round_start") showBanner(tr("banner_round_start", { n: e.round }));
      }
      return;
    }
    const quick = reducedMotion();
    const slots = new Map();
    // before the reveal: every seat that had committed (or just did) shows a back; yours shows its face
    const committedNow = new Set(events.filter((e) => e.kind === "commit").map((e) => e.seat));
    for (const info of before.seats || []) {
      const s = info.seat;
      if (!(info.committed || committedNow.has(s))) continue;
      if (info.card) {
        const rec = (before.current || []).find((r) => r.seats.includes(s));
        slots.set(s, { card: info.card, up: true, win: rec ? rec.winner === s : false, lose: rec ? rec.winner !== s : false });
      } else if (s === mySeat) {
        const mine = before.your_card || events.find((e) => e.kind === "commit" && e.seat === s)?.card || null;
        slots.set(s, mine ? { card: mine, up: true, mine: true } : { card: null, up: false });
      } else slots.set(s, { card: null, up: false });
    }
    anim = { grid: (before.grid || view.grid).map((row) => row.slice()), slots, lines: null, cellFx: new Map(), target: null };
    const still = () => token === animToken;
    render();
    for (const e of steps) {
      if (!still()) return;
      if (e.kind === "reveal") {
        e.seats.forEach((s, i) => anim.slots.set(s, { card: e.cards[i], up: true, flip: true }));
        anim.target = null;
        render();
        await sleep(quick ? 0 : 900);
        if (!still()) return;
        e.seats.forEach((s, i) => anim.slots.set(s, { card: e.cards[i], up: true, win: s === e.winner, lose: s !== e.winner }));
        render();
        await sleep(quick ? 0 : 450);
      } else if (e.kind === "resolve") {
        anim.grid[e.cell[0]][e.cell[1]] = e.colour;
        anim.cellFx = new Map([[cellKey(e.cell), e.effect]]);
        anim.target = e.cell;
        render();
        await sleep(quick ? 0 : 750);
      } else if (e.kind === "score") {
        anim.lines = e.lines;
        anim.lineColour = e.colour;
        anim.cellFx = new Map();
        render();
        const last = e.lines?.[0]?.[1];
        if (last) floatPoint(last, e.colour);
        showBanner(tr("banner_score", { colour: colourName(e.colour) }), `tf-banner-${e.colour}`);
        await sleep(quick ? 0 : 1300);
      } else if (e.kind === "clear") {
        const fx = new Map();
        anim.grid.forEach((row, r) => row.forEach((v, c) => v && fx.set(cellKey([r, c]), "clear")));
        anim.cellFx = fx;
        anim.lines = null;
        anim.target = null;
        render();
        await sleep(quick ? 0 : 550);
        if (!still()) return;
        anim.grid = [[null, null, null], [null, null, null], [null, null, null]];
        anim.cellFx = new Map();
        if (e.reason === "round") showBanner(tr("banner_clear"));
        render();
      } else if (e.kind === "round_end") {
        showBanner(tr("banner_round_end", { n: e.round }));
        await sleep(quick ? 0 : 900);
      } else if (e.kind === "round_start") {
        showBanner(tr("banner_round_start", { n: e.round }));
      }
    }
    if (!still()) return;
    anim = null;
    render();
  }

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    update(msg) {
      const before = view;
      if (!msg.view || !Array.isArray(msg.view.board)) return;
      lastMsg = msg;
      prevView = before;
      view = msg.view;
      const events = Array.isArray(msg.events) ? msg.events : [];
      // A message that reveals or changes the board cuts a running timeline short (its final board is the
      // view we just got) and plays its own; a mere commit lets the running one finish.
      const playable = events.some((e) => ["reveal", "resolve", "clear", "round_start"].includes(e.kind));
      if (playable || !before) {
        animToken += 1;
        anim = null;
      }
      if (preview && !(view.hand || []).includes(preview)) preview = null;
      render();
      if (before && playable) playEvents(events, before);
    },
    destroy() {
      animToken += 1;
      clearTimeout(bannerTimer);
      container.remove();
    },
    /** Optional hook used by the room page: the team token beside each seat. */
    seatBadge(seat) {
      const colour = view?.seats?.[seat]?.colour || (ctx.room?.seats?.[seat]?.team === 1 ? "black" : ctx.room?.seats?.[seat]?.team === 0 ? "red" : seat === 0 ? "black" : "red");
      const wrap = el("span", { class: "tf-badge-wrap", title: colourName(colour) });
      wrap.append(tokenBadge(colour, 26));
      return wrap;
    },
    ...logHooks,
  };
}
