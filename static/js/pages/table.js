// @ts-check
// The table: the room's socket and its handlers. Each handler changes the shell (the whole
// client state, ../table/shell.js), then calls render() (../table/render.js), which draws every
// part of the table from it (../table/: seats, banner, board, log, offers, end, ...). The
// game's own module (static/js/games/<name>.js) draws the board; nothing here names a game.

import { heardServerClock } from "../clock.js";
import { boot } from "../page.js";
import { applyTheme } from "../prefs.js";
import { RoomSocket } from "../socket.js";
import { api, asApiError, errorText, gameList, h, toast } from "../ui.js";
import { board, explainClick } from "../table/board.js";
import { openChat, receiveLine } from "../table/chat.js";
import { watchTaps } from "../table/confirm.js";
import { watchDialogs } from "../table/dialogs.js";
import { byId } from "../table/draw.js";
import { joinTable } from "../table/join.js";
import { extendLog } from "../table/moves.js";
import { endTable } from "../table/notice.js";
import { heardTakeback } from "../table/offers.js";
import { render } from "../table/render.js";
import { isOffline, shell } from "../table/shell.js";
import { watchSheets } from "../table/sheets.js";
import { watchTakeback } from "../table/tools.js";

/** @typedef {import("../protocol.js").StateMessage} StateMessage */
/** @typedef {import("../protocol.js").RoomInfo} RoomInfo */

/* The socket's messages */

/**
 * @param {StateMessage} message
 * @param {{resync: boolean, text: string}} arrival `resync`: the same version again;
 *   `text`: the message as it arrived
 */
function receiveState(message, { resync, text }) {
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
  if (message.turn?.now) heardServerClock(Date.parse(message.turn.now));
  extendLog(message, resync, shown?.turn ?? null);
  shell.seat = message.seat;
  shell.players = message.players ?? shell.players;
  shell.rematch = message.rematch;
  shell.pending = false;
  shell.wire = text;
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
      chat(line) {
        receiveLine(line);
        render();
      },
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
        if (value === "open") openChat();
        render();
      },
    },
  );
}

/* The browser's own news: the network, the tab shown again, the clock */

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

/* Start */

async function loadRoom() {
  const [answer, games] = await Promise.all([
    api(`/api/rooms/${encodeURIComponent(shell.roomId)}`),
    gameList(),
  ]);
  const room = /** @type {RoomInfo} */ (answer);
  byId("rules-link").setAttribute("href", `/rules/${encodeURIComponent(room.game)}`);
  // A daily is its player's alone: nobody may watch it while its day runs (the server
  // refuses), so there is nobody to invite; its board is shared instead.
  byId("share").hidden = Boolean(room.daily);
  document.body.dataset.game = room.game;
  document.head.append(
    h("link", {
      rel: "stylesheet",
      href: `/static/css/games/${encodeURIComponent(room.game)}.css`,
    }),
  );
  shell.game = /** @type {import("../games/common.js").GameModule} */ (
    await import(`../games/${encodeURIComponent(room.game)}.js`)
  );
  shell.info = games.find((game) => game.name === room.game) ?? null;
  shell.players = room.seats ?? [];
  shell.room = room;
}

async function start() {
  applyTheme();
  boot(render);
  watchDialogs();
  watchSheets();
  watchNetwork();
  watchClocks();
  board.addEventListener("click", explainClick);
  watchTaps();
  watchTakeback();
  try {
    await loadRoom();
  } catch (error) {
    const failed = asApiError(error);
    if (failed.status === 404) return endTable();
    toast(failed.message);
    return;
  }
  render();
  await joinTable(connect);
  document.body.dataset.ready = "true";
}

start();
