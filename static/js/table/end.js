// @ts-check
// The end of a match: who won and why (or who ended it: resigned, aborted, abandoned), the
// rematch (a daily deal's board instead), the game's breakdown, the room's tally.

import { t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { context } from "./board.js";
import { byId, redraw } from "./draw.js";
import { isOffline, playerName, seating, shell } from "./shell.js";

/** @typedef {import("../protocol.js").DailyOfRoom} DailyOfRoom */
/** @typedef {import("../protocol.js").Result} Result */
/** @typedef {import("../protocol.js").StateMessage} StateMessage */
/** @typedef {StateMessage & {result: Result}} Ended a state whose match is over */

/** Drawn again only when the match, the rematch or a name changed: the game's breakdown
 * may fill itself in later (Scoundrel's best line). */
export function renderEnd() {
  const panel = byId("end");
  const state = shell.state?.result ? /** @type {Ended} */ (shell.state) : null;
  panel.hidden = !state;
  redraw(panel, [state, shell.rematch, isOffline(), seating()], () => {
    if (!state) fill(panel);
    else drawEnd(panel, state);
  });
}

/**
 * @param {HTMLElement} panel
 * @param {Ended} state
 */
function drawEnd(panel, state) {
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
}

/**
 * A match a player ended (resigned, aborted, abandoned): no rule of the game ended it.
 * @param {Result} result
 */
function endedByChoice(result) {
  return ["resigned", "aborted", "abandoned"].includes(result.reason);
}

/** @param {Ended} state */
function headline(state) {
  const result = state.result;
  const by = result.reason === "abandoned" ? (result.abandoned_by ?? null) : null;
  const ranOut = result.time_ran_out;
  if (by !== null && ranOut !== undefined && ranOut !== null)
    return t("end.time_ran_out", { name: playerName(ranOut) });
  if (by !== null)
    return t("end.abandoned", {
      name: playerName(shell.players.find((p) => p.seat !== by)?.seat ?? by),
    });
  if (result.reason === "resigned")
    return result.resigned_by === state.seat
      ? t("end.you_resigned")
      : t("end.resigned", { name: playerName(result.resigned_by) });
  if (result.reason === "aborted") return t("end.aborted", { name: playerName(result.aborted_by) });
  const custom = shell.game.headline?.(state, context());
  if (custom) return custom;
  const winner = result.winner;
  if (winner === null || winner === undefined) return t("end.draw");
  if (winner === state.seat) return t("end.you_won");
  return t("end.won", { name: playerName(winner) });
}

/**
 * Why the match ended, in the game's words for the engine's reason.
 * @param {Ended} state
 */
function endReason(state) {
  const words = shell.game.endReason;
  if (endedByChoice(state.result) || !words) return null;
  return h("p", { class: "end-reason", "data-testid": "end-reason" }, words(state.result));
}

/** @param {Result} result */
function choiceNote(result) {
  if (result.reason === "aborted") return t("end.aborted_note");
  if (result.reason === "abandoned") return t("end.abandoned_note");
  if (result.winner === null) return t("confirm.resign_solo");
  return t("end.resigned_note", { name: playerName(result.winner) });
}

/**
 * The end of a daily deal's match: once only, so no rematch; its board instead of the
 * replay, which opens the next day.
 * @param {DailyOfRoom} daily
 */
function dailyControls(daily) {
  const board = `/daily/${encodeURIComponent(daily.day)}/${encodeURIComponent(daily.game)}`;
  return h(
    "div",
    { class: "end-actions" },
    h("span", { class: "muted" }, t("daily.number", { n: daily.number })),
    h("a", { class: "btn btn-turn", href: board, "data-testid": "daily-board" }, t("daily.board")),
  );
}

/** @param {Ended} state */
function rematchControls(state) {
  const daily = shell.room?.daily;
  if (daily && daily.match_id === state.match_id) return dailyControls(daily);
  const asked = shell.rematch?.requested_by ?? [];
  const askedByMe = state.seat !== null && asked.includes(state.seat);
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
            onclick: () => shell.socket?.send({ type: "rematch" }),
          },
          label,
        ),
    note ? h("span", { class: "rematch-note", "data-testid": "rematch-note" }, note) : null,
    state.match_id && state.result.reason !== "aborted"
      ? h(
          "a",
          { class: "btn", href: `/matches/${encodeURIComponent(state.match_id)}` },
          t("end.review"),
        )
      : null,
  );
}

/** @param {Ended} state */
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
