// @ts-check
// The board: the game's module draws it (static/js/games/<name>.js, render(root, state,
// ctx)); here its ctx, the actions it sends, and what the board shows before the first
// state (the name prompt, "connecting").

import { lang, t } from "../i18n.js";
import { animateMoves, snapshotCards } from "../motion.js";
import { fill, h } from "../ui.js";
import { markConfirming, tap } from "./confirm.js";
import { byId, keyed, redraw, targetOf } from "./draw.js";
import { drawNamePrompt } from "./join.js";
import { say } from "./note.js";
import { offerKind } from "./offers.js";
import { render } from "./render.js";
import { isMyTurn, isOffline, legal, playerName, seating, shell } from "./shell.js";

export const board = byId("board");

/** @typedef {import("../protocol.js").Action} Action */
/** @typedef {import("../protocol.js").StateMessage} StateMessage */
/** @typedef {import("../games/common.js").Ctx} Ctx */

/**
 * Sends an action, but only one the server listed as legal in the latest state, and only
 * online.
 * @param {Action} action
 */
export function act(action) {
  if (isOffline()) {
    say(t("note.offline"));
    return;
  }
  if (shell.pending || !legal(action) || !shell.state) return;
  shell.pending = true;
  shell.socket?.send({ type: "action", version: shell.state.version, action });
  render();
}

/**
 * What the game's module is given with the state (static/js/games/common.js).
 * @returns {Ctx}
 */
export function context() {
  const seat = shell.state?.seat ?? null;
  return {
    seat,
    readOnly: seat === null,
    daily: Boolean(shell.room?.daily),
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

export function renderBoard() {
  if (shell.state) drawGame(shell.state);
  else if (shell.seat !== undefined)
    redraw(board, ["connecting", lang()], () =>
      fill(board, h("p", { class: "muted" }, t("banner.connecting"))),
    );
  else if (shell.nameAsked)
    redraw(board, ["name", lang(), shell.nameAsked], () => drawNamePrompt(board));
  markConfirming();
}

/**
 * The game's board, drawn again when what it shows changed; keyboard focus stays on the
 * control that had it, and the cards of the move just made travel to their new places.
 * @param {StateMessage} state
 */
function drawGame(state) {
  const offered = offerKind() !== null;
  const inputs = [state, shell.pending, isOffline(), shell.uiVersion, shell.recent, seating()];
  redraw(board, [...inputs, offered], () => {
    /** @type {HTMLElement | null | undefined} */
    const focused = document.activeElement?.closest("[data-key]");
    const key = focused && board.contains(focused) ? focused.dataset.key : null;
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
      for (const el of board.querySelectorAll("[data-needed]"))
        if (el instanceof HTMLElement) delete el.dataset.needed;
    }
    if (key) keyed(board, key)?.focus({ preventScroll: true });
    if (before) animateMoves(before, board, state.last_action, state.seat);
  });
}

/**
 * A click on the table that did nothing says why, in one short line.
 * @param {MouseEvent} event
 */
export function explainClick(event) {
  const target = targetOf(event);
  const state = shell.state;
  if (
    !state ||
    !target ||
    event.defaultPrevented ||
    target.closest("button:not(:disabled), a, input, summary")
  )
    return;
  if (!target.closest(".card, .pile, .card-slot")) return;
  if (state.seat === null) say(t("note.watching"));
  else if (state.result) say(t("note.over"));
  else if (isOffline()) say(t("note.offline"));
  else if (state.to_move === null) say(t("note.waiting"));
  else if (!isMyTurn()) say(t("note.not_your_turn", { name: playerName(state.to_move) }));
  else if (shell.pending) say(t("note.pending"));
  else say(shell.game.explainClick?.(event, state, context()) ?? t("note.nothing_here"));
}
