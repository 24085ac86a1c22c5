// @ts-check
// The move log: each turn a line (the moves a seat made in a row), the game's notes between
// them (a round ended), a time that ran out, moves taken back struck through.

import { t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { context } from "./board.js";
import { byId, redraw, setText } from "./draw.js";
import { isComputerSeat, playerName, seating, shell } from "./shell.js";

/** @typedef {import("../games/common.js").Ctx} Ctx */
/** @typedef {import("../games/common.js").GameModule} GameModule */
/** @typedef {import("../protocol.js").Move} Move */
/** @typedef {import("../protocol.js").StateMessage} StateMessage */
/** @typedef {NonNullable<GameModule["describe"]>} Describe */

export function renderLog() {
  const { state, game } = shell;
  const describe = game.describe;
  const available = Boolean(state && describe);
  byId("log-toggle").hidden = !available;
  // Beside the log's toggle only: alone, it made a waiting room's turn line taller.
  byId("chat-toggle").hidden = !available;
  byId("log").hidden = !available;
  if (!state || !describe) return;
  const list = byId("log-list");
  // Drawn again only when a move or a name changed: the list keeps where it was scrolled to.
  redraw(list, [shell.log, state, seating()], () => {
    const { items, turns } = logItems(state, describe);
    fill(list, ...items);
    setText(byId("log-count"), turns ? `(${turns})` : "");
    list.scrollTop = list.scrollHeight;
  });
}

/**
 * The log's lines, a turn each, and the count of turns.
 * @param {StateMessage} state
 * @param {Describe} describe
 */
function logItems(state, describe) {
  const log = shell.log;
  const ctx = context();
  /** @type {Map<number, (Node | string)[]>} the game's notes after a move, by its index */
  const breaks = new Map();
  for (const note of shell.game.logNotes?.(log, state, ctx) ?? []) {
    breaks.set(note.after, [...(breaks.get(note.after) ?? []), note.content]);
  }
  const items = [];
  const solo = shell.players.length < 2;
  let turns = 0;
  if (log[0]?.time_ran_out) items.push(ranOutNote(log[0].seat));
  for (let i = 0; i < log.length; i += 1) {
    const move = log[i];
    const next = log[i + 1];
    const start = solo || i === 0 || log[i - 1].seat !== move.seat || breaks.has(i - 1);
    if (start) turns += 1;
    const endOfTurn = solo || !next || next.seat !== move.seat || breaks.has(i);
    if (endOfTurn) {
      const turn = [];
      for (
        let j = i;
        j >= 0 && log[j].seat === move.seat && (j === i || (!solo && !breaks.has(j)));
        j -= 1
      )
        turn.unshift(log[j]);
      items.push(turnItem(move, turn, (m) => logMove(m, describe, ctx)));
    }
    for (const content of breaks.get(i) ?? []) items.push(h("li", { class: "log-note" }, content));
    if (next?.time_ran_out && next.seat !== move.seat) items.push(ranOutNote(next.seat));
  }
  if (!items.length) items.push(h("li", { class: "log-empty muted" }, t("log.empty")));
  return { items, turns };
}

/**
 * A turn's line: who (the computer standing in for a person says so) and what.
 * @param {Move} move its last move
 * @param {Move[]} turn
 * @param {(move: Move) => Node | string} words
 */
function turnItem(move, turn, words) {
  const mine = move.seat === shell.seat;
  const computer = turn.some((m) => m.computer);
  const standIn = computer && !isComputerSeat(shell.players.find((p) => p.seat === move.seat));
  return h(
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
      turn.flatMap((m, k) => (k ? [", ", words(m)] : [words(m)])),
    ),
  );
}

/**
 * A move in the log; one a takeback undid is struck through and says so.
 * @param {Move} move
 * @param {Describe} describe
 * @param {Ctx} ctx
 */
function logMove(move, describe, ctx) {
  if (!move.taken_back) return describe(move, ctx);
  return h(
    "span",
    { class: "is-taken-back", "data-testid": "log-taken-back" },
    describe(move, ctx),
    ` (${t("log.taken_back")})`,
  );
}

/** @param {number} seat */
function ranOutNote(seat) {
  return h(
    "li",
    { class: "log-note", "data-testid": "log-time-ran-out" },
    seat === shell.seat
      ? t("log.time_ran_out_you")
      : t("log.time_ran_out", { name: playerName(seat) }),
  );
}
