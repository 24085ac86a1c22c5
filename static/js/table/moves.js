// @ts-check
// The moves of the current match, which the log, the banner and the board show: a state adds
// its move (or marks one taken back); after a reload, a reconnect or a gap the whole list is
// fetched.

import { api } from "../ui.js";
import { render } from "./render.js";
import { secondsLeft, shell } from "./shell.js";

/**
 * The moves after a state (`previousTurn`: the turn the state before it showed).
 * @param {import("../protocol.js").StateMessage} message
 * @param {boolean} resync the same version again (after a reconnect)
 * @param {import("../protocol.js").TurnInfo | null} previousTurn
 */
export function extendLog(message, resync, previousTurn) {
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
    const left = secondsLeft(previousTurn);
    const late = (left !== null && left <= 0) || seat === shell.ranOutSeat;
    const move = { ply: message.version, ...message.last_action, time_ran_out: late };
    shell.log = [...shell.log, move];
    shell.logVersion = message.version;
  } else if (shell.logVersion !== message.version) {
    fetchLog();
  }
}

/** @type {Promise<void> | null} the fetch under way (private: one at a time) */
let fetching = null;

/** The whole log from the server; fetched again if a newer state came meanwhile. */
function fetchLog() {
  if (fetching) return;
  fetching = loadLog().then((stale) => {
    fetching = null;
    if (stale) fetchLog();
  });
}

/** Answers whether a newer state arrived meanwhile, so the log must be fetched again. */
async function loadLog() {
  const match = shell.state?.match_number;
  /** @type {import("../protocol.js").RoomMoves} */
  let data;
  try {
    const path = `/api/rooms/${encodeURIComponent(shell.roomId)}/moves`;
    data = /** @type {import("../protocol.js").RoomMoves} */ (await api(path));
  } catch {
    return false;
  }
  const state = shell.state;
  if (state?.match_number !== match) return true;
  if (!state || data.match_number !== match) return false; // a new match: its state fetches
  if (data.version < state.version) return true;
  shell.log = data.moves;
  shell.logVersion = data.version;
  // The board shows the last moves: known now if they were not (after a reload).
  if (shell.recent.length === 0 && shell.log.length) shell.recent = shell.log.slice(-4);
  render();
  return false;
}
