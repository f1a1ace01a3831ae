// Tic Tac Top renderer (view and actions: docs/games/tic-tac-top.md; contract: docs/protocol.md "Browser renderers").
//
// A party game on one shared screen plus phones. The same module draws every seat:
// - the Leader: two theme cards to pick from, then a tap-to-rank list of 7 words (reorder, undo, submit),
//   then the reveal with their ranking and a "Next word" button;
// - a player: the 12 words as chips and a 3×3 grid filled by tapping a word then a cell (or a cell then a
//   word; tapping a filled cell then another moves or swaps), then their grid circling in during the reveal;
// - a seat-less viewer (ctx.seat === null, usually the host's laptop or TV): the "TV view", big type, the
//   theme, who is still writing, the 5-second countdown, each announced word in large print, every grid
//   with its circles and lines, "First line!", the scoring line by line (A, C, B, D) and the standings.
// It decides no rule: the view says what is possible, the server is the judge.

import { ensureStylesheet, h as el, s as svg } from "../../dom.js";
import { addStrings, phrase, seatLabel } from "../../i18n.js";
import { logContext } from "../../log.js";

const CSS_HREF = "/static/css/games/tic-tac-top.css";
const RANK_SIZE = 7;
const CELLS = 9;
const DRAFT_DEBOUNCE_MS = 2000;
const ROW_STEP_MS = 650;

/** English strings (registered with addStrings below, and kept as the fallback when ctx.t lacks a key). */
const EN = {
  "tic-tac-top.turn": "Turn {turn} of {turns}",
  "tic-tac-top.game_over": "Game over",
  "tic-tac-top.leader": "Leader",
  "tic-tac-top.leader_is": "{name} leads this turn",
  "tic-tac-top.you_lead": "You are the Leader",
  "tic-tac-top.you_write": "You fill a grid",
  "tic-tac-top.tv": "TV view",
  "tic-tac-top.tv_host": "Host screen",
  "tic-tac-top.bot": "Bot",
  "tic-tac-top.choose_title": "Pick this turn's theme",
  "tic-tac-top.choose_hint": "Tap the theme you want everyone to play. You will then rank 7 of its words.",
  "tic-tac-top.choose_pick": "Play “{name}”",
  "tic-tac-top.choosing": "{name} is choosing a theme…",
  "tic-tac-top.choosing_or": "or",
  "tic-tac-top.theme": "Theme",
  "tic-tac-top.words": "The 12 words",
  "tic-tac-top.rank_title": "Rank 7 words, most relevant first",
  "tic-tac-top.rank_hint": "Tap words in order. Tap a ranked word again to take it out; drag a number or use the arrows to reorder.",
  "tic-tac-top.drag_hint": "Drag to reorder",
  "tic-tac-top.rank_slot_empty": "#{n} — tap a word",
  "tic-tac-top.rank_up": "Move “{word}” up",
  "tic-tac-top.rank_down": "Move “{word}” down",
  "tic-tac-top.rank_remove": "Take “{word}” out of the ranking",
  "tic-tac-top.undo": "Undo",
  "tic-tac-top.clear": "Clear",
  "tic-tac-top.submit": "Submit my ranking",
  "tic-tac-top.submit_need": "Pick {n} more",
  "tic-tac-top.ranked_title": "Your ranking is in",
  "tic-tac-top.ranked_hint": "Keep it secret! The words will be announced one by one.",
  "tic-tac-top.leader_ranking": "{name} is ranking 7 words…",
  "tic-tac-top.leader_ranked": "{name} has ranked 7 words!",
  "tic-tac-top.grid_title": "Your grid",
  "tic-tac-top.grid_hint": "Tap a word, then a cell (or a cell, then a word). 9 different words.",
  "tic-tac-top.grid_hint_word": "Now tap a cell for “{word}”.",
  "tic-tac-top.grid_hint_cell": "Now tap a word for row {r}, column {c} — or another cell to move it.",
  "tic-tac-top.grid_label": "Your 3×3 grid",
  "tic-tac-top.cell": "Row {r}, column {c}",
  "tic-tac-top.empty": "empty",
  "tic-tac-top.in_cell": "in row {r}, column {c}",
  "tic-tac-top.erase": "Erase",
  "tic-tac-top.lock": "Lock my grid",
  "tic-tac-top.lock_confirm": "Tap again to lock ({n} empty)",
  "tic-tac-top.locked_title": "Your grid is locked",
  "tic-tac-top.locked_hint": "Wait for the Leader's words…",
  "tic-tac-top.filled": "{n}/9",
  "tic-tac-top.writing": "writing",
  "tic-tac-top.done": "done",
  "tic-tac-top.locked": "locked",
  "tic-tac-top.writers": "Grids",
  "tic-tac-top.countdown": "Writing closes in",
  "tic-tac-top.countdown_s": "{s}",
  "tic-tac-top.countdown_sr": "Writing closes in {s} seconds!",
  "tic-tac-top.hard_timer": "Time left",
  "tic-tac-top.reveal_title": "The reveal",
  "tic-tac-top.word_of": "Word {k} of 7",
  "tic-tac-top.get_ready": "Pens down! The Leader's words are coming…",
  "tic-tac-top.next_word": "Next word",
  "tic-tac-top.next_turn": "Next turn",
  "tic-tac-top.auto_next": "Next in {s} s",
  "tic-tac-top.your_ranking": "Your ranking",
  "tic-tac-top.ranking": "The Leader's ranking",
  "tic-tac-top.first_line": "First line!",
  "tic-tac-top.first_line_who": "{names} on word {k}",
  "tic-tac-top.first_line_badge": "first line",
  "tic-tac-top.lines": "{n} lines",
  "tic-tac-top.line": "1 line",
  "tic-tac-top.no_lines": "no line yet",
  "tic-tac-top.no_grid": "No grid",
  "tic-tac-top.score_title": "Turn {turn}: the scoring",
  "tic-tac-top.standings": "Standings",
  "tic-tac-top.final_title": "Final standings",
  "tic-tac-top.points": "{n} pts",
  "tic-tac-top.part_A": "Leader: first line on word 3 / 4 / 5 → +3 / +2 / +1",
  "tic-tac-top.part_B": "Leader: the best grid's lines − 1",
  "tic-tac-top.part_C": "First line: +2 to everyone who made it",
  "tic-tac-top.part_D": "+1 per line (at most 5)",
  "tic-tac-top.history": "Previous turns",
  "tic-tac-top.last_grids": "The last turn's grids",
  "tic-tac-top.history_turn": "Turn",
  "tic-tac-top.history_theme": "Theme",
  "tic-tac-top.winner": "winner",
  "tic-tac-top.quick_target": "First to {n} points (quick game)",
  "tic-tac-top.sr_choose": "Turn {turn}. {leader} is choosing a theme.",
  "tic-tac-top.sr_write": "Turn {turn}, theme {theme}. {done} of {total} grids finished.",
  "tic-tac-top.sr_reveal": "Turn {turn}, theme {theme}. Announced so far: {words}.",
  "tic-tac-top.sr_score": "Turn {turn} scored. {standings}.",
  "tic-tac-top.sr_over": "The game is over. {standings}.",
  "tic-tac-top.sr_theme": "Theme chosen: {theme}.",
  "tic-tac-top.sr_word": "Word {k}: {word}.",
  "tic-tac-top.sr_grid": "{name}'s grid: {cells}. {lines}.",
  "tic-tac-top.and": "and",
  // the game log, results, scoring reasons and refusals (keys the engine sends, docs/games/tic-tac-top.md)
  "tic-tac-top.log.theme_chosen": "{seat} (Leader) chose the theme “{theme}”",
  "tic-tac-top.log.ranking": "{seat} (Leader) is ranking words",
  "tic-tac-top.log.ranked_countdown": "{seat} (Leader) submitted a ranking: 5-second countdown!",
  "tic-tac-top.log.ranked": "{seat} (Leader) submitted a ranking",
  "tic-tac-top.log.wrote": "{seat} wrote a word",
  "tic-tac-top.log.erased": "{seat} erased a word",
  "tic-tac-top.log.finished": "{seat} finished their grid",
  "tic-tac-top.log.locked": "{seat}’s grid was locked as it was",
  "tic-tac-top.log.announced": "Word {word_number} of the ranking: {word}",
  "tic-tac-top.log.first_line": "First line: {seats}",
  "tic-tac-top.log.turn_scored": "Turn {turn} is scored",
  "tic-tac-top.log.turn_starts": "Turn {turn}: {seat} leads",
  "tic-tac-top.result.won": "{seats} wins with {points} points",
  "tic-tac-top.result.shared": "{seats} share the win with {points} points",
  "tic-tac-top.reason.no_line": "nobody made a line",
  "tic-tac-top.reason.first_line_on": "the first line came on word {word_number}",
  "tic-tac-top.reason.first_line_late": "the first line came only on word {word_number}",
  "tic-tac-top.reason.own_first_line": "first line, on word {word_number}",
  "tic-tac-top.reason.best_grid": "the best grid made {lines, plural, one {# line} other {# lines}}",
  "tic-tac-top.reason.lines": "{lines, plural, one {# line} other {# lines}}",
  "tic-tac-top.error.not_integer": "“{field}” must be a whole number.",
  "tic-tac-top.error.bad_words": "A ranking is a list of words.",
  "tic-tac-top.error.choosing_theme": "{seat} is choosing the theme.",
  "tic-tac-top.error.leader_chooses": "Only the Leader, {seat}, chooses the theme.",
  "tic-tac-top.error.leader_ranks": "Only the Leader ranks words; players fill their grid.",
  "tic-tac-top.error.ranked_already": "Your ranking is already submitted.",
  "tic-tac-top.error.leader_no_grid": "The Leader ranks words and has no grid.",
  "tic-tac-top.error.grid_locked": "Your grid is already locked.",
  "tic-tac-top.error.not_while_writing": "That is not possible while the grids are being written.",
  "tic-tac-top.error.only_next": "Only the Leader or the host moves the show on now.",
  "tic-tac-top.error.leader_paces": "Only the Leader, {seat}, or the host moves the show on.",
  "tic-tac-top.error.bad_theme": "Choose one of the offered themes.",
  "tic-tac-top.error.ranking_size": "A ranking has exactly {size} words.",
  "tic-tac-top.error.ranking_too_long": "A ranking has at most {size} words.",
  "tic-tac-top.error.not_theme_word": "“{word}” is not one of the theme’s words.",
  "tic-tac-top.error.word_twice": "A ranking cannot hold the same word twice.",
  "tic-tac-top.error.bad_cell": "That cell is off the grid.",
  "tic-tac-top.error.bad_word": "Write one of the theme’s words.",
  "tic-tac-top.error.word_in_grid": "“{word}” is already in your grid.",
  "tic-tac-top.error.cell_empty": "That cell is already empty.",
};


addStrings("en", EN);
addStrings("fr", {
  "tic-tac-top.turn": "Tour {turn} sur {turns}",
  "tic-tac-top.game_over": "Partie terminée",
  "tic-tac-top.leader": "Meneur",
  "tic-tac-top.leader_is": "{name} mène ce tour",
  "tic-tac-top.you_lead": "Vous êtes le Meneur",
  "tic-tac-top.you_write": "Vous remplissez une grille",
  "tic-tac-top.tv": "Vue télé",
  "tic-tac-top.tv_host": "Écran de l’hôte",
  "tic-tac-top.bot": "Robot",
  "tic-tac-top.choose_title": "Choisissez le thème de ce tour",
  "tic-tac-top.choose_hint": "Touchez le thème que tout le monde jouera. Vous classerez ensuite 7 de ses mots.",
  "tic-tac-top.choose_pick": "Jouer « {name} »",
  "tic-tac-top.choosing": "{name} choisit un thème…",
  "tic-tac-top.choosing_or": "ou",
  "tic-tac-top.theme": "Thème",
  "tic-tac-top.words": "Les 12 mots",
  "tic-tac-top.rank_title": "Classez 7 mots, du plus pertinent au moins pertinent",
  "tic-tac-top.rank_hint": "Touchez les mots dans l’ordre. Touchez de nouveau un mot classé pour le retirer ; faites glisser un numéro ou utilisez les flèches pour réordonner.",
  "tic-tac-top.drag_hint": "Faire glisser pour réordonner",
  "tic-tac-top.rank_slot_empty": "n° {n} — touchez un mot",
  "tic-tac-top.rank_up": "Monter « {word} »",
  "tic-tac-top.rank_down": "Descendre « {word} »",
  "tic-tac-top.rank_remove": "Retirer « {word} » du classement",
  "tic-tac-top.undo": "Annuler",
  "tic-tac-top.clear": "Effacer",
  "tic-tac-top.submit": "Valider mon classement",
  "tic-tac-top.submit_need": "Encore {n} à choisir",
  "tic-tac-top.ranked_title": "Votre classement est enregistré",
  "tic-tac-top.ranked_hint": "Gardez le secret ! Les mots seront annoncés un par un.",
  "tic-tac-top.leader_ranking": "{name} classe 7 mots…",
  "tic-tac-top.leader_ranked": "{name} a classé 7 mots !",
  "tic-tac-top.grid_title": "Votre grille",
  "tic-tac-top.grid_hint": "Touchez un mot, puis une case (ou une case, puis un mot). 9 mots différents.",
  "tic-tac-top.grid_hint_word": "Touchez maintenant une case pour « {word} ».",
  "tic-tac-top.grid_hint_cell": "Touchez maintenant un mot pour la ligne {r}, colonne {c} — ou une autre case pour l’y déplacer.",
  "tic-tac-top.grid_label": "Votre grille 3×3",
  "tic-tac-top.cell": "Ligne {r}, colonne {c}",
  "tic-tac-top.empty": "vide",
  "tic-tac-top.in_cell": "en ligne {r}, colonne {c}",
  "tic-tac-top.erase": "Gommer",
  "tic-tac-top.lock": "Verrouiller ma grille",
  "tic-tac-top.lock_confirm": "Touchez encore pour verrouiller ({n} vide(s))",
  "tic-tac-top.locked_title": "Votre grille est verrouillée",
  "tic-tac-top.locked_hint": "Attendez les mots du Meneur…",
  "tic-tac-top.filled": "{n}/9",
  "tic-tac-top.writing": "écrit",
  "tic-tac-top.done": "fini",
  "tic-tac-top.locked": "verrouillée",
  "tic-tac-top.writers": "Grilles",
  "tic-tac-top.countdown": "Fin de l’écriture dans",
  "tic-tac-top.countdown_s": "{s}",
  "tic-tac-top.countdown_sr": "Fin de l’écriture dans {s} secondes !",
  "tic-tac-top.hard_timer": "Temps restant",
  "tic-tac-top.reveal_title": "La révélation",
  "tic-tac-top.word_of": "Mot {k} sur 7",
  "tic-tac-top.get_ready": "Stylos posés ! Les mots du Meneur arrivent…",
  "tic-tac-top.next_word": "Mot suivant",
  "tic-tac-top.next_turn": "Tour suivant",
  "tic-tac-top.auto_next": "Suite dans {s} s",
  "tic-tac-top.your_ranking": "Votre classement",
  "tic-tac-top.ranking": "Le classement du Meneur",
  "tic-tac-top.first_line": "Première ligne !",
  "tic-tac-top.first_line_who": "{names} au mot {k}",
  "tic-tac-top.first_line_badge": "première ligne",
  "tic-tac-top.lines": "{n} lignes",
  "tic-tac-top.line": "1 ligne",
  "tic-tac-top.no_lines": "pas encore de ligne",
  "tic-tac-top.no_grid": "Pas de grille",
  "tic-tac-top.score_title": "Tour {turn} : le décompte",
  "tic-tac-top.standings": "Classement",
  "tic-tac-top.final_title": "Classement final",
  "tic-tac-top.points": "{n} pts",
  "tic-tac-top.part_A": "Meneur : première ligne au mot 3 / 4 / 5 → +3 / +2 / +1",
  "tic-tac-top.part_B": "Meneur : lignes de la meilleure grille − 1",
  "tic-tac-top.part_C": "Première ligne : +2 pour chacun de ceux qui l’ont faite",
  "tic-tac-top.part_D": "+1 par ligne (5 au plus)",
  "tic-tac-top.history": "Tours précédents",
  "tic-tac-top.last_grids": "Les grilles du dernier tour",
  "tic-tac-top.history_turn": "Tour",
  "tic-tac-top.history_theme": "Thème",
  "tic-tac-top.winner": "gagnant",
  "tic-tac-top.quick_target": "Premier à {n} points (partie rapide)",
  "tic-tac-top.sr_choose": "Tour {turn}. {leader} choisit un thème.",
  "tic-tac-top.sr_write": "Tour {turn}, thème {theme}. {done} grilles finies sur {total}.",
  "tic-tac-top.sr_reveal": "Tour {turn}, thème {theme}. Annoncés jusqu’ici : {words}.",
  "tic-tac-top.sr_score": "Tour {turn} compté. {standings}.",
  "tic-tac-top.sr_over": "La partie est terminée. {standings}.",
  "tic-tac-top.sr_theme": "Thème choisi : {theme}.",
  "tic-tac-top.sr_word": "Mot {k} : {word}.",
  "tic-tac-top.sr_grid": "Grille de {name} : {cells}. {lines}.",
  "tic-tac-top.and": "et",
  "tic-tac-top.log.theme_chosen": "{seat} (Meneur) a choisi le thème « {theme} »",
  "tic-tac-top.log.ranking": "{seat} (Meneur) classe les mots",
  "tic-tac-top.log.ranked_countdown": "{seat} (Meneur) a validé son classement : compte à rebours de 5 secondes !",
  "tic-tac-top.log.ranked": "{seat} (Meneur) a validé son classement",
  "tic-tac-top.log.wrote": "{seat} a écrit un mot",
  "tic-tac-top.log.erased": "{seat} a gommé un mot",
  "tic-tac-top.log.finished": "{seat} a fini sa grille",
  "tic-tac-top.log.locked": "La grille de {seat} a été verrouillée en l’état",
  "tic-tac-top.log.announced": "Mot {word_number} du classement : {word}",
  "tic-tac-top.log.first_line": "Premier alignement : {seats}",
  "tic-tac-top.log.turn_scored": "Décompte du tour {turn}",
  "tic-tac-top.log.turn_starts": "Tour {turn} : {seat} mène",
  "tic-tac-top.result.won": "{seats} gagne avec {points} points",
  "tic-tac-top.result.shared": "{seats} se partagent la victoire avec {points} points",
  "tic-tac-top.reason.no_line": "personne n’a fait d’alignement",
  "tic-tac-top.reason.first_line_on": "le premier alignement est venu au mot {word_number}",
  "tic-tac-top.reason.first_line_late": "le premier alignement n’est venu qu’au mot {word_number}",
  "tic-tac-top.reason.own_first_line": "premier alignement, au mot {word_number}",
  "tic-tac-top.reason.best_grid": "la meilleure grille a fait {lines, plural, one {# alignement} other {# alignements}}",
  "tic-tac-top.reason.lines": "{lines, plural, one {# alignement} other {# alignements}}",
  "tic-tac-top.error.not_integer": "« {field} » doit être un nombre entier.",
  "tic-tac-top.error.bad_words": "Un classement est une liste de mots.",
  "tic-tac-top.error.choosing_theme": "{seat} choisit le thème.",
  "tic-tac-top.error.leader_chooses": "Seul le Meneur, {seat}, choisit le thème.",
  "tic-tac-top.error.leader_ranks": "Seul le Meneur classe les mots ; les joueurs remplissent leur grille.",
  "tic-tac-top.error.ranked_already": "Votre classement est déjà validé.",
  "tic-tac-top.error.leader_no_grid": "Le Meneur classe les mots et n’a pas de grille.",
  "tic-tac-top.error.grid_locked": "Votre grille est déjà verrouillée.",
  "tic-tac-top.error.not_while_writing": "Ce n’est pas possible pendant l’écriture des grilles.",
  "tic-tac-top.error.only_next": "Seuls le Meneur ou l’hôte font avancer le spectacle maintenant.",
  "tic-tac-top.error.leader_paces": "Seuls le Meneur, {seat}, ou l’hôte font avancer le spectacle.",
  "tic-tac-top.error.bad_theme": "Choisissez l’un des thèmes proposés.",
  "tic-tac-top.error.ranking_size": "Un classement compte exactement {size} mots.",
  "tic-tac-top.error.ranking_too_long": "Un classement compte au plus {size} mots.",
  "tic-tac-top.error.not_theme_word": "« {word} » n’est pas un mot du thème.",
  "tic-tac-top.error.word_twice": "Un classement ne peut pas contenir deux fois le même mot.",
  "tic-tac-top.error.bad_cell": "Cette case est hors de la grille.",
  "tic-tac-top.error.bad_word": "Écrivez l’un des mots du thème.",
  "tic-tac-top.error.word_in_grid": "« {word} » est déjà dans votre grille.",
  "tic-tac-top.error.cell_empty": "Cette case est déjà vide.",
});


const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
const rc = (cell) => ({ r: Math.floor(cell / 3) + 1, c: (cell % 3) + 1 });
const centre = (cell) => [(cell % 3) * 100 + 50, Math.floor(cell / 3) * 100 + 50];

/** The seat's pattern glyph, so a seat reads without its colour. */
const SEAT_GLYPHS = ["●", "▲", "■", "◆", "★", "✚", "♥"];

function lockIcon() {
  return svg("svg", { viewBox: "0 0 24 24", class: "ttt-icon", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 5, y: 10.5, width: 14, height: 10, rx: 2.5, fill: "currentColor" }),
    svg("path", { d: "M8 10.5V8a4 4 0 0 1 8 0v2.5", fill: "none", stroke: "currentColor", "stroke-width": 2.4 }));
}

/** The longest run of letters in a word: the cell's text shrinks to fit it (see the CSS, --len). */
const longest = (word) => Math.max(4, ...String(word ?? "").split(/\s+/).map((w) => w.length));

export function mount(root, ctx) {
  const mySeat = Number.isInteger(ctx.seat) ? ctx.seat : null;
  const tv = mySeat === null;
  const uid = `ttt${Math.random().toString(36).slice(2, 8)}`;

  /** Hooks of the log (static/js/log.js): none needed, the defaults name seats by their players. */
  const tr = (key, vars) => {
    let text = ctx.t ? ctx.t(key, vars) : key;
    if (text === key || text === undefined || text === null) {
      text = EN[key] ?? key;
      if (vars) text = text.replace(/\{(\w+)\}/g, (m, k) => (Object.prototype.hasOwnProperty.call(vars, k) ? String(vars[k]) : m));
    }
    return text;
  };

  let msg = null;
  let view = null;
  let prevView = null;
  let destroyed = false;

  // ---- interaction state ------------------------------------------------------------------------
  let sel = null; // {kind: "word", word} | {kind: "cell", cell}
  let gridFocus = 4;
  let pendingOps = []; // optimistic grid edits not yet confirmed: {id, type: "place"|"clear", cell, word}
  let opSeq = 0;
  let queue = Promise.resolve();
  let confirmLock = false;
  let rankKey = null; // `${game number}|${turn}` the local ranking belongs to
  let ranking = []; // the Leader's ranking being built
  let rankAdded = null; // the word just added (it slides in)
  let draftTimer = 0;
  let lastDraftSent = null;
  let submitting = false;
  let choosing = false;
  let nexting = false;

  // ---- animation bookkeeping ---------------------------------------------------------------------
  let freshFrom = 0; // announced words already on screen before this state (newer ones animate)
  let scoreAnimatedFor = null; // `${game}|${turns scored}` whose scoring rows were already staged
  let firstLineShownFor = null;
  let bannerTimer = 0;
  let badges = []; // [seat, node]: the badges we drew in the room page (players strip, result list)

  // ---- static structure ---------------------------------------------------------------------------
  const live = el("p", { class: "visually-hidden", "aria-live": "polite", id: `${uid}-live` });
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary` });
  const head = el("header", { class: "ttt-head" });
  const main = el("div", { class: "ttt-main" });
  const banner = el("div", { class: "ttt-banner", role: "status", hidden: true });
  const container = el("section", { class: ["ttt", tv && "ttt-tv"], hidden: true, "aria-describedby": `${uid}-summary` }, head, banner, main, summary, live);
  root.append(container);
  if (tv) document.body.classList.add("ttt-tv-page");
  ensureStylesheet(CSS_HREF).then(() => {
    if (!destroyed) container.hidden = false;
  });

  // ---- keyed sections: a section whose signature did not change keeps its DOM node, so its
  // animations do not replay, a tap in progress is not lost and focus stays put. ----------------------
  const cache = new Map(); // key -> {sig, node}
  let used = new Set();
  function part(key, sig, build) {
    used.add(key);
    const hit = cache.get(key);
    if (hit && hit.sig === sig) return hit.node;
    const node = build();
    cache.set(key, { sig, node });
    return node;
  }
  function reconcile(parent, nodes) {
    const list = nodes.flat(Infinity).filter(Boolean);
    list.forEach((node, i) => {
      const current = parent.children[i];
      if (current !== node) parent.insertBefore(node, current || null);
    });
    while (parent.children.length > list.length) parent.lastElementChild.remove();
  }
  function box(key, tag, attrs, children) {
    const sig = `box|${tag}|${JSON.stringify(attrs)}`;
    const node = part(key, sig, () => el(tag, attrs));
    reconcile(node, children);
    return node;
  }

  // ---- helpers ------------------------------------------------------------------------------------
  const seatInfo = (seat) => ctx.room?.seats?.[seat];
  function nameOf(seat) {
    const s = seatInfo(seat);
    const p = s?.player;
    if (p?.bot) return `${tr("tic-tac-top.bot")} ${seat + 1}`;
    if (p?.name) return p.name;
    return seatLabel(view?.labels?.[seat] || s?.label || `Player ${seat + 1}`);
  }
  const listNames = (seats) => seats.map(nameOf).join(" & ");
  const isHostViewer = () => {
    try {
      return Boolean(window.threefold?.S?.isHost?.());
    } catch {
      return false;
    }
  };
  const canAct = () => mySeat !== null && (msg?.to_act || []).includes(mySeat) && !msg?.outcome;
  /** A seat-less host may pace the show too, once the server says so (room summary `host_actions`). */
  const hostCanStep = () => tv && isHostViewer() && (ctx.room?.host_actions || []).includes("next") && !msg?.outcome;
  const isLeader = () => Boolean(view) && mySeat !== null && view.leader === mySeat;
  const say = (text) => {
    live.textContent = "";
    setTimeout(() => {
      live.textContent = text; // a fresh text so a repeated message is announced too
    }, 30);
  };
  const baseSig = () => [ctx.room?.game_number ?? "", view.turn, view.phase, (ctx.room?.seats || []).map((s) => (s.player ? `${s.player.name}/${s.player.bot}` : "")).join(",")].join("|");

  function seatChip(seat) {
    return el("span", { class: ["ttt-seat", `ttt-c${seat % 7}`], title: seatLabel(view?.labels?.[seat]) },
      el("span", { class: "ttt-seat-glyph", "aria-hidden": "true" }, SEAT_GLYPHS[seat % 7]),
      el("span", { class: "ttt-seat-name" }, nameOf(seat)),
      seat === view?.leader ? el("span", { class: "ttt-crown", title: tr("tic-tac-top.leader"), "aria-label": `(${tr("tic-tac-top.leader")})` }, "♛") : null);
  }

  function wordSpan(word, placeholder = "") {
    return el("span", { class: "ttt-word", style: { "--len": longest(word ?? placeholder) } }, word ?? placeholder);
  }

  // ---- sending actions: one at a time, so each carries the version its predecessor produced ----
  function send(action) {
    const p = queue.then(() => (destroyed ? Promise.reject(new Error("unmounted")) : ctx.act(action)));
    queue = p.catch(() => {});
    return p;
  }

  // ---- the player's grid: the server's copy with our own not-yet-confirmed edits on top ----------
  function displayGrid() {
    const grid = Array.isArray(view?.grid) ? view.grid.slice() : Array(CELLS).fill(null);
    for (const op of pendingOps) {
      if (op.type === "clear") grid[op.cell] = null;
      else {
        const at = grid.indexOf(op.word);
        if (at >= 0 && at !== op.cell) grid[at] = null;
        grid[op.cell] = op.word;
      }
    }
    return grid;
  }

  function gridOp(type, cell, word) {
    const op = { id: (opSeq += 1), type, cell, word };
    pendingOps.push(op);
    send(type === "clear" ? { type: "clear", cell } : { type: "place", cell, word })
      .catch(() => {})
      .finally(() => {
        pendingOps = pendingOps.filter((o) => o.id !== op.id);
        render();
      });
  }

  /** Put `word` into `cell`: moves it if it is elsewhere; swaps when the target cell was filled. */
  function assign(word, cell) {
    const grid = displayGrid();
    if (grid[cell] === word) return;
    const from = grid.indexOf(word);
    const displaced = grid[cell];
    if (from >= 0) {
      gridOp("clear", from);
      gridOp("place", cell, word);
      if (displaced) gridOp("place", from, displaced);
    } else {
      gridOp("place", cell, word);
    }
  }

  function nextEmpty(after) {
    const grid = displayGrid();
    for (let i = 1; i <= CELLS; i += 1) {
      const c = (after + i) % CELLS;
      if (grid[c] === null) return c;
    }
    return null;
  }

  const writing = () => view?.phase === "write" && !isLeader() && mySeat !== null && Array.isArray(view.grid) && canAct();

  function tapWord(word) {
    if (!writing()) return;
    confirmLock = false;
    if (sel?.kind === "cell") {
      const cell = sel.cell;
      assign(word, cell);
      const next = nextEmpty(cell);
      sel = next === null ? null : { kind: "cell", cell: next };
      if (next !== null) gridFocus = next;
    } else if (sel?.kind === "word" && sel.word === word) {
      sel = null;
    } else {
      sel = { kind: "word", word };
    }
    render();
  }

  function tapCell(cell) {
    if (!writing()) return;
    confirmLock = false;
    gridFocus = cell;
    const grid = displayGrid();
    if (sel?.kind === "word") {
      assign(sel.word, cell);
      sel = null;
    } else if (sel?.kind === "cell") {
      if (sel.cell === cell) sel = null;
      else if (grid[sel.cell] !== null) {
        assign(grid[sel.cell], cell);
        sel = null;
      } else sel = { kind: "cell", cell };
    } else {
      sel = { kind: "cell", cell };
    }
    render();
  }

  function erase() {
    if (!writing() || sel?.kind !== "cell") return;
    if (displayGrid()[sel.cell] !== null) gridOp("clear", sel.cell);
    render();
  }

  function lockGrid() {
    if (!writing()) return;
    const blanks = displayGrid().filter((w) => w === null).length;
    if (blanks > 0 && !confirmLock) {
      confirmLock = true;
      render();
      return;
    }
    confirmLock = false;
    sel = null;
    send({ type: "done" }).catch(() => {}).finally(render);
    render();
  }

  // ---- the Leader's ranking -------------------------------------------------------------------------
  const rankingOpen = () => view?.phase === "write" && isLeader() && !view.ranked && canAct();

  function syncRanking() {
    const key = `${ctx.room?.game_number ?? ""}|${view.turn}`;
    if (key !== rankKey) {
      rankKey = key;
      ranking = Array.isArray(view.draft) ? view.draft.slice(0, RANK_SIZE) : [];
      lastDraftSent = JSON.stringify(ranking);
      submitting = false;
    }
  }

  /** The draft is private and only matters for the 90-second timer and a reload: saved after a pause. */
  function rankingChanged() {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => {
      if (!rankingOpen() || submitting) return;
      const body = JSON.stringify(ranking);
      if (body === lastDraftSent) return;
      lastDraftSent = body;
      send({ type: "draft", words: ranking.slice() }).catch(() => {});
    }, DRAFT_DEBOUNCE_MS);
    render();
    rankAdded = null;
  }

  function toggleRank(word) {
    if (!rankingOpen() || submitting) return;
    const at = ranking.indexOf(word);
    if (at >= 0) ranking.splice(at, 1);
    else if (ranking.length < RANK_SIZE) {
      ranking.push(word);
      rankAdded = word;
    } else return;
    rankingChanged();
  }

  function moveRank(i, delta) {
    const j = i + delta;
    if (j < 0 || j >= ranking.length) return;
    [ranking[i], ranking[j]] = [ranking[j], ranking[i]];
    rankingChanged();
  }

  /** Drag a ranked word by its number to another place in the list (mouse, touch or pen). */
  function enableDrag(list) {
    let from = null;
    let over = null;
    const itemAt = (event) => document.elementFromPoint(event.clientX, event.clientY)?.closest?.(".ttt-rank-item[data-index]");
    list.addEventListener("pointerdown", (event) => {
      const grip = event.target.closest?.(".ttt-grip");
      const item = grip?.closest(".ttt-rank-item[data-index]");
      if (!item) return;
      event.preventDefault();
      from = Number(item.dataset.index);
      item.classList.add("is-dragging");
      list.setPointerCapture?.(event.pointerId);
    });
    list.addEventListener("pointermove", (event) => {
      if (from === null) return;
      const item = itemAt(event);
      for (const li of list.querySelectorAll(".is-drop")) li.classList.remove("is-drop");
      over = item && list.contains(item) ? Number(item.dataset.index) : null;
      if (over !== null && over !== from) item.classList.add("is-drop");
    });
    const finish = () => {
      if (from !== null && over !== null && over !== from && rankingOpen()) {
        const [word] = ranking.splice(from, 1);
        ranking.splice(over, 0, word);
        from = null;
        over = null;
        rankingChanged();
        return;
      }
      from = null;
      over = null;
      for (const li of list.querySelectorAll(".is-drop, .is-dragging")) li.classList.remove("is-drop", "is-dragging");
    };
    list.addEventListener("pointerup", finish);
    list.addEventListener("pointercancel", () => {
      over = null;
      finish();
    });
  }

  function submitRanking() {
    if (!rankingOpen() || ranking.length !== RANK_SIZE || submitting) return;
    clearTimeout(draftTimer);
    submitting = true;
    render();
    send({ type: "rank", words: ranking.slice() })
      .catch(() => {
        submitting = false;
      })
      .finally(render);
  }

  function chooseTheme(index) {
    if (choosing || !canAct() || view.phase !== "choose") return;
    choosing = true;
    render();
    send({ type: "choose_theme", index }).catch(() => {}).finally(() => {
      choosing = false;
      render();
    });
  }

  function stepNext() {
    if (nexting || !(canAct() || hostCanStep()) || !["reveal", "score"].includes(view.phase)) return;
    nexting = true;
    render();
    send({ type: "next" }).catch(() => {}).finally(() => {
      nexting = false;
      render();
    });
  }

  // ---- clocks (driven by the state's deadline, epoch ms) ----------------------------------------------
  function clock(kind) {
    // "countdown": the big 5-4-3-2-1 once the Leader submits; "timer": the 90-second timer; "auto": the show's pace
    const node = el("div", { class: ["ttt-clock", `ttt-clock-${kind}`], "data-clock": kind });
    if (kind === "countdown") {
      node.append(el("span", { class: "ttt-clock-label" }, tr("tic-tac-top.countdown")), el("span", { class: "ttt-clock-num", "aria-hidden": "true" }, ""));
    } else if (kind === "timer") {
      node.append(el("span", { class: "ttt-clock-label" }, tr("tic-tac-top.hard_timer")), el("span", { class: "ttt-clock-num" }, ""), el("span", { class: "ttt-clock-track", "aria-hidden": "true" }));
    } else {
      node.append(el("span", { class: "ttt-clock-num" }, ""), el("span", { class: "ttt-clock-track", "aria-hidden": "true" }));
    }
    return node;
  }

  let lastSpokenSecond = null;
  function tickClocks() {
    const nodes = container.querySelectorAll("[data-clock]");
    if (!nodes.length || !msg?.deadline) return;
    const left = Math.max(0, Number(msg.deadline) - Date.now());
    const total = Math.max(1000, (view?.timer?.seconds ?? 5) * 1000);
    const secs = Math.ceil(left / 1000);
    for (const node of nodes) {
      const kind = node.dataset.clock;
      const num = node.querySelector(".ttt-clock-num");
      node.style.setProperty("--left", String(Math.min(1, left / total)));
      if (kind === "countdown") {
        if (num.textContent !== String(secs)) {
          num.textContent = String(secs);
          if (!reducedMotion()) {
            num.classList.remove("ttt-tick");
            void num.offsetWidth;
            num.classList.add("ttt-tick");
          }
          if (!tv && (secs === 5 || secs === 3) && lastSpokenSecond !== `${msg.deadline}|${secs}`) {
            lastSpokenSecond = `${msg.deadline}|${secs}`;
            say(tr("tic-tac-top.countdown_sr", { s: secs }));
          }
        }
      } else if (kind === "timer") {
        num.textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
        node.classList.toggle("is-urgent", secs <= 10);
      } else {
        num.textContent = tr("tic-tac-top.auto_next", { s: secs });
      }
    }
  }
  const clockTimer = setInterval(tickClocks, 200);

  // ---- pieces ---------------------------------------------------------------------------------------
  function renderHead() {
    const role = tv ? (isHostViewer() ? tr("tic-tac-top.tv_host") : tr("tic-tac-top.tv")) : isLeader() ? tr("tic-tac-top.you_lead") : tr("tic-tac-top.you_write");
    const sig = `${baseSig()}|${role}|${view.target}`;
    if (head.dataset.sig === sig) return;
    head.dataset.sig = sig;
    const over = view.phase === "over";
    reconcile(head, [
      el("span", { class: "ttt-turn" }, over ? tr("tic-tac-top.game_over") : tr("tic-tac-top.turn", { turn: view.turn, turns: view.turns })),
      over ? null : el("span", { class: "ttt-head-leader" }, el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ", tr("tic-tac-top.leader_is", { name: nameOf(view.leader) })),
      view.target ? el("span", { class: "ttt-target muted" }, tr("tic-tac-top.quick_target", { n: view.target })) : null,
      el("span", { class: ["ttt-role", isLeader() && "is-leader", tv && "is-tv"] }, role),
    ]);
  }

  const themeTitle = (big = false) =>
    part("theme", `${baseSig()}|${view.theme?.name}|${big}`, () =>
      el("div", { class: ["ttt-theme", big && "is-big"] },
        el("span", { class: "ttt-theme-kicker" }, tr("tic-tac-top.theme")),
        el("h2", { class: "ttt-theme-name" }, view.theme?.name ?? "")));

  const writersStrip = () =>
    part("writers", `${baseSig()}|${JSON.stringify(view.writers)}`, () => {
      const rows = (view.writers || []).map((w) => {
        const dots = el("span", { class: "ttt-dots", "aria-hidden": "true" },
          Array.from({ length: CELLS }, (_, i) => el("span", { class: ["ttt-dot", i < w.filled && "is-on"] })));
        const text = w.finished ? (w.how === "locked" ? tr("tic-tac-top.locked") : tr("tic-tac-top.done")) : tr("tic-tac-top.writing");
        return el("li", { class: ["ttt-writer", w.finished && "is-finished", w.seat === mySeat && "is-me"], "aria-label": `${nameOf(w.seat)}: ${w.filled}/9, ${text}` },
          seatChip(w.seat),
          dots,
          el("span", { class: "ttt-writer-state" }, w.finished ? (w.how === "locked" ? lockIcon() : "✓ ") : null, text));
      });
      return el("section", { class: "ttt-writers", "aria-label": tr("tic-tac-top.writers") },
        el("h3", { class: "ttt-subhead" }, tr("tic-tac-top.writers")),
        el("ul", { class: "ttt-writer-list" }, rows));
    });

  const leaderStatus = () =>
    part("leader-status", `${baseSig()}|${view.ranked}`, () =>
      el("p", { class: ["ttt-leader-status", view.ranked && "is-ranked"] },
        el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ",
        view.ranked ? tr("tic-tac-top.leader_ranked", { name: nameOf(view.leader) }) : tr("tic-tac-top.leader_ranking", { name: nameOf(view.leader) })));

  function countdownBlock() {
    if (view.phase !== "write" || !msg?.deadline) return null;
    const kind = view.countdown ? "countdown" : view.hard_timer && !view.ranked ? "timer" : null;
    if (!kind) return null;
    return part(`clock-${kind}`, `${kind}|${msg.deadline}`, () => clock(kind));
  }

  // ---- choose -------------------------------------------------------------------------------------
  function renderChoose() {
    const offered = view.offered || [];
    if (isLeader()) {
      return [
        part("choose-intro", baseSig(), () =>
          el("div", { class: "ttt-intro" },
            el("h2", { class: "ttt-title" }, tr("tic-tac-top.choose_title")),
            el("p", { class: "muted" }, tr("tic-tac-top.choose_hint")))),
        part("offers", `${baseSig()}|${JSON.stringify(offered)}|${canAct()}|${choosing}`, () =>
          el("div", { class: "ttt-offers" },
            offered.map((theme, i) =>
              el("button", {
                type: "button",
                class: "ttt-offer",
                disabled: !canAct() || choosing,
                "data-key": `offer-${i}`,
                // named by what it shows, ending "Play “Sweets”" (axe label-content-name-mismatch)
                onclick: () => chooseTheme(i),
              },
              el("span", { class: "ttt-offer-kicker" }, `${tr("tic-tac-top.theme")} ${String.fromCharCode(65 + i)}`),
              el("span", { class: "ttt-offer-name" }, theme.name),
              el("span", { class: "ttt-offer-words" }, (theme.words || []).map((w) => el("span", { class: "ttt-offer-word" }, w))),
              el("span", { class: "ttt-offer-cta" }, tr("tic-tac-top.choose_pick", { name: theme.name })))))),
      ];
    }
    const names = offered.map((t) => t.name);
    return [
      part("waiting", `${baseSig()}|${JSON.stringify(names)}`, () =>
        el("div", { class: "ttt-waiting" },
          el("p", { class: "ttt-waiting-title" }, el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ", tr("tic-tac-top.choosing", { name: nameOf(view.leader) })),
          el("div", { class: "ttt-offers is-facedown" },
            names.flatMap((name, i) => [
              i > 0 ? el("span", { class: "ttt-or" }, tr("tic-tac-top.choosing_or")) : null,
              el("div", { class: "ttt-offer is-facedown" },
                el("span", { class: "ttt-offer-kicker" }, `${tr("tic-tac-top.theme")} ${String.fromCharCode(65 + i)}`),
                el("span", { class: "ttt-offer-name" }, name)),
            ])))),
    ];
  }

  // ---- write ----------------------------------------------------------------------------------------
  function renderLeaderWrite() {
    syncRanking();
    const theme = view.theme;
    if (view.ranked) {
      const final = view.ranking || ranking;
      return [
        themeTitle(),
        countdownBlock(),
        part("ranked", `${baseSig()}|${JSON.stringify(final)}`, () =>
          el("section", { class: "ttt-panel" },
            el("h3", { class: "ttt-panel-title" }, `✓ ${tr("tic-tac-top.ranked_title")}`),
            el("p", { class: "muted" }, tr("tic-tac-top.ranked_hint")),
            el("ol", { class: "ttt-ranklist is-final" }, final.map((w, i) => el("li", { class: "ttt-rank-item" }, el("span", { class: "ttt-rank-n" }, String(i + 1)), el("span", { class: "ttt-rank-word" }, w)))))),
        writersStrip(),
      ];
    }
    const open = rankingOpen();
    const sig = `${baseSig()}|${JSON.stringify([ranking, open, submitting, theme.words])}`;
    return [
      themeTitle(),
      countdownBlock(),
      part("ranker", sig, () => {
        const chips = el("div", { class: "ttt-chips", role: "group", "aria-label": tr("tic-tac-top.words") },
          theme.words.map((w) => {
            const at = ranking.indexOf(w);
            return el("button", {
              type: "button",
              class: ["ttt-chip", at >= 0 && "is-ranked"],
              "aria-pressed": at >= 0 ? "true" : "false",
              "aria-label": at >= 0 ? `${w}, #${at + 1}` : w,
              "data-key": `chip-${w}`,
              disabled: !open || submitting || (at < 0 && ranking.length >= RANK_SIZE),
              onclick: () => toggleRank(w),
            }, at >= 0 ? el("span", { class: "ttt-chip-badge", "aria-hidden": "true" }, String(at + 1)) : null, el("span", { class: "ttt-chip-text" }, w));
          }));
        const slots = el("ol", { class: "ttt-ranklist", "aria-label": tr("tic-tac-top.your_ranking") },
          Array.from({ length: RANK_SIZE }, (_, i) => {
            const w = ranking[i];
            if (!w) {
              return el("li", { class: ["ttt-rank-item", "is-empty", i === ranking.length && "is-next"] },
                el("span", { class: "ttt-rank-n" }, String(i + 1)),
                el("span", { class: "ttt-rank-word muted" }, tr("tic-tac-top.rank_slot_empty", { n: i + 1 })));
            }
            return el("li", { class: ["ttt-rank-item", w === rankAdded && !reducedMotion() && "is-new"], "data-word": w, "data-index": i },
              el("span", { class: "ttt-rank-n ttt-grip", title: tr("tic-tac-top.drag_hint") }, String(i + 1)),
              el("span", { class: "ttt-rank-word" }, w),
              el("span", { class: "ttt-rank-tools" },
                el("button", { type: "button", class: "ttt-icon-btn", "data-key": `up-${w}`, disabled: i === 0 || !open || submitting, "aria-label": tr("tic-tac-top.rank_up", { word: w }), onclick: () => moveRank(i, -1) }, "↑"),
                el("button", { type: "button", class: "ttt-icon-btn", "data-key": `down-${w}`, disabled: i === ranking.length - 1 || !open || submitting, "aria-label": tr("tic-tac-top.rank_down", { word: w }), onclick: () => moveRank(i, 1) }, "↓"),
                el("button", { type: "button", class: "ttt-icon-btn is-remove", "data-key": `rm-${w}`, disabled: !open || submitting, "aria-label": tr("tic-tac-top.rank_remove", { word: w }), onclick: () => toggleRank(w) }, "×")));
          }));
        if (open && !submitting) enableDrag(slots);
        const need = RANK_SIZE - ranking.length;
        return el("section", { class: "ttt-panel ttt-ranker" },
          el("h3", { class: "ttt-panel-title" }, tr("tic-tac-top.rank_title"), el("span", { class: "ttt-count" }, `${ranking.length}/${RANK_SIZE}`)),
          el("p", { class: "muted small" }, tr("tic-tac-top.rank_hint")),
          el("div", { class: "ttt-ranker-body" }, chips, slots),
          el("div", { class: "ttt-actions" },
            el("button", { type: "button", class: "btn btn-secondary", "data-key": "undo", disabled: !ranking.length || !open || submitting, onclick: () => { ranking.pop(); rankingChanged(); } }, `↶ ${tr("tic-tac-top.undo")}`),
            el("button", { type: "button", class: "btn btn-ghost", "data-key": "clear", disabled: !ranking.length || !open || submitting, onclick: () => { ranking = []; rankingChanged(); } }, tr("tic-tac-top.clear")),
            el("button", { type: "button", class: "btn btn-primary btn-lg ttt-submit", "data-key": "submit", disabled: need > 0 || !open || submitting, "aria-busy": submitting ? "true" : null, onclick: submitRanking },
              need > 0 ? tr("tic-tac-top.submit_need", { n: need }) : `✓ ${tr("tic-tac-top.submit")}`)));
      }),
      writersStrip(),
    ];
  }

  function editableGrid(grid, open) {
    const cells = grid.map((w, cell) => {
      const { r, c } = rc(cell);
      const selected = sel?.kind === "cell" && sel.cell === cell;
      const target = open && (sel?.kind === "word" || (sel?.kind === "cell" && grid[sel.cell] !== null && sel.cell !== cell));
      const pending = pendingOps.some((o) => o.cell === cell);
      return el("button", {
        type: "button",
        class: ["ttt-cell", w === null && "is-empty", selected && "is-selected", target && "is-target", pending && "is-pending"],
        tabindex: cell === gridFocus ? "0" : "-1",
        "data-cell": cell,
        "data-key": `cell-${cell}`,
        disabled: !open,
        "aria-pressed": selected ? "true" : "false",
        "aria-label": `${tr("tic-tac-top.cell", { r, c })}: ${w ?? tr("tic-tac-top.empty")}`,
        onclick: () => tapCell(cell),
      }, wordSpan(w));
    });
    const node = el("div", { class: ["ttt-grid", "is-editable", !open && "is-locked"], role: "group", "aria-label": tr("tic-tac-top.grid_label") }, cells);
    node.addEventListener("keydown", (event) => {
      const cellEl = event.target.closest?.("[data-cell]");
      if (!cellEl) return;
      const cell = Number(cellEl.dataset.cell);
      const moves = { ArrowUp: -3, ArrowDown: 3, ArrowLeft: -1, ArrowRight: 1 };
      if (event.key in moves) {
        event.preventDefault();
        let next = cell + moves[event.key];
        if ((event.key === "ArrowLeft" && cell % 3 === 0) || (event.key === "ArrowRight" && cell % 3 === 2)) next = cell;
        if (next < 0 || next >= CELLS) next = cell;
        gridFocus = next;
        for (const b of node.querySelectorAll("[data-cell]")) b.setAttribute("tabindex", Number(b.dataset.cell) === next ? "0" : "-1");
        node.querySelector(`[data-cell="${next}"]`)?.focus();
      } else if ((event.key === "Delete" || event.key === "Backspace") && open && displayGrid()[cell] !== null) {
        event.preventDefault();
        gridOp("clear", cell);
        render();
      } else if (event.key === "Escape" && sel) {
        sel = null;
        render();
      }
    });
    return node;
  }

  function miniGridIcon(cell) {
    const icon = svg("svg", { viewBox: "0 0 30 30", class: "ttt-mini", "aria-hidden": "true", focusable: "false" });
    for (let i = 0; i < CELLS; i += 1) {
      icon.append(svg("rect", { x: (i % 3) * 10 + 1, y: Math.floor(i / 3) * 10 + 1, width: 8, height: 8, rx: 2, class: i === cell ? "is-on" : "" }));
    }
    return icon;
  }

  function renderPlayerWrite() {
    const theme = view.theme;
    const grid = displayGrid();
    const open = writing();
    if (sel?.kind === "word" && !theme.words.includes(sel.word)) sel = null;
    const blanks = grid.filter((w) => w === null).length;
    const sig = `${baseSig()}|${JSON.stringify([grid, sel, confirmLock, open, pendingOps.map((o) => o.cell), theme.words, gridFocus])}`;
    if (!open) {
      return [
        themeTitle(),
        countdownBlock(),
        part("own-locked", sig, () =>
          el("section", { class: "ttt-panel ttt-own" },
            el("h3", { class: "ttt-panel-title" }, lockIcon(), tr("tic-tac-top.locked_title")),
            el("p", { class: "muted" }, tr("tic-tac-top.locked_hint")),
            editableGrid(grid, false))),
        leaderStatus(),
        writersStrip(),
      ];
    }
    let hint = tr("tic-tac-top.grid_hint");
    if (sel?.kind === "word") hint = tr("tic-tac-top.grid_hint_word", { word: sel.word });
    if (sel?.kind === "cell") hint = tr("tic-tac-top.grid_hint_cell", rc(sel.cell));
    return [
      themeTitle(),
      countdownBlock(),
      leaderStatus(),
      part("own", sig, () => {
        const chips = el("div", { class: "ttt-chips", role: "group", "aria-label": tr("tic-tac-top.words") },
          theme.words.map((w) => {
            const at = grid.indexOf(w);
            const selected = sel?.kind === "word" && sel.word === w;
            const where = at >= 0 ? tr("tic-tac-top.in_cell", rc(at)) : null;
            return el("button", {
              type: "button",
              class: ["ttt-chip", at >= 0 && "is-used", selected && "is-selected"],
              "aria-pressed": selected ? "true" : "false",
              "aria-label": where ? `${w}, ${where}` : w,
              "data-key": `chip-${w}`,
              onclick: () => tapWord(w),
            }, at >= 0 ? el("span", { class: "ttt-chip-badge is-mini", "aria-hidden": "true" }, miniGridIcon(at)) : null, el("span", { class: "ttt-chip-text" }, w));
          }));
        return el("section", { class: "ttt-panel ttt-own ttt-writer-panel" },
          el("h3", { class: "ttt-panel-title" }, tr("tic-tac-top.grid_title"), el("span", { class: "ttt-count" }, tr("tic-tac-top.filled", { n: CELLS - blanks }))),
          el("p", { class: ["ttt-hint", sel && "is-active"] }, hint),
          chips,
          editableGrid(grid, true),
          el("div", { class: "ttt-actions" },
            el("button", { type: "button", class: "btn btn-secondary", "data-key": "erase", disabled: !(sel?.kind === "cell" && grid[sel.cell] !== null), onclick: erase }, tr("tic-tac-top.erase")),
            el("button", { type: "button", class: ["btn", "ttt-lock", confirmLock ? "btn-primary ttt-confirm" : blanks ? "btn-secondary" : "btn-primary"], "data-key": "lock", onclick: lockGrid },
              lockIcon(), confirmLock ? tr("tic-tac-top.lock_confirm", { n: blanks }) : tr("tic-tac-top.lock"))));
      }),
      writersStrip(),
    ];
  }

  function renderSpectatorWrite() {
    return [
      themeTitle(true),
      countdownBlock(),
      leaderStatus(),
      part("wordboard", `${baseSig()}|${view.theme.words.join("|")}`, () =>
        el("ul", { class: "ttt-wordboard", "aria-label": tr("tic-tac-top.words") },
          view.theme.words.map((w, i) => el("li", { class: "ttt-card-word", style: { "--i": i } }, w)))),
      writersStrip(),
    ];
  }

  // ---- reveal ---------------------------------------------------------------------------------------
  /** One grid as everyone sees it from the reveal on: circles on announced words, lines drawn through. */
  function revealGrid(seat, g, fresh, big) {
    const inLine = new Set();
    for (const line of g.lines || []) for (const c of line.cells) inLine.add(c);
    const cells = (g.words || []).map((w, cell) => {
      const mark = g.marks?.[cell] ?? null;
      const isNew = mark !== null && mark > fresh && !reducedMotion();
      return el("div", {
        class: ["ttt-cell", w === null && "is-empty", mark !== null && "is-marked", isNew && "is-new", inLine.has(cell) && "in-line"],
        role: "gridcell",
        "aria-label": `${tr("tic-tac-top.cell", rc(cell))}: ${w ?? tr("tic-tac-top.empty")}${mark !== null ? ` (${tr("tic-tac-top.word_of", { k: mark })})` : ""}`,
      }, wordSpan(w, "—"), mark !== null ? el("span", { class: "ttt-mark-n", "aria-hidden": "true" }, String(mark)) : null);
    });
    const overlay = svg("svg", { class: "ttt-overlay", viewBox: "0 0 300 300", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" });
    (g.marks || []).forEach((mark, cell) => {
      if (mark === null || mark === undefined) return;
      const [x, y] = centre(cell);
      overlay.append(svg("ellipse", { class: `ttt-ring${mark > fresh && !reducedMotion() ? " is-new" : ""}`, cx: x, cy: y, rx: 42, ry: 39, pathLength: 1 }));
    });
    for (const line of g.lines || []) {
      const [x0, y0] = centre(line.cells[0]);
      const [x1, y1] = centre(line.cells[2]);
      const len = Math.hypot(x1 - x0, y1 - y0) || 1;
      const ex = ((x1 - x0) / len) * 34;
      const ey = ((y1 - y0) / len) * 34;
      overlay.append(svg("line", {
        class: `ttt-strike${line.word > fresh && !reducedMotion() ? " is-new" : ""}`,
        x1: (x0 - ex).toFixed(1), y1: (y0 - ey).toFixed(1), x2: (x1 + ex).toFixed(1), y2: (y1 + ey).toFixed(1),
        pathLength: 1,
      }));
    }
    const count = g.line_count ?? (g.lines || []).length;
    const lineText = count === 0 ? tr("tic-tac-top.no_lines") : count === 1 ? tr("tic-tac-top.line") : tr("tic-tac-top.lines", { n: count });
    const first = (view.first_line?.seats || []).includes(seat);
    const newLine = (g.lines || []).some((l) => l.word > fresh) && !reducedMotion();
    return el("figure", { class: ["ttt-gridcard", `ttt-c${seat % 7}`, big && "is-big", seat === mySeat && "is-me", first && "has-first", newLine && "is-hot"], "data-seat": seat },
      el("figcaption", { class: "ttt-gridcard-head" },
        seatChip(seat),
        el("span", { class: ["ttt-linecount", count > 0 && "has-lines"] }, lineText),
        first ? el("span", { class: "ttt-first-badge" }, `★ ${tr("tic-tac-top.first_line_badge")}`) : null),
      el("div", { class: "ttt-gridwrap" },
        el("div", { class: "ttt-grid", role: "grid", "aria-label": tr("tic-tac-top.sr_grid", { name: nameOf(seat), cells: (g.words || []).map((w) => w ?? "—").join(", "), lines: lineText }) },
          [0, 1, 2].map((r) => el("div", { class: "ttt-grid-row", role: "row" }, cells.slice(r * 3, r * 3 + 3)))),
        overlay));
  }

  function gridCard(seat, fresh, big) {
    const g = view.grids[seat];
    const sig = `${baseSig()}|${JSON.stringify(g)}|${JSON.stringify(view.first_line?.seats || [])}|${big}`;
    return part(`grid-${seat}`, sig, () => revealGrid(seat, g, fresh, big));
  }

  /** Your own grid big (if you have one), then everyone else's. */
  function allGrids(fresh) {
    const others = [];
    for (let s = 0; s < view.players; s += 1) if (s !== mySeat && view.grids?.[s]) others.push(s);
    const own = mySeat !== null && view.grids?.[mySeat] ? mySeat : null;
    return [
      own !== null ? box("own-reveal", "div", { class: "ttt-own-reveal" }, [gridCard(own, fresh, true)]) : null,
      others.length ? box("wall", "div", { class: ["ttt-gridwall", `n${others.length}`] }, others.map((s) => gridCard(s, fresh, false))) : null,
    ];
  }

  function announceCard(fresh) {
    const words = view.announced || [];
    const k = words.length;
    return part("announce", `${baseSig()}|${words.join("|")}`, () => {
      const steps = el("ol", { class: "ttt-steps", "aria-label": tr("tic-tac-top.ranking") },
        Array.from({ length: RANK_SIZE }, (_, i) => el("li", { class: ["ttt-step", i < k && "is-done", i === k - 1 && "is-current"] },
          el("span", { class: "ttt-step-n" }, String(i + 1)),
          el("span", { class: "ttt-step-word" }, words[i] ?? ""))));
      const body = k === 0
        ? el("p", { class: "ttt-announce-wait" }, tr("tic-tac-top.get_ready"))
        : el("p", { class: ["ttt-announce-word", k > fresh && !reducedMotion() && "is-new"] }, words[k - 1]);
      return el("section", { class: "ttt-announce", "aria-label": tr("tic-tac-top.reveal_title"), "data-follow-target": "" },
        el("p", { class: "ttt-announce-kicker" }, k === 0 ? tr("tic-tac-top.reveal_title") : tr("tic-tac-top.word_of", { k })),
        body,
        steps);
    });
  }

  /** The Leader's "Next word" / "Next turn" button, and for everyone the time until the show moves on. */
  function controls(label) {
    const pacer = isLeader() || hostCanStep();
    const sig = `${baseSig()}|${pacer}|${canAct()}|${nexting}|${msg?.deadline}|${label}|${(view.announced || []).length}`;
    return part("controls", sig, () => {
      const bits = [];
      if (pacer) bits.push(el("button", { type: "button", class: "btn btn-primary btn-lg ttt-next", "data-key": "next", disabled: (isLeader() && !canAct()) || nexting, onclick: stepNext }, `${label} →`));
      if (msg?.deadline) bits.push(clock("auto"));
      return bits.length ? el("div", { class: "ttt-controls" }, bits) : el("div", { hidden: true });
    });
  }

  function leaderRankingPanel() {
    if (!isLeader() || !Array.isArray(view.ranking)) return null;
    const k = (view.announced || []).length;
    return part("leader-ranking", `${baseSig()}|${view.ranking.join("|")}|${k}`, () =>
      el("section", { class: "ttt-panel ttt-leader-panel" },
        el("h3", { class: "ttt-panel-title" }, tr("tic-tac-top.your_ranking")),
        el("ol", { class: "ttt-ranklist is-compact" }, view.ranking.map((w, i) => el("li", { class: ["ttt-rank-item", i < k && "is-out", i === k && "is-next"] },
          el("span", { class: "ttt-rank-n" }, i < k ? "✓" : String(i + 1)), el("span", { class: "ttt-rank-word" }, w))))));
  }

  function renderReveal(fresh) {
    const stage = box("stage", "div", { class: "ttt-stage" }, [announceCard(fresh), controls(tr("tic-tac-top.next_word"))]);
    return [
      themeTitle(),
      box("reveal-layout", "div", { class: "ttt-reveal-layout" }, [
        box("reveal-side", "div", { class: "ttt-reveal-side" }, [stage, leaderRankingPanel()]),
        box("reveal-grids", "div", { class: "ttt-reveal-grids" }, allGrids(fresh)),
      ]),
    ];
  }

  // ---- score / over -----------------------------------------------------------------------------------
  function scoringBlock(animate) {
    const scoring = view.scoring;
    if (!scoring) return null;
    const turn = view.history?.[view.history.length - 1]?.turn ?? view.turn;
    return part("scoring", `${baseSig()}|${view.history?.length}`, () => {
      const rows = scoring.rows || [];
      const list = el("ol", { class: "ttt-score-rows" }, rows.map((row, i) =>
        el("li", { class: ["ttt-score-row", animate && "is-staged"], style: { "--d": `${i * ROW_STEP_MS}ms` } },
          el("span", { class: `ttt-part part-${row.part}`, title: tr(`tic-tac-top.part_${row.part}`) }, row.part),
          seatChip(row.seat),
          el("span", { class: "ttt-score-text" }, phrase(row.reason, logContext(ctx.room))),
          el("span", { class: ["ttt-score-pts", row.points > 0 && "is-plus"] }, row.points > 0 ? `+${row.points}` : "0"))));
      const legend = el("dl", { class: "ttt-legend" }, ["A", "B", "C", "D"].flatMap((p) => [el("dt", { class: `ttt-part part-${p}` }, p), el("dd", {}, tr(`tic-tac-top.part_${p}`))]));
      return el("section", { class: "ttt-panel ttt-scoring", "data-follow-target": "" },
        el("h3", { class: "ttt-panel-title" }, tr("tic-tac-top.score_title", { turn })),
        list,
        el("details", { class: "ttt-legend-box" }, el("summary", {}, "A · B · C · D"), legend));
    });
  }

  function standingsBlock(animate, final) {
    return part(`standings-${final}`, `${baseSig()}|${view.history?.length}|${JSON.stringify(view.standings)}`, () => {
      const points = view.scoring?.points || [];
      const winners = new Set(view.winners || []);
      const delay = animate ? (view.scoring?.rows?.length ?? 0) * ROW_STEP_MS : 0;
      const best = Math.max(1, ...(view.scores || [0]));
      return el("section", { class: ["ttt-panel", "ttt-standings", final && "is-final", animate && "is-staged"], style: { "--d": `${delay}ms` } },
        el("h3", { class: "ttt-panel-title" }, final ? `♛ ${tr("tic-tac-top.final_title")}` : tr("tic-tac-top.standings")),
        el("ol", { class: "ttt-standing-list" }, (view.standings || []).map((row) =>
          el("li", { class: ["ttt-standing", `ttt-c${row.seat % 7}`, winners.has(row.seat) && "is-winner", row.seat === mySeat && "is-me"], style: { "--share": String((view.scores?.[row.seat] ?? 0) / best) } },
            el("span", { class: "ttt-standing-rank" }, String(row.rank + 1)),
            seatChip(row.seat),
            winners.has(row.seat) ? el("span", { class: "ttt-winner-tag" }, tr("tic-tac-top.winner")) : null,
            points[row.seat] ? el("span", { class: "ttt-standing-delta" }, `+${points[row.seat]}`) : null,
            el("span", { class: "ttt-standing-score" }, String(row.score)),
            el("span", { class: "ttt-standing-bar", "aria-hidden": "true" })))));
    });
  }

  function historyBlock(open) {
    const history = view.history || [];
    if (!history.length) return null;
    return part("history", `${baseSig()}|${history.length}|${open}`, () => {
      const n = view.players;
      return el("details", { class: "ttt-history", open: open || null },
        el("summary", {}, `${tr("tic-tac-top.history")} (${history.length})`),
        // it may scroll sideways, so it takes the keyboard focus (axe scrollable-region-focusable)
        el("div", { class: "ttt-table-wrap", tabindex: "0", role: "region", "aria-label": tr("tic-tac-top.history") },
          el("table", { class: "ttt-table" },
            el("thead", {}, el("tr", {}, el("th", { scope: "col" }, tr("tic-tac-top.history_turn")), el("th", { scope: "col" }, tr("tic-tac-top.history_theme")),
              Array.from({ length: n }, (_, s) => el("th", { scope: "col", class: "num" }, seatChip(s))))),
            el("tbody", {}, history.map((h) => el("tr", {},
              el("th", { scope: "row" }, String(h.turn)),
              el("td", {}, el("span", { class: "ttt-crown", "aria-hidden": "true" }, "♛"), " ", nameOf(h.leader), " · ", h.theme),
              (h.points || []).map((p, s) => el("td", { class: ["num", s === h.leader && "is-leader"] }, String(p)))))))));
    });
  }

  function renderScore(animate) {
    return [
      themeTitle(),
      box("score-stage", "div", { class: "ttt-score-stage" }, [scoringBlock(animate), standingsBlock(animate, false)]),
      controls(tr("tic-tac-top.next_turn")),
      ...allGrids(RANK_SIZE),
      historyBlock(false),
    ];
  }

  function renderOver(animate) {
    return [
      box("score-stage", "div", { class: "ttt-score-stage" }, [standingsBlock(false, true), scoringBlock(animate)]),
      historyBlock(true),
      view.grids
        ? box("over-grids", "details", { class: "ttt-history" }, [part("over-grids-summary", baseSig(), () => el("summary", {}, tr("tic-tac-top.last_grids"))), ...allGrids(RANK_SIZE)])
        : null,
    ];
  }

  // ---- the "First line!" call-out -----------------------------------------------------------------
  function showBanner(text, sub) {
    banner.replaceChildren(el("span", { class: "ttt-banner-title" }, text), sub ? el("span", { class: "ttt-banner-sub" }, sub) : null);
    banner.hidden = false;
    banner.classList.remove("is-on");
    void banner.offsetWidth;
    banner.classList.add("is-on");
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(() => {
      banner.hidden = true;
    }, 3200);
  }

  // ---- a text summary for screen readers -------------------------------------------------------------
  function describe() {
    const standings = (view.standings || []).map((r) => `${nameOf(r.seat)} ${r.score}`).join(", ");
    if (view.phase === "choose") return tr("tic-tac-top.sr_choose", { turn: view.turn, leader: nameOf(view.leader) });
    if (view.phase === "write") {
      const ws = view.writers || [];
      return tr("tic-tac-top.sr_write", { turn: view.turn, theme: view.theme?.name ?? "", done: ws.filter((w) => w.finished).length, total: ws.length });
    }
    if (view.phase === "reveal") return tr("tic-tac-top.sr_reveal", { turn: view.turn, theme: view.theme?.name ?? "", words: (view.announced || []).join(", ") || "—" });
    if (view.phase === "score") return tr("tic-tac-top.sr_score", { turn: view.turn, standings });
    return tr("tic-tac-top.sr_over", { standings });
  }

  // ---- render ---------------------------------------------------------------------------------------
  function render() {
    if (!view || destroyed) return;
    const active = document.activeElement;
    const focusKey = container.contains(active) ? active?.dataset?.key : null;
    used = new Set();
    renderHead();
    const phase = view.phase;
    container.dataset.phase = phase;
    // The room page brings a new phase into view and gives it focus (game.js followPhase).
    main.dataset.follow = `${ctx.room?.game_number ?? ""}|${view.turn ?? ""}|${phase}`;
    let parts;
    if (phase === "choose") parts = renderChoose();
    else if (phase === "write") parts = isLeader() ? renderLeaderWrite() : mySeat === null ? renderSpectatorWrite() : renderPlayerWrite();
    else if (phase === "reveal") parts = renderReveal(freshFrom);
    else {
      const key = `${ctx.room?.game_number ?? ""}|${view.history?.length ?? 0}`;
      const animate = scoreAnimatedFor !== key && !reducedMotion() && (msg?.events || []).some((e) => e.kind === "turn_scored");
      scoreAnimatedFor = key;
      parts = phase === "score" ? renderScore(animate) : renderOver(animate);
    }
    reconcile(main, parts);
    for (const key of [...cache.keys()]) if (!used.has(key)) cache.delete(key);
    summary.textContent = describe();
    tickClocks();
    if (focusKey && !container.contains(document.activeElement)) {
      const again = main.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
    }
  }

  /** What to say and call out once per new state (not on re-renders caused by local taps). */
  function onNewState(events) {
    for (const ev of events) {
      if (ev.kind === "theme_chosen" && ev.theme?.name) say(tr("tic-tac-top.sr_theme", { theme: ev.theme.name }));
      if (ev.kind === "announce") say(tr("tic-tac-top.sr_word", { k: ev.index, word: ev.word }));
    }
    const fl = view.first_line;
    const flKey = `${ctx.room?.game_number ?? ""}|${view.turn}`;
    if (fl && fl.index > freshFrom && firstLineShownFor !== flKey && ["reveal", "score", "over"].includes(view.phase)) {
      firstLineShownFor = flKey;
      const sub = tr("tic-tac-top.first_line_who", { names: listNames(fl.seats || []), k: fl.index });
      showBanner(`★ ${tr("tic-tac-top.first_line")}`, sub);
      say(`${tr("tic-tac-top.first_line")} ${sub}`);
    }
    if (view.phase !== "write") {
      sel = null;
      confirmLock = false;
    }
    if (prevView && prevView.turn !== view.turn) {
      sel = null;
      pendingOps = [];
      gridFocus = 4;
    }
  }

  // The players strip (game.js) is drawn just before our update: keep its badges in step.
  function paintBadge(node, seat) {
    const leader = Boolean(view) && view.leader === seat && view.phase !== "over";
    node.classList.toggle("is-leader", leader);
    node.textContent = leader ? "♛" : SEAT_GLYPHS[seat % 7];
    node.title = leader ? tr("tic-tac-top.leader") : "";
  }

  return {
    update(stateMsg) {
      if (!stateMsg || !stateMsg.view || stateMsg.view.game !== "tic-tac-top") return;
      prevView = view;
      msg = stateMsg;
      view = stateMsg.view;
      const events = Array.isArray(stateMsg.events) ? stateMsg.events : [];
      // What is new: the same turn continues from the previous count; a live move into a new turn
      // animates from 0; a first paint or a full sync animates nothing.
      const sameTurn = prevView && prevView.turn === view.turn && prevView.phase !== "over";
      if (sameTurn) freshFrom = (prevView.announced || []).length;
      else freshFrom = events.length && prevView ? 0 : (view.announced || []).length;
      onNewState(events);
      render();
      freshFrom = (view.announced || []).length; // later local re-renders replay nothing
      badges = badges.filter(([, node]) => node.isConnected);
      for (const [seat, node] of badges) paintBadge(node, seat);
    },
    destroy() {
      destroyed = true;
      clearInterval(clockTimer);
      clearTimeout(draftTimer);
      clearTimeout(bannerTimer);
      document.body.classList.remove("ttt-tv-page");
      container.remove();
    },
    /** Optional hook of the room page: the badge beside each seat in the players strip (the Leader's crown). */
    seatBadge(seat) {
      const node = el("span", { class: `ttt-badge ttt-c${seat % 7}`, "aria-hidden": "true" });
      paintBadge(node, seat);
      badges.push([seat, node]);
      return node;
    },
  };
}
