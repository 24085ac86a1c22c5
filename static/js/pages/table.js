// The table shell: name prompt, connection and the offline state, seats and presence, turn
// banner, the move log, short notes for clicks that do nothing, turn signals (title, favicon,
// sound, browser notification), the invite panel, end screen and rematch. The game's own
// module (static/js/games/<name>.js) draws the board; nothing here names a game.
//
// One object, `shell`, holds everything the table shows; every handler (a socket message, a
// click, a timer, an answer of the API) changes the shell and then calls render(), which
// draws every part from it. render() may run at any time: a part draws again only what
// changed (see redraw and patch), so a redraw never takes a control from under a pointer.

import { lang, localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { pushSetting } from "../push.js";
import { RoomSocket } from "../socket.js";
import {
  api,
  copyText,
  elapsed,
  errorText,
  fill,
  gameList,
  h,
  offeredLevels,
  roomLink,
  storedName,
  storeName,
  timeLeft,
  toast,
  when,
} from "../ui.js";
import { sameAction } from "../games/common.js";
import { applyTheme, prefs, setPref } from "../prefs.js";
import { qrSvg } from "../qr.js";
import { animateMoves, snapshotCards } from "../motion.js";
import { createChat } from "../chat.js";
import { placeText, wirePanel } from "../wire.js";

const board = document.getElementById("board");
const shell = {
  roomId: document.body.dataset.roomId,
  room: null, // GET /api/rooms/{id}
  info: null, // the game's entry in GET /api/games
  game: null, // the game's module
  seat: undefined, // undefined until this browser joined; null: a spectator
  nameAsked: 0, // how often the name prompt was shown (each time anew, focused)
  state: null,
  players: [],
  rematch: null,
  ui: {}, // the game module's own, kept across renders of one match (ctx.ui)
  uiVersion: 0, // counts the game module's own changes (ctx.rerender): its board is drawn again
  recent: [],
  log: [], // every move of the current match: {ply, seat, action}
  logVersion: null, // the version the log is complete up to
  // The seat whose time ran out in this turn (an offer said so), even if the others then
  // chose to keep waiting and its deadline moved: the log says so before its move, as the
  // stored log does after a reload.
  ranOutSeat: null,
  pending: false,
  socket: null,
  connection: "connecting",
  online: navigator.onLine,
  wasMyTurn: false, // the turn signals' last look: a turn that starts is signalled once
  takeover: null, // the latest takeover message: {seat, levels, away, ...}; seat null = none
  offerAt: 0, // when the offer for the away seat comes, by this browser's clock
  confirming: null, // a one-tap move shown, not yet sent: {action, took, key}
  note: null, // the short line under the table: {text}
  sheet: null, // the sheet open over the board on a phone: "log", "chat" or null
  dialog: null, // the popover open: {kind: "share" | "settings" | "confirm", ...}
  wire: null, // the latest state message exactly as it arrived (the developer's wire panel)
  notice: null, // shown instead of the table for good: {title, text} (endTable)
};
const COMPUTER_NAME = "Computer"; // the server's name for the computer's own seat

/* What the shell says (read by every part) */

function playerName(seat) {
  const player = shell.players.find((p) => p.seat === seat);
  if (player && !player.name) return t("table.free_seat");
  return player?.name || t("table.seat", { n: seat + 1 });
}

/** Who sits where, in the words shown: a part that names players draws again when it changes. */
function seating() {
  return `${lang()} ${JSON.stringify(shell.players.map((p) => [p.seat, p.name, p.computer]))}`;
}

/** The computer's own seat (not a person's seat it plays while they are away). */
function isComputerSeat(player) {
  return Boolean(player?.computer) && player.name === COMPUTER_NAME;
}

function levelName(level) {
  return t(`level.${level}`, {}, level);
}

function gameTitle() {
  if (!shell.room) return null;
  return shell.info ? localized(shell.info.title) : shell.room.game;
}

function isMyTurn() {
  const state = shell.state;
  return Boolean(state && !state.result && state.seat !== null && state.to_move === state.seat);
}

function isOffline() {
  return Boolean(shell.socket) && (shell.connection !== "open" || !shell.online);
}

function legal(action) {
  return Boolean(shell.state?.legal_actions?.some((candidate) => sameAction(candidate, action)));
}

const TOUCH = matchMedia("(pointer: coarse)");

/** As this device chose, else on for a touch screen in a turn-based room (a mis-tap there
 * costs a day's wait to answer). */
function confirmsMoves() {
  return prefs().confirmMoves ?? (TOUCH.matches && Boolean(shell.room?.turn_based));
}

/* Drawing: render() may run at any time, so each part draws only what changed. A redraw
   under a pointer would swallow its click; a new element loses the focus, the scroll
   position and a choice made in it. */

const drawnFrom = new WeakMap(); // element -> the inputs it was last drawn from (a DOM cache)

/** Calls draw() when one of `inputs` differs (Object.is) from those `el` was last drawn from. */
function redraw(el, inputs, draw) {
  const before = drawnFrom.get(el);
  if (before?.length === inputs.length && before.every((input, i) => Object.is(input, inputs[i])))
    return false;
  drawnFrom.set(el, inputs);
  draw();
  return true;
}

/** Replaces el's children with these unless it shows equal ones already. Equal nodes keep
 * their listeners: a handler built here reads the shell when it runs, not when it is made. */
function patch(el, ...children) {
  const next = fill(document.createDocumentFragment(), ...children);
  const shown = el.childNodes;
  if (
    shown.length === next.childNodes.length &&
    [...shown].every((node, i) => node.isEqualNode(next.childNodes[i]))
  )
    return false;
  el.replaceChildren(...next.childNodes);
  return true;
}

/** The one render: every part, from the shell. The offer comes before the board (which
 * gives the offer the current step), the board before the sheets (placed beside it). */
let rendering = false;
let renderAgain = false; // render() was called while it ran (a game module's rerender)
function render() {
  if (rendering) {
    renderAgain = true;
    return;
  }
  rendering = true;
  try {
    do {
      renderAgain = false;
      renderParts();
    } while (renderAgain);
  } finally {
    rendering = false;
  }
}

function renderParts() {
  renderDialogs(); // over anything: the page loading, the table, a notice
  renderNote();
  if (shell.notice) return renderNotice();
  if (!shell.room) return; // the page shows its loading state until the room is known
  renderHead();
  renderSignals();
  renderSeats();
  renderBanner();
  renderMatchTools();
  renderTakeback();
  renderEnd();
  renderOffer();
  renderBoard();
  renderLog();
  renderOffline();
  renderSheets();
  renderWire();
}

/* Acting: moves and one-tap moves */

/** Sends an action, but only one the server listed as legal in the latest state, and only online. */
function act(action) {
  if (isOffline()) {
    say(t("note.offline"));
    return;
  }
  if (shell.pending || !legal(action)) return;
  shell.pending = true;
  shell.socket.send({ type: "action", version: shell.state.version, action });
  render();
}

/* Confirming one-tap moves: with "Confirm moves" on, a tap on a card or pile shows its move in
   the banner; a second tap on it, or Confirm, sends it; any other tap, or Cancel, drops it. */

// The [data-key] of the board's element the current click is on: noted while the click
// passes down to the game's handler, which calls tap() (private to the taps' listeners).
let tappedKey = null;

/** A one-tap move (`took`: the open cards it would take, for the game's words). */
function tap(action, took = []) {
  if (!confirmsMoves() || isOffline() || shell.pending || !legal(action)) return act(action);
  if (shell.confirming && sameAction(shell.confirming.action, action)) return confirmMove();
  shell.confirming = { action, took, key: tappedKey };
  render();
}

function confirmMove() {
  const { action } = shell.confirming;
  dropConfirming();
  act(action);
}

function dropConfirming() {
  if (!shell.confirming) return;
  shell.confirming = null;
  render();
}

/** Marks the board's element of the move shown (after the board is drawn). */
function markConfirming() {
  const key = shell.confirming?.key;
  const marked = key ? board.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  for (const el of board.querySelectorAll(".is-confirming"))
    if (el !== marked) el.classList.remove("is-confirming");
  marked?.classList.add("is-confirming");
}

/** A click that neither taps a move nor answers the banner drops the move shown. */
function watchTaps() {
  let shown = null;
  board.addEventListener(
    "click",
    (event) => {
      tappedKey = event.target.closest("[data-key]")?.dataset.key ?? null;
    },
    true,
  );
  document.addEventListener(
    "click",
    () => {
      shown = shell.confirming;
    },
    true,
  );
  document.addEventListener("click", (event) => {
    if (shell.confirming && shell.confirming === shown && !event.target.closest("#banner"))
      dropConfirming();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") dropConfirming();
  });
}

/** The banner while a move waits for its confirmation: what it does, Confirm and Cancel. */
function confirmContent() {
  const { action, took } = shell.confirming;
  const move = shell.game.describe?.({ seat: shell.seat, action, took }, context());
  const button = (id, label, style, onclick) =>
    h(
      "button",
      { type: "button", class: ["btn", "btn-small", "confirm-move", style], id, onclick },
      label,
    );
  return [
    h("span", { class: "banner-text" }, t("confirm_move.lead")),
    move ? h("span", { class: "banner-hint", "data-testid": "confirm-what" }, move) : null,
    h(
      "span",
      { class: "confirm-move-buttons" },
      button("confirm-move", t("confirm_move.yes"), "btn-primary", confirmMove),
      button("cancel-move", t("action.cancel"), "", dropConfirming),
    ),
  ];
}

/* The note: one short line under the table saying why a click did nothing */

function say(text) {
  shell.note = { text };
  render();
}

let noteTimer = null; // the note's own: it goes after 3.5 s
function renderNote() {
  const note = document.getElementById("table-note");
  redraw(note, [shell.note], () => {
    clearTimeout(noteTimer);
    note.textContent = "";
    if (!shell.note) {
      note.classList.remove("is-shown");
      return;
    }
    // Emptied first and filled on the next frame: the same words said again are read again.
    const { text } = shell.note;
    requestAnimationFrame(() => {
      note.textContent = text;
      note.classList.add("is-shown");
    });
    noteTimer = setTimeout(() => {
      shell.note = null;
      render();
    }, 3500);
  });
}

/* The board: the game's module draws it */

function context() {
  const state = shell.state;
  return {
    seat: state.seat,
    readOnly: state.seat === null,
    pending: shell.pending,
    offline: isOffline(),
    ui: shell.ui,
    recent: shell.recent,
    act,
    tap,
    say,
    name: playerName,
    rerender,
  };
}

/** The game's module changed what it shows (ctx.ui, an answer it fetched). */
function rerender() {
  shell.uiVersion += 1;
  render();
}

function renderBoard() {
  if (shell.state) drawGame();
  else if (shell.seat !== undefined)
    redraw(board, ["connecting", lang()], () =>
      fill(board, h("p", { class: "muted" }, t("banner.connecting"))),
    );
  else if (shell.nameAsked) redraw(board, ["name", lang(), shell.nameAsked], drawNamePrompt);
  markConfirming();
}

/** The game's board, drawn again when what it shows changed; keyboard focus stays on the
 * control that had it, and the cards of the move just made travel to their new places. */
function drawGame() {
  const state = shell.state;
  const offered = offerKind() !== null;
  const inputs = [state, shell.pending, isOffline(), shell.uiVersion, shell.recent, seating()];
  redraw(board, [...inputs, offered], () => {
    const focused = document.activeElement?.closest?.("[data-key]");
    const key = board.contains(focused) ? focused.dataset.key : null;
    const moved =
      board.dataset.match === String(state.match_number) &&
      board.dataset.version !== String(state.version) &&
      state.last_action &&
      state.takeback?.undone == null;
    const before = moved ? snapshotCards(board) : null;
    board.setAttribute("aria-busy", String(shell.pending));
    board.dataset.match = String(state.match_number);
    board.dataset.version = String(state.version);
    shell.game.render(board, state, context());
    if (state.result || offered) {
      // a finished match, or an offer (never on your turn: it is for an absent mover or a
      // room still waiting): the panel above is the current step
      for (const el of board.querySelectorAll("[data-needed]")) delete el.dataset.needed;
    }
    if (key) board.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
    if (before) animateMoves(before, board, state.last_action, state.seat);
  });
}

/** A click on the table that did nothing says why, in one short line. */
function explainClick(event) {
  if (
    !shell.state ||
    event.defaultPrevented ||
    event.target.closest("button:not(:disabled), a, input, summary")
  )
    return;
  if (!event.target.closest(".card, .pile, .card-slot")) return;
  const state = shell.state;
  if (state.seat === null) say(t("note.watching"));
  else if (state.result) say(t("note.over"));
  else if (isOffline()) say(t("note.offline"));
  else if (state.to_move === null) say(t("note.waiting"));
  else if (!isMyTurn()) say(t("note.not_your_turn", { name: playerName(state.to_move) }));
  else if (shell.pending) say(t("note.pending"));
  else say(shell.game.explainClick?.(event, state, context()) ?? t("note.nothing_here"));
}

/* The head: title, connection, the page's classes */

function renderHead() {
  const title = gameTitle() ?? t("table.loading");
  document.getElementById("game-title").textContent = title;
  const mine = isMyTurn() && !isOffline();
  const prefix = mine ? `▶ ${t("banner.your_turn")} · ` : "";
  document.title = `${prefix}${title} — Kartenrunde`;
  document.body.classList.toggle("my-turn", mine);
  document.body.classList.toggle("is-offline", isOffline());
  document.body.classList.toggle("is-over", Boolean(shell.state?.result));
  const conn = document.getElementById("conn");
  const status = !shell.online && shell.socket ? "offline" : shell.connection;
  conn.className = `conn is-${status}`;
  conn.hidden = !shell.socket;
  conn.title = t(`conn.${status}`);
  patch(conn, h("span", { class: "conn-text" }, t(`conn.${status}`)));
}

/* Seats */

function renderSeats() {
  const list = document.getElementById("seats");
  const tally = shell.state?.tally ?? shell.room?.tally;
  const toMove = shell.state?.result ? null : shell.state?.to_move;
  patch(
    list,
    ...shell.players.map((player) => {
      const mine = player.seat === shell.seat;
      const connected = mine && shell.socket ? !isOffline() : player.connected;
      return h(
        "li",
        {
          class: [
            "seat",
            connected && "is-connected",
            toMove === player.seat && "is-moving",
            mine && "is-you",
            !player.name && "is-free",
          ],
          data: { seat: String(player.seat) },
        },
        h("span", { class: "dot", "aria-hidden": "true" }),
        seatName(player.seat),
        seatRating(player.seat),
        isComputerSeat(player)
          ? h("span", { class: "seat-note seat-level" }, `(${levelName(player.computer)})`)
          : null,
        mine ? h("span", { class: "seat-note seat-you" }, t("table.you_note")) : null,
        player.computer && !isComputerSeat(player)
          ? h("span", { class: "seat-note seat-computer" }, t("table.computer_plays"))
          : null,
        player.name && !player.computer
          ? h(
              "span",
              { class: "seat-note seat-presence" },
              t(connected ? "table.online" : "table.offline"),
            )
          : null,
        tally && player.name && shell.players.length > 1
          ? winsChip(tally.wins?.[player.seat] ?? 0)
          : null,
      );
    }),
    shell.seat === null
      ? h(
          "li",
          { class: "seat is-spectator" },
          h("span", { class: "seat-name" }, t("table.spectating")),
        )
      : null,
  );
}

/** A person's rating for the state's seat, if the server sent it (app/people/records.py). */
function ratingOf(seat) {
  return shell.state?.ratings?.[seat] ?? null;
}

/** A seat's name, a link to the person's record where the server sent their rating. */
function seatName(seat) {
  const rating = ratingOf(seat);
  const name = playerName(seat);
  if (!rating) return h("span", { class: "seat-name" }, name);
  return h(
    "a",
    { class: "seat-name", href: `/players/${encodeURIComponent(rating.player_id)}` },
    name,
  );
}

/** Small beside the name: the rating and the matches it rests on. */
function seatRating(seat) {
  const rating = ratingOf(seat);
  if (!rating) return null;
  const title =
    rating.rating === null
      ? t("players.unrated_chip")
      : t("players.rating_chip", { rating: rating.rating, n: rating.matches });
  return h(
    "span",
    { class: "seat-rating", title, "aria-label": title },
    rating.rating === null ? "–" : `${rating.rating} (${rating.matches})`,
  );
}

/** A seat's matches won; where the seats are narrow, the number alone shows. */
function winsChip(n) {
  return h(
    "span",
    { class: "seat-wins", title: t("table.wins", { n }) },
    String(n),
    h("span", { class: "seat-wins-word" }, ` ${t("table.wins_word")}`),
  );
}

/* The banner: whose turn, the turn's clock, the last move */

function bannerContent() {
  const state = shell.state;
  if (!state)
    return { kind: "", text: t(shell.seat === undefined ? "banner.join" : "banner.connecting") };
  if (isOffline() && !state.result) return { kind: "is-offline", text: t("banner.offline") };
  if (state.result) return { kind: "is-over", text: t("banner.over") };
  if (state.to_move === null) return { kind: "is-waiting", text: t("banner.waiting") };
  if (isMyTurn())
    return {
      kind: "is-mine",
      text: t("banner.your_turn"),
      hint: shell.game.turnHint?.(state, context()),
    };
  return {
    kind: "",
    text: t("banner.their_turn", { name: playerName(state.to_move) }),
    hint: awayCountdown(),
  };
}

/** While the mover is away, how long until the others may choose ("Ben is away · you may
 * choose in 2:14"); null for the one away, onlookers and once an offer stands. */
function awayCountdown() {
  const away = shell.takeover?.away;
  if (away == null || away !== shell.state?.to_move || shell.seat == null || shell.seat === away)
    return null;
  const seconds = Math.max(0, Math.ceil((shell.offerAt - Date.now()) / 1000));
  const left = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return h(
    "span",
    { "data-testid": "away-countdown" },
    t("banner.away_choose", { name: playerName(away), left }),
  );
}

function renderBanner() {
  const banner = document.getElementById("banner");
  // The board stays where it was while a move is shown, under the finger that taps it again.
  if (!shell.confirming) banner.style.minHeight = "";
  else if (!banner.classList.contains("is-confirming"))
    banner.style.minHeight = `${banner.getBoundingClientRect().height}px`;
  document.body.classList.toggle("is-confirming-move", Boolean(shell.confirming));
  if (shell.confirming) {
    banner.className = "turn-banner is-mine is-confirming";
    patch(banner, ...confirmContent());
    return;
  }
  const { kind, text, hint } = bannerContent();
  banner.className = ["turn-banner", kind].filter(Boolean).join(" ");
  patch(
    banner,
    h("span", { class: "banner-text" }, text),
    hint ? h("span", { class: "banner-hint" }, hint) : null,
    turnClock(),
    lastMove(),
  );
}

/** The seconds left of a turn-based room's move (null: no limit or no running turn). */
function secondsLeft(turn) {
  if (!turn?.deadline) return null;
  return (new Date(turn.deadline).getTime() - Date.now()) / 1000;
}

/** A turn-based room's clock: whose turn since when, how long is left ("Ben has 1 day 4 h"). */
function turnClock() {
  const turn = shell.state?.turn;
  if (!turn || shell.state.result) return null;
  const mine = turn.seat === shell.seat;
  const name = playerName(turn.seat);
  const left = secondsLeft(turn);
  let text = t("turn.no_limit");
  if (left !== null && left <= 0) text = mine ? t("turn.ran_out_you") : t("turn.ran_out", { name });
  else if (left !== null)
    text = mine
      ? t("turn.you_have", { left: timeLeft(left) })
      : t("turn.has", { name, left: timeLeft(left) });
  return h(
    "span",
    { class: "banner-hint turn-clock", "data-testid": "turn-clock", title: when(turn.since) },
    `${text} · ${t("games.since", { when: elapsed(turn.since) })}`,
  );
}

/** The other player's latest turn in words (both steps of a two-step turn). */
function lastMove() {
  const last = shell.state?.last_action;
  if (!last || shell.state.result || !shell.game.describe) return null;
  const standing = shell.log.filter((move) => !move.taken_back);
  const turn = turnOf(
    standing.length ? standing : shell.recent,
    standing.length ? standing.length - 1 : shell.recent.length - 1,
  );
  const moves = turn.length ? turn : [last];
  const seat = moves[0].seat;
  const who = seat === shell.seat ? t("table.you_did") : playerName(seat);
  const words = moves.map((move) => shell.game.describe(move, context()));
  return h(
    "span",
    { class: "last-move banner-hint", "data-testid": "last-move" },
    h("span", {}, t("table.last_move", { name: who })),
    h(
      "span",
      {},
      words.flatMap((move, i) => (i ? [", ", move] : [move])),
    ),
  );
}

/** The moves of the turn that ends at `index` (consecutive moves of one seat; solo: one move). */
function turnOf(moves, index) {
  if (shell.players.length < 2) return moves[index] ? [moves[index]] : [];
  const turn = [];
  for (let i = index; i >= 0 && moves[i]?.seat === moves[index]?.seat; i -= 1)
    turn.unshift(moves[i]);
  return turn;
}

/* The move log */

function renderLog() {
  const log = document.getElementById("log");
  const toggle = document.getElementById("log-toggle");
  const available = Boolean(shell.state && shell.game?.describe);
  toggle.hidden = !available;
  // Beside the log's toggle only: alone, it made a waiting room's turn line taller.
  document.getElementById("chat-toggle").hidden = !available;
  log.hidden = !available;
  if (!available) return;
  const list = document.getElementById("log-list");
  // Drawn again only when a move or a name changed: the list keeps where it was scrolled to.
  redraw(list, [shell.log, shell.state, seating()], () => {
    const { items, turns } = logItems();
    fill(list, ...items);
    document.getElementById("log-count").textContent = turns ? `(${turns})` : "";
    list.scrollTop = list.scrollHeight;
  });
}

/** The log's lines, a turn each (the moves a seat made in a row), and the count of turns. */
function logItems() {
  const ctx = context();
  const breaks = new Map();
  for (const note of shell.game.logNotes?.(shell.log, shell.state, ctx) ?? []) {
    breaks.set(note.after, [...(breaks.get(note.after) ?? []), note.content]);
  }
  const items = [];
  const solo = shell.players.length < 2;
  let turns = 0;
  if (shell.log[0]?.time_ran_out) items.push(ranOutNote(shell.log[0].seat));
  for (let i = 0; i < shell.log.length; i += 1) {
    const move = shell.log[i];
    const next = shell.log[i + 1];
    const start = solo || i === 0 || shell.log[i - 1].seat !== move.seat || breaks.has(i - 1);
    if (start) turns += 1;
    const endOfTurn = solo || !next || next.seat !== move.seat || breaks.has(i);
    if (endOfTurn) {
      const turn = [];
      for (
        let j = i;
        j >= 0 && shell.log[j].seat === move.seat && (j === i || (!solo && !breaks.has(j)));
        j -= 1
      )
        turn.unshift(shell.log[j]);
      const mine = move.seat === shell.seat;
      const computer = turn.some((m) => m.computer);
      const standIn = computer && !isComputerSeat(shell.players.find((p) => p.seat === move.seat));
      items.push(
        h(
          "li",
          {
            class: ["log-turn", mine && "is-mine", computer && "is-computer"],
            data: { seat: String(move.seat), ply: String(move.ply), computer: String(computer) },
          },
          h(
            "span",
            { class: "log-who" },
            mine ? t("table.you") : playerName(move.seat),
            standIn ? h("span", { class: "log-computer" }, ` (${t("log.by_computer")})`) : null,
          ),
          " ",
          h(
            "span",
            { class: "log-what" },
            turn.flatMap((m, k) => (k ? [", ", logMove(m, ctx)] : [logMove(m, ctx)])),
          ),
        ),
      );
    }
    for (const content of breaks.get(i) ?? []) items.push(h("li", { class: "log-note" }, content));
    if (next?.time_ran_out && next.seat !== move.seat) items.push(ranOutNote(next.seat));
  }
  if (!items.length) items.push(h("li", { class: "log-empty muted" }, t("log.empty")));
  return { items, turns };
}

/** A move in the log; one a takeback undid is struck through and says so. */
function logMove(move, ctx) {
  if (!move.taken_back) return shell.game.describe(move, ctx);
  return h(
    "span",
    { class: "is-taken-back", "data-testid": "log-taken-back" },
    shell.game.describe(move, ctx),
    ` (${t("log.taken_back")})`,
  );
}

function ranOutNote(seat) {
  return h(
    "li",
    { class: "log-note", "data-testid": "log-time-ran-out" },
    t("log.time_ran_out", { name: seat === shell.seat ? t("table.you") : playerName(seat) }),
  );
}

/* The log's moves: extended by each state, fetched whole after a reload or a gap */

/** The whole log from the server (after a reload, a reconnect or a gap); one fetch at a time. */
let logFetch = null; // the fetch under way (private to the log's loading)
function fetchLog() {
  if (logFetch) return;
  logFetch = loadLog().then((stale) => {
    logFetch = null;
    if (stale) fetchLog();
  });
}

/** Answers whether a newer state arrived meanwhile, so the log must be fetched again. */
async function loadLog() {
  const match = shell.state?.match_number;
  let data;
  try {
    data = await api(`/api/rooms/${encodeURIComponent(shell.roomId)}/moves`);
  } catch {
    return false;
  }
  if (shell.state?.match_number !== match) return true;
  if (data.match_number !== match) return false; // a new match: its state brings its own fetch
  if (data.version < shell.state.version) return true;
  shell.log = data.moves;
  shell.logVersion = data.version;
  // The board shows the last moves; drawn again only when they were unknown (after a reload).
  if (shell.recent.length === 0 && shell.log.length) shell.recent = shell.log.slice(-4);
  render();
  return false;
}

/** The log after a state: its move added (or marked taken back), else fetched whole. */
function extendLog(message, resync, previousTurn) {
  if (message.version === 0) {
    shell.log = [];
    shell.logVersion = 0;
    return;
  }
  const undone = message.takeback?.undone ?? null;
  if (!resync && undone !== null && shell.logVersion === message.version - 1) {
    shell.log = shell.log.map((move) =>
      move.ply === undone ? { ...move, taken_back: true } : move,
    );
    shell.logVersion = message.version;
  } else if (!resync && message.last_action && shell.logVersion === message.version - 1) {
    const seat = message.last_action.seat;
    if (seat !== shell.ranOutSeat) shell.ranOutSeat = null;
    const passed = secondsLeft(previousTurn) !== null && secondsLeft(previousTurn) <= 0;
    const late = passed || seat === shell.ranOutSeat;
    const move = { ply: message.version, ...message.last_action, time_ran_out: late };
    shell.log = [...shell.log, move];
    shell.logVersion = message.version;
  } else if (shell.logVersion !== message.version) {
    fetchLog();
  }
}

/* The sheets: the move log and the chat, one at a time, over the board on a phone upright
   (beside it on a desktop) */

function openSheet(sheet, open) {
  if (open) shell.sheet = sheet;
  else if (shell.sheet === sheet) shell.sheet = null;
  render();
  if (sheet === "chat") chat.seen();
}

const chat = createChat({
  roomId: shell.roomId,
  me: () => ({
    seat: shell.seat ?? null,
    name: storedName(),
    mayWrite:
      shell.seat !== undefined && (shell.seat !== null || Boolean(shell.room?.spectator_chat)),
  }),
  send: (message) => shell.socket?.send(message),
});

function renderSheets() {
  for (const sheet of ["log", "chat"]) {
    const open = shell.sheet === sheet;
    document.body.classList.toggle(`${sheet}-open`, open);
    document.getElementById(`${sheet}-toggle`).setAttribute("aria-expanded", String(open));
  }
  placeSheet();
}

/* On a phone upright the open sheet lies over the board, in the largest band the current step
   (what the game marks data-needed) leaves free: above, below or beside it, at most half the
   screen (app.css places it elsewhere). */
const UPRIGHT_PHONE = matchMedia("(max-width: 700px) and (min-height: 501px)");
const SHEET_MIN = { width: 200, height: 120 };

function placeSheet() {
  if (!UPRIGHT_PHONE.matches || !shell.sheet) return;
  const band = sheetBand();
  const sheet = document.getElementById(shell.sheet).style;
  sheet.setProperty("--sheet-left", `${band.left}px`);
  sheet.setProperty("--sheet-top", `${band.top}px`);
  sheet.setProperty("--sheet-width", `${band.right - band.left}px`);
  sheet.setProperty("--sheet-height", `${band.bottom - band.top}px`);
}

/** The largest band of the board (on screen) beside the current step; the board's foot if none. */
function sheetBand() {
  const box = board.getBoundingClientRect();
  const area = {
    ...box.toJSON(),
    top: Math.max(box.top, 0),
    bottom: Math.min(box.bottom, innerHeight),
  };
  const step = neededBox() ?? { ...area, top: area.bottom };
  const tall = Math.min(area.bottom - area.top, innerHeight / 2);
  const wide = Math.min(area.right - area.left, innerWidth / 2);
  const bands = [
    { ...area, top: Math.max(area.top, step.top - tall), bottom: step.top },
    { ...area, top: step.bottom, bottom: Math.min(area.bottom, step.bottom + tall) },
    { ...area, left: Math.max(area.left, step.left - wide), right: step.left },
    { ...area, left: step.right, right: Math.min(area.right, step.right + wide) },
  ];
  const fits = (b) => b.right - b.left >= SHEET_MIN.width && b.bottom - b.top >= SHEET_MIN.height;
  const size = (b) => (b.right - b.left) * (b.bottom - b.top);
  return (
    bands.filter(fits).sort((a, b) => size(b) - size(a))[0] ?? {
      ...area,
      top: area.bottom - SHEET_MIN.height,
    }
  );
}

/** The box around everything the current step needs, or null. */
function neededBox() {
  const boxes = [...board.querySelectorAll("[data-needed]")]
    .map((el) => el.getBoundingClientRect())
    .filter((box) => box.width && box.height);
  if (!boxes.length) return null;
  return {
    left: Math.min(...boxes.map((box) => box.left)),
    right: Math.max(...boxes.map((box) => box.right)),
    top: Math.min(...boxes.map((box) => box.top)),
    bottom: Math.max(...boxes.map((box) => box.bottom)),
  };
}

/* The offline state */

function renderOffline() {
  const panel = document.getElementById("offline");
  const offline = isOffline() && (Boolean(shell.state) || shell.connection === "reconnecting");
  panel.hidden = !offline;
  board.inert = offline;
  if (!offline) return;
  const when = shell.socket?.nextAttemptAt;
  const seconds = when ? Math.max(0, Math.ceil((when - Date.now()) / 1000)) : 0;
  const reason = !shell.online
    ? t("offline.no_network")
    : seconds > 0
      ? t("offline.retry_in", { n: seconds })
      : t("offline.trying");
  // Each second only the reason's words change: a box drawn anew would take "Retry now"
  // from under a finger (or a click) in the middle of it.
  const shown = panel.querySelector(".offline-reason");
  if (shown && panel.dataset.lang === document.documentElement.lang) {
    shown.textContent = reason;
    return;
  }
  panel.dataset.lang = document.documentElement.lang;
  fill(
    panel,
    h(
      "div",
      { class: "offline-box" },
      h("strong", { class: "offline-title" }, t("offline.title")),
      h("span", { class: "offline-reason" }, reason),
      h("span", { class: "muted-strong" }, t("offline.no_moves")),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-primary",
          id: "retry-now",
          onclick: () => shell.socket?.retryNow(),
        },
        t("offline.retry"),
      ),
    ),
  );
}

/* Turn signals: favicon badge, sound, browser notification (nothing leaves the server) */

const ICON = "/static/img/icon.svg";
// A favicon is drawn like an <img>, which loads nothing further: the badge carries the icon's
// own shapes, not a reference to it.
let badgeIcon = null; // fetched at the first turn that needs it (private: a cache)
function loadBadgeIcon() {
  badgeIcon ??= fetch(ICON)
    .then((answer) => (answer.ok ? answer.text() : ""))
    .catch(() => "")
    .then(
      (icon) =>
        `data:image/svg+xml,${encodeURIComponent(
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${icon}<circle cx="48" cy="16" r="14" fill="#d93025" stroke="#fff" stroke-width="4"/></svg>`,
        )}`,
    );
  return badgeIcon;
}

let badged = false; // the badge last asked for (private: the icon loads meanwhile)
async function setFavicon(badge) {
  badged = badge;
  const link = document.querySelector("link[rel='icon']");
  if (!link) return;
  if (!badge) {
    if (link.getAttribute("href") !== ICON) link.setAttribute("href", ICON);
    delete link.dataset.badge;
    return;
  }
  const href = await loadBadgeIcon();
  if (!badged) return; // the turn passed while the icon loaded
  link.setAttribute("href", href);
  link.dataset.badge = "turn";
}

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch {
    // no audio here: the other signals remain
  }
}

/** The favicon's badge while it is your turn; a sound and a notice when your turn starts in
 * a hidden tab (once per turn: shell.wasMyTurn is what the signals saw last). */
function renderSignals() {
  const mine = isMyTurn();
  setFavicon(mine && !isOffline());
  const started = mine && !shell.wasMyTurn;
  shell.wasMyTurn = mine;
  if (!started || shell.players.length < 2) return;
  window.turnSignals = (window.turnSignals ?? 0) + 1;
  if (!document.hidden) return;
  if (prefs().sound) beep();
  if (prefs().notify && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(t("notify.title", { game: gameTitle() }), {
      body: t("notify.body"),
      tag: `kr-${shell.roomId}`,
      icon: ICON,
    });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}

/* Settings: sound, notifications, confirming moves, theme */

/** Drawn when the dialog opens and when the language or the browser's permission changes;
 * otherwise each control shows what it was set to (a redraw would take its focus). */
function renderSettings() {
  const body = document.getElementById("settings-body");
  const supported = "Notification" in window;
  const permission = supported ? Notification.permission : null;
  redraw(body, [shell.dialog, lang(), permission], () => drawSettings(body, supported));
}

function drawSettings(body, supported) {
  const current = { ...prefs(), confirmMoves: confirmsMoves() };
  const denied = supported && Notification.permission === "denied";
  const check = (id, key, label, help, onchange) =>
    h(
      "div",
      { class: "field" },
      h(
        "label",
        { class: "check", for: id },
        h("input", {
          type: "checkbox",
          id,
          checked: current[key],
          disabled: key === "notify" && (!supported || denied),
          onchange,
        }),
        h("span", {}, label),
      ),
      help ? h("span", { class: "field-help" }, help) : null,
    );
  const themes = ["system", "light", "dark"];
  fill(
    body,
    check("pref-sound", "sound", t("settings.sound"), t("settings.sound_help"), (e) =>
      setPref("sound", e.target.checked),
    ),
    check(
      "pref-notify",
      "notify",
      t("settings.notify"),
      !supported
        ? t("settings.notify_unsupported")
        : denied
          ? t("settings.notify_denied")
          : t("settings.notify_help"),
      (e) => askNotifications(e.target),
    ),
    pushSetting(),
    check(
      "pref-confirm",
      "confirmMoves",
      t("settings.confirm"),
      t("settings.confirm_help"),
      (e) => {
        setPref("confirmMoves", e.target.checked);
        if (!e.target.checked) dropConfirming();
      },
    ),
    check(
      "pref-developer",
      "developer",
      t("settings.developer"),
      t("settings.developer_help"),
      (e) => {
        setPref("developer", e.target.checked);
        render();
      },
    ),
    h(
      "fieldset",
      { class: "variant-list theme-choice" },
      h("legend", {}, t("settings.theme")),
      themes.map((theme) =>
        h(
          "label",
          { class: "chip-radio" },
          h("input", {
            type: "radio",
            name: "theme",
            value: theme,
            checked: current.theme === theme,
            onchange: () => {
              setPref("theme", theme);
              applyTheme();
            },
          }),
          h("span", {}, t(`settings.theme_${theme}`)),
        ),
      ),
    ),
  );
}

/** The in-tab notification: asks the browser's permission when ticked. */
async function askNotifications(input) {
  if (!input.checked) {
    setPref("notify", false);
    return;
  }
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  setPref("notify", permission === "granted");
  input.checked = permission === "granted";
  if (permission !== "granted") toast(t("settings.notify_denied"), "info");
  render(); // a permission now granted or denied changes the dialog's words
}

/* Popovers: invite (link and QR code), settings and a confirmation */

let opener = null; // the button that opened the popover: it has the focus back (private)
function openDialog(dialog, button) {
  opener = button;
  shell.dialog = dialog;
  render();
  const panel = document.getElementById(DIALOGS[dialog.kind]);
  if (dialog.kind === "confirm") document.getElementById("confirm-no").focus();
  else panel.querySelector("button, input")?.focus();
}

function closeDialogs() {
  shell.dialog = null;
  render();
  opener?.focus();
  opener = null;
}

const DIALOGS = { share: "share-panel", settings: "settings", confirm: "confirm-panel" };

function renderDialogs() {
  const kind = shell.dialog?.kind;
  for (const [name, id] of Object.entries(DIALOGS))
    document.getElementById(id).hidden = kind !== name;
  document.getElementById("dialog-backdrop").hidden = !kind;
  document.getElementById("share").setAttribute("aria-expanded", String(kind === "share"));
  document
    .getElementById("settings-button")
    .setAttribute("aria-expanded", String(kind === "settings"));
  if (kind === "share") renderShare();
  if (kind === "settings") renderSettings();
  if (kind === "confirm") renderConfirm();
}

function renderShare() {
  const link = roomLink(shell.roomId);
  redraw(document.getElementById("share-link"), [shell.dialog], () => {
    fill(document.getElementById("share-link"), h("a", { href: link }, link));
    const qr = document.getElementById("share-qr");
    qr.innerHTML = qrSvg(link);
    qr.firstElementChild?.setAttribute("aria-label", t("share.qr"));
    document.getElementById("share-native").hidden = !navigator.share;
  });
}

/** A question before a step that cannot be undone: {title, text, yes, run}. */
function renderConfirm() {
  const { title, text, yes, run } = shell.dialog;
  redraw(document.getElementById("confirm-panel"), [shell.dialog], () => {
    document.getElementById("confirm-title").textContent = title;
    document.getElementById("confirm-text").textContent = text;
    const confirm = document.getElementById("confirm-yes");
    confirm.textContent = yes;
    confirm.onclick = () => {
      closeDialogs();
      run();
    };
  });
}

function watchDialogs() {
  document
    .getElementById("share")
    .addEventListener("click", (event) => openDialog({ kind: "share" }, event.currentTarget));
  document.getElementById("share-copy").addEventListener("click", async () => {
    toast((await copyText(roomLink(shell.roomId))) ? t("share.copied") : t("share.failed"), "ok");
  });
  document.getElementById("share-native").addEventListener("click", () => {
    navigator
      .share?.({ title: gameTitle() ?? "Kartenrunde", url: roomLink(shell.roomId) })
      .catch(() => {});
  });
  document
    .getElementById("settings-button")
    .addEventListener("click", (event) => openDialog({ kind: "settings" }, event.currentTarget));
  for (const id of ["share-close", "settings-close", "confirm-no", "dialog-backdrop"])
    document.getElementById(id).addEventListener("click", closeDialogs);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shell.dialog) closeDialogs();
  });
  document
    .getElementById("log-toggle")
    .addEventListener("click", () => openSheet("log", shell.sheet !== "log"));
  document.getElementById("log-close").addEventListener("click", () => openSheet("log", false));
  document
    .getElementById("chat-toggle")
    .addEventListener("click", () => openSheet("chat", shell.sheet !== "chat"));
  document.getElementById("chat-close").addEventListener("click", () => openSheet("chat", false));
  window.addEventListener("resize", render);
}

/* End of a match */

function abandonedBy(state) {
  return state.result.reason === "abandoned" ? state.result.abandoned_by : null;
}

/** A match a player ended (resigned, aborted, abandoned): no rule of the game ended it. */
function endedByChoice(result) {
  return ["resigned", "aborted", "abandoned"].includes(result.reason);
}

function headline(state) {
  const by = abandonedBy(state);
  const ranOut = state.result.time_ran_out;
  if (by !== null && ranOut !== undefined && ranOut !== null)
    return t("end.time_ran_out", { name: playerName(ranOut) });
  if (by !== null)
    return t("end.abandoned", {
      name: playerName(shell.players.find((p) => p.seat !== by)?.seat ?? by),
    });
  if (state.result.reason === "resigned")
    return state.result.resigned_by === state.seat
      ? t("end.you_resigned")
      : t("end.resigned", { name: playerName(state.result.resigned_by) });
  if (state.result.reason === "aborted")
    return t("end.aborted", { name: playerName(state.result.aborted_by) });
  const custom = shell.game.headline?.(state, context());
  if (custom) return custom;
  const winner = state.result.winner;
  if (winner === null || winner === undefined) return t("end.draw");
  if (winner === state.seat) return t("end.you_won");
  return t("end.won", { name: playerName(winner) });
}

/** Why the match ended, in the game's words for the engine's reason. */
function endReason(state) {
  if (endedByChoice(state.result) || !shell.game.endReason) return null;
  return h(
    "p",
    { class: "end-reason", "data-testid": "end-reason" },
    shell.game.endReason(state.result),
  );
}

function choiceNote(result) {
  if (result.reason === "aborted") return t("end.aborted_note");
  if (result.reason === "abandoned") return t("end.abandoned_note");
  if (result.winner === null) return t("confirm.resign_solo");
  return t("end.resigned_note", { name: playerName(result.winner) });
}

/** The end of a daily deal's match: once only, so no rematch; its board instead of the
 * replay, which opens the next day. */
function dailyControls(daily) {
  const board = `/daily/${encodeURIComponent(daily.day)}/${encodeURIComponent(daily.game)}`;
  return h(
    "div",
    { class: "end-actions" },
    h("span", { class: "muted" }, t("daily.number", { n: daily.number })),
    h("a", { class: "btn btn-turn", href: board, "data-testid": "daily-board" }, t("daily.board")),
  );
}

function rematchControls(state) {
  const daily = shell.room?.daily;
  if (daily && daily.match_id === state.match_id) return dailyControls(daily);
  const asked = shell.rematch?.requested_by ?? [];
  const askedByMe = asked.includes(state.seat);
  const others = asked.filter((seat) => seat !== state.seat).map(playerName);
  const solo = shell.players.length === 1;
  const note = others.length
    ? t("end.asked", { names: others.join(", ") })
    : askedByMe
      ? t("end.waiting_rematch")
      : "";
  const label = solo
    ? t("end.play_again")
    : others.length
      ? t("end.accept_rematch")
      : t("end.rematch");
  return h(
    "div",
    { class: "end-actions" },
    state.seat === null
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "btn btn-turn",
            id: "rematch",
            disabled: askedByMe || isOffline(),
            data: { needed: "rematch" },
            onclick: () => shell.socket.send({ type: "rematch" }),
          },
          label,
        ),
    note ? h("span", { class: "rematch-note", "data-testid": "rematch-note" }, note) : null,
    state.match_id
      ? h(
          "a",
          { class: "btn", href: `/matches/${encodeURIComponent(state.match_id)}` },
          t("end.review"),
        )
      : null,
  );
}

function tallyLine(state) {
  const tally = state.tally;
  if (!tally || shell.players.length < 2) return null;
  const wins = shell.players
    .map((p) => `${playerName(p.seat)} ${tally.wins?.[p.seat] ?? 0}`)
    .join(" · ");
  return h(
    "p",
    { class: "muted" },
    t("end.tally", { matches: tally.matches ?? 0, wins, draws: tally.draws ?? 0 }),
  );
}

/** Drawn again only when the match, the rematch or a name changed: the game's breakdown
 * may fill itself in later (Scoundrel's best line). */
function renderEnd() {
  const panel = document.getElementById("end");
  const state = shell.state;
  panel.hidden = !state?.result;
  redraw(panel, [state?.result ? state : null, shell.rematch, isOffline(), seating()], () => {
    if (!state?.result) {
      fill(panel);
      return;
    }
    const breakdown = h("div", { class: "end-breakdown" });
    if (!endedByChoice(state.result)) shell.game.renderResult?.(breakdown, state, context());
    else breakdown.append(h("p", { class: "muted" }, choiceNote(state.result)));
    // The rematch comes before the breakdown, so a phone on its side shows it without scrolling.
    fill(
      panel,
      h("h2", { data: { needed: "headline" } }, headline(state)),
      endReason(state),
      rematchControls(state),
      breakdown,
      tallyLine(state),
    );
  });
}

/* Ending a match early (resign, abort) and leaving a waiting room, each after a confirmation */

function renderMatchTools() {
  const state = shell.state;
  const seated = state && state.seat !== null && !isOffline();
  const playing = seated && !state.result && state.to_move !== null;
  // Beside the turn banner; on a phone upright, at the head of the move log's sheet, where
  // they cost the banner no width (and a mis-tap takes one more).
  for (const [place, prefix] of [
    ["match-tools", ""],
    ["log-tools", "log-"],
  ])
    patch(
      document.getElementById(place),
      playing && state.abortable
        ? matchTool(`${prefix}abort`, t("tools.abort"), "✕", () => ({
            title: t("confirm.abort_title"),
            text: t("confirm.abort_text"),
            yes: t("tools.abort"),
            run: () => shell.socket.send({ type: "abort" }),
          }))
        : null,
      playing ? matchTool(`${prefix}resign`, t("tools.resign"), "⚑", resignQuestion) : null,
    );
}

function resignQuestion() {
  const winner = shell.players.find((p) => p.seat !== shell.state?.seat);
  return {
    title: t("confirm.resign_title"),
    text:
      shell.players.length === 1
        ? t("confirm.resign_solo")
        : t("confirm.resign_text", { name: playerName(winner?.seat) }),
    yes: t("tools.resign"),
    run: () => shell.socket.send({ type: "resign" }),
  };
}

/** A tool's button: a narrow screen shows its glyph alone (the label stays its name);
 * `question()` asks, when clicked, for the confirmation's words and step. */
function matchTool(id, label, glyph, question) {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small match-tool",
      id,
      title: label,
      onclick: (event) => openDialog({ kind: "confirm", ...question() }, event.currentTarget),
    },
    h("span", { class: "tool-glyph", "aria-hidden": "true" }, glyph),
    h("span", { class: "tool-label" }, label),
  );
}

/** Leave a waiting room: beside the offer of a computer player, out of the banner's way. */
function leaveButton() {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      id: "leave",
      onclick: (event) =>
        openDialog(
          {
            kind: "confirm",
            title: t("confirm.leave_title"),
            text: t("confirm.leave_text"),
            yes: t("tools.leave"),
            run: leave,
          },
          event.currentTarget,
        ),
    },
    t("tools.leave"),
  );
}

async function leave() {
  try {
    await api(`/api/rooms/${encodeURIComponent(shell.roomId)}/leave`, { method: "POST" });
  } catch (error) {
    toast(error.message);
    return;
  }
  location.href = "/";
}

/* A waiting room (a computer player, leaving), and the offer for an absent player */

/** Which offer there is: for an absent player, a takeback to answer, what the computer did
 * for you meanwhile, or a computer player for the room's free seat; null: none. */
function offerKind() {
  if (takeoverShown()) return "takeover";
  if (takebackAsked()) return "takeback";
  if (standInShown()) return "stand-in";
  if (roomWaiting()) return "computer";
  return null;
}

function renderOffer() {
  const panel = document.getElementById("offer");
  const content = {
    takeover: takeoverOffer,
    takeback: takebackOffer,
    "stand-in": standInNote,
    computer: computerOffer,
  }[offerKind()]?.();
  panel.hidden = !content;
  patch(panel, content);
}

function takeoverShown() {
  const state = shell.state;
  const absent = shell.takeover?.seat;
  return Boolean(
    state &&
      !state.result &&
      absent !== null &&
      absent !== undefined &&
      state.seat !== null &&
      state.seat !== absent,
  );
}

function takeoverOffer() {
  const name = playerName(shell.takeover.seat);
  const choose = (choice) =>
    shell.socket.send({
      type: "takeover",
      choice,
      ...(choice === "computer" ? { level: shell.takeover.levels[0] } : {}),
    });
  return h(
    "div",
    { class: "offer", "data-testid": "takeover", "data-needed": "offer" },
    h("p", {}, t(shell.takeover.time_ran_out ? "takeover.time_lead" : "takeover.lead", { name })),
    h(
      "div",
      { class: "end-actions" },
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-primary",
          id: "takeover-computer",
          onclick: () => choose("computer"),
        },
        t("takeover.computer", { name }),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          id: "takeover-wait",
          onclick: () => choose("wait"),
        },
        t("takeover.wait"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          id: "takeover-end",
          onclick: () => choose("end"),
        },
        t("takeover.end"),
      ),
    ),
  );
}

/* Takebacks: the button of the seat whose last move may be taken back, the others' answer */

function renderTakeback() {
  const button = document.getElementById("takeback");
  const takeback = shell.state?.takeback;
  const mine =
    Boolean(takeback) && !shell.state.result && shell.seat != null && takeback.seat === shell.seat;
  button.hidden = !mine;
  if (!mine) return;
  button.disabled = takeback.requested || isOffline();
  const label = t(takeback.requested ? "takeback.asked" : "takeback.button");
  button.title = label;
  button.setAttribute("aria-label", label);
  patch(
    button,
    h("span", { "aria-hidden": "true" }, "↶"),
    " ",
    h("span", { class: "takeback-label" }, label),
  );
}

function askTakeback() {
  if (isOffline()) return say(t("note.offline"));
  shell.socket.send({ type: "takeback" });
  say(t("takeback.asked"));
}

function takebackAsked() {
  const takeback = shell.state?.takeback;
  return Boolean(takeback?.requested && shell.seat != null && takeback.seat !== shell.seat);
}

function takebackOffer() {
  const answer = (accept) => shell.socket.send({ type: "takeback_answer", accept });
  return h(
    "div",
    { class: "offer", "data-testid": "takeback-offer", "data-needed": "offer" },
    h("p", {}, t("takeback.lead", { name: playerName(shell.state.takeback.seat) })),
    h(
      "div",
      { class: "end-actions" },
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-primary",
          id: "takeback-accept",
          onclick: () => answer(true),
        },
        t("takeback.accept"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          id: "takeback-decline",
          onclick: () => answer(false),
        },
        t("takeback.decline"),
      ),
    ),
  );
}

/** News of a takeback request: the asker hears of a decline, the others of a takeback. */
function heardTakeback(message) {
  if (message.answer === "declined" && message.seat === shell.seat)
    say(t("takeback.declined", { name: playerName(otherSeat(message.seat)) }));
  if (message.answer === "accepted" && message.seat !== shell.seat)
    say(t("takeback.done", { name: playerName(message.seat) }));
}

/** The other seat of a two-seat table (who answered a request). */
function otherSeat(seat) {
  return shell.players.find((player) => player.seat !== seat)?.seat ?? seat;
}

/* Back at a seat the computer played: what it did meanwhile, said once */

/** The turns the computer played for this seat since its person last moved (the log's
 * standing moves), once the person holds the seat again; [] otherwise. */
function standInTurns() {
  const state = shell.state;
  const me = shell.players.find((player) => player.seat === state?.seat);
  if (!state || state.result || !me || me.computer || isComputerSeat(me)) return [];
  const standing = shell.log.filter((move) => !move.taken_back);
  const turns = standing.filter((move, i) => i === 0 || standing[i - 1].seat !== move.seat);
  const mine = turns.filter((move) => move.seat === state.seat);
  const since = mine.findLastIndex((move) => !move.computer);
  return mine.slice(since + 1);
}

const STAND_IN_KEY = `kr_stand_in:${shell.roomId}`; // the last such turn told (match number, ply)

/** The stand-in turns' mark as stored once told: "match number:ply" of the last one. */
function standInMark() {
  return `${shell.state?.match_number}:${standInTurns().at(-1)?.ply}`;
}

function standInShown() {
  return standInTurns().length > 0 && localStorage.getItem(STAND_IN_KEY) !== standInMark();
}

function standInNote() {
  const close = (openLog) => {
    localStorage.setItem(STAND_IN_KEY, standInMark());
    if (openLog) shell.sheet = "log";
    render();
  };
  return h(
    "div",
    { class: "offer", "data-testid": "stand-in-note" },
    h("p", {}, t("stand_in.lead", { n: standInTurns().length })),
    h(
      "div",
      { class: "end-actions" },
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-primary",
          id: "stand-in-log",
          onclick: () => close(true),
        },
        t("stand_in.log"),
      ),
      h(
        "button",
        { type: "button", class: "btn btn-small", id: "stand-in-ok", onclick: () => close(false) },
        t("stand_in.ok"),
      ),
    ),
  );
}

function roomWaiting() {
  const state = shell.state;
  return Boolean(
    state &&
      !state.result &&
      state.to_move === null &&
      shell.players.some((p) => !p.name) &&
      state.seat !== null,
  );
}

function computerOffer() {
  const levels = offeredLevels(shell.info?.computer ?? []);
  if (!levels.length)
    return h("div", { class: "offer", "data-needed": "offer" }, h("div", {}, leaveButton()));
  const select = h(
    "select",
    { id: "computer-level" },
    levels.map((level) => h("option", { value: level }, levelName(level))),
  );
  const add = async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await api(`/api/rooms/${encodeURIComponent(shell.roomId)}/computer`, {
        method: "POST",
        body: { level: document.getElementById("computer-level").value },
      });
    } catch (error) {
      toast(error.message);
      button.disabled = false;
    }
  };
  return h(
    "div",
    { class: "offer", "data-needed": "offer" },
    h("p", {}, t("table.add_computer_lead")),
    h(
      "div",
      { class: "end-actions" },
      h("label", { class: "visually-hidden", for: "computer-level" }, t("table.computer_level")),
      select,
      h(
        "button",
        { type: "button", class: "btn btn-small btn-primary", id: "add-computer", onclick: add },
        t("table.add_computer"),
      ),
      leaveButton(),
    ),
  );
}

/* The wire inspector, behind the developer switch: this seat's last state message exactly as
   its socket received it, and the counts of what was not sent to it (never which) */

function renderWire() {
  const panel = document.getElementById("wire");
  panel.hidden = !prefs().developer || shell.wire === null || shell.state?.seat === null;
  document.body.classList.toggle("wire-open", !panel.hidden);
  if (panel.hidden) return;
  redraw(panel, [shell.wire, seating()], () => {
    const message = JSON.parse(shell.wire);
    panel.dataset.raw = shell.wire;
    const places = (message.unseen ?? []).filter((place) => place.count > 0);
    document.getElementById("wire-body").replaceChildren(
      ...wirePanel({
        lead: t("wire.lead_table"),
        columns: [
          {
            title: `${t("wire.yours")} · v${message.version}`,
            message,
            notSentTitle: t("wire.not_sent_you"),
            notSent: places.map((place) => placeText(shell.room.game, place, dealtName)),
          },
        ],
        anyone: [],
        perConnection: [],
      }).filter(Boolean),
    );
  });
}

/** A seat's name where a hand is dealt: a free seat's too ("Seat 2", not "Free seat"). */
function dealtName(seat) {
  return shell.players.find((p) => p.seat === seat)?.name || t("table.seat", { n: seat + 1 });
}

/* The table given way to a notice: the room is gone, or this device was signed out */

function endTable(title = "gone.room_title", text = "gone.room_text") {
  shell.notice = { title, text };
  shell.socket?.close();
  render();
}

function renderNotice() {
  const { title, text } = shell.notice;
  document.querySelector(".table-shell .turn-line").hidden = true;
  for (const id of ["end", "offer", "log", "chat", "chat-toggle", "offline"])
    document.getElementById(id).hidden = true;
  fill(document.getElementById("seats"));
  document.getElementById("conn").hidden = true;
  board.classList.remove("felt");
  board.inert = false;
  document.body.classList.remove("is-offline", "my-turn");
  document.body.classList.add("is-gone");
  redraw(board, ["notice", shell.notice, lang()], () =>
    fill(
      board,
      h(
        "section",
        { class: "not-found" },
        h("h1", {}, t(title)),
        h("p", { class: "lead" }, t(text)),
        h("a", { class: "btn btn-primary", href: "/" }, t("gone.home")),
      ),
    ),
  );
  document.title = `${t(title)} — Kartenrunde`;
}

/* The connection: each message changes the shell, then render() */

function receiveState(message, { resync = false, text } = {}) {
  const shown = shell.state;
  if (message.match_number !== shown?.match_number) {
    shell.ranOutSeat = null; // a new match: nobody's time ran out in it
    shell.ui = {};
    shell.recent = [];
    shell.log = [];
    shell.logVersion = message.version === 0 ? 0 : null;
  }
  const newer = message.version !== shown?.version || message.match_number !== shown?.match_number;
  if (newer) shell.confirming = null;
  const tookBack = message.takeback?.undone != null && message.version !== shown?.version;
  if (tookBack) shell.recent = shell.recent.slice(0, -1);
  else if (message.last_action && !resync && message.version !== shown?.version)
    shell.recent = [...shell.recent, message.last_action].slice(-4);
  shell.state = message;
  extendLog(message, resync, shown?.turn ?? null);
  shell.seat = message.seat;
  shell.players = message.players ?? shell.players;
  shell.rematch = message.rematch;
  shell.pending = false;
  shell.wire = text ?? JSON.stringify(message);
  render();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  shell.socket = new RoomSocket(
    `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(shell.roomId)}`,
    {
      state: receiveState,
      presence(message) {
        shell.players = message.players;
        render();
      },
      rematch(message) {
        shell.rematch = { requested_by: message.requested_by };
        render();
      },
      takeback: heardTakeback,
      chat: (line) => chat.receive(line),
      takeover(message) {
        shell.takeover = message;
        shell.offerAt = Date.now() + (message.offer_in ?? 0) * 1000;
        if (message.time_ran_out) shell.ranOutSeat = message.seat;
        render();
      },
      error(message) {
        shell.pending = false;
        toast(errorText(message.code, message.message));
        if (message.code === "unknown_room") endTable();
        else render();
      },
      status(value) {
        shell.connection = value;
        if (value !== "open") shell.pending = false;
        if (value === "gone") return endTable();
        if (value === "signed_out")
          return endTable("gone.signed_out_title", "gone.signed_out_text");
        if (value === "open") {
          chat.show();
          chat.load();
        }
        render();
      },
    },
  );
}

function watchNetwork() {
  const changed = () => {
    shell.online = navigator.onLine;
    if (shell.online) shell.socket?.retryNow();
    render();
  };
  window.addEventListener("online", changed);
  window.addEventListener("offline", changed);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) shell.socket?.retryNow();
  });
}

/** The clocks shown: the offline box's next attempt and the away countdown each second, the
 * time left of a turn-based room's move every 30 s. */
function watchClocks() {
  setInterval(() => {
    if (shell.takeover?.away != null || isOffline()) render();
  }, 1000);
  setInterval(() => {
    if (shell.state?.turn) render();
  }, 30_000);
}

/* Joining */

async function join(name) {
  try {
    const { seat } = await api(`/api/rooms/${encodeURIComponent(shell.roomId)}/join`, {
      method: "POST",
      body: { name },
    });
    shell.seat = seat;
    if (seat === null) toast(t("table.spectator_note"), "info");
  } catch (error) {
    if (error.status === 404) return endTable();
    toast(error.message);
    return askName();
  }
  render();
  connect();
}

function askName() {
  shell.nameAsked += 1;
  render();
}

function drawNamePrompt() {
  const free = shell.players.some((p) => !p.name);
  const input = h("input", {
    type: "text",
    id: "join-name",
    maxlength: "24",
    required: true,
    autocomplete: "nickname",
    value: storedName(),
  });
  const submit = (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      toast(t("name.required"));
      input.focus();
      return;
    }
    storeName(name);
    join(name);
  };
  fill(
    board,
    h(
      "section",
      { class: "name-prompt panel", "aria-labelledby": "join-title" },
      h(
        "form",
        { onsubmit: submit },
        h("h2", { id: "join-title" }, t("join.title", { game: gameTitle() })),
        h("p", {}, t(free ? "join.lead" : "join.full")),
        h("div", { class: "field" }, h("label", { for: "join-name" }, t("name.label")), input),
        h(
          "button",
          { type: "submit", class: "btn btn-primary" },
          t(free ? "join.sit" : "join.watch"),
        ),
      ),
    ),
  );
  input.focus();
}

/* Start */

function loadStyles(game) {
  document.head.append(
    h("link", { rel: "stylesheet", href: `/static/css/games/${encodeURIComponent(game)}.css` }),
  );
}

async function loadRoom() {
  const [room, games] = await Promise.all([
    api(`/api/rooms/${encodeURIComponent(shell.roomId)}`),
    gameList(),
  ]);
  const info = games.find((game) => game.name === room.game) ?? null;
  document.getElementById("rules-link").href = `/rules/${encodeURIComponent(room.game)}`;
  // A daily is its player's alone: nobody may watch it while its day runs (the server
  // refuses), so there is nobody to invite; its board is shared instead.
  document.getElementById("share").hidden = Boolean(room.daily);
  document.body.dataset.game = room.game;
  loadStyles(room.game);
  shell.game = await import(`../games/${encodeURIComponent(room.game)}.js`);
  shell.info = info;
  shell.players = room.seats ?? [];
  shell.room = room;
}

/** The name this browser sits under in this room, or null when it holds no seat here. */
async function heldName() {
  try {
    const mine = await api("/api/me/rooms");
    return mine.find((room) => room.room_id === shell.roomId)?.name ?? null;
  } catch {
    return null;
  }
}

async function start() {
  applyTheme();
  boot(render);
  watchDialogs();
  watchNetwork();
  watchClocks();
  board.addEventListener("click", explainClick);
  watchTaps();
  document.getElementById("takeback").addEventListener("click", askTakeback);
  try {
    await loadRoom();
  } catch (error) {
    if (error.status === 404) return endTable();
    toast(error.message);
    return;
  }
  render();
  const name = await heldName();
  if (name) join(name);
  else askName();
  document.body.dataset.ready = "true";
}

start();
