// @ts-check
// The table's whole state, in one object: everything the table shows is drawn from it by
// render() (render.js), and every handler changes it, then calls render(). Below it, what
// the shell says that several parts ask (whose turn, a seat's name, are we offline).

import { serverNow } from "../clock.js";
import { sameAction } from "../games/common.js";
import { lang, localized, t } from "../i18n.js";
import { prefs } from "../prefs.js";

/** @typedef {import("../protocol.js").Action} Action */
/** @typedef {import("../protocol.js").ChatLine} ChatLine */
/** @typedef {import("../protocol.js").GameInfo} GameInfo */
/** @typedef {import("../protocol.js").Move} Move */
/** @typedef {import("../protocol.js").Player} Player */
/** @typedef {import("../protocol.js").RoomInfo} RoomInfo */
/** @typedef {import("../protocol.js").StateMessage} StateMessage */
/** @typedef {import("../protocol.js").TakeoverMessage} TakeoverMessage */
/** @typedef {import("../protocol.js").TurnInfo} TurnInfo */
/** @typedef {import("../games/common.js").Described} Described */
/** @typedef {import("../games/common.js").GameModule} GameModule */
/** @typedef {import("../socket.js").RoomSocket} RoomSocket */
/** @typedef {import("../socket.js").Status} Status */

/**
 * A popover open over the table (dialogs.js): the invitation, the settings, or a question
 * before a step that cannot be undone.
 * @typedef {{kind: "share"} | {kind: "settings"} | Question} Dialog
 */

/**
 * @typedef {object} Question
 * @property {"confirm"} kind
 * @property {string} title
 * @property {string} text
 * @property {string} yes the button that takes the step
 * @property {() => void} run the step
 */

/**
 * The whole client state of the table.
 * @typedef {object} Shell
 * @property {string} roomId
 * @property {RoomInfo | null} room `GET /api/rooms/{id}`; null until loaded
 * @property {GameInfo | null} info the game's entry in `GET /api/games`
 * @property {GameModule} game the game's module (static/js/games/<name>.js)
 * @property {number | null | undefined} seat undefined until joined; null: a spectator
 * @property {number} nameAsked how often the name prompt was shown (each time anew, focused)
 * @property {StateMessage | null} state the latest state message
 * @property {Player[]} players
 * @property {{requested_by: number[]} | null} rematch
 * @property {Record<string, unknown>} ui the game module's own, kept across renders of one
 *   match (ctx.ui)
 * @property {number} uiVersion counts the game module's own changes (ctx.rerender): its
 *   board is drawn again
 * @property {Described[]} recent the last few moves, as the game's describe() takes them
 * @property {Move[]} log every move of the current match
 * @property {number | null} logVersion the version the log is complete up to
 * @property {number | null} ranOutSeat the seat whose time ran out in this turn (an offer
 *   said so), even if the others then chose to keep waiting and its deadline moved: the
 *   log says so before its move, as the stored log does after a reload
 * @property {boolean} pending an action is on its way
 * @property {RoomSocket | null} socket
 * @property {Status} connection
 * @property {boolean} online the browser's network
 * @property {boolean} wasMyTurn the turn signals' last look: a turn that starts is
 *   signalled once
 * @property {TakeoverMessage | null} takeover the latest takeover message; its seat null:
 *   no offer stands
 * @property {number} offerAt when the offer for the away seat comes, by this browser's clock
 * @property {{action: Action, took: string[], key: string | null} | null} confirming a
 *   one-tap move shown, not yet sent (key: the tapped element's data-key)
 * @property {{text: string} | null} note the short line under the table
 * @property {boolean} takebackWait the other player declined this seat's takeback within
 *   the minute: the server refuses another until it has passed
 * @property {"log" | "chat" | null} sheet the sheet open over the board on a phone
 * @property {Dialog | null} dialog the popover open
 * @property {string | null} wire the latest state message exactly as it arrived (the
 *   developer's wire panel)
 * @property {{ready: boolean, lines: ChatLine[], unread: number, muted: Map<string, string>}} chat
 *   ready: the socket opened once, the chat shows; unread: lines come while it was out of
 *   sight; muted: the writers muted in this browser (chat.js), with their names
 * @property {{title: string, text: string} | null} notice shown instead of the table for
 *   good (notice.js): the keys of its words
 */

/** The game's module until it is loaded: render() draws nothing before the room is known. */
const NO_GAME = { render() {} };

/** @type {Shell} */
export const shell = {
  roomId: document.body.dataset.roomId ?? "",
  room: null,
  info: null,
  game: NO_GAME,
  seat: undefined,
  nameAsked: 0,
  state: null,
  players: [],
  rematch: null,
  ui: {},
  uiVersion: 0,
  recent: [],
  log: [],
  logVersion: null,
  ranOutSeat: null,
  pending: false,
  socket: null,
  connection: "connecting",
  online: navigator.onLine,
  wasMyTurn: false,
  takeover: null,
  offerAt: 0,
  confirming: null,
  note: null,
  takebackWait: false,
  sheet: null,
  dialog: null,
  wire: null,
  chat: { ready: false, lines: [], unread: 0, muted: new Map() },
  notice: null,
};

const COMPUTER_NAME = "Computer"; // the server's name for the computer's own seat

/** @param {number | null | undefined} seat */
export function playerName(seat) {
  const player = shell.players.find((p) => p.seat === seat);
  if (player && !player.name) return t("table.free_seat");
  return player?.name || t("table.seat", { n: Number(seat) + 1 });
}

/** Who sits where, in the words shown: a part that names players draws again when it changes. */
export function seating() {
  return `${lang()} ${JSON.stringify(shell.players.map((p) => [p.seat, p.name, p.computer]))}`;
}

/**
 * The computer's own seat (not a person's seat it plays while they are away).
 * @param {Player | undefined} player
 */
export function isComputerSeat(player) {
  return Boolean(player?.computer) && player?.name === COMPUTER_NAME;
}

/** @param {string} level */
export function levelName(level) {
  return t(`level.${level}`, {}, level);
}

export function gameTitle() {
  if (!shell.room) return null;
  return shell.info ? localized(shell.info.title) : shell.room.game;
}

/** How the room plays, in words: "Turn-based: 2 days a move · Short game", "Live · Standard". */
export function roomMode() {
  const room = shell.room;
  if (!room) return "";
  const days = room.move_days;
  const pace = !room.turn_based
    ? t("mode.live")
    : t("mode.turn_based", {
        days:
          days == null ? t("turn.no_limit") : t(days === 1 ? "mode.day" : "mode.days", { n: days }),
      });
  return `${pace} · ${variantName()}`;
}

/** The room's variant: its preset's name, else "Standard" or "Custom" by its options. */
function variantName() {
  const { room, info } = shell;
  const preset = info?.presets.find((each) => each.name === room?.preset);
  if (preset) return localized(preset.label);
  const standard = (info?.options ?? []).every(
    (option) => room?.options[option.name] === option.default,
  );
  return t(standard ? "home.standard" : "home.custom");
}

export function isMyTurn() {
  const state = shell.state;
  return Boolean(state && !state.result && state.seat !== null && state.to_move === state.seat);
}

export function isOffline() {
  return Boolean(shell.socket) && (shell.connection !== "open" || !shell.online);
}

/** @param {Action} action */
export function legal(action) {
  return Boolean(shell.state?.legal_actions?.some((candidate) => sameAction(candidate, action)));
}

const TOUCH = matchMedia("(pointer: coarse)");

/** As this device chose, else on for a touch screen in a turn-based room (a mis-tap there
 * costs a day's wait to answer). */
export function confirmsMoves() {
  return prefs().confirmMoves ?? (TOUCH.matches && Boolean(shell.room?.turn_based));
}

/**
 * The seconds left of a turn-based room's move (null: no limit or no running turn).
 * @param {TurnInfo | null | undefined} turn
 */
export function secondsLeft(turn) {
  if (!turn?.deadline) return null;
  return (new Date(turn.deadline).getTime() - serverNow()) / 1000;
}

/**
 * The seconds since a turn-based room's move began, by the server's clock.
 * @param {TurnInfo} turn
 */
export function secondsSince(turn) {
  return (serverNow() - new Date(turn.since).getTime()) / 1000;
}
