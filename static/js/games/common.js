// @ts-check
// Helpers every game's table module may use.
//
// Adding a game's table is one module, static/js/games/<name>.js, plus its stylesheet
// static/css/games/<name>.css (which the shell links) and its strings
// static/js/games/<name>.strings.js (`export default {en: {...}, de: {...}}`, with the home
// page's "game.<name>.blurb"; the module adds them with i18n.js's addStrings, the home page
// loads them by name). Nothing shared names a game. The module exports
//   render(root, state, ctx)        re-renders the whole snapshot into root (like 2048's actuate)
// and may export
//   renderResult(root, state, ctx)  the score breakdown of a finished match
//   describe(move, ctx)             an element telling a move ({seat, action, took}) in words ("played 7♥")
//   turnHint(state, ctx)            what to do now, shown in the turn banner
//   headline(state, ctx)            the end screen's title, when "X won" does not fit
//   explainClick(event, state, ctx) on your turn, why a click on a card or pile did nothing
//   logNotes(moves, state, ctx)     notes for the move log between moves (a round ended):
//                                   [{after: index into moves, content: element}]
// Elements a player needs for the current step carry data-needed (the layout tests check that
// they are on screen without scrolling); the hand of a seat may carry data-hand-seat (moves
// of that seat's hidden cards start there).
// `state` is the latest `state` message (the replay builds the same shape from its steps).
// `ctx`: seat (null for onlookers), readOnly (spectator or replay: no controls), replay (the
// replay page), pending (an action is on its way), offline (moves cannot be sent now), ui (an
// object kept across renders of one match, for selections), recent (the last few moves,
// {seat, action, took, ...} as describe takes them), previous (the replay only: the view one
// step before the one shown), act(action) (sends one of state.legal_actions), tap(action, took)
// (a one-tap move, a card or pile tapped: sent like act, or, with the setting "Confirm moves"
// on, shown first and sent on a second tap or Confirm; `took` the open cards it would take, as
// describe reads them; the tapped element needs a data-key), say(text) (one short line under
// the table), name(seat), rerender().
// The rules' numbers come from the server: a module awaits its game's `rulesTables` (points,
// roles, costs) and shows what the view computes; it keeps no copy of a rules table.

import { t } from "../i18n.js";
import { gameList } from "../ui.js";

/** @typedef {import("../protocol.js").Action} Action */
/** @typedef {import("../protocol.js").Move} Move */
/** @typedef {import("../protocol.js").Result} Result */
/** @typedef {import("../protocol.js").StateMessage} StateMessage */
/** @typedef {import("../protocol.js").View} View */

/**
 * A move as describe() takes it (a state's last_action, a move of the log, the move a tap
 * shows before it is confirmed).
 * @typedef {{seat: number | null, action: Action, took?: string[], computer?: boolean}} Described
 */

/**
 * What the table (static/js/pages/table.js, static/js/table/board.js) or the replay gives a game's module with
 * the state; see above.
 * @typedef {object} Ctx
 * @property {number | null} seat this viewer's seat; null: an onlooker
 * @property {boolean} readOnly a spectator or the replay: no controls
 * @property {boolean} [daily] a daily deal's table: no hint nor analysis while it is played
 * @property {boolean} [replay] the replay page
 * @property {boolean} pending an action is on its way
 * @property {boolean} offline moves cannot be sent now
 * @property {Record<string, unknown>} ui the module's own, kept across renders of one match
 * @property {Described[]} recent the last few moves
 * @property {View | null} [previous] the replay only: the view one step before the one shown
 * @property {(action: Action) => void} act sends one of state.legal_actions
 * @property {(action: Action, took?: string[], key?: string | null) => void} [tap] a one-tap
 *   move (the table's); `key`: the [data-key] of the element it marks (else the one clicked)
 * @property {(text: string) => void} say one short line under the table
 * @property {(seat: number) => string} name a seat's player, in words
 * @property {() => void} rerender the module's own state changed: draw it again
 */

/**
 * A game's table module, static/js/games/<name>.js; see above.
 * @typedef {object} GameModule
 * @property {(root: HTMLElement, state: StateMessage, ctx: Ctx) => void} render
 * @property {(root: HTMLElement, state: StateMessage, ctx: Ctx) => void} [renderResult]
 * @property {(move: Described, ctx: Ctx) => Node | string} [describe]
 * @property {(state: StateMessage, ctx: Ctx) => Node | string | null | undefined} [turnHint]
 * @property {(state: StateMessage, ctx: Ctx) => string | null | undefined} [headline]
 * @property {(result: Result) => string} [endReason]
 * @property {(event: MouseEvent, state: StateMessage, ctx: Ctx) => string | null | undefined}
 *   [explainClick]
 * @property {(moves: Move[], state: StateMessage, ctx: Ctx) => LogNote[]} [logNotes]
 */

/** @typedef {{after: number, content: Node | string}} LogNote a note after moves[after] */

/**
 * A game's rules tables as `GET /api/games` publishes them (the engine's `tables`).
 * @param {string} name
 */
export async function rulesTables(name) {
  const game = (await gameList()).find((game) => game.name === name);
  if (!game) throw new Error(`the server offers no game ${name}`);
  return game.tables;
}

/**
 * True when two actions are the same intention (same fields, same values).
 * @param {Action} a
 * @param {Action} b
 */
export function sameAction(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * The legal actions of the latest state that match `partial` ({type: "take", card: "7C"}).
 * @param {StateMessage} state
 * @param {Action} partial
 */
export function legalMatching(state, partial) {
  return (state.legal_actions ?? []).filter((action) =>
    Object.entries(partial).every(([key, value]) => action[key] === value),
  );
}

/**
 * The room still waits for a player: no one moves before every seat is taken.
 * @param {StateMessage} state
 */
export function waitingForPlayer(state) {
  return !state.result && state.to_move === null;
}

/**
 * Whom your hand waits for: the mover, or a second player while a seat is free (`key` is
 * the game's "Waiting for {name}…").
 * @param {StateMessage} state
 * @param {Ctx} ctx
 * @param {string} key
 */
export function waitingFor(state, ctx, key) {
  return waitingForPlayer(state)
    ? t("table.waiting_player")
    : t(key, { name: ctx.name(/** @type {number} */ (state.view.to_move)) });
}

/**
 * The actions of `seat`'s latest turn among the recent ones, oldest first (to highlight a
 * move).
 * @param {Ctx} ctx
 * @param {number | null} seat
 */
export function lastTurnOf(ctx, seat) {
  /** @type {Described[]} */
  const moves = [];
  for (const entry of [...(ctx.recent ?? [])].reverse()) {
    if (entry.seat === seat) moves.unshift(entry);
    else if (moves.length) break;
  }
  return moves;
}

/**
 * A change with its sign, using a real minus sign: "+5", "−3", "±0".
 * @param {number} value
 */
export function signed(value) {
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${Math.abs(value)}`;
  return "±0";
}

/**
 * A negative number with a real minus sign.
 * @param {number} value
 */
export function num(value) {
  return value < 0 ? `−${Math.abs(value)}` : String(value);
}
