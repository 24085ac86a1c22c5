// @ts-check
// The turn banner: whose turn it is (with the game's hint on yours), while the mover is away
// the countdown to the others' choice, a turn-based room's clock, the last move in words; or,
// while a one-tap move waits for its confirmation, that move (confirm.js).

import { t } from "../i18n.js";
import { h, timeLeft, turnSince, when } from "../ui.js";
import { context } from "./board.js";
import { confirmContent } from "./confirm.js";
import { byId, patch } from "./draw.js";
import { isMyTurn, isOffline, playerName, secondsLeft, secondsSince, shell } from "./shell.js";

/** @typedef {import("../games/common.js").Described} Described */

export function renderBanner() {
  const banner = byId("banner");
  // The board stays where it was while a move is shown, under the finger that taps it again.
  if (!shell.confirming) banner.style.minHeight = "";
  else if (!banner.classList.contains("is-confirming"))
    banner.style.minHeight = `${banner.getBoundingClientRect().height}px`;
  document.body.classList.toggle("is-confirming-move", Boolean(shell.confirming));
  if (shell.confirming) {
    banner.className = "turn-banner is-mine is-confirming";
    patch(banner, ...confirmContent(shell.confirming));
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

function bannerContent() {
  const state = shell.state;
  if (!state)
    return { kind: "", text: t(shell.seat === undefined ? "banner.join" : "banner.connecting") };
  if (isOffline() && !state.result) return { kind: "is-offline", text: t("banner.offline") };
  if (state.result) return { kind: "is-over", text: t("banner.over") };
  if (state.to_move === null) return { kind: "is-waiting", text: t("banner.waiting") };
  if (state.pause?.paused) return { kind: "is-waiting", text: t("pause.paused") };
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

/** A turn-based room's clock: whose turn since when, how long is left ("Ben has 1 day 4 h"). */
function turnClock() {
  const turn = shell.state?.turn;
  if (!turn || shell.state?.result) return null;
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
    `${text} · ${turnSince(secondsSince(turn))}`,
  );
}

/** The other player's latest turn in words (both steps of a two-step turn). */
function lastMove() {
  const last = shell.state?.last_action;
  const describe = shell.game.describe;
  if (!last || shell.state?.result || !describe) return null;
  const standing = shell.log.filter((move) => !move.taken_back);
  const turn = turnOf(
    standing.length ? standing : shell.recent,
    standing.length ? standing.length - 1 : shell.recent.length - 1,
  );
  const moves = turn.length ? turn : [last];
  const seat = moves[0].seat;
  const who = seat === shell.seat ? t("table.you_did") : playerName(seat);
  const words = moves.map((move) => describe(move, context()));
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

/**
 * The moves of the turn that ends at `index` (consecutive moves of one seat; solo: one move).
 * @param {Described[]} moves
 * @param {number} index
 */
function turnOf(moves, index) {
  if (shell.players.length < 2) return moves[index] ? [moves[index]] : [];
  const turn = [];
  for (let i = index; i >= 0 && moves[i]?.seat === moves[index]?.seat; i -= 1)
    turn.unshift(moves[i]);
  return turn;
}
