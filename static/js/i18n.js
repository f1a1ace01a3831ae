// Tiny translation layer: every user-visible string in the browser goes through t().
// Two languages: English (en) and French (fr). Missing keys fall back to English, then to the key;
// tests/app/test_i18n_catalogues.py fails on any English key that French lacks or leaves untranslated.
// Placeholders: t("room.waiting_players", {n: 2}) replaces "{n}".

const en = {
  // generic
  "common.close": "Close",
  "common.yes": "Yes",
  "common.no": "No",
  "common.you": "you",
  "common.on": "on",
  "common.off": "off",
  "common.loading": "Loading…",
  "common.error": "Something went wrong.",
  "common.network": "Could not reach the server. Check your connection and try again.",

  // identity
  "me.save": "Save name",
  "me.saved": "Name saved. Hi, {name}!",
  "me.empty": "Please type a name first (1 to 24 characters).",
  "me.too_long": "Names are at most 24 characters.",
  "me.change": "Change name",
  "me.set": "Choose a name",
  "me.playing_as": "Playing as",
  "me.anonymous": "No name yet",

  // home
  "home.create": "Create a room",
  "home.creating": "Creating room…",
  "home.seats": "{min}–{max} players",
  "home.seats_exact": "{n} players",
  "home.join_checking": "Looking for room…",
  "home.code_bad": "Room codes are 5 letters or digits, e.g. K7HXM.",
  "home.code_unknown": "No room with the code {code}. Check the code and try again.",

  // game blurbs (home cards, lobby picker)
  "game.tri-tac.blurb": "Place your marks and score every fresh line of three on a board from 3×3 to 12×12. Power plays, combos and special squares optional.",
  "game.trick-tac-foe.blurb": "Win tricks with your cards to claim, flip and line up cells on a shared grid. One-on-one or two teams of two.",
  "game.tic-tac-match.blurb": "Stack symbol cards that match colour or symbol, but not both — and watch out for flips that swap sides.",
  "game.tricky-tactics.blurb": "A trick-taking game of area control: win tricks to add or remove cubes across the map. Two players face an automa.",
  "game.tic-tac-top.blurb": "A party game for 3–7: fill your grid with words from a theme and hope the Leader's ranking lines them up.",
  "game.generic.blurb": "A three-in-a-row game for friends.",

  // connection
  "conn.connecting": "Connecting…",
  "conn.online": "Connected",
  "conn.reconnecting": "Reconnecting…",
  "conn.retry_in": "({s} s)",
  "conn.offline": "Offline",
  "conn.closed": "Disconnected",
  "conn.room_gone": "This room does not exist (any more).",
  "conn.auth": "Please choose a name to join this room.",

  // room / lobby
  "room.title": "Room {code}",
  "room.copied": "Link copied!",
  "room.copy_failed": "Could not copy. Select the link and copy it by hand.",
  "room.share": "Share",
  "room.seat_empty": "Empty seat",
  "room.sit": "Sit here",
  "room.stand": "Stand up",
  "room.you": "You",
  "room.host": "Host",
  "room.bot": "Bot",
  "room.bot_n": "Bot {n}",
  "room.add_bot": "Add a bot",
  "room.remove_bot": "Remove bot",
  "room.bot_named": "{name} ({level})",
  "room.bot_level": "Bot level",
  "bot.level.easy": "easy",
  "bot.level.normal": "normal",
  "bot.level.strong": "strong",
  "room.standin": "a bot plays for now",
  "room.online": "online",
  "room.away": "away",
  "room.team": "Team {n}",
  "room.no_spectators": "Nobody is watching yet.",
  "room.game": "Game",
  "room.options": "Options",
  "room.options_readonly": "The host chooses the game and its options.",
  "room.no_options": "This game has no options.",
  "room.start": "Start game",
  "room.waiting_players": "Waiting for {n} more player(s) to sit down…",
  "room.waiting_host": "Waiting for the host to start…",
  "room.ready": "Everyone is seated. Ready when you are!",
  "room.standings_player": "Player",
  "room.standings_played": "Played",
  "room.standings_wins": "Wins",
  "room.standings_draws": "Draws",
  "room.standings_points": "Points",
  "room.game_number": "Game {n}",
  "room.spectating": "Spectating",
  "room.spectating_hint": "You are watching. Seats are taken in the lobby.",
  "room.rematch": "Rematch",
  "room.rematch_wait": "Waiting for the host to start a rematch…",
  "room.rematch_accept": "Accept rematch ({n}/{total})",
  "room.rematch_accepted": "Rematch accepted: waiting for the others ({n}/{total})…",
  "room.rematch_now": "Start rematch now ({n}/{total} accepted)",
  "room.change_game": "Change game or options",
  "room.open_lobby": "Lobby",
  "room.log_empty": "Moves will appear here.",
  "room.to_move": "to move",
  "room.your_turn": "Your turn",
  "room.waiting_for": "Waiting for {name}",
  "room.time_left": "{s} s left",
  "room.score": "Score",
  "room.result": "Result",
  "room.winner": "{name} wins!",
  "room.winners": "{names} win!",
  "room.you_win": "You win!",
  "room.draw": "It's a draw!",
  "room.points": "{n} pts",
  "room.point": "{n} pt",
  "room.hide_result": "Show board",
  "room.show_result": "Show result",
  "room.renderer_missing": "This game has no board in the browser yet.",
  "room.options_invalid": "Invalid JSON.",
  "room.enabled": "Enabled",

  // host tools
  "host.locked": "Lock the room",
  "host.locked_hint": "Nobody new may join; seated players and the host still can.",
  "host.spectators": "Allow spectators",
  "host.spectators_hint": "People without a seat may watch a game in progress.",
  "host.turn_seconds": "Turn timer",
  "host.turn_seconds_hint": "Seconds per move (5–600) for games without their own clock; when time runs out the default move is played.",
  "host.grace_seconds": "Away grace period (seconds)",
  "host.grace_seconds_hint": "How long a player may be away before a bot stands in for them.",
  "host.note_locked": "The room is locked.",
  "host.note_no_spectators": "No spectators during games.",
  "host.note_turn": "Turn timer: {s} s.",
  "host.swap": "Swap with {label} ({who})",
  "host.make_host": "Make host",
  "host.kick": "Remove from room",
  "host.removed": "Removed from this room",
  "host.invite": "Let back in",
  "host.kick_confirm": "Remove {name} from this room? They cannot come back unless you let them back in.",
  "host.actions": "Host actions",
  "host.actions_for": "Host actions for {name}",
  "host.shuffle": "Shuffle seats",

  // chat
  "chat.title": "Chat",
  "chat.empty": "Say hello!",
  "chat.placeholder": "Write a message…",
  "chat.send": "Send",
  "chat.scope": "Send to",
  "chat.everyone": "Everyone",
  "chat.team": "My team",
  "chat.team_tag": "team",

  // closed room
  "closed.kicked_title": "You were removed from this room",
  "closed.forbidden_title": "You can't join this room",
  "closed.gone_title": "This room doesn't exist",

  // server error codes
  "err.bad_json": "The server could not read that message.",
  "err.bad_message": "That message was not understood.",
  "err.too_large": "That message was too large.",
  "err.rate_limited": "Slow down a little!",
  "err.not_host": "Only the host can do that.",
  "err.not_seated": "Take a seat to play.",
  "err.not_your_turn": "It's not your turn.",
  "err.stale_version": "The game moved on; your view has been refreshed.",
  "err.duplicate": "That move was already sent.",
  "err.illegal": "That move is not allowed.",
  "err.bad_options": "Those options are not valid.",
  "err.seat_taken": "That seat is already taken.",
  "err.not_in_lobby": "That can only be done in the lobby.",
  "err.not_playing": "No game is in progress.",
  "err.seats_empty": "Every seat must be filled to start.",
  "err.disconnected": "Not connected — your move was not sent.",
  "err.no_bot": "This game has no bot yet.",
  "err.kicked": "The host removed you from this room.",
  "err.internal": "The server hit a problem; nothing was changed.",
  "err.unauthorized": "Please choose a name first.",
  "err.unknown_room": "This room does not exist (any more).",
  "err.busy": "The room kept changing while this was tried: try again.",
  "err.forbidden": "You may not enter this room now.",
  // Refusals of the HTTP API (app/errors.py: a code and its params).
  "err.seed_not_allowed": "A fixed seed is only accepted by a test server.",
  "err.unknown_game": "There is no such game.",
  "err.no_game": "There is no finished game {game_id}.",
  "err.bad_step": "That step is not in this game (0 to {max}).",
  "err.no_seat": "That seat is not in this game.",
  "err.name_empty": "Your name cannot be empty.",
  "err.name_too_long": "Your name can have at most {max} characters.",
  "err.name_not_text": "Your name must be text.",
  "err.name_control": "Your name cannot contain control characters.",
  "err.not_found": "Not found.",
  "err.bad_request": "That request was not understood.",
  "err.body_too_large": "That was too large to send.",
  "err.origin_not_allowed": "This page may not talk to the server from here.",
  "err.too_many_actions": "This file has {actions} moves: at most {max_actions} can be replayed.",
  // Why a connection was refused entry (the reason of a "forbidden" error, docs/protocol.md).
  "room.refused.banned": "The host removed you from this room.",
  "room.refused.locked": "The room is locked: only its players and host may enter.",
  "room.refused.no_spectators": "The host does not allow spectators while a game is running.",
  // What was wrong with an option (the reason of a "bad_options" error); {field} is the option's label.
  "options.not_integer": "{field}: must be a whole number.",
  "options.not_number": "{field}: must be a number.",
  "options.not_boolean": "{field}: must be on or off.",
  "options.not_text": "{field}: must be text.",
  "options.at_least": "{field}: must be at least {min}.",
  "options.more_than": "{field}: must be more than {min}.",
  "options.at_most": "{field}: must be at most {max}.",
  "options.less_than": "{field}: must be less than {max}.",
  "options.not_a_choice": "{field}: not one of the choices.",
  "options.unknown": "{field}: no such option.",
  "options.missing": "{field}: required.",
  "options.too_many": "{field}: at most {max}.",
  "options.too_few": "{field}: at least {min}.",
  "options.text_too_long": "{field}: at most {max} characters.",
  "options.text_too_short": "{field}: at least {min} characters.",
  "options.invalid": "Those options do not fit together.",
  "options.field_game": "Game",

  // error page

  // language switch, sound, how-to-play dialog
  "lang.switched": "Language: English",
  "howto.title": "How to play {game}",

  // seat labels sent by the server ("Player 1", "North"…)
  "seat.player": "Player {n}",
  "seat.north": "North",
  "seat.east": "East",
  "seat.south": "South",
  "seat.west": "West",
  "room.spectator": "Spectator",
  // the game log: who acted for a seat (an entry's "actor"), and what every game may refuse
  "log.actor.timer": "{text} (time ran out)",
  "log.actor.standin": "{text} (stand-in)",
  "log.actor.host": "{text} (by the host)",
  "log.seat_label": "{name} ({label})",
  "log.clauses": "{clauses}",
  "log.clause_join": "; ",
  "team.trick-tac-foe.0": "Red",
  "team.trick-tac-foe.1": "Black",
  "team.tic-tac-match.0": "Team A",
  "team.tic-tac-match.1": "Team B",
  "log.unreplayable": "(earlier moves cannot be replayed with the current rules)",
  "action.not_object": "An action must be a JSON object.",
  "action.unknown_type": "Unknown action “{type}”.",
  "action.unexpected_fields": "Unexpected fields in that action: {fields}.",
  "action.no_seat": "There is no such seat in this game.",
  "action.game_over": "The game is over.",
  "action.turn_of": "It is {seat}’s turn.",
  "action.not_your_turn": "It is not your turn.",
  "action.missing_fields": "That action lacks: {fields}.",

  // replay page
  "replay.title": "Replay #{id}",
  "replay.read_only": "This is a replay.",
  "replay.spectator": "Spectator",
  "replay.everything": "Everything revealed",
  "import.replaying": "Replaying {file}…",
  "import.not_json": "That file is not JSON.",
  "import.refused": "It does not replay: {reason}",
  "import.refused_at": "Move {step} does not replay: {reason}",
  "import.bad_game": "unknown game or options.",
  "import.bad_action": "each move needs a seat number and an action.",
  "import.done": "{n} moves replayed.",
  "import.unfinished": "The game was not finished.",
  "import.fingerprint": "Final state fingerprint: {fingerprint}",
  "tricky-tactics.more_toggle": "Map & scores",
  "room.replay": "Watch the replay",
  "room.past_game": "Game {n} — replay",
};

const fr = {
  // generic
  "common.close": "Fermer",
  "common.yes": "Oui",
  "common.no": "Non",
  "common.you": "vous",
  "common.on": "activé",
  "common.off": "désactivé",
  "common.loading": "Chargement…",
  "common.error": "Un problème est survenu.",
  "common.network": "Impossible de joindre le serveur. Vérifiez votre connexion et réessayez.",

  // identity
  "me.save": "Enregistrer le nom",
  "me.saved": "Nom enregistré. Bonjour, {name} !",
  "me.empty": "Tapez d’abord un nom (de 1 à 24 caractères).",
  "me.too_long": "Un nom compte au plus 24 caractères.",
  "me.change": "Changer de nom",
  "me.set": "Choisir un nom",
  "me.playing_as": "Vous jouez en tant que",
  "me.anonymous": "Pas encore de nom",

  // home
  "home.create": "Créer une salle",
  "home.creating": "Création de la salle…",
  "home.seats": "{min} à {max} joueurs",
  "home.seats_exact": "{n} joueurs",
  "home.join_checking": "Recherche de la salle…",
  "home.code_bad": "Un code de salle compte 5 lettres ou chiffres, p. ex. K7HXM.",
  "home.code_unknown": "Aucune salle ne porte le code {code}. Vérifiez le code et réessayez.",

  // game blurbs (home cards, lobby picker)
  "game.tri-tac.blurb": "Posez vos pions et marquez chaque nouvel alignement de trois sur un plateau de 3×3 à 12×12. Coup de force, combos et cases spéciales en option.",
  "game.trick-tac-foe.blurb": "Remportez des plis avec vos cartes pour prendre, retourner et aligner les cases d’une grille commune. En tête-à-tête ou à deux équipes de deux.",
  "game.tic-tac-match.blurb": "Empilez des cartes symboles de même couleur ou de même symbole, mais jamais les deux — et gare aux retournements qui changent les camps.",
  "game.tricky-tactics.blurb": "Un jeu de plis et de contrôle de territoire : gagnez des plis pour ajouter ou retirer des cubes sur la carte. À deux contre un automa.",
  "game.tic-tac-top.blurb": "Un jeu d’ambiance de 3 à 7 : remplissez votre grille de mots d’un thème et espérez que le classement du Meneur les aligne.",
  "game.generic.blurb": "Un jeu de trois-en-ligne entre amis.",

  // connection
  "conn.connecting": "Connexion…",
  "conn.online": "Connecté",
  "conn.reconnecting": "Reconnexion…",
  "conn.retry_in": "({s} s)",
  "conn.offline": "Hors ligne",
  "conn.closed": "Déconnecté",
  "conn.room_gone": "Cette salle n’existe pas (ou plus).",
  "conn.auth": "Choisissez un nom pour rejoindre cette salle.",

  // room / lobby
  "room.title": "Salle {code}",
  "room.copied": "Lien copié !",
  "room.copy_failed": "Copie impossible. Sélectionnez le lien et copiez-le à la main.",
  "room.share": "Partager",
  "room.seat_empty": "Place libre",
  "room.sit": "S’asseoir ici",
  "room.stand": "Se lever",
  "room.you": "Vous",
  "room.host": "Hôte",
  "room.bot": "Robot",
  "room.bot_n": "Robot {n}",
  "room.add_bot": "Ajouter un robot",
  "room.remove_bot": "Retirer le robot",
  "room.bot_named": "{name} ({level})",
  "room.bot_level": "Niveau du robot",
  "bot.level.easy": "facile",
  "bot.level.normal": "moyen",
  "bot.level.strong": "fort",
  "room.standin": "un robot joue à sa place pour l’instant",
  "room.online": "en ligne",
  "room.away": "absent",
  "room.team": "Équipe {n}",
  "room.no_spectators": "Personne ne regarde pour l’instant.",
  "room.game": "Jeu",
  "room.options": "Options",
  "room.options_readonly": "L’hôte choisit le jeu et ses options.",
  "room.no_options": "Ce jeu n’a pas d’options.",
  "room.start": "Lancer la partie",
  "room.waiting_players": "En attente de {n} joueur(s) de plus…",
  "room.waiting_host": "En attente du lancement par l’hôte…",
  "room.ready": "Tout le monde est assis. C’est parti quand vous voulez !",
  "room.standings_player": "Joueur",
  "room.standings_played": "Parties",
  "room.standings_wins": "Victoires",
  "room.standings_draws": "Nuls",
  "room.standings_points": "Points",
  "room.game_number": "Partie {n}",
  "room.spectating": "Spectateur",
  "room.spectating_hint": "Vous regardez. Les places se prennent dans le salon.",
  "room.rematch": "Revanche",
  "room.rematch_wait": "En attente d’une revanche lancée par l’hôte…",
  "room.rematch_accept": "Accepter la revanche ({n}/{total})",
  "room.rematch_accepted": "Revanche acceptée : en attente des autres ({n}/{total})…",
  "room.rematch_now": "Lancer la revanche maintenant ({n}/{total} l’ont acceptée)",
  "room.change_game": "Changer de jeu ou d’options",
  "room.open_lobby": "Salon",
  "room.log_empty": "Les coups s’afficheront ici.",
  "room.to_move": "à jouer",
  "room.your_turn": "À vous de jouer",
  "room.waiting_for": "En attente de {name}",
  "room.time_left": "{s} s restantes",
  "room.score": "Score",
  "room.result": "Résultat",
  "room.winner": "{name} gagne !",
  "room.winners": "{names} gagnent !",
  "room.you_win": "Vous gagnez !",
  "room.draw": "Match nul !",
  "room.points": "{n} pts",
  "room.point": "{n} pt",
  "room.hide_result": "Voir le plateau",
  "room.show_result": "Voir le résultat",
  "room.renderer_missing": "Ce jeu n’a pas encore de plateau dans le navigateur.",
  "room.options_invalid": "JSON invalide.",
  "room.enabled": "Activé",

  // host tools
  "host.locked": "Verrouiller la salle",
  "host.locked_hint": "Personne de nouveau ne peut entrer ; les joueurs assis et l’hôte le peuvent toujours.",
  "host.spectators": "Autoriser les spectateurs",
  "host.spectators_hint": "Les personnes sans place peuvent regarder une partie en cours.",
  "host.turn_seconds": "Minuteur de tour",
  "host.turn_seconds_hint": "Secondes par coup (5 à 600) pour les jeux sans horloge propre ; à la fin du temps, le coup par défaut est joué.",
  "host.grace_seconds": "Délai d’absence (secondes)",
  "host.grace_seconds_hint": "Combien de temps un joueur peut s’absenter avant qu’un robot ne le remplace.",
  "host.note_locked": "La salle est verrouillée.",
  "host.note_no_spectators": "Pas de spectateurs pendant les parties.",
  "host.note_turn": "Minuteur de tour : {s} s.",
  "host.swap": "Échanger avec {label} ({who})",
  "host.make_host": "Nommer hôte",
  "host.kick": "Exclure de la salle",
  "host.removed": "Retirés de la salle",
  "host.invite": "Laisser revenir",
  "host.kick_confirm": "Exclure {name} de cette salle ? Cette personne ne pourra revenir que si vous la laissez revenir.",
  "host.actions": "Actions de l’hôte",
  "host.actions_for": "Actions de l’hôte pour {name}",
  "host.shuffle": "Mélanger les places",

  // chat
  "chat.title": "Discussion",
  "chat.empty": "Dites bonjour !",
  "chat.placeholder": "Écrire un message…",
  "chat.send": "Envoyer",
  "chat.scope": "Envoyer à",
  "chat.everyone": "Tout le monde",
  "chat.team": "Mon équipe",
  "chat.team_tag": "équipe",

  // closed room
  "closed.kicked_title": "Vous avez été exclu de cette salle",
  "closed.forbidden_title": "Vous ne pouvez pas entrer dans cette salle",
  "closed.gone_title": "Cette salle n’existe pas",

  // server error codes
  "err.bad_json": "Le serveur n’a pas pu lire ce message.",
  "err.bad_message": "Ce message n’a pas été compris.",
  "err.too_large": "Ce message était trop long.",
  "err.rate_limited": "Doucement !",
  "err.not_host": "Seul l’hôte peut faire cela.",
  "err.not_seated": "Asseyez-vous pour jouer.",
  "err.not_your_turn": "Ce n’est pas votre tour.",
  "err.stale_version": "La partie a avancé ; votre affichage a été mis à jour.",
  "err.duplicate": "Ce coup a déjà été envoyé.",
  "err.illegal": "Ce coup n’est pas permis.",
  "err.bad_options": "Ces options ne sont pas valables.",
  "err.seat_taken": "Cette place est déjà prise.",
  "err.not_in_lobby": "Cela ne se fait que dans le salon.",
  "err.not_playing": "Aucune partie n’est en cours.",
  "err.seats_empty": "Toutes les places doivent être occupées pour commencer.",
  "err.disconnected": "Pas de connexion — votre coup n’a pas été envoyé.",
  "err.no_bot": "Ce jeu n’a pas encore de robot.",
  "err.kicked": "L’hôte vous a exclu de cette salle.",
  "err.internal": "Le serveur a rencontré un problème ; rien n’a été modifié.",
  "err.unauthorized": "Choisissez d’abord un nom.",
  "err.unknown_room": "Cette salle n’existe pas (ou plus).",
  "err.busy": "La salle a changé pendant l’essai : réessayez.",
  "err.forbidden": "Vous ne pouvez pas entrer dans cette salle maintenant.",
  "err.seed_not_allowed": "Une graine fixe n’est acceptée que par un serveur de test.",
  "err.unknown_game": "Ce jeu n’existe pas.",
  "err.no_game": "Il n’y a pas de partie terminée {game_id}.",
  "err.bad_step": "Cette étape n’est pas dans la partie (0 à {max}).",
  "err.no_seat": "Cette place n’est pas dans la partie.",
  "err.name_empty": "Votre nom ne peut pas être vide.",
  "err.name_too_long": "Votre nom compte au plus {max} caractères.",
  "err.name_not_text": "Votre nom doit être un texte.",
  "err.name_control": "Votre nom ne peut pas contenir de caractères de contrôle.",
  "err.not_found": "Introuvable.",
  "err.bad_request": "Cette requête n’a pas été comprise.",
  "err.body_too_large": "C’était trop lourd à envoyer.",
  "err.origin_not_allowed": "Cette page ne peut pas parler au serveur d’ici.",
  "err.too_many_actions": "Ce fichier compte {actions} coups : au plus {max_actions} peuvent être rejoués.",
  "room.refused.banned": "L’hôte vous a exclu de cette salle.",
  "room.refused.locked": "La salle est verrouillée : seuls ses joueurs et son hôte peuvent entrer.",
  "room.refused.no_spectators": "L’hôte n’accepte pas de spectateurs pendant une partie.",
  "options.not_integer": "{field} : doit être un nombre entier.",
  "options.not_number": "{field} : doit être un nombre.",
  "options.not_boolean": "{field} : doit être activé ou désactivé.",
  "options.not_text": "{field} : doit être un texte.",
  "options.at_least": "{field} : doit valoir au moins {min}.",
  "options.more_than": "{field} : doit valoir plus de {min}.",
  "options.at_most": "{field} : doit valoir au plus {max}.",
  "options.less_than": "{field} : doit valoir moins de {max}.",
  "options.not_a_choice": "{field} : ne fait pas partie des choix.",
  "options.unknown": "{field} : cette option n’existe pas.",
  "options.missing": "{field} : obligatoire.",
  "options.too_many": "{field} : au plus {max}.",
  "options.too_few": "{field} : au moins {min}.",
  "options.text_too_long": "{field} : au plus {max} caractères.",
  "options.text_too_short": "{field} : au moins {min} caractères.",
  "options.invalid": "Ces options ne vont pas ensemble.",
  "options.field_game": "Jeu",

  // error page

  // language switch, sound, how-to-play dialog
  "lang.switched": "Langue : français",
  "howto.title": "Comment jouer à {game}",

  // seat labels sent by the server ("Player 1", "North"…)
  "seat.player": "Joueur {n}",
  "seat.north": "Nord",
  "seat.east": "Est",
  "seat.south": "Sud",
  "seat.west": "Ouest",
  "room.spectator": "Spectateur",
  "log.actor.timer": "{text} (temps écoulé)",
  "log.actor.standin": "{text} (remplaçant)",
  "log.actor.host": "{text} (par l’hôte)",
  "log.seat_label": "{name} ({label})",
  "log.clauses": "{clauses}",
  "log.clause_join": " ; ",
  "team.trick-tac-foe.0": "Rouge",
  "team.trick-tac-foe.1": "Noir",
  "team.tic-tac-match.0": "Équipe A",
  "team.tic-tac-match.1": "Équipe B",
  "log.unreplayable": "(les coups précédents ne se rejouent pas avec les règles actuelles)",
  "action.not_object": "Une action doit être un objet JSON.",
  "action.unknown_type": "Action inconnue « {type} ».",
  "action.unexpected_fields": "Champs inattendus dans cette action : {fields}.",
  "action.no_seat": "Cette place n’existe pas dans cette partie.",
  "action.game_over": "La partie est terminée.",
  "action.turn_of": "C’est au tour de {seat}.",
  "action.not_your_turn": "Ce n’est pas votre tour.",
  "action.missing_fields": "Il manque à cette action : {fields}.",

  // replay page
  "replay.title": "Rediffusion n° {id}",
  "replay.read_only": "Ceci est une rediffusion.",
  "replay.spectator": "Spectateur",
  "replay.everything": "Tout dévoilé",
  "import.replaying": "Relecture de {file}…",
  "import.not_json": "Ce fichier n’est pas du JSON.",
  "import.refused": "La partie ne se rejoue pas : {reason}",
  "import.refused_at": "Le coup {step} ne se rejoue pas : {reason}",
  "import.bad_game": "jeu ou options inconnus.",
  "import.bad_action": "chaque coup demande un numéro de place et une action.",
  "import.done": "{n} coups rejoués.",
  "import.unfinished": "La partie n’était pas terminée.",
  "import.fingerprint": "Empreinte de l’état final : {fingerprint}",

  // game options: the server sends English titles and hints (JSON Schema); French ones live here,
  // as "opt.<game>.<field>", "opt.<game>.<field>.hint" and "opt.<game>.<field>.<enum value>".
  "opt.tri-tac.size": "Taille du plateau",
  "opt.tri-tac.size.hint": "Le plateau compte taille × taille cases (3 à 12).",
  "opt.tri-tac.power_play": "Coup de force",
  "opt.tri-tac.power_play.hint": "Une fois par partie, avec au moins 5 points, remplacez un pion adverse par le vôtre.",
  "opt.tri-tac.combo_strike": "Combo",
  "opt.tri-tac.combo_strike.hint": "+1 point quand vous marquez à deux de vos tours de suite.",
  "opt.tri-tac.time_challenge": "Contre-la-montre",
  "opt.tri-tac.time_challenge.hint": "Chaque coup a une limite de temps : trop lent, et le tour est perdu.",
  "opt.tri-tac.time_seconds": "Secondes par coup",
  "opt.tri-tac.time_seconds.hint": "La limite du contre-la-montre (5 à 300 secondes) ; utilisée seulement quand il est activé.",
  "opt.tri-tac.dynamic_board": "Plateau extensible",
  "opt.tri-tac.dynamic_board.hint": "Quand le plateau est plein, les deux joueurs peuvent voter pour ajouter une couronne de cases (jusqu’à 12×12).",
  "opt.tri-tac.special_squares": "Cases spéciales",
  "opt.tri-tac.special_squares.hint": "Environ une case sur dix est spéciale : un nouvel alignement qui la traverse vaut 2 points.",
  "opt.trick-tac-foe.players": "Joueurs",
  "opt.trick-tac-foe.players.hint": "2 joueurs en tête-à-tête, ou 4 en deux équipes (Rouge : Nord + Est).",
  "opt.trick-tac-foe.one_shot": "Partie express",
  "opt.trick-tac-foe.one_shot.hint": "Jouer une seule manche au lieu de la partie standard (2 manches à 2 joueurs, 3 à 4).",
  "opt.trick-tac-foe.turn_timer": "Minuteur",
  "opt.trick-tac-foe.turn_timer.hint": "Chaque étape a une limite de temps : un joueur absent engage sa plus petite carte.",
  "opt.trick-tac-foe.turn_seconds": "Secondes par étape",
  "opt.trick-tac-foe.turn_seconds.hint": "Le minuteur (5 à 600 s), quand il est activé.",
  "opt.tic-tac-match.players": "Joueurs",
  "opt.tic-tac-match.players.hint": "2 joueurs, ou 4 en deux équipes (les partenaires face à face).",
  "opt.tic-tac-match.series": "Manches à gagner",
  "opt.tic-tac-match.series.hint": "Le premier camp à gagner ce nombre de manches l’emporte (1 à 5).",
  "opt.tricky-tactics.mode": "Mode",
  "opt.tricky-tactics.mode.hint": "automa : 2 humains + l’automa ; 3 joueurs : 3 humains ; 4 joueurs : 4 humains",
  "opt.tricky-tactics.mode.automa": "2 joueurs contre l’automa",
  "opt.tricky-tactics.mode.3p": "3 joueurs",
  "opt.tricky-tactics.mode.4p": "4 joueurs",
  "opt.tricky-tactics.rounds": "Manches",
  "opt.tricky-tactics.rounds.hint": "nombre de manches à jouer",
  "opt.tricky-tactics.cubes": "Cubes",
  "opt.tricky-tactics.cubes.hint": "cubes par joueur",
  "opt.tricky-tactics.value_k": "Valeur du Roi (K)",
  "opt.tricky-tactics.value_k.hint": "points pour le contrôle d’un Lieu Roi (K)",
  "opt.tricky-tactics.value_q": "Valeur de la Dame (Q)",
  "opt.tricky-tactics.value_q.hint": "points pour le contrôle d’un Lieu Dame (Q)",
  "opt.tricky-tactics.value_j": "Valeur du Valet (J)",
  "opt.tricky-tactics.value_j.hint": "points pour le contrôle d’un Lieu Valet (J)",
  "opt.tricky-tactics.area_bonus": "Bonus de zone",
  "opt.tricky-tactics.area_bonus.hint": "bonus pour le contrôle des trois Lieux d’une couleur",
  "opt.tricky-tactics.area_bonus_points": "Points du bonus de zone",
  "opt.tricky-tactics.area_bonus_points.hint": "valeur du bonus de zone",
  "opt.tic-tac-top.players": "Joueurs",
  "opt.tic-tac-top.players.hint": "De 3 à 7 joueurs.",
  "opt.tic-tac-top.language": "Langue",
  "opt.tic-tac-top.language.hint": "Paquet de thèmes : anglais ou français.",
  "opt.tic-tac-top.language.en": "Anglais",
  "opt.tic-tac-top.language.fr": "Français",
  "opt.tic-tac-top.hard_timer": "Minuteur de 90 secondes",
  "opt.tic-tac-top.hard_timer.hint": "Compétitif : l’écriture se termine 90 secondes après le choix du thème, quoi qu’il arrive.",
  "opt.tic-tac-top.quick_game": "Partie rapide",
  "opt.tic-tac-top.quick_game.hint": "6 ou 7 joueurs seulement : la partie s’arrête après tout tour où quelqu’un atteint 25 points ou plus.",
  "opt.tic-tac-top.custom_themes": "Thèmes personnalisés",
  "opt.tic-tac-top.custom_themes.hint": "Vos propres thèmes (12 mots chacun) ; ils sont proposés avant ceux du paquet.",
  "opt.tic-tac-top.custom_only": "Thèmes personnalisés seulement",
  "opt.tic-tac-top.custom_only.hint": "Ne jouer que les thèmes personnalisés (au moins un par joueur).",
  "opt.tic-tac-top.reveal_pause": "Pause de révélation",
  "opt.tic-tac-top.reveal_pause.hint": "Secondes entre deux mots annoncés (1 à 10).",
  "opt.tic-tac-top.score_pause": "Écran des scores",
  "opt.tic-tac-top.score_pause.hint": "Secondes d’affichage du décompte du tour (2 à 60).",
  "tricky-tactics.more_toggle": "Carte et scores",
  "room.replay": "Revoir la partie",
  "room.past_game": "Partie {n} — rediffusion",
};

export const CATALOGS = { en, fr };
export const LANGUAGES = ["en", "fr"];

const COOKIE = "tf_lang";

function cookieLanguage() {
  const match = typeof document !== "undefined" ? document.cookie.match(/(?:^|;\s*)tf_lang=([^;]*)/) : null;
  return match ? decodeURIComponent(match[1]) : null;
}

/** The server picks the language (the tf_lang cookie, else the browser's Accept-Language) and writes it
 * into <html lang>, so scripts and templates always agree. */
function pickLanguage() {
  const doc = document.documentElement.lang;
  if (doc && CATALOGS[doc]) return doc;
  const saved = cookieLanguage();
  if (saved && CATALOGS[saved]) return saved;
  for (const lang of navigator.languages || []) {
    const short = lang.slice(0, 2).toLowerCase();
    if (CATALOGS[short]) return short;
  }
  return "en";
}

let current = typeof document !== "undefined" ? pickLanguage() : "en";

export function language() {
  return current;
}

/** Remember a language (a cookie for a year, read by the server for the templates). The page reloads to
 * show it: see static/js/prefs.js. */
export function setLanguage(lang) {
  if (!CATALOGS[lang]) return;
  current = lang;
  document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
  document.documentElement.lang = lang;
}

/**
 * Add strings to a language's catalogue (game renderers register their own "<game>.*" keys this way,
 * so each game keeps its strings in its own module). Existing keys are not overwritten.
 */
export function addStrings(lang, dict) {
  if (!CATALOGS[lang]) CATALOGS[lang] = {};
  for (const [key, value] of Object.entries(dict)) {
    if (!(key in CATALOGS[lang])) CATALOGS[lang][key] = value;
  }
}

/** French: the space before : ; ! ? and inside « » does not break (as app/typography.py does for the
 * templates), so a line never starts with the mark. Applied to the catalogue's text, never to names. */
export function frenchSpacing(text) {
  return text
    .replace(/[ \t\n]+([;:!?»])/g, (m, mark) => (mark === ":" || mark === "»" ? "\u00a0" : "\u202f") + mark)
    .replace(/«[ \t\n]+/g, "«\u00a0");
}

/** Translate `key`, replacing {placeholders} from `params`; {n, plural, one {# point} other {# points}}
 * picks the language's plural form of the number n (French: 0 and 1 are singular), # standing for it. */
export function t(key, params) {
  return fill(template(key), params, formatValue);
}

function template(key) {
  const dict = CATALOGS[current] || en;
  const text = dict[key] ?? en[key] ?? key;
  return current === "fr" ? frenchSpacing(text) : text;
}

const PLURAL = /\{(\w+), plural,((?:\s*[\w=]+\s*\{[^{}]*\})+)\s*\}/g;
const BRANCH = /([\w=]+)\s*\{([^{}]*)\}/g;

function fill(text, params, format) {
  if (!params) return text;
  const has = (name) => Object.prototype.hasOwnProperty.call(params, name);
  const plural = text.replace(PLURAL, (m, name, branches) => {
    if (!has(name)) return m;
    const n = Number(params[name]);
    const forms = Object.fromEntries([...branches.matchAll(BRANCH)].map((b) => [b[1], b[2]]));
    const form = forms[`=${n}`] ?? forms[new Intl.PluralRules(current).select(n)] ?? forms.other ?? "";
    return form.replaceAll("#", formatValue(n));
  });
  return plural.replace(/\{(\w+)\}/g, (m, name) => (has(name) ? format(params[name], name) : m));
}

/**
 * A log entry, a result or a refusal ({key, params}, docs/protocol.md "Log entries") as a sentence in the
 * page's language. Parameters are typed by their name: "seat" or "…_seat" is a seat number and "seats" or
 * "…_seats" a list of them (named by `ctx.seat(index)`), "cell"/"…_cell" a cell (`ctx.cell`), "card"/
 * "…_card" a card and "cards" a list (`ctx.card`), "team"/"…_team" a team (`ctx.team`); numbers follow
 * the language, lists are joined as the language joins them ("Ada et Léa").
 */
export function phrase(entry, ctx = {}) {
  if (!entry || typeof entry !== "object") return String(entry ?? "");
  const kinds = [
    [/(^|_)seat$/, (v) => (ctx.seat ? ctx.seat(v) : t("seat.player", { n: Number(v) + 1 }))],
    [/(^|_)cell$/, (v) => (ctx.cell ? ctx.cell(v) : JSON.stringify(v))],
    [/(^|_)card$/, (v) => (ctx.card ? ctx.card(v) : String(v))],
    [/(^|_)team$/, (v) => (ctx.team ? ctx.team(v) : String(v))],
  ];
  const format = (value, name) => {
    // An entry inside an entry (the automa's reason): phrased in turn; several are clauses of one sentence.
    const isEntry = (v) => v && typeof v === "object" && !Array.isArray(v) && typeof v.key === "string";
    if (isEntry(value)) return phrase(value, ctx);
    if (Array.isArray(value) && value.length && value.every(isEntry)) return value.map((v) => phrase(v, ctx)).join(t("log.clause_join"));
    const plural = /(^|_)(seats|cards|cells|teams)$/.exec(name);
    if (plural && Array.isArray(value)) return joinList(value.map((v) => format(v, plural[2].slice(0, -1))));
    for (const [pattern, show] of kinds) if (pattern.test(name)) return show(value);
    if (ctx.value) {
      const shown = ctx.value(name, value);
      if (shown !== undefined && shown !== null) return shown;
    }
    return Array.isArray(value) ? joinList(value.map((v) => formatValue(v))) : formatValue(value);
  };
  return fill(template(entry.key), entry.params || {}, format);
}

/** What was wrong with an option (a bad_options reason, docs/protocol.md) as a sentence: its label is
 * "opt.<game>.<field>", a room setting's "host.<field>" ("Board size: must be a whole number"). */
export function optionsProblem(reason) {
  const game = reason?.params?.game;
  const label = (field) => {
    if (field === "game") return t("options.field_game");
    const key = game ? `opt.${game}.${field}` : `host.${field}`;
    return has(key) ? t(key) : String(field);
  };
  return phrase(reason, { value: (name, value) => (name === "field" ? label(value) : undefined) });
}

/** A refusal from the API (`{"code", "params"}`, app/errors.py) in the page's language: "err.<code>" with
 * its params; never the English `detail`, which is a note for developers. */
export function apiErrorText(data) {
  const code = data && typeof data.code === "string" ? data.code : "";
  const params = data && data.params && typeof data.params === "object" ? data.params : {};
  if (code === "bad_options" && params.reason && typeof params.reason === "object") return optionsProblem(params.reason);
  return code && has(`err.${code}`) ? t(`err.${code}`, params) : t("common.error");
}

/** Words joined as the language joins them: "Ada, Bob and Léa", « Ada, Bob et Léa ». */
export function joinList(items) {
  if (typeof Intl.ListFormat !== "function") return items.join(", ");
  return new Intl.ListFormat(current, { style: "long", type: "conjunction" }).format(items.map(String));
}

/** Numbers follow the language (e.g. 1,5 in French). */
export function formatValue(value) {
  if (typeof value === "number") return new Intl.NumberFormat(current).format(value);
  return String(value);
}

/** A number in the page's language. */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(current, options).format(value);
}

/** A date and/or time in the page's language (options as for Intl.DateTimeFormat). */
export function formatDate(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(current, options).format(value instanceof Date ? value : new Date(value));
}

/** Does the catalogue know this key? (used for optional strings such as game blurbs) */
export function has(key) {
  const dict = CATALOGS[current] || en;
  return key in dict || key in en;
}

/** Does the current language itself have this key (no English fallback)? */
export function hasOwn(key) {
  return key in (CATALOGS[current] || en);
}

/** A player's name in the page's language: the server names bots by their seat ("Bot 2"), and a bot's
 * level (a code) follows its name wherever it shows: seats, log and result. */
export function playerName(player) {
  if (!player) return "";
  const bot = player.bot ? /^Bot (\d+)$/.exec(String(player.name)) : null;
  const name = bot ? t("room.bot_n", { n: Number(bot[1]) }) : player.name;
  if (!player.bot || !player.level) return name;
  return t("room.bot_named", { name, level: t(`bot.level.${player.level}`) });
}

const SEAT_WORDS = { North: "seat.north", East: "seat.east", South: "seat.south", West: "seat.west" };

/** A seat label from the server ("Player 2", "North") in the page's language. */
export function seatLabel(label) {
  if (label === null || label === undefined) return "";
  const text = String(label);
  const player = /^Player (\d+)$/.exec(text);
  if (player) return t("seat.player", { n: Number(player[1]) });
  return SEAT_WORDS[text] ? t(SEAT_WORDS[text]) : text;
}

/** A team's name: the game's own ("Red", "Team A": "team.<game>.<n>") where it has one, so the lobby, the
 * players strip, the board and the log all say the same; else "Team 1". */
export function teamName(team, game) {
  if (team === null || team === undefined) return "";
  const own = `team.${game}.${team}`;
  return game && has(own) ? t(own) : t("room.team", { n: Number(team) + 1 });
}
