// @ts-check
// Confirming one-tap moves: with "Confirm moves" on, a tap on a card or pile shows its move in
// the banner; a second tap on it, or Confirm, sends it; any other tap, or Cancel, drops it.

import { sameAction } from "../games/common.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { act, board, context } from "./board.js";
import { keyed, targetOf } from "./draw.js";
import { render } from "./render.js";
import { confirmsMoves, isOffline, legal, shell } from "./shell.js";

/** @typedef {import("../protocol.js").Action} Action */
/** @typedef {NonNullable<import("./shell.js").Shell["confirming"]>} Confirming */

/** @type {string | null} The [data-key] of the board's element the current click is on:
 * noted while the click passes down to the game's handler, which calls tap() (private to
 * the taps' listeners). */
let tappedKey = null;

/**
 * A one-tap move (`took`: the open cards it would take, for the game's words; `key`: the
 * element to mark, where no click chose it: a long press, a drop).
 * @param {Action} action
 * @param {string[]} [took]
 * @param {string | null} [key]
 */
export function tap(action, took = [], key = tappedKey) {
  if (!confirmsMoves() || isOffline() || shell.pending || !legal(action)) return act(action);
  if (shell.confirming && sameAction(shell.confirming.action, action)) return confirmMove();
  shell.confirming = { action, took, key };
  render();
}

function confirmMove() {
  if (!shell.confirming) return;
  const { action } = shell.confirming;
  dropConfirming();
  act(action);
}

export function dropConfirming() {
  if (!shell.confirming) return;
  shell.confirming = null;
  render();
}

/** Marks the board's element of the move shown (once the board is drawn). */
export function markConfirming() {
  const key = shell.confirming?.key;
  const marked = key ? keyed(board, key) : null;
  for (const el of board.querySelectorAll(".is-confirming"))
    if (el !== marked) el.classList.remove("is-confirming");
  marked?.classList.add("is-confirming");
}

/** A click that neither taps a move nor answers the banner drops the move shown. */
export function watchTaps() {
  /** @type {Confirming | null} the move shown when the click began */
  let shown = null;
  board.addEventListener(
    "click",
    (event) => {
      /** @type {HTMLElement | null | undefined} */
      const tapped = targetOf(event)?.closest("[data-key]");
      tappedKey = tapped?.dataset.key ?? null;
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
    if (shell.confirming && shell.confirming === shown && !targetOf(event)?.closest("#banner"))
      dropConfirming();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") dropConfirming();
  });
}

/**
 * The banner while a move waits for its confirmation: what it does, Confirm and Cancel.
 * @param {Confirming} confirming
 */
export function confirmContent({ action, took }) {
  const move = shell.game.describe?.({ seat: shell.seat ?? null, action, took }, context());
  /**
   * @param {string} id
   * @param {string} label
   * @param {string} style
   * @param {() => void} onclick
   */
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
