// Tricky Tactics renderer (view and actions: docs/games/tricky-tactics.md; contract: docs/protocol.md
// "Browser renderers").
//
// Drawn from the view alone: the players with their cubes (colour AND pattern AND a label), the trick on a
// felt table laid out by seat, the automa's Reveal Row and its one-line reasons, your hand as real playing
// cards (only the view's `playable` cards can be played), the map of four suit Areas with K, Q and J
// Locations, the Action chooser (only the view's `pending_action` targets), round scoring Location by
// Location and the final standings with tie-breaks. It decides no rule: the server is the judge.

import { ensureStylesheet, h as el, s as svg } from "../../dom.js";
import { addStrings, phrase, playerName, seatLabel } from "../../i18n.js";
import { logContext } from "../../log.js";
import { PIPS } from "../card-pips.js";

const CSS_HREF = "/static/css/games/tricky-tactics.css";
const SUITS = ["S", "H", "D", "C"];
const RED = new Set(["H", "D"]);
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const TRICK_HOLD_MS = 1700;
const FEED_MAX = 14;

// English strings; the room page's t() is asked first for "tricky-tactics.<key>" (French below).
const EN = {
  "suit.S": "Spades",
  "suit.H": "Hearts",
  "suit.D": "Diamonds",
  "suit.C": "Clubs",
  automa: "Automa",
  bot: "Bot",
  you_paren: "{name} (you)",
  title: "Tricky Tactics table",
  players: "Players",
  round: "Round {n} of {total}",
  trick_n: "Trick {n} of {total}",
  dealer: "Dealer",
  leads: "Leads",
  to_play: "to play",
  pts: "{n} pts",
  score_label: "{n} points",
  supply: "{n} in supply",
  on_map: "{n} on the map",
  cards: "{n} cards",
  tricks: "{n} tricks",
  set_aside: "{n} cards set aside unseen",
  status_over: "Game over",
  status_play_lead: "Your turn: lead any card",
  status_play_follow: "Your turn: follow {suit} if you can",
  status_play_free: "Your turn: you have no {suit}, play any card",
  status_action: "You won the trick! Choose your Action in the {suit} Area",
  status_wait_play: "Waiting for {name} to play",
  status_wait_action: "{name} won the trick and is choosing an Action",
  spectating: "You are watching: every hand is hidden from you.",
  led: "{suit} led",
  wins_with: "{name} wins with {card}",
  empty_slot: "no card yet",
  last_trick: "Last trick",
  last_trick_line: "{name} won with {card}",
  hand_title: "Your hand",
  hand_count: "{n} cards",
  hand_hint_follow: "You must follow {suit}: only your {suit} cards are raised.",
  hand_hint_any: "Any card may be played.",
  hand_hint_wait: "Cards become playable on your turn.",
  hand_empty: "Your hand is empty.",
  card_playable: "{card}, playable",
  card_unplayable: "{card}, not playable now",
  hand_label: "Your hand, sorted by suit",
  action_title: "Your Action in the {suit} Area",
  action_hint: "You won the trick with the led suit {suit}: add one of your cubes to one of its Locations, or knock an opponent's cube off one.",
  mode_add: "Add a cube",
  mode_remove: "Remove a cube",
  mode_add_none: "Add (no cube in supply)",
  mode_remove_none: "Remove (no opponent cube here)",
  add_to: "Add to {loc}",
  remove_from: "Remove {owner}'s cube from {loc}",
  map_title: "The map",
  map_legend: "Strict majority controls a Location: K {k} · Q {q} · J {j} points",
  map_bonus: "All three Locations of a suit: +{n}",
  area_holds: "{name} holds all three (+{n})",
  cubes_key: "Whose cubes",
  loc_label: "{loc}, worth {value}: {cubes}; {ctl}",
  loc_cubes_none: "no cubes",
  loc_ctl: "controlled by {name}",
  loc_tied: "tied, nobody controls it",
  loc_empty: "empty",
  tied: "tied",
  cube_count: "{name} {n}",
  automa_face_down: "{n} face down",
  automa_row: "Reveal Row",
  left: "Left",
  right: "Right",
  automa_hidden_next: "revealed at its next play",
  automa_row_empty: "revealed when it plays",
  automa_played: "Played {card}",
  automa_action: "Its Action",
  automa_waiting: "The automa has not played yet this round.",
  automa_chose_from: "chose from",
  feed_title: "What happened",
  feed_empty: "Moves, the automa's reasons and scoring appear here.",
  ev_deal: "Round {round} dealt. Dealer: {dealer}; {leader} leads.",
  ev_reveal: "Automa turned up {cards} (Reveal Row: {row}).",
  ev_play: "{name} played {card}.",
  ev_automa_play: "Automa played {card}: {reason}.",
  ev_trick: "{name} won trick {n} with {card}.",
  ev_add: "{name} added a cube to {loc}.",
  ev_remove: "{name} removed {owner}'s cube from {loc}.",
  ev_automa_action: "Automa {reason}.",
  ev_skip: "{name}'s Action was skipped: {reason}.",
  ev_scored: "Round {round} scored: {points}.",
  ev_round_end: "Automa's {n} unrevealed cards were discarded unseen.",
  ev_round_end_plain: "{n} set-aside cards were discarded unseen.",
  ev_carryover: "Its carryover {cards} was discarded face up.",
  short_add: "{name} added a cube to {loc}",
  short_remove: "{name} removed {owner}'s cube from {loc}",
  scored_banner: "Round {round} scored: {points}",
  show_scoring: "Show scoring",
  scoring_title: "Round {round} scoring",
  scoring_loc: "Location",
  scoring_cubes: "Cubes",
  scoring_to: "Scores",
  scoring_nobody: "nobody",
  scoring_bonus: "All of {suit}: {name} +{n}",
  scoring_round: "This round",
  scoring_controlled: "Locations held",
  scoring_total: "Total",
  scoring_player: "Player",
  by_round: "Points by round",
  round_short: "R{n}",
  final_title: "Final result",
  final_win: "{name} wins!",
  final_you_win: "You win!",
  final_share: "{names} share the win",
  final_automa: "The automa wins: no human seat wins.",
  final_points_line: "Points: {scores}.",
  final_place: "Place",
  final_points: "Points",
  final_controlled: "Locations",
  final_on_map: "Cubes on map",
  final_tiebreak: "Ties: most Locations controlled at the last scoring, then most cubes on the map, else shared.",
  final_by_ctl: "tie on points, ahead on Locations",
  final_by_map: "tie on points and Locations, ahead on cubes",
  final_shared: "tied on everything: shared",
  summary_scores: "Scores: {scores}.",
  summary_turn: "{status}.",
  summary_trick: "On the table: {cards}.",
  summary_hand: "Your hand: {cards}.",
  summary_row: "Automa's public card: {cards}.",
  and: " and ",
  and: "and",
  // the game log, results, the automa's reasons and refusals (keys the engine sends, docs/games/tricky-tactics.md)
  "log.led": "{seat} led {card}",
  "log.played": "{seat} played {card}",
  "log.automa_revealed": "Automa turned up {cards}",
  "log.automa_played": "Automa played {card}: {reason}",
  "log.trick_won": "{seat} won the trick with {card}",
  "log.automa_action": "Automa {reason}",
  "log.skipped": "{seat}’s Action was skipped: {reason}",
  "log.added": "{seat} added a cube to {location}",
  "log.removed": "{seat} removed {owner_seat}’s cube from {location}",
  "log.round_scored": "Round {round} is scored",
  "result.won": "{seats} {count, plural, one {wins} other {win}} with {points} points",
  "result.shared": "{seats} share the win with {points} points",
  "result.shared_with_automa": "{seats} and the automa share the win with {points} points",
  "result.won_on_locations": "{seats} {count, plural, one {wins} other {win}} the tie on Locations controlled at the last scoring ({locations})",
  "result.won_on_cubes": "{seats} {count, plural, one {wins} other {win}} the tie on cubes on the map ({cubes})",
  "result.automa_won": "The automa wins with {points} points: no human seat wins",
  "result.automa_won_on_locations": "The automa wins the tie on Locations controlled at the last scoring ({locations}): no human seat wins",
  "result.automa_won_on_cubes": "The automa wins the tie on cubes on the map ({cubes}): no human seat wins",
  "reason.last_card": "played {card}, its last revealed card",
  "reason.led_equal": "led {card}: its two revealed cards have equal rank, so Left",
  "reason.led_higher": "led {card}, the higher of its two revealed cards",
  "reason.followed_higher": "followed {suit} with the higher of its two revealed {suit} cards, {card}",
  "reason.followed_only": "followed {suit} with {card}, its only revealed {suit} card",
  "reason.no_suit_equal": "had no {suit} in its Reveal Row; equal ranks, so played Left, {card}",
  "reason.no_suit_higher": "had no {suit} in its Reveal Row, so played the higher card, {card}",
  "reason.added_empty": "added to the empty {location}",
  "reason.added_most": "added to {location}, the Location of that suit with the most cubes ({cubes})",
  "reason.skip": "no cube in supply and no opponent cube in {suit}: skipped",
  "reason.removed_most": "removed {owner_seat}’s cube from {location}, the Location of that suit with an opponent cube and the most cubes ({cubes})",
  "reason.tied_kqj": "tied, so K, then Q, then J",
  "reason.next_clockwise": "opponents tied there, so the next player clockwise",
  "error.action_first": "You won the trick: choose your Action (add or remove) first.",
  "error.bad_card": "That is not a card.",
  "error.not_in_hand": "{card} is not in your hand.",
  "error.must_follow": "You must follow {suit}: {card} may not be played.",
  "error.no_action": "You may add or remove a cube only right after winning a trick.",
  "error.bad_location": "That is not a Location.",
  "error.wrong_area": "The trick was led in {suit}: your Action must be in that Area, not at {location}.",
  "error.no_supply": "You have no cubes left in your supply: you can only Remove.",
  "error.bad_owner": "That is not a player.",
  "error.own_cube": "You may only remove an opponent’s cube, not your own.",
  "error.no_cube": "{owner_seat} has no cube at {location}.",
};
addStrings("en", Object.fromEntries(Object.entries(EN).map(([k, v]) => [`tricky-tactics.${k}`, v])));

addStrings("fr", {
  "tricky-tactics.suit.S": "Piques",
  "tricky-tactics.suit.H": "Cœurs",
  "tricky-tactics.suit.D": "Carreaux",
  "tricky-tactics.suit.C": "Trèfles",
  "tricky-tactics.automa": "Automa",
  "tricky-tactics.bot": "Robot",
  "tricky-tactics.you_paren": "{name} (vous)",
  "tricky-tactics.title": "Table de Tricky Tactics",
  "tricky-tactics.players": "Joueurs",
  "tricky-tactics.round": "Manche {n} sur {total}",
  "tricky-tactics.trick_n": "Pli {n} sur {total}",
  "tricky-tactics.dealer": "Donneur",
  "tricky-tactics.leads": "Entame",
  "tricky-tactics.to_play": "doit jouer",
  "tricky-tactics.pts": "{n} points",
  "tricky-tactics.score_label": "{n} points au total",
  "tricky-tactics.supply": "{n} en réserve",
  "tricky-tactics.on_map": "{n} sur la carte",
  "tricky-tactics.cards": "{n} cartes",
  "tricky-tactics.tricks": "{n} plis",
  "tricky-tactics.set_aside": "{n} cartes écartées sans être vues",
  "tricky-tactics.status_over": "Partie terminée",
  "tricky-tactics.status_play_lead": "À vous : entamez avec la carte de votre choix",
  "tricky-tactics.status_play_follow": "À vous : fournissez {suit} si vous le pouvez",
  "tricky-tactics.status_play_free": "À vous : vous n’avez pas de {suit}, jouez n’importe quelle carte",
  "tricky-tactics.status_action": "Vous remportez le pli ! Choisissez votre action dans la zone {suit}",
  "tricky-tactics.status_wait_play": "En attente de {name}",
  "tricky-tactics.status_wait_action": "{name} a remporté le pli et choisit son action",
  "tricky-tactics.spectating": "Vous regardez la partie : toutes les mains vous sont cachées.",
  "tricky-tactics.led": "Entame à {suit}",
  "tricky-tactics.wins_with": "{name} gagne avec {card}",
  "tricky-tactics.empty_slot": "pas encore de carte",
  "tricky-tactics.last_trick": "Dernier pli",
  "tricky-tactics.last_trick_line": "{name} l’a gagné avec {card}",
  "tricky-tactics.hand_title": "Votre main",
  "tricky-tactics.hand_count": "{n} cartes",
  "tricky-tactics.hand_hint_follow": "Vous devez fournir {suit} : seules vos cartes {suit} sont relevées.",
  "tricky-tactics.hand_hint_any": "Vous pouvez jouer n’importe quelle carte.",
  "tricky-tactics.hand_hint_wait": "Vos cartes deviennent jouables à votre tour.",
  "tricky-tactics.hand_empty": "Votre main est vide.",
  "tricky-tactics.card_playable": "{card}, jouable",
  "tricky-tactics.card_unplayable": "{card}, pas jouable maintenant",
  "tricky-tactics.hand_label": "Votre main, triée par couleur",
  "tricky-tactics.action_title": "Votre action dans la zone {suit}",
  "tricky-tactics.action_hint": "Vous avez gagné le pli dans la couleur demandée {suit} : posez un de vos cubes sur l’un de ses lieux, ou retirez-y le cube d’un adversaire.",
  "tricky-tactics.mode_add": "Poser un cube",
  "tricky-tactics.mode_remove": "Retirer un cube",
  "tricky-tactics.mode_add_none": "Poser (plus de cube en réserve)",
  "tricky-tactics.mode_remove_none": "Retirer (aucun cube adverse ici)",
  "tricky-tactics.add_to": "Poser sur {loc}",
  "tricky-tactics.remove_from": "Retirer le cube de {owner} de {loc}",
  "tricky-tactics.map_title": "La carte",
  "tricky-tactics.map_legend": "La majorité stricte contrôle un lieu : K {k} · Q {q} · J {j} points",
  "tricky-tactics.map_bonus": "Les trois lieux d’une couleur : +{n}",
  "tricky-tactics.area_holds": "{name} tient les trois (+{n})",
  "tricky-tactics.cubes_key": "À qui sont les cubes",
  "tricky-tactics.loc_label": "{loc}, vaut {value} : {cubes} ; {ctl}",
  "tricky-tactics.loc_cubes_none": "aucun cube",
  "tricky-tactics.loc_ctl": "contrôlé par {name}",
  "tricky-tactics.loc_tied": "égalité, personne ne le contrôle",
  "tricky-tactics.loc_empty": "vide",
  "tricky-tactics.tied": "égalité",
  "tricky-tactics.cube_count": "{name} {n}",
  "tricky-tactics.automa_face_down": "{n} face cachée",
  "tricky-tactics.automa_row": "Rangée révélée",
  "tricky-tactics.left": "Gauche",
  "tricky-tactics.right": "Droite",
  "tricky-tactics.automa_hidden_next": "révélée à son prochain coup",
  "tricky-tactics.automa_row_empty": "révélée quand il joue",
  "tricky-tactics.automa_played": "A joué {card}",
  "tricky-tactics.automa_action": "Son action",
  "tricky-tactics.automa_waiting": "L’automa n’a pas encore joué dans cette manche.",
  "tricky-tactics.automa_chose_from": "parmi",
  "tricky-tactics.feed_title": "Ce qui s’est passé",
  "tricky-tactics.feed_empty": "Les coups, les raisons de l’automa et les décomptes s’affichent ici.",
  "tricky-tactics.ev_deal": "Manche {round} distribuée. Donneur : {dealer} ; {leader} entame.",
  "tricky-tactics.ev_reveal": "L’automa retourne {cards} (rangée révélée : {row}).",
  "tricky-tactics.ev_play": "{name} joue {card}.",
  "tricky-tactics.ev_automa_play": "L’automa joue {card} : {reason}.",
  "tricky-tactics.ev_trick": "{name} remporte le pli {n} avec {card}.",
  "tricky-tactics.ev_add": "{name} pose un cube sur {loc}.",
  "tricky-tactics.ev_remove": "{name} retire le cube de {owner} de {loc}.",
  "tricky-tactics.ev_automa_action": "L’automa : {reason}.",
  "tricky-tactics.ev_skip": "L’action de {name} est passée : {reason}.",
  "tricky-tactics.ev_scored": "Décompte de la manche {round} : {points}.",
  "tricky-tactics.ev_round_end": "Les {n} cartes non révélées de l’automa sont défaussées sans être vues.",
  "tricky-tactics.ev_round_end_plain": "Les {n} cartes écartées sont défaussées sans être vues.",
  "tricky-tactics.ev_carryover": "Sa carte conservée {cards} est défaussée face visible.",
  "tricky-tactics.short_add": "{name} pose un cube sur {loc}",
  "tricky-tactics.short_remove": "{name} retire le cube de {owner} de {loc}",
  "tricky-tactics.scored_banner": "Décompte de la manche {round} : {points}",
  "tricky-tactics.show_scoring": "Voir le décompte",
  "tricky-tactics.scoring_title": "Décompte de la manche {round}",
  "tricky-tactics.scoring_loc": "Lieu",
  "tricky-tactics.scoring_cubes": "Cubes posés",
  "tricky-tactics.scoring_to": "Rapporte",
  "tricky-tactics.scoring_nobody": "personne",
  "tricky-tactics.scoring_bonus": "Tout {suit} : {name} +{n}",
  "tricky-tactics.scoring_round": "Cette manche",
  "tricky-tactics.scoring_controlled": "Lieux tenus",
  "tricky-tactics.scoring_total": "Cumul",
  "tricky-tactics.scoring_player": "Joueur",
  "tricky-tactics.by_round": "Points par manche",
  "tricky-tactics.round_short": "M{n}",
  "tricky-tactics.final_title": "Résultat final",
  "tricky-tactics.final_win": "{name} gagne !",
  "tricky-tactics.final_you_win": "Vous gagnez !",
  "tricky-tactics.final_share": "{names} se partagent la victoire",
  "tricky-tactics.final_automa": "L’automa gagne : aucun joueur humain ne l’emporte.",
  "tricky-tactics.final_points_line": "Scores : {scores}.",
  "tricky-tactics.final_place": "Rang",
  "tricky-tactics.final_points": "Score",
  "tricky-tactics.final_controlled": "Lieux",
  "tricky-tactics.final_on_map": "Cubes sur la carte",
  "tricky-tactics.final_tiebreak": "Égalités : le plus de lieux contrôlés au dernier décompte, puis le plus de cubes sur la carte, sinon victoire partagée.",
  "tricky-tactics.final_by_ctl": "égalité de points, devant aux lieux",
  "tricky-tactics.final_by_map": "égalité de points et de lieux, devant aux cubes",
  "tricky-tactics.final_shared": "égalité parfaite : partagé",
  "tricky-tactics.summary_scores": "Scores : {scores}.",
  "tricky-tactics.summary_turn": "{status}.",
  "tricky-tactics.summary_trick": "Sur la table : {cards}.",
  "tricky-tactics.summary_hand": "Votre main : {cards}.",
  "tricky-tactics.summary_row": "Carte visible de l’automa : {cards}.",
  "tricky-tactics.and": " et ",
  "tricky-tactics.and": "et",
  "tricky-tactics.log.led": "{seat} entame {card}",
  "tricky-tactics.log.played": "{seat} joue {card}",
  "tricky-tactics.log.automa_revealed": "L’automa retourne {cards}",
  "tricky-tactics.log.automa_played": "L’automa joue {card} : {reason}",
  "tricky-tactics.log.trick_won": "{seat} remporte le pli avec {card}",
  "tricky-tactics.log.automa_action": "L’automa {reason}",
  "tricky-tactics.log.skipped": "L’action de {seat} est passée : {reason}",
  "tricky-tactics.log.added": "{seat} pose un cube sur {location}",
  "tricky-tactics.log.removed": "{seat} retire le cube de {owner_seat} de {location}",
  "tricky-tactics.log.round_scored": "Décompte de la manche {round}",
  "tricky-tactics.result.won": "{seats} {count, plural, one {gagne} other {gagnent}} avec {points} points",
  "tricky-tactics.result.shared": "{seats} se partagent la victoire avec {points} points",
  "tricky-tactics.result.shared_with_automa": "{seats} et l’automa se partagent la victoire avec {points} points",
  "tricky-tactics.result.won_on_locations": "{seats} {count, plural, one {l’emporte} other {l’emportent}} à l’égalité sur les lieux contrôlés au dernier décompte ({locations})",
  "tricky-tactics.result.won_on_cubes": "{seats} {count, plural, one {l’emporte} other {l’emportent}} à l’égalité sur les cubes sur la carte ({cubes})",
  "tricky-tactics.result.automa_won": "L’automa gagne avec {points} points : aucun joueur humain ne gagne",
  "tricky-tactics.result.automa_won_on_locations": "L’automa l’emporte à l’égalité sur les lieux contrôlés au dernier décompte ({locations}) : aucun joueur humain ne gagne",
  "tricky-tactics.result.automa_won_on_cubes": "L’automa l’emporte à l’égalité sur les cubes sur la carte ({cubes}) : aucun joueur humain ne gagne",
  "tricky-tactics.reason.last_card": "a joué {card}, sa dernière carte révélée",
  "tricky-tactics.reason.led_equal": "a entamé {card} : ses deux cartes révélées sont de même rang, donc celle de gauche",
  "tricky-tactics.reason.led_higher": "a entamé {card}, la plus forte de ses deux cartes révélées",
  "tricky-tactics.reason.followed_higher": "a fourni {suit} avec la plus forte de ses deux cartes {suit} révélées, {card}",
  "tricky-tactics.reason.followed_only": "a fourni {suit} avec {card}, sa seule carte {suit} révélée",
  "tricky-tactics.reason.no_suit_equal": "pas de {suit} dans sa rangée révélée ; rangs égaux, donc la carte de gauche, {card}",
  "tricky-tactics.reason.no_suit_higher": "pas de {suit} dans sa rangée révélée, donc la plus forte carte, {card}",
  "tricky-tactics.reason.added_empty": "a posé sur {location}, vide",
  "tricky-tactics.reason.added_most": "a posé sur {location}, le lieu de cette couleur qui a le plus de cubes ({cubes})",
  "tricky-tactics.reason.skip": "aucun cube en réserve et aucun cube adverse à {suit} : action passée",
  "tricky-tactics.reason.removed_most": "a retiré le cube de {owner_seat} de {location}, le lieu de cette couleur avec un cube adverse et le plus de cubes ({cubes})",
  "tricky-tactics.reason.tied_kqj": "égalité, donc K, puis Q, puis J",
  "tricky-tactics.reason.next_clockwise": "adversaires à égalité, donc le joueur suivant dans le sens horaire",
  "tricky-tactics.error.action_first": "Vous avez remporté le pli : choisissez d’abord votre action (poser ou retirer).",
  "tricky-tactics.error.bad_card": "Ce n’est pas une carte.",
  "tricky-tactics.error.not_in_hand": "{card} n’est pas dans votre main.",
  "tricky-tactics.error.must_follow": "Vous devez fournir {suit} : {card} ne peut pas être jouée.",
  "tricky-tactics.error.no_action": "On ne pose ou ne retire un cube que juste après avoir remporté un pli.",
  "tricky-tactics.error.bad_location": "Ce n’est pas un lieu.",
  "tricky-tactics.error.wrong_area": "Le pli a été entamé à {suit} : votre action doit être dans cette zone, pas sur {location}.",
  "tricky-tactics.error.no_supply": "Vous n’avez plus de cube en réserve : vous pouvez seulement retirer.",
  "tricky-tactics.error.bad_owner": "Ce n’est pas un joueur.",
  "tricky-tactics.error.own_cube": "Vous ne pouvez retirer qu’un cube adverse, pas le vôtre.",
  "tricky-tactics.error.no_cube": "{owner_seat} n’a pas de cube sur {location}.",
});


const PIP_X = [33, 50, 67];
const PIP_Y = (f) => 29 + f * 82;

const SUIT_PATHS = {
  S: "M50 4C62 22 94 38 94 62C94 76 83 86 71 86C63 86 57 82 54 76C55 85 59 92 67 97H33C41 92 45 85 46 76C43 82 37 86 29 86C17 86 6 76 6 62C6 38 38 22 50 4Z",
  H: "M50 92C22 70 5 52 5 31C5 15 17 5 30 5C40 5 47 11 50 20C53 11 60 5 70 5C83 5 95 15 95 31C95 52 78 70 50 92Z",
  D: "M50 3L87 50L50 97L13 50Z",
  C: "M50 5A20 20 0 0 1 66.5 36.3A20 20 0 1 1 56 70C57 83 61 91 68 97H32C39 91 43 83 44 70A20 20 0 1 1 33.5 36.3A20 20 0 0 1 50 5Z",
};

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
const cardSuit = (card) => card.slice(-1);
const cardRank = (card) => card.slice(0, -1);
const rankValue = (card) => (cardRank(card) === "A" ? 14 : Number(cardRank(card)));
const cardText = (card) => `${cardRank(card)}${SYMBOL[cardSuit(card)]}`;
const locText = (loc) => `${loc[0]}${SYMBOL[loc[1]]}`;
const keyOf = (pid) => (pid === "automa" ? "a" : String(pid));
const sameId = (a, b) => a !== null && a !== undefined && String(a) === String(b);

/** Replace a node's children, skipping null / false / undefined (and flattening arrays). */
function put(node, ...kids) {
  node.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false).map((k) => (k instanceof Node ? k : String(k))));
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m));
}


/** A table's wrapper that scrolls sideways on a narrow screen: focusable and named, so a keyboard can
 * scroll it too. */
function scrollRegion(label) {
  return { class: "tk-table-wrap", tabindex: "0", role: "region", "aria-label": label };
}

export function mount(root, ctx) {
  const uid = `tk${Math.random().toString(36).slice(2, 8)}`;
  const mySeat = ctx.seat === undefined ? null : ctx.seat;
  const spectator = mySeat === null;

  const tr = (key, params) => {
    const full = `tricky-tactics.${key}`;
    let text = typeof ctx.t === "function" ? ctx.t(full, params) : full;
    if (text === full || typeof text !== "string") text = fill(EN[key] ?? key, params);
    return text;
  };

  let view = null;
  let lastMsg = null;
  let prevView = null;
  let pending = false;
  let mode = null; // "add" | "remove" while choosing an Action
  let modeFor = ""; // which pending action the mode belongs to
  let feed = [];
  let feedSeq = 0;
  let automaAction = null; // {reason, trick} of the automa's latest Action, remembered across rounds
  let automaLatest = "play"; // which of its two lines is newer
  let hold = null; // a just-finished trick kept on the table for a moment
  let holdTimer = 0;
  let shownTrickKeys = new Set();
  let scoringOpenRound = null;
  let handFocus = null;
  let flipCards = new Set();
  let firstUpdate = true;

  // ---- static structure ----------------------------------------------------------------------
  const defs = buildDefs();
  const bar = el("div", { class: "tk-bar" });
  const banner = el("div", { class: "tk-banner", hidden: true });
  const players = el("ol", { class: "tk-players", "aria-label": tr("players") });
  const table = el("section", { class: "tk-table", "aria-labelledby": `${uid}-table-title` });
  const automaPanel = el("section", { class: "tk-automa", hidden: true, "aria-labelledby": `${uid}-automa-title` });
  // It scrolls on its own, so it takes the keyboard focus (axe scrollable-region-focusable).
  const feedList = el("ol", { class: "tk-feed-list", tabindex: "0", "aria-labelledby": `${uid}-feed-title`, "aria-live": "polite", "aria-relevant": "additions" });
  const feedPanel = el("section", { class: "tk-feed", "aria-labelledby": `${uid}-feed-title` },
    el("h3", { class: "tk-h", id: `${uid}-feed-title` }, tr("feed_title")), feedList);
  const side = el("div", { class: "tk-side" }, automaPanel, feedPanel);
  const playArea = el("div", { class: "tk-play" }, table, side);
  const actionPanel = el("section", { class: "tk-action", hidden: true, "aria-labelledby": `${uid}-action-title` });
  const handPanel = el("section", { class: "tk-hand-panel", hidden: spectator, "aria-labelledby": `${uid}-hand-title` });
  const mapPanel = el("section", { class: "tk-map-panel", "aria-labelledby": `${uid}-map-title` });
  const finalPanel = el("section", { class: "tk-final", hidden: true, "aria-labelledby": `${uid}-final-title` });
  const scoringPanel = el("details", { class: "tk-scoring", hidden: true });
  const byRound = el("div", { class: "tk-byround" });
  const summary = el("p", { class: "visually-hidden", id: `${uid}-summary`, "aria-live": "off" });
  const moreToggle = el("button", { type: "button", class: "btn btn-secondary btn-sm tk-more-toggle", "aria-expanded": "false", "aria-controls": `${uid}-back` }, ctx.t("tricky-tactics.more_toggle"));
  moreToggle.addEventListener("click", () => {
    const open = moreToggle.getAttribute("aria-expanded") !== "true";
    moreToggle.setAttribute("aria-expanded", String(open));
    container.classList.toggle("is-back-open", open);
  });
  const container = el(
    "div",
    { class: "tk", hidden: true, "aria-describedby": `${uid}-summary` },
    defs,
    el("h2", { class: "visually-hidden" }, tr("title")),
    // Two groups for the one-screen table layout (app.css body.in-table; elsewhere they do not box): what
    // the move needs, and the map and scores, which at the table sit in a column or behind moreToggle.
    el("div", { class: "tk-front" }, el("div", { class: "tk-top" }, bar, moreToggle), finalPanel, banner, players, playArea, actionPanel, handPanel),
    // it scrolls on its own at the table, so it takes the keyboard focus (axe scrollable-region-focusable)
    el("div", { class: "tk-back", id: `${uid}-back`, tabindex: "0", role: "region", "aria-label": ctx.t("tricky-tactics.more_toggle") }, mapPanel, scoringPanel, byRound),
    summary,
  );
  root.append(container);
  ensureStylesheet(CSS_HREF).then(() => {
    container.hidden = false;
  });

  function buildDefs() {
    const box = svg("svg", { class: "tk-defs", width: 0, height: 0, "aria-hidden": "true", focusable: "false" });
    const d = svg("defs");
    for (const s of SUITS) d.append(svg("symbol", { id: `${uid}-suit-${s}`, viewBox: "0 0 100 100" }, svg("path", { d: SUIT_PATHS[s] })));
    const pat = (id, size, ...shapes) =>
      svg("pattern", { id: `${uid}-pat-${id}`, width: size, height: size, patternUnits: "userSpaceOnUse", patternTransform: id === "1" ? "rotate(45)" : null }, ...shapes);
    d.append(
      pat("1", 4, svg("rect", { x: 0, y: 0, width: 1.6, height: 4, class: "tk-pat-ink" })),
      pat("2", 4.2, svg("circle", { cx: 2.1, cy: 2.1, r: 1.05, class: "tk-pat-ink" })),
      pat("3", 4.5, svg("rect", { x: 0, y: 0, width: 4.5, height: 1.5, class: "tk-pat-ink" }), svg("rect", { x: 0, y: 0, width: 1.5, height: 4.5, class: "tk-pat-ink" })),
      pat("a", 6, svg("rect", { x: 0, y: 0, width: 3, height: 3, class: "tk-pat-ink" }), svg("rect", { x: 3, y: 3, width: 3, height: 3, class: "tk-pat-ink" })),
      svg("pattern", { id: `${uid}-back`, width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 12, height: 12, class: "tk-back-bg" }),
        svg("rect", { x: 0, y: 0, width: 12, height: 2.2, class: "tk-back-line" }),
        svg("rect", { x: 0, y: 0, width: 2.2, height: 12, class: "tk-back-line" })),
    );
    box.append(d);
    return box;
  }

  // ---- names and drawing helpers -------------------------------------------------------------
  const playerIds = () => (view?.players || []).map((p) => p.id);
  const playerOf = (pid) => (view?.players || []).find((p) => sameId(p.id, pid)) || null;
  const indexOf = (pid) => playerIds().findIndex((id) => sameId(id, pid));
  function nameOf(pid) {
    if (pid === "automa") return tr("automa");
    const seat = ctx.room?.seats?.[pid];
    const player = seat?.player;
    return playerName(player) || seatLabel(playerOf(pid)?.label || seat?.label || `Player ${Number(pid) + 1}`);
  }
  /** The automa's reason (log entries, docs/games/tricky-tactics.md) in the page's language. */
  function reasonText(reason) {
    if (!Array.isArray(reason)) return "";
    return phrase({ key: "log.clauses", params: { clauses: reason } }, logContext(ctx.room, logHooks));
  }
  /** Hooks of the log (static/js/log.js): the automa by name, cards, Locations and suits by symbol. */
  const logHooks = {
    seatName: (seat, name) => (seat === "automa" ? tr("automa") : name),
    cardText: (card) => cardText(String(card)),
    valueText: (name, value) => (name === "location" ? locText(String(value)) : name === "suit" ? SYMBOL[value] : undefined),
  };
  const whoOf = (pid) => (sameId(pid, mySeat) ? tr("you_paren", { name: nameOf(pid) }) : nameOf(pid));
  const cubeLabel = (pid) => (pid === "automa" ? "A" : String(Number(pid) + 1));
  const suitName = (s) => tr(`suit.${s}`);
  const isMyTurnToPlay = () =>
    Boolean(view && !spectator && view.phase === "play" && sameId(view.turn, mySeat) && (lastMsg?.to_act || []).includes(mySeat) && !lastMsg?.outcome);
  const myPendingAction = () =>
    view && !spectator && view.phase === "action" && view.pending_action && sameId(view.pending_action.player, mySeat) && (lastMsg?.to_act || []).includes(mySeat)
      ? view.pending_action
      : null;

  function suitIcon(suit, cls = "") {
    return svg("svg", { class: `tk-suit ${RED.has(suit) ? "tk-red" : "tk-black"} ${cls}`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
      svg("use", { href: `#${uid}-suit-${suit}` }));
  }

  function cube(pid, cls = "") {
    const k = keyOf(pid);
    const s = svg("svg", { viewBox: "0 0 24 24", class: `tk-cube tk-p-${k} ${cls}`, "aria-hidden": "true", focusable: "false" });
    s.append(
      svg("path", { class: "tk-cube-top", d: "M2.5 7.5L7 3H21.5L17 7.5Z" }),
      svg("path", { class: "tk-cube-side", d: "M17 7.5L21.5 3V17L17 21.5Z" }),
      svg("rect", { class: "tk-cube-front", x: 2.5, y: 7.5, width: 14.5, height: 14, rx: 1.4 }),
    );
    if (k !== "0") s.append(svg("rect", { class: "tk-cube-pat", x: 2.5, y: 7.5, width: 14.5, height: 14, rx: 1.4, fill: `url(#${uid}-pat-${k === "a" ? "a" : String(((Number(k) - 1) % 3) + 1)})` }));
    const label = svg("text", { class: "tk-cube-label", x: 9.75, y: 18.4, "text-anchor": "middle" });
    label.textContent = cubeLabel(pid);
    s.append(label);
    return s;
  }

  let faceIds = 0;

  function cardFace(card) {
    const suit = cardSuit(card);
    const rank = cardRank(card);
    const node = svg("svg", { viewBox: "0 0 100 140", class: `tk-card-svg ${RED.has(suit) ? "tk-red" : "tk-black"}`, "aria-hidden": "true", focusable: "false" });
    node.append(svg("rect", { class: "tk-card-face", x: 1, y: 1, width: 98, height: 138, rx: 9 }));
    const use = (x, y, size, rotate = null) => svg("use", { href: `#${uid}-suit-${suit}`, x, y, width: size, height: size, transform: rotate });
    // The rotated corner repeats the first through <use>: the card's visible text is its rank once, as the
    // hand button's accessible name begins (axe: label-content-name-mismatch).
    const id = `${uid}-corner-${(faceIds += 1)}`;
    const g = svg("g", { id });
    const text = svg("text", { class: `tk-card-rank${rank === "10" ? " is-ten" : ""}`, x: 13, y: 25, "text-anchor": "middle" });
    text.textContent = rank;
    g.append(text, use(5.5, 30, 15));
    node.append(g, svg("use", { href: `#${id}`, transform: "rotate(180 50 70)" }));
    if (rank === "A") {
      node.append(use(25, 45, 50));
    } else {
      for (const [col, row] of PIPS[rank] || []) {
        const cx = PIP_X[col];
        const cy = PIP_Y(row);
        node.append(use(cx - 8.5, cy - 8.5, 17, row > 0.5 ? `rotate(180 ${cx} ${cy})` : null));
      }
    }
    return node;
  }

  function cardBack() {
    const node = svg("svg", { viewBox: "0 0 100 140", class: "tk-card-svg tk-back", "aria-hidden": "true", focusable: "false" });
    node.append(
      svg("rect", { class: "tk-back-face", x: 1, y: 1, width: 98, height: 138, rx: 9 }),
      svg("rect", { class: "tk-back-inner", x: 9, y: 9, width: 82, height: 122, rx: 5, fill: `url(#${uid}-back)` }),
      svg("path", { class: "tk-back-emblem", d: "M50 52L64 70L50 88L36 70Z" }),
    );
    return node;
  }

  /** A card as an element (div). */
  function cardEl(card, cls = "", label = null) {
    return el("div", { class: `tk-card ${cls}`, role: "img", "aria-label": label ?? cardText(card), title: cardText(card), dataset: { card } }, cardFace(card));
  }

  function backEl(cls = "") {
    return el("div", { class: `tk-card tk-card-back ${cls}`, "aria-hidden": "true" }, cardBack());
  }

  // ---- events -> feed ------------------------------------------------------------------------
  function eventText(ev) {
    switch (ev.kind) {
      case "deal":
        return tr("ev_deal", { round: ev.round, dealer: whoOf(ev.dealer), leader: whoOf(ev.leader) });
      case "reveal":
        return tr("ev_reveal", { cards: (ev.cards || []).map(cardText).join(" "), row: (ev.row || []).map(cardText).join(" ") });
      case "play":
        if (ev.player === "automa") return tr("ev_automa_play", { card: cardText(ev.card), reason: reasonText(ev.reason) });
        return tr("ev_play", { name: whoOf(ev.player), card: cardText(ev.card) });
      case "trick":
        return tr("ev_trick", { name: whoOf(ev.winner), n: ev.number, card: cardText(ev.card) });
      case "action":
        if (ev.type === "skip") return tr("ev_skip", { name: whoOf(ev.player), reason: reasonText(ev.reason) });
        if (ev.player === "automa" && ev.reason) return tr("ev_automa_action", { reason: reasonText(ev.reason) });
        if (ev.type === "add") return tr("ev_add", { name: whoOf(ev.player), loc: locText(ev.location) });
        return tr("ev_remove", { name: whoOf(ev.player), owner: whoOf(ev.owner), loc: locText(ev.location) });
      case "round_scored":
        return tr("ev_scored", { round: ev.round, points: pointsLine(ev.points) });
      case "round_end": {
        const automaGame = view?.mode === "automa";
        let text = automaGame ? tr("ev_round_end", { n: ev.discarded_unseen }) : ev.discarded_unseen ? tr("ev_round_end_plain", { n: ev.discarded_unseen }) : "";
        if (ev.carryover_discarded?.length) text += ` ${tr("ev_carryover", { cards: ev.carryover_discarded.map(cardText).join(" ") })}`;
        return text.trim() || null;
      }
      case "game_over":
        return view?.standings ? `${finalHeadline(view.standings)} ${finalPoints(view.standings)}` : null;
      default:
        return null;
    }
  }

  function pointsLine(points) {
    return playerIds()
      .map((pid, i) => `${nameOf(pid)} +${points?.[i] ?? 0}`)
      .join(", ");
  }

  function absorbEvents(events) {
    for (const ev of events) {
      const text = eventText(ev);
      if (text) feed.unshift({ text, kind: ev.kind, automa: ev.player === "automa" || (ev.kind === "trick" && ev.winner === "automa"), seq: (feedSeq += 1), fresh: true });
      if (ev.kind === "action" && ev.player === "automa") {
        automaAction = { reason: reasonText(ev.reason), type: ev.type, location: ev.location ?? null };
        automaLatest = "action";
      }
      if (ev.kind === "play" && ev.player === "automa") automaLatest = "play";
      if (ev.kind === "reveal") for (const c of ev.cards || []) flipCards.add(c);
      if (ev.kind === "round_scored") scoringOpenRound = ev.round;
    }
    feed = feed.slice(0, FEED_MAX);
  }

  // ---- status bar ----------------------------------------------------------------------------
  function statusText() {
    if (!view) return "";
    if (view.phase === "over" || lastMsg?.outcome) return tr("status_over");
    const led = view.led_suit;
    if (isMyTurnToPlay()) {
      if (!led) return tr("status_play_lead");
      const canFollow = (view.hand || []).some((c) => cardSuit(c) === led);
      return canFollow ? tr("status_play_follow", { suit: SYMBOL[led] }) : tr("status_play_free", { suit: SYMBOL[led] });
    }
    if (myPendingAction()) return tr("status_action", { suit: `${SYMBOL[view.pending_action.suit]} ${suitName(view.pending_action.suit)}` });
    if (view.phase === "action" && view.pending_action) return tr("status_wait_action", { name: nameOf(view.pending_action.player) });
    if (view.turn !== null && view.turn !== undefined) return tr("status_wait_play", { name: nameOf(view.turn) });
    return "";
  }

  function trickNumber() {
    const done = (view.tricks || []).length;
    if (view.phase === "action") return done;
    return Math.min(done + 1, view.tricks_per_round || done + 1);
  }

  function drawBar() {
    const myMove = isMyTurnToPlay() || Boolean(myPendingAction());
    const chips = [
      el("span", { class: "tk-chip" }, tr("round", { n: view.round, total: view.rounds })),
      view.phase !== "over" ? el("span", { class: "tk-chip" }, tr("trick_n", { n: trickNumber(), total: view.tricks_per_round })) : null,
      view.set_aside ? el("span", { class: "tk-chip tk-chip-muted" }, tr("set_aside", { n: view.set_aside })) : null,
    ];
    const status = el("p", { class: ["tk-status", myMove && "is-you"], role: "status" }, statusText());
    const parts = [status, el("div", { class: "tk-chips" }, chips)];
    if (spectator) parts.push(el("p", { class: "tk-spectating muted small" }, tr("spectating")));
    put(bar, ...parts);
    bar.classList.toggle("is-you", myMove);
  }

  function drawBanner() {
    const s = view.last_scoring;
    const fresh = s && view.phase !== "over" && s.round === view.round - 1 && (view.tricks || []).length === 0;
    if (!fresh) {
      banner.hidden = true;
      banner.replaceChildren();
      return;
    }
    banner.hidden = false;
    put(banner,
      el("span", { class: "tk-banner-text" }, tr("scored_banner", { round: s.round, points: pointsLine(s.points) })),
      el("button", {
        type: "button",
        class: "btn btn-secondary btn-sm tk-banner-btn",
        dataset: { focus: "banner-btn" },
        onclick: () => {
          scoringPanel.open = true;
          scoringPanel.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
        },
      }, tr("show_scoring")),
    );
  }

  // ---- players -------------------------------------------------------------------------------
  function drawPlayers() {
    const prevScores = new Map((prevView?.players || []).map((p) => [String(p.id), p.score]));
    const items = view.players.map((p) => {
      const turn = view.phase !== "over" && (sameId(view.turn, p.id) || (view.phase === "action" && sameId(view.pending_action?.player, p.id)));
      const bumped = prevScores.has(String(p.id)) && prevScores.get(String(p.id)) !== p.score && !reducedMotion();
      const tags = [];
      if (sameId(view.dealer, p.id)) tags.push(el("span", { class: "tk-tag" }, tr("dealer")));
      if (view.phase !== "over" && sameId(view.leader, p.id)) tags.push(el("span", { class: "tk-tag tk-tag-lead" }, tr("leads")));
      return el(
        "li",
        { class: ["tk-player", `tk-p-${keyOf(p.id)}`, turn && "is-turn", sameId(p.id, mySeat) && "is-me"], dataset: { player: String(p.id) } },
        el("span", { class: "tk-player-cube" }, cube(p.id, "tk-cube-lg")),
        el("span", { class: "tk-player-main" },
          el("span", { class: "tk-player-name" }, turn ? el("span", { class: "tk-turn-dot", "aria-hidden": "true" }, "▶") : null, whoOf(p.id), ...tags),
          el("span", { class: "tk-player-stats" },
            el("span", { class: "tk-stat-supply" }, cube(p.id), tr("supply", { n: p.supply })),
            el("span", {}, tr("on_map", { n: p.on_map })),
            el("span", {}, tr("cards", { n: p.hand_size })),
            el("span", {}, tr("tricks", { n: p.tricks_won })))),
        el("span", { class: ["tk-player-score", bumped && "tk-bump"], "aria-label": tr("score_label", { n: p.score }) }, String(p.score)),
      );
    });
    put(players, ...items);
  }

  // ---- the table (trick by seat) -------------------------------------------------------------
  function positions() {
    const ids = playerIds();
    const n = ids.length;
    const start = spectator ? 0 : Math.max(0, ids.findIndex((id) => sameId(id, mySeat)));
    const names = n === 4 ? ["bottom", "left", "top", "right"] : n === 3 ? ["bottom", "left", "right"] : ["bottom", "top"];
    const out = new Map();
    for (let k = 0; k < n; k += 1) out.set(String(ids[(start + k) % n]), names[k]);
    return out;
  }

  /** What the table shows: the held finished trick, the trick in progress, or the last finished one. */
  function displayedTrick() {
    if (hold) return { ...hold, complete: true, faded: false };
    if ((view.trick || []).length) {
      return { cards: view.trick, leader: view.leader, led: view.led_suit, complete: false, number: trickNumber() };
    }
    const t = view.phase === "action" ? view.tricks?.[view.tricks.length - 1] : view.last_trick;
    if (t) {
      const winnerCard = t.cards.find((c) => sameId(c.player, t.winner))?.card;
      return { cards: t.cards, leader: t.leader, led: cardSuit(t.cards[0].card), winner: t.winner, card: winnerCard, action: t.action, complete: true, faded: view.phase !== "action", number: view.phase === "action" ? view.tricks.length : null };
    }
    return { cards: [], leader: view.leader, led: null, complete: false, number: trickNumber() };
  }

  function drawTable() {
    const pos = positions();
    const shown = displayedTrick();
    const animate = !reducedMotion() && !firstUpdate;
    const newKeys = new Set();
    const slots = [];
    for (const pid of playerIds()) {
      const where = pos.get(String(pid));
      const entry = shown.cards.find((c) => sameId(c.player, pid));
      const isTurn = !shown.complete && view.phase === "play" && sameId(view.turn, pid);
      const isLeader = sameId(shown.leader, pid);
      const winner = shown.complete && sameId(shown.winner, pid);
      let holder;
      if (entry) {
        const key = `${entry.player}:${entry.card}`;
        newKeys.add(key);
        const fresh = animate && !shownTrickKeys.has(key);
        const label = `${whoOf(pid)}: ${cardText(entry.card)}${entry.reason ? ` (${reasonText(entry.reason)})` : ""}`;
        holder = cardEl(entry.card, [fresh && `tk-from-${where}`, winner && "is-winner", shown.complete && !winner && "is-beaten"].filter(Boolean).join(" "), label);
        if (winner) holder.append(el("span", { class: "tk-win-ribbon" }, "★"));
      } else {
        holder = el("div", { class: ["tk-slot-empty", isTurn && "is-turn"], "aria-label": isTurn ? `${whoOf(pid)} ${tr("to_play")}` : `${whoOf(pid)}: ${tr("empty_slot")}` },
          isTurn ? el("span", { class: "tk-slot-dots" }, tr("to_play")) : null);
      }
      const p = playerOf(pid);
      const others = !sameId(pid, mySeat) && p;
      const plate = el("div", { class: "tk-plate" },
        cube(pid),
        el("span", { class: "tk-plate-name" }, whoOf(pid)),
        isLeader ? el("span", { class: "tk-tag tk-tag-lead" }, tr("leads")) : null,
        others ? el("span", { class: "tk-plate-hand", title: tr("cards", { n: p.hand_size }), "aria-label": tr("cards", { n: p.hand_size }) }, el("span", { class: "tk-mini-back", "aria-hidden": "true" }), String(p.hand_size)) : null);
      slots.push(el("div", { class: ["tk-seat", `tk-pos-${where}`, isTurn && "is-turn", winner && "is-winner"], dataset: { player: String(pid) } }, plate, holder));
    }
    shownTrickKeys = newKeys;

    const centre = el("div", { class: "tk-centre" });
    if (shown.led && !shown.complete) {
      centre.append(el("div", { class: "tk-led" }, suitIcon(shown.led, "tk-led-icon"), el("span", {}, tr("led", { suit: suitName(shown.led) }))));
    }
    if (shown.number) centre.append(el("div", { class: "tk-trickno muted small" }, tr("trick_n", { n: shown.number, total: view.tricks_per_round })));
    if (shown.complete && shown.winner !== undefined && shown.card) {
      const line = [el("strong", {}, tr("wins_with", { name: whoOf(shown.winner), card: cardText(shown.card) }))];
      const a = shown.action;
      if (a) line.push(el("span", { class: "tk-centre-action" }, actionText(a, true)));
      centre.append(el("div", { class: ["tk-won", shown.faded && "is-faded"] }, line));
    }
    const lastLine = drawLastTrickLine(shown);
    put(table,
      el("h3", { class: "visually-hidden", id: `${uid}-table-title` }, tr("trick_n", { n: trickNumber(), total: view.tricks_per_round })),
      el("div", { class: `tk-felt tk-n${playerIds().length}` }, ...slots, centre),
      ...(lastLine ? [lastLine] : []),
    );
  }

  function actionText(a, short = false) {
    if (a.type === "skip") return reasonText(a.reason);
    if (a.player === "automa" && a.reason && !short) return reasonText(a.reason);
    if (a.type === "add") return tr("short_add", { name: nameOf(a.player), loc: locText(a.location) });
    return tr("short_remove", { name: nameOf(a.player), owner: nameOf(a.owner), loc: locText(a.location) });
  }

  /** The previous finished trick in small, when the table already shows a newer one. */
  function drawLastTrickLine(shown) {
    const t = view.last_trick;
    if (!t || shown === null || hold) return null;
    if (!(view.trick || []).length && view.phase !== "action") return null; // the table shows it already
    const win = t.cards.find((c) => sameId(c.player, t.winner));
    return el("div", { class: "tk-lasttrick" },
      el("span", { class: "tk-lasttrick-title" }, tr("last_trick")),
      el("span", { class: "tk-lasttrick-cards" }, t.cards.map((c) => cardEl(c.card, ["tk-card-xs", sameId(c.player, t.winner) && "is-winner"].filter(Boolean).join(" "), `${nameOf(c.player)}: ${cardText(c.card)}`))),
      el("span", { class: "tk-lasttrick-text" }, tr("last_trick_line", { name: whoOf(t.winner), card: win ? cardText(win.card) : "" }), t.action ? ` · ${actionText(t.action)}` : ""));
  }

  // ---- the automa ----------------------------------------------------------------------------
  function drawAutoma() {
    const a = view.automa;
    if (!a) {
      automaPanel.hidden = true;
      return;
    }
    automaPanel.hidden = false;
    const p = playerOf("automa");
    const deckCount = a.unrevealed ?? 0;
    const stack = el("div", { class: "tk-deck", "aria-label": tr("automa_face_down", { n: deckCount }) },
      el("div", { class: "tk-deck-stack" }, ...Array.from({ length: Math.min(3, Math.max(deckCount, 0)) }, (_, i) => backEl(`tk-deck-${i}`)),
        deckCount === 0 ? el("div", { class: "tk-slot-empty tk-deck-empty" }) : null),
      el("span", { class: "tk-deck-count" }, tr("automa_face_down", { n: deckCount })));
    const row = a.row || [];
    const slot = (card, label, hint) =>
      el("div", { class: "tk-row-slot" },
        card ? cardEl(card, flipCards.has(card) && !reducedMotion() ? "tk-flip" : "", `${label}: ${cardText(card)}`) : el("div", { class: "tk-slot-empty tk-row-hidden", "aria-label": `${label}: ${hint}` }, el("span", {}, "?")),
        el("span", { class: "tk-row-label" }, label));
    const hiddenHint = row.length ? tr("automa_hidden_next") : tr("automa_row_empty");
    const rowEl = el("div", { class: "tk-reveal", role: "group", "aria-label": tr("automa_row") },
      el("span", { class: "tk-reveal-title" }, tr("automa_row")),
      el("div", { class: "tk-reveal-slots" }, slot(row[0], tr("left"), hiddenHint), slot(row[1], tr("right"), hiddenHint)));

    const lines = [];
    if (a.last_card) {
      const chose = (a.last_row || []).map((c) => cardEl(c, ["tk-card-xs", c === a.last_card && "is-played"].filter(Boolean).join(" "), cardText(c)));
      lines.push(el("li", { class: ["tk-reason", automaLatest === "play" && "is-latest"], dataset: { kind: "play" } },
        el("span", { class: "tk-reason-head" }, tr("automa_played", { card: cardText(a.last_card) })),
        el("span", { class: "tk-reason-text" }, reasonText(a.last_reason)),
        chose.length ? el("span", { class: "tk-reason-row" }, el("span", { class: "muted small" }, tr("automa_chose_from")), chose) : null));
    }
    const action = latestAutomaAction();
    if (action) {
      lines.push(el("li", { class: ["tk-reason", automaLatest === "action" && "is-latest"], dataset: { kind: "action" } },
        el("span", { class: "tk-reason-head" }, tr("automa_action")),
        el("span", { class: "tk-reason-text" }, action.reason)));
    }
    if (!lines.length) lines.push(el("li", { class: "tk-reason muted" }, tr("automa_waiting")));
    put(automaPanel,
      el("h3", { class: "tk-h tk-automa-title", id: `${uid}-automa-title` }, cube("automa"), el("span", {}, tr("automa")), el("span", { class: "tk-automa-score" }, tr("pts", { n: p?.score ?? 0 }))),
      el("div", { class: "tk-automa-cards" }, stack, rowEl),
      el("ul", { class: "tk-speech" }, lines),
    );
    flipCards = new Set();
  }

  function latestAutomaAction() {
    const mine = [...(view.tricks || [])].reverse().find((t) => t.action && t.action.player === "automa");
    if (mine) return { reason: actionText(mine.action) };
    return automaAction;
  }

  // ---- the hand ------------------------------------------------------------------------------
  function drawHand() {
    if (spectator || view.phase === "over") {
      handPanel.hidden = true;
      return;
    }
    handPanel.hidden = false;
    const hand = view.hand || [];
    const myTurn = isMyTurnToPlay();
    const playable = new Set(myTurn ? view.playable || [] : []);
    const led = view.led_suit;
    let hint;
    if (!hand.length) hint = tr("hand_empty");
    else if (!myTurn) hint = tr("hand_hint_wait");
    else if (led && hand.some((c) => cardSuit(c) === led)) hint = tr("hand_hint_follow", { suit: SYMBOL[led] });
    else hint = tr("hand_hint_any");
    if (!hand.includes(handFocus)) handFocus = hand.find((c) => playable.has(c)) ?? hand[0] ?? null;
    if (myTurn && !playable.has(handFocus) && !handPanel.contains(document.activeElement)) handFocus = hand.find((c) => playable.has(c)) ?? handFocus;
    const groups = [];
    for (const s of SUITS) {
      const cards = hand.filter((c) => cardSuit(c) === s);
      if (!cards.length) continue;
      groups.push(el("div", { class: "tk-suit-group", dataset: { suit: s } },
        cards.map((c) => {
          const ok = playable.has(c) && !pending;
          return el("button", {
            type: "button",
            class: ["tk-hand-card", ok && "is-playable", myTurn && !playable.has(c) && "is-blocked"],
            "aria-disabled": ok ? "false" : "true",
            "aria-label": ok ? tr("card_playable", { card: cardText(c) }) : tr("card_unplayable", { card: cardText(c) }),
            tabindex: c === handFocus ? "0" : "-1",
            dataset: { card: c, focus: `card-${c}` },
            onclick: () => playCard(c),
          }, el("span", { class: "tk-hand-inner" }, cardFace(c)));
        })));
    }
    put(handPanel,
      el("div", { class: "tk-hand-head" },
        el("h3", { class: "tk-h", id: `${uid}-hand-title` }, tr("hand_title"), el("span", { class: "tk-count" }, tr("hand_count", { n: hand.length }))),
        el("p", { class: ["tk-hand-hint", myTurn && "is-you"] }, hint)),
      el("div", { class: ["tk-hand", myTurn && "is-my-turn", pending && "is-busy"], role: "group", "aria-label": tr("hand_label"), "aria-describedby": `${uid}-hand-title` }, groups),
    );
  }

  function playCard(card) {
    if (pending || !isMyTurnToPlay() || !(view.playable || []).includes(card)) return;
    submit({ type: "play", card });
  }

  function submit(action) {
    pending = true;
    render();
    Promise.resolve()
      .then(() => ctx.act(action))
      .catch(() => {})
      .finally(() => {
        pending = false;
        render();
      });
  }

  // ---- the Action chooser --------------------------------------------------------------------
  function drawAction() {
    const pa = myPendingAction();
    if (!pa) {
      actionPanel.hidden = true;
      actionPanel.replaceChildren();
      mode = null;
      modeFor = "";
      return;
    }
    const adds = pa.add || [];
    const removes = pa.remove || [];
    const key = `${view.round}|${(view.tricks || []).length}`;
    if (modeFor !== key || (mode === "add" && !adds.length) || (mode === "remove" && !removes.length)) {
      mode = adds.length ? "add" : "remove";
      modeFor = key;
    }
    const suit = pa.suit;
    const modeBtn = (m, count, label, none) =>
      el("button", {
        type: "button",
        class: ["tk-mode", mode === m && "is-on"],
        role: "radio",
        "aria-checked": mode === m ? "true" : "false",
        disabled: !count || pending,
        dataset: { mode: m, focus: `mode-${m}` },
        onclick: () => {
          mode = m;
          render();
        },
      }, el("span", { class: "tk-mode-icon", "aria-hidden": "true" }, m === "add" ? "+" : "−"), count ? label : none);
    const targets = (mode === "add" ? adds.map((loc) => ({ type: "add", location: loc })) : removes.map((r) => ({ type: "remove", location: r.location, owner: r.owner })));
    const buttons = targets.map((a) => {
      const loc = findLoc(a.location);
      const text = a.type === "add" ? tr("add_to", { loc: locText(a.location) }) : tr("remove_from", { owner: nameOf(a.owner), loc: locText(a.location) });
      return el("button", {
        type: "button",
        class: ["btn", a.type === "add" ? "btn-primary" : "btn-secondary", "tk-target"],
        disabled: pending,
        dataset: { type: a.type, location: a.location, owner: a.owner === undefined ? null : String(a.owner), focus: `target-${a.type}-${a.location}-${a.owner ?? ""}` },
        onclick: () => submit(a),
        onmouseenter: () => highlightLoc(a.location, true),
        onmouseleave: () => highlightLoc(a.location, false),
        onfocus: () => highlightLoc(a.location, true),
        onblur: () => highlightLoc(a.location, false),
      },
      a.type === "add" ? cube(mySeat) : cube(a.owner),
      el("span", {}, text),
      loc ? el("span", { class: "tk-target-value" }, tr("pts", { n: loc.value })) : null);
    });
    actionPanel.hidden = false;
    put(actionPanel,
      el("h3", { class: "tk-h", id: `${uid}-action-title` }, suitIcon(suit), tr("action_title", { suit: suitName(suit) })),
      el("p", { class: "tk-action-hint" }, tr("action_hint", { suit: SYMBOL[suit] })),
      el("div", { class: "tk-modes", role: "radiogroup", "aria-label": tr("action_title", { suit: suitName(suit) }) },
        modeBtn("add", adds.length, tr("mode_add"), tr("mode_add_none")),
        modeBtn("remove", removes.length, tr("mode_remove"), tr("mode_remove_none"))),
      el("div", { class: "tk-targets" }, buttons),
    );
  }

  function findLoc(id) {
    for (const area of view.map || []) for (const loc of area.locations) if (loc.id === id) return loc;
    return null;
  }

  function highlightLoc(id, on) {
    mapPanel.querySelector(`[data-loc="${id}"]`)?.classList.toggle("is-hover", on);
  }

  // ---- the map -------------------------------------------------------------------------------
  function drawMap() {
    const pa = myPendingAction();
    const ids = playerIds();
    const prevCubes = new Map();
    for (const area of prevView?.map || []) for (const loc of area.locations) prevCubes.set(loc.id, loc.cubes);
    const animate = !reducedMotion() && !firstUpdate;
    const addSet = new Set(pa && mode === "add" ? pa.add : []);
    const removeMap = new Map();
    if (pa && mode === "remove") for (const r of pa.remove) removeMap.set(`${r.location}|${r.owner}`, r);
    const areas = (view.map || []).map((area) => {
      const pendingHere = view.phase === "action" && view.pending_action?.suit === area.suit;
      const rows = area.locations.map((loc) => {
        const before = prevCubes.get(loc.id) || loc.cubes;
        const lost = animate && loc.cubes.some((c, i) => c < (before[i] ?? 0));
        const groups = [];
        const described = [];
        loc.cubes.forEach((count, i) => {
          if (!count) return;
          const pid = ids[i];
          described.push(tr("cube_count", { name: nameOf(pid), n: count }));
          const added = animate ? Math.max(0, count - (before[i] ?? 0)) : 0;
          const cubes = [];
          if (count <= 4) {
            for (let k = 0; k < count; k += 1) cubes.push(cube(pid, k >= count - added ? "tk-cube-new" : ""));
          } else {
            cubes.push(cube(pid, added ? "tk-cube-new" : ""), el("span", { class: "tk-cube-x" }, `×${count}`));
          }
          const target = removeMap.get(`${loc.id}|${pid}`);
          if (target) {
            groups.push(el("button", {
              type: "button",
              class: "tk-cube-group tk-cube-hit",
              title: tr("remove_from", { owner: nameOf(pid), loc: locText(loc.id) }),
              "aria-label": tr("remove_from", { owner: nameOf(pid), loc: locText(loc.id) }),
              disabled: pending,
              dataset: { focus: `maprm-${loc.id}-${pid}` },
              onclick: () => submit({ type: "remove", location: loc.id, owner: target.owner }),
            }, cubes));
          } else {
            groups.push(el("span", { class: "tk-cube-group", title: tr("cube_count", { name: nameOf(pid), n: count }) }, cubes));
          }
        });
        const ctl = loc.controller;
        const tied = ctl === null && loc.total > 0;
        const ctlText = ctl !== null && ctl !== undefined ? tr("loc_ctl", { name: nameOf(ctl) }) : tied ? tr("loc_tied") : tr("loc_empty");
        const label = tr("loc_label", { loc: locText(loc.id), value: tr("pts", { n: loc.value }), cubes: described.join(", ") || tr("loc_cubes_none"), ctl: ctlText });
        const canAdd = addSet.has(loc.id);
        return el("li", {
          class: ["tk-loc", ctl !== null && ctl !== undefined && `tk-ctl-${keyOf(ctl)}`, tied && "is-tied", lost && "tk-loc-hit", (canAdd || [...removeMap.keys()].some((k) => k.startsWith(`${loc.id}|`))) && "is-target"],
          dataset: { loc: loc.id },
        },
        el("span", { class: "visually-hidden" }, label),
        el("span", { class: `tk-face ${RED.has(area.suit) ? "tk-red" : "tk-black"}`, "aria-hidden": "true" },
          el("span", { class: "tk-face-rank" }, loc.rank), suitIcon(area.suit, "tk-face-suit"), el("span", { class: "tk-face-value" }, String(loc.value))),
        el("span", { class: "tk-loc-cubes", "aria-hidden": removeMap.size ? null : "true" }, groups.length ? groups : el("span", { class: "tk-loc-none" }, "·")),
        canAdd
          ? el("button", {
            type: "button",
            class: "tk-add-here",
            disabled: pending,
            "aria-label": tr("add_to", { loc: locText(loc.id) }),
            dataset: { focus: `mapadd-${loc.id}` },
            onclick: () => submit({ type: "add", location: loc.id }),
          }, "+", cube(mySeat))
          : el("span", { class: "tk-loc-ctl", "aria-hidden": "true", title: ctlText },
            ctl !== null && ctl !== undefined ? [el("span", { class: "tk-crown" }, "♛"), cube(ctl)] : tied ? el("span", { class: "tk-tie" }, "=") : null));
      });
      const whole = area.controller;
      return el("div", { class: ["tk-area", pendingHere && "is-pending", whole !== null && whole !== undefined && `tk-whole-${keyOf(whole)}`], dataset: { suit: area.suit } },
        el("div", { class: "tk-area-head" },
          suitIcon(area.suit, "tk-area-suit"),
          el("span", { class: "tk-area-name" }, suitName(area.suit)),
          whole !== null && whole !== undefined && view.area_bonus
            ? el("span", { class: "tk-area-holder", title: tr("area_holds", { name: nameOf(whole), n: view.area_bonus }) }, cube(whole), `+${view.area_bonus}`)
            : null),
        el("ul", { class: "tk-locs" }, rows));
    });
    const legend = [tr("map_legend", { k: view.values?.K ?? 3, q: view.values?.Q ?? 2, j: view.values?.J ?? 1 })];
    if (view.area_bonus) legend.push(tr("map_bonus", { n: view.area_bonus }));
    put(mapPanel,
      el("div", { class: "tk-map-head" },
        el("h3", { class: "tk-h", id: `${uid}-map-title` }, tr("map_title")),
        el("p", { class: "tk-map-legend muted small" }, legend.join(" · ")),
        el("ul", { class: "tk-key", "aria-label": tr("cubes_key") }, ids.map((pid) => el("li", {}, cube(pid), el("span", {}, whoOf(pid)))))),
      el("div", { class: "tk-map" }, areas),
    );
  }

  // ---- scoring -------------------------------------------------------------------------------
  function drawScoring() {
    const s = view.last_scoring;
    if (!s) {
      scoringPanel.hidden = true;
      scoringPanel.replaceChildren();
      byRound.replaceChildren();
      return;
    }
    const ids = playerIds();
    const wasOpen = scoringPanel.open;
    const areas = SUITS.map((suit) => {
      const locs = s.locations.filter((l) => l.location[1] === suit);
      const bonus = (s.area_bonuses || []).find((b) => b.suit === suit);
      return el("div", { class: "tk-score-area" },
        el("div", { class: "tk-score-area-head" }, suitIcon(suit), suitName(suit)),
        el("table", { class: "tk-score-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, tr("scoring_loc")), el("th", { scope: "col" }, tr("scoring_cubes")), el("th", { scope: "col" }, tr("scoring_to")))),
          el("tbody", {},
            locs.map((l) =>
              el("tr", { class: l.controller !== null ? "is-scored" : "" },
                el("th", { scope: "row" }, locText(l.location)),
                el("td", {}, l.cubes.some((c) => c) ? l.cubes.map((c, i) => (c ? el("span", { class: "tk-sc-cubes" }, cube(ids[i]), String(c)) : null)) : el("span", { class: "muted" }, "—")),
                el("td", {}, l.controller !== null && l.controller !== undefined
                  ? el("span", { class: "tk-sc-to" }, cube(l.controller), `${nameOf(l.controller)} +${l.points}`)
                  : el("span", { class: "muted" }, l.cubes.some((c) => c) ? `${tr("tied")}: ${tr("scoring_nobody")}` : tr("scoring_nobody"))))),
            bonus ? el("tr", { class: "tk-sc-bonus" }, el("td", { colspan: 3 }, "★ ", tr("scoring_bonus", { suit: SYMBOL[suit], name: nameOf(bonus.player), n: bonus.points }))) : null)));
    });
    const totals = el("div", scrollRegion(tr("scoring_total")), el("table", { class: "tk-score-totals" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, tr("scoring_player")), el("th", { scope: "col" }, tr("scoring_round")), el("th", { scope: "col" }, tr("scoring_controlled")), el("th", { scope: "col" }, tr("scoring_total")))),
      el("tbody", {}, ids.map((pid, i) =>
        el("tr", {}, el("th", { scope: "row" }, el("span", { class: "tk-sc-to" }, cube(pid), whoOf(pid))), el("td", {}, `+${s.points?.[i] ?? 0}`), el("td", {}, String(s.controlled?.[i] ?? 0)), el("td", {}, el("strong", {}, String(s.totals?.[i] ?? 0))))))));
    scoringPanel.hidden = false;
    put(scoringPanel,
      el("summary", { class: "tk-scoring-summary", dataset: { focus: "scoring-summary" } }, el("span", { class: "tk-h" }, tr("scoring_title", { round: s.round })), el("span", { class: "muted small" }, pointsLine(s.points))),
      el("div", { class: "tk-score-areas" }, areas),
      totals,
    );
    if (scoringOpenRound === s.round) {
      scoringPanel.open = true;
      scoringOpenRound = null;
    } else {
      scoringPanel.open = wasOpen;
    }
    const rp = view.round_points || [];
    if (rp.length > 0) {
      put(byRound,
        el("div", scrollRegion(tr("by_round")), el("table", { class: "tk-byround-table" },
          el("caption", {}, tr("by_round")),
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, tr("scoring_player")), rp.map((_, r) => el("th", { scope: "col" }, tr("round_short", { n: r + 1 }))), el("th", { scope: "col" }, tr("scoring_total")))),
          el("tbody", {}, ids.map((pid, i) => el("tr", {}, el("th", { scope: "row" }, el("span", { class: "tk-sc-to" }, cube(pid), whoOf(pid))), rp.map((pts) => el("td", {}, String(pts[i] ?? 0))), el("td", {}, el("strong", {}, String(playerOf(pid)?.score ?? 0)))))))));
    } else {
      byRound.replaceChildren();
    }
  }

  // ---- the final result ----------------------------------------------------------------------
  const ranked = (st) => [...st].sort((a, b) => a.place - b.place || indexOf(a.player) - indexOf(b.player));

  function finalHeadline(st) {
    const first = ranked(st).filter((s) => s.place === 0).map((s) => s.player);
    if (first.length > 1) return tr("final_share", { names: first.map(whoOf).join(tr("and")) });
    if (first[0] === "automa") return tr("final_automa");
    if (sameId(first[0], mySeat)) return tr("final_you_win");
    return tr("final_win", { name: nameOf(first[0]) });
  }

  function finalPoints(st) {
    return tr("final_points_line", { scores: ranked(st).map((s) => `${nameOf(s.player)} ${s.points}`).join(", ") });
  }

  function drawFinal() {
    const st = view.standings;
    if (view.phase !== "over" || !Array.isArray(st)) {
      finalPanel.hidden = true;
      finalPanel.replaceChildren();
      return;
    }
    const order = ranked(st);
    const headline = finalHeadline(st);
    const why = (s) => {
      const same = order.filter((o) => o !== s && o.points === s.points);
      if (!same.length) return "";
      if (same.some((o) => o.controlled === s.controlled && o.on_map === s.on_map)) return tr("final_shared");
      if (same.every((o) => o.controlled !== s.controlled) && same.some((o) => o.controlled < s.controlled)) return tr("final_by_ctl");
      if (same.some((o) => o.controlled === s.controlled && o.on_map < s.on_map)) return tr("final_by_map");
      return "";
    };
    finalPanel.hidden = false;
    put(finalPanel,
      el("p", { class: "tk-final-kicker" }, tr("final_title")),
      el("h3", { class: "tk-final-title", id: `${uid}-final-title` }, headline),
      el("p", { class: "tk-final-summary" }, finalPoints(st)),
      el("div", scrollRegion(tr("final_title")), el("table", { class: "tk-final-table" },
        el("thead", {}, el("tr", {},
          el("th", { scope: "col", "aria-label": tr("final_place"), title: tr("final_place") }, "#"), el("th", { scope: "col" }, tr("scoring_player")), el("th", { scope: "col" }, tr("final_points")),
          el("th", { scope: "col" }, tr("final_controlled")), el("th", { scope: "col" }, tr("final_on_map")))),
        el("tbody", {}, order.map((s) =>
          el("tr", { class: s.place === 0 ? "is-first" : "" },
            el("td", {}, el("span", { class: "tk-place" }, String(s.place + 1))),
            el("th", { scope: "row" }, el("span", { class: "tk-sc-to" }, cube(s.player), whoOf(s.player)), why(s) ? el("span", { class: "tk-why muted small" }, why(s)) : null),
            el("td", {}, el("strong", {}, String(s.points))),
            el("td", {}, String(s.controlled)),
            el("td", {}, String(s.on_map))))))),
      el("p", { class: "muted small" }, tr("final_tiebreak")),
    );
  }

  // ---- feed and summary ----------------------------------------------------------------------
  function drawFeed() {
    if (!feed.length) {
      if (!feedList.querySelector(".tk-feed-empty")) put(feedList, el("li", { class: "muted tk-feed-empty" }, tr("feed_empty")));
      return;
    }
    feedList.querySelector(".tk-feed-empty")?.remove();
    // Prepend only what is new (newest first), so screen readers announce just the additions.
    const fresh = feed.filter((f) => f.fresh).reverse();
    for (const f of fresh) {
      feedList.prepend(el("li", { class: [`tk-ev-${f.kind}`, f.automa && "is-automa", !reducedMotion() && "is-fresh"] }, f.text));
      f.fresh = false;
    }
    while (feedList.children.length > FEED_MAX) feedList.lastElementChild.remove();
    for (const li of [...feedList.children].slice(fresh.length)) li.classList.remove("is-fresh");
  }

  function drawSummary() {
    const bits = [];
    bits.push(tr("summary_scores", { scores: view.players.map((p) => `${nameOf(p.id)} ${p.score}`).join(", ") }));
    const st = statusText();
    if (st) bits.push(tr("summary_turn", { status: st }));
    if ((view.trick || []).length) bits.push(tr("summary_trick", { cards: view.trick.map((c) => `${nameOf(c.player)} ${cardText(c.card)}`).join(", ") }));
    if (view.automa?.row?.length) bits.push(tr("summary_row", { cards: view.automa.row.map(cardText).join(" ") }));
    if (!spectator && (view.hand || []).length) bits.push(tr("summary_hand", { cards: view.hand.map(cardText).join(" ") }));
    summary.textContent = bits.join(" ");
  }

  // ---- render --------------------------------------------------------------------------------
  function render() {
    if (!view) return;
    const active = document.activeElement;
    const focusKey = container.contains(active) ? active?.dataset?.focus : null;
    drawBar();
    drawFinal();
    drawBanner();
    drawPlayers();
    drawTable();
    drawAutoma();
    drawAction();
    drawHand();
    drawMap();
    drawScoring();
    drawFeed();
    drawSummary();
    container.classList.toggle("is-busy", pending);
    if (focusKey) {
      const again = container.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
      else if (focusKey.startsWith("card-") || focusKey.startsWith("target-") || focusKey.startsWith("map")) {
        const next = container.querySelector(".tk-hand-card.is-playable") || container.querySelector(".tk-target") || container.querySelector(".tk-hand-card[tabindex='0']");
        next?.focus({ preventScroll: true });
      }
    }
  }

  // ---- keyboard: arrows move along the hand (roving tabindex) ---------------------------------
  handPanel.addEventListener("keydown", (event) => {
    const btn = event.target.closest?.(".tk-hand-card");
    if (!btn) return;
    const cards = [...handPanel.querySelectorAll(".tk-hand-card")];
    const i = cards.indexOf(btn);
    let j = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (event.key === "Home") j = 0;
    else if (event.key === "End") j = cards.length - 1;
    if (j === null) return;
    event.preventDefault();
    for (const c of cards) c.setAttribute("tabindex", "-1");
    cards[j].setAttribute("tabindex", "0");
    handFocus = cards[j].dataset.card;
    cards[j].focus();
  });
  handPanel.addEventListener("focusin", (event) => {
    const btn = event.target.closest?.(".tk-hand-card");
    if (btn) handFocus = btn.dataset.card;
  });

  /** The trick finished (and acted on) in this update, as the table draws it; null if none. */
  function finishedTrick(events) {
    const action = events.find((e) => e.kind === "action") || null;
    const done = events.find((e) => e.kind === "trick");
    if (done) return { cards: done.cards, leader: done.cards[0]?.player, led: done.led, winner: done.winner, card: done.card, action, number: done.number };
    const before = prevView?.phase === "action" ? prevView.tricks?.[prevView.tricks.length - 1] : null;
    if (!action || !before) return null;
    const card = before.cards.find((c) => sameId(c.player, before.winner))?.card;
    return { cards: before.cards, leader: before.leader, led: cardSuit(before.cards[0].card), winner: before.winner, card, action, number: prevView.tricks.length };
  }

  // ---- the renderer contract -----------------------------------------------------------------
  return {
    // The final table (drawFinal) lists every place, the automa's too: the room's result panel leaves out
    // its own list of seats and the game's heading is not shown twice (tricky-tactics.css).
    ownsStandings: true,
    update(msg) {
      if (!msg || !msg.view || !Array.isArray(msg.view.players)) return;
      prevView = view;
      lastMsg = msg;
      view = msg.view;
      const events = Array.isArray(msg.events) ? msg.events : [];
      absorbEvents(events);
      // A trick that finished in this update but is already off the table: keep it visible a moment.
      // (The trick comes from this update's events, or from the previous view when only its Action is new.)
      const done = finishedTrick(events);
      const tableShowsIt = view.phase === "action" || ((view.trick || []).length === 0 && view.last_trick);
      if (done && !firstUpdate && !tableShowsIt && view.phase !== "over") {
        hold = done;
        clearTimeout(holdTimer);
        holdTimer = setTimeout(() => {
          hold = null;
          render();
        }, TRICK_HOLD_MS);
      }
      if (view.phase === "over") {
        hold = null;
        clearTimeout(holdTimer);
      }
      render();
      firstUpdate = false;
    },
    destroy() {
      clearTimeout(holdTimer);
      container.remove();
    },
    /** Optional hook used by the room page: the cube shown beside each seat. */
    seatBadge(seat) {
      const wrap = el("span", { class: "tk-badge-wrap", title: cubeLabel(seat) });
      wrap.append(cube(seat, "tk-cube-lg"));
      // The badge lives outside the renderer's container: it needs the pattern defs, so inline a copy.
      return wrap;
    },
    ...logHooks,
  };
}
