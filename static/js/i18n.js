// The shared strings of the interface, in German and English, and the language switch.
// Each game brings its own strings in static/js/games/<name>.strings.js ({en: {...}, de: {...}});
// its table module adds them with addStrings, pages without it load them with loadGameStrings.
// The language comes from the saved choice, else from the browser (lang-boot.js sets it first).

const STRINGS = {
  en: {
    "nav.label": "Main",
    "nav.play": "Play",
    "nav.games": "Your games",
    "nav.me": "You",
    "me.title": "You",
    "me.lead":
      "Your seats, rooms and matches belong to you, not to this browser. Sign in on another device to play the same seats there.",
    "signin.title": "Sign in on this device",
    "signin.lead":
      "This browser will play your seats and see your rooms and matches, like your other device.",
    "signin.button": "Sign in",
    "me.name": "Your name",
    "me.name_help":
      "Open tables show your new name at once; finished matches keep the name they were played under.",
    "me.rename": "Save name",
    "me.renamed": "Name saved.",
    "me.link_title": "Use on another device",
    "me.link_lead":
      "Scan the code with your phone or open the link on the other device. It works once, within 10 minutes.",
    "me.warning":
      "Whoever holds this link or your cookie can play your seats. Send it to no one else.",
    "me.make_link": "Show link",
    "me.qr": "QR code of the sign-in link",
    "me.copied": "Link copied. Open it on your other device.",
    "me.devices_title": "Your devices",
    "me.push_title": "Notifications on this device",
    "me.this_device": "this device",
    "me.seen": "seen {when}",
    "me.sign_out": "Sign out",
    "me.sign_out_all": "Sign out everywhere",
    "me.sign_out_all_confirm":
      "Sign out every device? This browser stays signed in with a new secret.",
    "gone.link_title": "This sign-in link no longer works",
    "gone.link_text":
      "A link works once and for 10 minutes. Make a new one on your other device under “You”.",
    "nav.history": "History",
    "nav.rules": "Rules",
    "nav.skip": "Skip to content",
    "theme.dark": "Dark colours",
    "action.close": "Close",

    "home.title": "Card games with friends",
    "home.lead":
      "Pick a game, create a room and send the link. Everyone plays in their own browser and sees only their own hand.",
    "home.new": "New game",
    "home.game": "Game",
    "home.options": "Options",
    "home.variant": "Variant",
    "home.standard": "Standard",
    "home.custom": "Custom",
    "home.create": "Create room",
    "home.solo": "Solo",
    "home.seats": "{n} players",
    "home.rules_link": "Read the rules",
    "home.opponent": "Opponent",
    "home.friend": "A friend (send the link)",
    "home.computer": "Computer: {level}",
    "level.easy": "easy",
    "level.strong": "strong",
    "level.random": "random",
    "table.computer_plays": "computer plays",
    "table.add_computer_lead": "Nobody to play with right now?",
    "table.add_computer": "Add a computer player",
    "table.computer_level": "Level",
    "takeover.lead": "{name} has been away for a while and it is their turn.",
    "takeover.wait": "Keep waiting",
    "takeover.computer": "Let the computer play for {name}",
    "takeover.end": "End the match",
    "end.abandoned": "Match ended: {name} was away",
    "end.abandoned_note": "An ended match counts as neither a win nor a loss.",
    "log.by_computer": "computer",
    "history.abandoned": "ended, {name} away",
    "history.time_ran_out": "ended, {name}'s time ran out",
    "end.time_ran_out": "Match ended: {name}'s time ran out",
    "takeover.time_lead": "{name}'s time for this move ran out.",
    "log.time_ran_out": "{name}'s time ran out",
    "home.turn_based": "A friend, turn-based",
    "home.move_time": "Time per move",
    "home.move_days": "{n} days",
    "home.move_day": "1 day",
    "home.no_limit": "No limit",
    "home.games": "Your games",
    "home.no_games": "No games yet. Create a room and it will show up here.",
    "home.all_games": "All your games",
    "games.title": "Your games",
    "games.lead": "Every match you play that is not over, the ones waiting for you first.",
    "games.waiting_players": "waiting for players",
    "games.since": "turn began {when} ago",
    "games.live": "live",
    "turn.you_have": "You have {left}",
    "turn.has": "{name} has {left}",
    "turn.no_limit": "no time limit",
    "turn.ran_out_you": "Your time ran out",
    "turn.ran_out": "{name}'s time ran out",
    "time.day": "1 day",
    "time.days": "{n} days",
    "time.hours": "{n} h",
    "time.minutes": "{n} min",
    "choice.none": "By lot",
    "choice.first.null": "By lot",
    "choice.first.0": "Player 1 (who creates the room)",
    "choice.first.1": "Player 2",
    "name.label": "Your name",
    "name.required": "Please enter a name (up to 24 characters).",
    "room.open": "Open",
    "room.your_turn": "Your turn",
    "room.their_turn": "{name}'s turn",

    "share.copy": "Copy link",
    "share.copied": "Link copied. Send it to the other player.",
    "share.failed": "Could not copy. Copy the address from the address bar.",

    "share.button": "Invite",
    "share.title": "Invite a friend",
    "share.lead": "Send this link, or let them scan the code with their phone.",
    "share.native": "Share…",
    "share.qr": "QR code of the link to this table",
    "settings.title": "Table settings",
    "settings.sound": "Play a sound when it becomes my turn",
    "settings.sound_help": "Only while this tab is in the background.",
    "settings.notify": "Notify me when it becomes my turn",
    "settings.notify_help":
      "A browser notification while this tab is in the background. Your browser asks for permission first; nothing goes through any other service.",
    "settings.notify_denied": "Notifications are blocked for this site in your browser settings.",
    "settings.notify_unsupported": "This browser cannot show notifications.",
    "settings.theme": "Colours",
    "settings.theme_system": "Like the system",
    "settings.theme_light": "Light",
    "settings.theme_dark": "Dark",
    "notify.title": "Your turn in {game}",
    "notify.body": "The other player has moved.",
    "log.title": "Moves",
    "log.empty": "No moves yet.",
    "note.not_your_turn": "It is {name}'s turn: wait for their move.",
    "note.watching": "You are watching: only the players can move.",
    "note.over": "The match is over.",
    "note.offline": "You are offline: moves cannot be sent until the connection is back.",
    "note.waiting": "The match starts when every seat is taken.",
    "note.pending": "Your move is on its way…",
    "note.nothing_here": "That cannot be chosen now.",
    "offline.title": "Connection lost",
    "offline.no_network": "Your device is offline. We reconnect as soon as the network is back.",
    "offline.retry_in": "Trying again in {n} s.",
    "offline.trying": "Trying to reconnect…",
    "offline.no_moves": "Moves are paused until the connection is back.",
    "offline.retry": "Retry now",
    "conn.offline": "Offline",
    "banner.offline": "Offline: reconnecting…",

    "table.loading": "Loading…",
    "table.players": "Players",
    "table.seat": "Player {n}",
    "table.free_seat": "Free seat",
    "table.waiting_player": "Waiting for a second player…",
    "table.you": "You",
    "table.you_did": "you",
    "table.you_note": "(you)",
    "table.online": "online",
    "table.offline": "away",
    "table.wins": "{n} won",
    "table.wins_word": "won",
    "table.spectating": "You are watching",
    "table.spectator_note": "Both seats are taken: you are watching.",
    "table.last_move": "Last move ({name}):",
    "join.title": "Join {game}",
    "join.lead": "Choose the name the others will see.",
    "join.full": "All seats are taken. You can watch the match.",
    "join.sit": "Take a seat",
    "join.watch": "Watch",
    "conn.connecting": "Connecting…",
    "conn.open": "Connected",
    "conn.reconnecting": "Reconnecting…",
    "conn.gone": "Room closed",
    "banner.join": "Enter your name to join the table.",
    "banner.connecting": "Connecting to the table…",
    "banner.your_turn": "Your turn",
    "banner.their_turn": "{name}'s turn",
    "banner.waiting": "Waiting for another player. Copy the link and send it.",
    "banner.over": "The match is over",
    "end.you_won": "You won!",
    "end.won": "{name} won",
    "end.draw": "A draw",
    "end.rematch": "Rematch",
    "end.accept_rematch": "Accept rematch",
    "end.play_again": "Play again",
    "end.asked": "{names} asked for a rematch.",
    "end.waiting_rematch": "You asked for a rematch. Waiting for the other player…",
    "end.review": "Review the match",
    "end.tally": "Matches in this room: {matches}. Wins: {wins}. Draws: {draws}.",
    "gone.room_title": "This room does not exist",
    "gone.room_text":
      "The link may be mistyped, or the room was closed after a long time without play.",
    "gone.match_title": "This match cannot be shown",
    "gone.match_text":
      "It does not exist, or it is still being played (a running match is never revealed).",
    "gone.home": "Back to the start page",
    "nonet.title": "No connection",
    "nonet.text":
      "This device is offline or the server cannot be reached. Your seat and the match are kept; try again in a moment.",
    "nonet.retry": "Try again",
    "push.label": "Notify me when it is my turn, also with the tab closed",
    "push.help":
      "Your browser's push service brings the notice (your turn, a rematch offer, the match's end): it names the game, the other player and the room, never your cards.",
    "push.unsupported":
      "This browser cannot receive push notices (on an iPhone: add Kartenrunde to the home screen first).",
    "push.denied": "Notifications are blocked for this site in your browser settings.",
    "push.failed": "Could not turn on notices: {message}",
    "gone.game_title": "We do not know this game",
    "gone.game_text":
      "There is no game of that name here. The start page lists every game you can play.",
    "gone.page_title": "This page does not exist",
    "gone.page_text": "The link may be mistyped or out of date.",

    "error.malformed": "The server did not understand that message.",
    "error.too_large": "That message was too large.",
    "error.rate_limited": "Slow down a little: too many messages.",
    "error.not_seated": "Spectators cannot make moves.",
    "error.not_your_turn": "It is not your turn.",
    "error.game_over": "The match is already over.",
    "error.stale": "Someone else moved first; the table has been updated.",
    "error.illegal": "That move is not allowed by the rules.",
    "error.unknown_room": "This room does not exist any more.",
    "error.waiting": "Wait until every seat is taken.",
    "error.forbidden_origin": "This page may not connect to the table from here.",
    "error.unavailable": "The server could not save that just now. Please try again.",
    "error.unknown_game": "This server does not offer that game.",
    "error.unknown_preset": "This variant does not exist.",
    "error.bad_option": "These options do not fit together.",
    "error.unknown_match": "This match does not exist or is not finished yet.",
    "error.network": "No connection to the server. Check your network and try again.",
    "error.invalid": "Some input was not accepted.",
    "error.http": "The server answered with an error ({status}).",
    "error.unknown": "Something went wrong.",
    "error.unknown_level": "There is no computer player of that level for this game.",
    "error.no_free_seat": "There is no free seat for a computer player.",
    "error.not_offered": "Nobody has been away long enough for that.",

    "card.name": "{rank} of {suit}",
    "card.joker": "Joker",
    "card.night": "Night card {rank}",
    "card.back": "Face-down card",
    "card.unknown": "Card",
    "rank.2": "Two",
    "rank.3": "Three",
    "rank.4": "Four",
    "rank.5": "Five",
    "rank.6": "Six",
    "rank.7": "Seven",
    "rank.8": "Eight",
    "rank.9": "Nine",
    "rank.10": "Ten",
    "rank.J": "Jack",
    "rank.Q": "Queen",
    "rank.K": "King",
    "rank.A": "Ace",
    "suit.S": "spades",
    "suit.H": "hearts",
    "suit.D": "diamonds",
    "suit.C": "clubs",
    "suit.JK": "joker",
    "suit.N": "night",

    "history.title": "Finished matches",
    "history.lead": "Every finished match can be replayed move by move, with all hands shown.",
    "history.lead_mine":
      "The matches played in this browser, to replay move by move with all hands shown. No one else sees them.",
    "history.game": "Game",
    "history.all_games": "All games",
    "history.player": "Player",
    "history.filter": "Filter",
    "history.none": "No finished matches yet.",
    "history.none_mine": "You have not finished a match yet.",
    "history.none_filtered": "No finished match fits this filter.",
    "history.mine": "Your matches",
    "history.all": "All matches",
    "history.scope": "Whose matches",
    "history.more": "Show more",
    "history.winner": "won: {name}",
    "history.draw": "draw",
    "history.score": "score {score}",
    "replay.title": "Replay",
    "replay.first": "First",
    "replay.back": "Back",
    "replay.forward": "Forward",
    "replay.last": "Last",
    "replay.step": "Move {n} of {of}",
    "replay.slider": "Move",
    "replay.start": "The deal",
    "replay.lines": "Which line",
    "replay.line_yours": "Played ({score})",
    "replay.line_best": "Best line",
    "replay.line_best_score": "Best line ({score})",
    "replay.slip": "Fell below the best at move {n}",
    "replay.slip_here": "Here the best score ({score}) went out of reach.",
    "replay.keys": "Tip: the arrow keys step through the match.",
    "replay.players": "Players: {names}",
    "replay.result": "Result",
  },
  de: {
    "nav.label": "Hauptmenü",
    "nav.play": "Spielen",
    "nav.games": "Partien",
    "nav.me": "Du",
    "me.title": "Du",
    "me.lead":
      "Deine Plätze, Räume und Partien gehören dir, nicht diesem Browser. Melde dich auf einem anderen Gerät an, um dort auf denselben Plätzen zu spielen.",
    "signin.title": "Auf diesem Gerät anmelden",
    "signin.lead":
      "Dieser Browser spielt dann auf deinen Plätzen und sieht deine Räume und Partien, wie dein anderes Gerät.",
    "signin.button": "Anmelden",
    "me.name": "Dein Name",
    "me.name_help":
      "Offene Tische zeigen deinen neuen Namen sofort; beendete Partien behalten den Namen, unter dem sie gespielt wurden.",
    "me.rename": "Name speichern",
    "me.renamed": "Name gespeichert.",
    "me.link_title": "Auf einem anderen Gerät nutzen",
    "me.link_lead":
      "Scanne den Code mit deinem Handy oder öffne den Link auf dem anderen Gerät. Er gilt einmal und 10 Minuten lang.",
    "me.warning":
      "Wer diesen Link oder dein Cookie hat, kann auf deinen Plätzen spielen. Gib ihn niemand anderem.",
    "me.make_link": "Link zeigen",
    "me.qr": "QR-Code des Anmeldelinks",
    "me.copied": "Link kopiert. Öffne ihn auf deinem anderen Gerät.",
    "me.devices_title": "Deine Geräte",
    "me.push_title": "Benachrichtigungen auf diesem Gerät",
    "me.this_device": "dieses Gerät",
    "me.seen": "zuletzt {when}",
    "me.sign_out": "Abmelden",
    "me.sign_out_all": "Überall abmelden",
    "me.sign_out_all_confirm":
      "Alle Geräte abmelden? Dieser Browser bleibt mit einem neuen Geheimnis angemeldet.",
    "gone.link_title": "Dieser Anmeldelink gilt nicht mehr",
    "gone.link_text":
      "Ein Link gilt einmal und 10 Minuten lang. Mach unter „Du“ auf deinem anderen Gerät einen neuen.",
    "nav.history": "Verlauf",
    "nav.rules": "Regeln",
    "nav.skip": "Zum Inhalt springen",
    "theme.dark": "Dunkle Farben",
    "action.close": "Schließen",

    "home.title": "Kartenspiele mit Freunden",
    "home.lead":
      "Spiel wählen, Raum eröffnen, Link verschicken. Alle spielen im eigenen Browser und sehen nur die eigene Hand.",
    "home.new": "Neues Spiel",
    "home.game": "Spiel",
    "home.options": "Optionen",
    "home.variant": "Variante",
    "home.standard": "Standard",
    "home.custom": "Eigene",
    "home.create": "Raum eröffnen",
    "home.solo": "Solo",
    "home.seats": "{n} Personen",
    "home.rules_link": "Regeln lesen",
    "home.opponent": "Gegenüber",
    "home.friend": "Jemand mit Link",
    "home.computer": "Computer: {level}",
    "level.easy": "leicht",
    "level.strong": "stark",
    "level.random": "zufällig",
    "table.computer_plays": "Computer spielt",
    "table.add_computer_lead": "Gerade niemand zum Mitspielen da?",
    "table.add_computer": "Computer mitspielen lassen",
    "table.computer_level": "Stufe",
    "takeover.lead": "{name} ist seit einer Weile weg und wäre dran.",
    "takeover.wait": "Weiter warten",
    "takeover.computer": "Computer für {name} spielen lassen",
    "takeover.end": "Partie beenden",
    "end.abandoned": "Partie beendet: {name} war weg",
    "end.abandoned_note": "Eine beendete Partie zählt weder als Sieg noch als Niederlage.",
    "log.by_computer": "Computer",
    "history.abandoned": "beendet, {name} weg",
    "history.time_ran_out": "beendet, Zeit von {name} abgelaufen",
    "end.time_ran_out": "Partie beendet: Die Zeit von {name} ist abgelaufen",
    "takeover.time_lead": "Die Zeit von {name} für diesen Zug ist abgelaufen.",
    "log.time_ran_out": "Die Zeit von {name} ist abgelaufen",
    "home.turn_based": "Jemand, rundenbasiert",
    "home.move_time": "Zeit pro Zug",
    "home.move_days": "{n} Tage",
    "home.move_day": "1 Tag",
    "home.no_limit": "Ohne Limit",
    "home.games": "Deine Partien",
    "home.no_games": "Noch keine Partien. Eröffne einen Raum, dann steht er hier.",
    "home.all_games": "Alle deine Partien",
    "games.title": "Deine Partien",
    "games.lead": "Alle deine laufenden Partien, die, in denen du dran bist, zuerst.",
    "games.waiting_players": "wartet auf Mitspielende",
    "games.since": "dran seit {when}",
    "games.live": "live",
    "turn.you_have": "Du hast noch {left}",
    "turn.has": "{name} hat noch {left}",
    "turn.no_limit": "ohne Zeitlimit",
    "turn.ran_out_you": "Deine Zeit ist abgelaufen",
    "turn.ran_out": "Die Zeit von {name} ist abgelaufen",
    "time.day": "1 Tag",
    "time.days": "{n} Tage",
    "time.hours": "{n} Std.",
    "time.minutes": "{n} Min.",
    "choice.none": "Per Los",
    "choice.first.null": "Per Los",
    "choice.first.0": "Person 1 (wer den Raum eröffnet)",
    "choice.first.1": "Person 2",
    "name.label": "Dein Name",
    "name.required": "Bitte gib einen Namen ein (bis zu 24 Zeichen).",
    "room.open": "Öffnen",
    "room.your_turn": "Du bist dran",
    "room.their_turn": "{name} ist dran",

    "share.copy": "Link kopieren",
    "share.copied": "Link kopiert. Schick ihn der anderen Person.",
    "share.failed": "Kopieren ging nicht. Kopier die Adresse aus der Adresszeile.",

    "share.button": "Einladen",
    "share.title": "Jemanden einladen",
    "share.lead": "Schick diesen Link oder lass den Code mit dem Handy scannen.",
    "share.native": "Teilen…",
    "share.qr": "QR-Code des Links zu diesem Tisch",
    "settings.title": "Tisch-Einstellungen",
    "settings.sound": "Ton, wenn ich dran bin",
    "settings.sound_help": "Nur, solange dieser Tab im Hintergrund ist.",
    "settings.notify": "Benachrichtigen, wenn ich dran bin",
    "settings.notify_help":
      "Eine Browser-Benachrichtigung, solange dieser Tab im Hintergrund ist. Dein Browser fragt vorher um Erlaubnis; kein anderer Dienst ist beteiligt.",
    "settings.notify_denied":
      "Benachrichtigungen sind für diese Seite in deinem Browser blockiert.",
    "settings.notify_unsupported": "Dieser Browser kann keine Benachrichtigungen zeigen.",
    "settings.theme": "Farben",
    "settings.theme_system": "Wie das System",
    "settings.theme_light": "Hell",
    "settings.theme_dark": "Dunkel",
    "notify.title": "Du bist dran: {game}",
    "notify.body": "Die andere Person hat gezogen.",
    "log.title": "Züge",
    "log.empty": "Noch keine Züge.",
    "note.not_your_turn": "{name} ist dran: Warte auf den Zug.",
    "note.watching": "Du schaust zu: Nur die Mitspielenden können ziehen.",
    "note.over": "Die Partie ist zu Ende.",
    "note.offline": "Du bist offline: Züge gehen erst wieder, wenn die Verbindung steht.",
    "note.waiting": "Die Partie beginnt, sobald alle Plätze besetzt sind.",
    "note.pending": "Dein Zug ist unterwegs…",
    "note.nothing_here": "Das lässt sich gerade nicht wählen.",
    "offline.title": "Verbindung unterbrochen",
    "offline.no_network":
      "Dein Gerät ist offline. Sobald das Netz wieder da ist, verbinden wir neu.",
    "offline.retry_in": "Neuer Versuch in {n} s.",
    "offline.trying": "Verbinde neu…",
    "offline.no_moves": "Züge sind pausiert, bis die Verbindung wieder steht.",
    "offline.retry": "Jetzt neu verbinden",
    "conn.offline": "Offline",
    "banner.offline": "Offline: verbinde neu…",

    "table.loading": "Lädt…",
    "table.players": "Mitspielende",
    "table.seat": "Person {n}",
    "table.free_seat": "Freier Platz",
    "table.waiting_player": "Warte auf eine zweite Person…",
    "table.you": "Du",
    "table.you_did": "du",
    "table.you_note": "(du)",
    "table.online": "online",
    "table.offline": "offline",
    "table.wins": "{n} gewonnen",
    "table.wins_word": "gewonnen",
    "table.spectating": "Du schaust zu",
    "table.spectator_note": "Alle Plätze sind besetzt: Du schaust zu.",
    "table.last_move": "Letzter Zug ({name}):",
    "join.title": "{game}: Platz nehmen",
    "join.lead": "Wähl den Namen, den die anderen sehen.",
    "join.full": "Alle Plätze sind besetzt. Du kannst zuschauen.",
    "join.sit": "Platz nehmen",
    "join.watch": "Zuschauen",
    "conn.connecting": "Verbinde…",
    "conn.open": "Verbunden",
    "conn.reconnecting": "Verbinde neu…",
    "conn.gone": "Raum geschlossen",
    "banner.join": "Gib deinen Namen ein, um Platz zu nehmen.",
    "banner.connecting": "Verbinde mit dem Tisch…",
    "banner.your_turn": "Du bist dran",
    "banner.their_turn": "{name} ist dran",
    "banner.waiting": "Warte auf eine zweite Person. Kopier den Link und schick ihn.",
    "banner.over": "Die Partie ist zu Ende",
    "end.you_won": "Du hast gewonnen!",
    "end.won": "{name} hat gewonnen",
    "end.draw": "Unentschieden",
    "end.rematch": "Revanche",
    "end.accept_rematch": "Revanche annehmen",
    "end.play_again": "Nochmal spielen",
    "end.asked": "{names} möchte eine Revanche.",
    "end.waiting_rematch": "Du hast um eine Revanche gebeten. Warte auf die andere Person…",
    "end.review": "Partie ansehen",
    "end.tally": "Partien in diesem Raum: {matches}. Siege: {wins}. Unentschieden: {draws}.",
    "gone.room_title": "Diesen Raum gibt es nicht",
    "gone.room_text":
      "Vielleicht ist der Link vertippt, oder der Raum wurde nach langer Pause geschlossen.",
    "gone.match_title": "Diese Partie kann nicht gezeigt werden",
    "gone.match_text":
      "Es gibt sie nicht, oder sie läuft noch (eine laufende Partie wird nie aufgedeckt).",
    "gone.home": "Zur Startseite",
    "nonet.title": "Keine Verbindung",
    "nonet.text":
      "Dieses Gerät ist offline oder der Server ist nicht erreichbar. Dein Platz und die Partie bleiben erhalten; versuch es gleich noch einmal.",
    "nonet.retry": "Erneut versuchen",
    "push.label": "Benachrichtigen, wenn ich dran bin, auch bei geschlossenem Tab",
    "push.help":
      "Der Push-Dienst deines Browsers bringt die Nachricht (du bist dran, eine Revanche, das Ende der Partie): Sie nennt Spiel, Gegenüber und Tisch, nie deine Karten.",
    "push.unsupported":
      "Dieser Browser kann keine Push-Nachrichten empfangen (auf dem iPhone: Kartenrunde erst zum Home-Bildschirm hinzufügen).",
    "push.denied":
      "Benachrichtigungen sind für diese Seite in den Browser-Einstellungen blockiert.",
    "push.failed": "Benachrichtigungen ließen sich nicht einschalten: {message}",
    "gone.game_title": "Dieses Spiel kennen wir nicht",
    "gone.game_text":
      "Ein Spiel mit diesem Namen gibt es hier nicht. Die Startseite zeigt alle Spiele.",
    "gone.page_title": "Diese Seite gibt es nicht",
    "gone.page_text": "Vielleicht ist der Link vertippt oder veraltet.",

    "error.malformed": "Der Server hat die Nachricht nicht verstanden.",
    "error.too_large": "Die Nachricht war zu groß.",
    "error.rate_limited": "Etwas langsamer bitte: zu viele Nachrichten.",
    "error.not_seated": "Zuschauende können keine Züge machen.",
    "error.not_your_turn": "Du bist nicht dran.",
    "error.game_over": "Die Partie ist schon vorbei.",
    "error.stale": "Jemand war schneller; der Tisch ist jetzt aktuell.",
    "error.illegal": "Dieser Zug ist nach den Regeln nicht erlaubt.",
    "error.unknown_room": "Diesen Raum gibt es nicht mehr.",
    "error.waiting": "Warte, bis alle Plätze besetzt sind.",
    "error.forbidden_origin": "Diese Seite darf sich von hier aus nicht mit dem Tisch verbinden.",
    "error.unavailable": "Der Server konnte das gerade nicht speichern. Bitte versuch es nochmal.",
    "error.unknown_game": "Dieses Spiel gibt es auf diesem Server nicht.",
    "error.unknown_preset": "Diese Variante gibt es nicht.",
    "error.bad_option": "Diese Optionen passen nicht zusammen.",
    "error.unknown_match": "Diese Partie gibt es nicht, oder sie läuft noch.",
    "error.network": "Keine Verbindung zum Server. Prüf dein Netz und versuch es nochmal.",
    "error.invalid": "Eine Eingabe wurde nicht angenommen.",
    "error.http": "Der Server meldet einen Fehler ({status}).",
    "error.unknown": "Etwas ist schiefgegangen.",
    "error.unknown_level": "Einen Computer dieser Stufe gibt es für dieses Spiel nicht.",
    "error.no_free_seat": "Es ist kein Platz für einen Computer frei.",
    "error.not_offered": "Niemand ist lange genug weg dafür.",

    "card.name": "{suit} {rank}",
    "card.joker": "Joker",
    "card.night": "Nachtkarte {rank}",
    "card.back": "Verdeckte Karte",
    "card.unknown": "Karte",
    "rank.2": "Zwei",
    "rank.3": "Drei",
    "rank.4": "Vier",
    "rank.5": "Fünf",
    "rank.6": "Sechs",
    "rank.7": "Sieben",
    "rank.8": "Acht",
    "rank.9": "Neun",
    "rank.10": "Zehn",
    "rank.J": "Bube",
    "rank.Q": "Dame",
    "rank.K": "König",
    "rank.A": "Ass",
    "suit.S": "Pik",
    "suit.H": "Herz",
    "suit.D": "Karo",
    "suit.C": "Kreuz",
    "suit.JK": "Joker",
    "suit.N": "Nacht",

    "history.title": "Beendete Partien",
    "history.lead": "Jede beendete Partie lässt sich Zug für Zug ansehen, mit allen Handkarten.",
    "history.lead_mine":
      "Die Partien, die in diesem Browser gespielt wurden, Zug für Zug mit allen Handkarten. Niemand sonst sieht sie.",
    "history.game": "Spiel",
    "history.all_games": "Alle Spiele",
    "history.player": "Name",
    "history.filter": "Filtern",
    "history.none": "Noch keine beendeten Partien.",
    "history.none_mine": "Du hast noch keine Partie beendet.",
    "history.none_filtered": "Keine beendete Partie passt zu diesem Filter.",
    "history.mine": "Deine Partien",
    "history.all": "Alle Partien",
    "history.scope": "Wessen Partien",
    "history.more": "Mehr zeigen",
    "history.winner": "gewonnen: {name}",
    "history.draw": "unentschieden",
    "history.score": "{score} Punkte",
    "replay.title": "Partie ansehen",
    "replay.first": "Anfang",
    "replay.back": "Zurück",
    "replay.forward": "Vor",
    "replay.last": "Ende",
    "replay.step": "Zug {n} von {of}",
    "replay.slider": "Zug",
    "replay.start": "Das Austeilen",
    "replay.lines": "Welcher Weg",
    "replay.line_yours": "Gespielt ({score})",
    "replay.line_best": "Bester Weg",
    "replay.line_best_score": "Bester Weg ({score})",
    "replay.slip": "Unter den besten gefallen bei Zug {n}",
    "replay.slip_here": "Hier war das beste Ergebnis ({score}) nicht mehr erreichbar.",
    "replay.keys": "Tipp: Mit den Pfeiltasten gehst du durch die Partie.",
    "replay.players": "Mitspielende: {names}",
    "replay.result": "Ergebnis",
  },
};

const STORAGE_KEY = "kr_lang";
const listeners = new Set();

export const LANGUAGES = Object.keys(STRINGS);

export function lang() {
  const current = document.documentElement.lang;
  return LANGUAGES.includes(current) ? current : "en";
}

/** Switches the language, remembers it and tells every listener to redraw. */
export function setLang(value) {
  if (!LANGUAGES.includes(value) || value === lang()) return;
  document.documentElement.lang = value;
  try {
    localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // the choice then lasts for this page only
  }
  for (const listener of listeners) listener(value);
}

export function onLangChange(listener) {
  listeners.add(listener);
}

/**
 * The string for `key` with {placeholders} filled; `fallback` (or the key) when there is none.
 * When vars.n is 1 and a string "<key>_one" exists, that one is used ("1 card", not "1 cards").
 */
export function t(key, vars = {}, fallback = key) {
  const find = (name) => STRINGS[lang()][name] ?? STRINGS.en[name];
  const text = (Number(vars.n) === 1 ? find(`${key}_one`) : undefined) ?? find(key);
  if (text === undefined) return fallback;
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in vars ? String(vars[name]) : match));
}

/** Picks the current language from a {de, en} object sent by the server. */
export function localized(texts) {
  if (!texts || typeof texts !== "object") return texts ?? "";
  return texts[lang()] ?? texts.en ?? Object.values(texts)[0] ?? "";
}

/** Translates the server-rendered elements marked with data-i18n (and -title, -aria-label, -placeholder). */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ["title", "aria-label", "placeholder"]) {
    const data = `i18n${attr.replace(/(^|-)(\w)/g, (_match, _dash, c) => c.toUpperCase())}`;
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`))
      el.setAttribute(attr, t(el.dataset[data]));
  }
}

/**
 * Adds strings, {en: {...}, de: {...}}: a game module adds the ones of its own strings file.
 * Adding the same text again is harmless; a key may not change a text that is already there.
 */
export function addStrings(texts) {
  for (const language of LANGUAGES) {
    for (const [key, text] of Object.entries(texts?.[language] ?? {})) {
      const known = STRINGS[language][key];
      if (known !== undefined && known !== text)
        throw new Error(`the string ${key} (${language}) is defined twice`);
      STRINGS[language][key] = text;
    }
  }
}

/** Loads and adds the strings of the game `name` (games/<name>.strings.js); false when it has none. */
export async function loadGameStrings(name) {
  let module;
  try {
    module = await import(`./games/${encodeURIComponent(name)}.strings.js`);
  } catch {
    return false;
  }
  addStrings(module.default);
  return true;
}

/** Every key of `base` that `other` lacks, for the tests that keep both languages complete. */
export function missingKeys(base = "en", other = "de") {
  return Object.keys(STRINGS[base]).filter((key) => !(key in STRINGS[other]));
}
