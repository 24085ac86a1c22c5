// The table's whole state, in one object: everything the table shows is drawn from it by
// render() (render.js), and every handler changes it, then calls render(). Below it, what
// the shell says that several parts ask (whose turn, a seat's name, are we offline).

import { sameAction } from "../games/common.js";
import { lang, localized, t } from "../i18n.js";
import { prefs } from "../prefs.js";

export const shell = {
  roomId: document.body.dataset.roomId,
  room: null, // GET /api/rooms/{id}
  info: null, // the game's entry in GET /api/games
  game: null, // the game's module (static/js/games/<name>.js)
  seat: undefined, // undefined until this browser joined; null: a spectator
  nameAsked: 0, // how often the name prompt was shown (each time anew, focused)
  state: null, // the latest state message
  players: [],
  rematch: null,
  ui: {}, // the game module's own, kept across renders of one match (ctx.ui)
  uiVersion: 0, // counts the game module's own changes (ctx.rerender): its board is drawn again
  recent: [], // the last few moves, as the game's describe() takes them
  log: [], // every move of the current match: {ply, seat, action, ...}
  logVersion: null, // the version the log is complete up to
  // The seat whose time ran out in this turn (an offer said so), even if the others then
  // chose to keep waiting and its deadline moved: the log says so before its move, as the
  // stored log does after a reload.
  ranOutSeat: null,
  pending: false, // an action is on its way
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
  chat: {
    ready: false, // the socket opened once: the chat shows
    lines: [], // the room's chat lines, oldest first
    unread: 0, // lines come while the chat was out of sight
    muted: new Set(), // names muted in this browser
  },
  notice: null, // shown instead of the table for good: {title, text} (notice.js)
};

const COMPUTER_NAME = "Computer"; // the server's name for the computer's own seat

export function playerName(seat) {
  const player = shell.players.find((p) => p.seat === seat);
  if (player && !player.name) return t("table.free_seat");
  return player?.name || t("table.seat", { n: seat + 1 });
}

/** Who sits where, in the words shown: a part that names players draws again when it changes. */
export function seating() {
  return `${lang()} ${JSON.stringify(shell.players.map((p) => [p.seat, p.name, p.computer]))}`;
}

/** The computer's own seat (not a person's seat it plays while they are away). */
export function isComputerSeat(player) {
  return Boolean(player?.computer) && player.name === COMPUTER_NAME;
}

export function levelName(level) {
  return t(`level.${level}`, {}, level);
}

export function gameTitle() {
  if (!shell.room) return null;
  return shell.info ? localized(shell.info.title) : shell.room.game;
}

export function isMyTurn() {
  const state = shell.state;
  return Boolean(state && !state.result && state.seat !== null && state.to_move === state.seat);
}

export function isOffline() {
  return Boolean(shell.socket) && (shell.connection !== "open" || !shell.online);
}

export function legal(action) {
  return Boolean(shell.state?.legal_actions?.some((candidate) => sameAction(candidate, action)));
}

const TOUCH = matchMedia("(pointer: coarse)");

/** As this device chose, else on for a touch screen in a turn-based room (a mis-tap there
 * costs a day's wait to answer). */
export function confirmsMoves() {
  return prefs().confirmMoves ?? (TOUCH.matches && Boolean(shell.room?.turn_based));
}

/** The seconds left of a turn-based room's move (null: no limit or no running turn). */
export function secondsLeft(turn) {
  if (!turn?.deadline) return null;
  return (new Date(turn.deadline).getTime() - Date.now()) / 1000;
}
