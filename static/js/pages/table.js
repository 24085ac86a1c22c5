// The table shell: name prompt, connection, seats and presence, turn banner, errors,
// end screen and rematch. The game's own module (static/js/games/<name>.js) draws the board.

import { localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { RoomSocket } from "../socket.js";
import { api, copyText, errorText, fill, h, roomLink, storedName, storeName, toast } from "../ui.js";
import { lastTurnOf, sameAction } from "../games/common.js";

const roomId = document.body.dataset.roomId;
const board = document.getElementById("board");
const shell = {
  room: null,
  title: null,
  game: null,
  seat: undefined,
  state: null,
  players: [],
  rematch: null,
  ui: {},
  recent: [],
  pending: false,
  socket: null,
  connection: "connecting",
};

function playerName(seat) {
  const player = shell.players.find((p) => p.seat === seat);
  return player?.name || t("table.seat", { n: seat + 1 });
}

function isMyTurn() {
  const state = shell.state;
  return Boolean(state && !state.result && state.seat !== null && state.to_move === state.seat);
}

function legal(action) {
  return Boolean(shell.state?.legal_actions?.some((candidate) => sameAction(candidate, action)));
}

/** Sends an action, but only one the server listed as legal in the latest state. */
function act(action) {
  if (shell.pending || !legal(action)) return;
  shell.pending = true;
  shell.socket.send({ type: "action", version: shell.state.version, action });
  renderBoard();
}

function context() {
  const state = shell.state;
  return {
    seat: state.seat,
    readOnly: state.seat === null,
    pending: shell.pending,
    ui: shell.ui,
    recent: shell.recent,
    act,
    name: playerName,
    rerender: renderBoard,
  };
}

/* Rendering */

function renderHead() {
  const title = shell.title ?? t("table.loading");
  document.getElementById("game-title").textContent = title;
  const prefix = isMyTurn() ? `▶ ${t("banner.your_turn")} · ` : "";
  document.title = `${prefix}${title} — Kartenrunde`;
  document.body.classList.toggle("my-turn", isMyTurn());
  const conn = document.getElementById("conn");
  conn.className = `conn is-${shell.connection}`;
  conn.hidden = !shell.socket;
  conn.textContent = t(`conn.${shell.connection}`);
}

function renderSeats() {
  const list = document.getElementById("seats");
  const tally = shell.state?.tally ?? shell.room?.tally;
  const toMove = shell.state?.result ? null : shell.state?.to_move;
  fill(list, ...shell.players.map((player) => h("li", {
    class: ["seat", player.connected && "is-connected", toMove === player.seat && "is-moving"],
    data: { seat: String(player.seat) },
  },
  h("span", { class: "dot", "aria-hidden": "true" }),
  h("span", { class: "seat-name" }, player.name || t("table.free_seat")),
  player.seat === shell.seat ? h("span", { class: "seat-note" }, t("table.you_note")) : null,
  player.name ? h("span", { class: "seat-note" }, t(player.connected ? "table.online" : "table.offline")) : null,
  tally && player.name && shell.players.length > 1 ? h("span", { class: "seat-wins" }, t("table.wins", { n: tally.wins?.[player.seat] ?? 0 })) : null)));
  if (shell.seat === null) list.append(h("li", { class: "seat" }, h("span", { class: "seat-note" }, t("table.spectating"))));
}

function bannerContent() {
  const state = shell.state;
  if (!state) return { kind: "", text: t(shell.seat === undefined ? "banner.join" : "banner.connecting") };
  if (state.result) return { kind: "is-over", text: t("banner.over") };
  if (state.to_move === null) return { kind: "is-waiting", text: t("banner.waiting") };
  if (isMyTurn()) return { kind: "is-mine", text: t("banner.your_turn"), hint: shell.game.turnHint?.(state, context()) };
  return { kind: "", text: t("banner.their_turn", { name: playerName(state.to_move) }) };
}

function renderBanner() {
  const banner = document.getElementById("banner");
  const { kind, text, hint } = bannerContent();
  banner.className = ["turn-banner", kind].filter(Boolean).join(" ");
  fill(banner, h("span", {}, text), hint ? h("span", { class: "banner-hint" }, hint) : null, lastMove());
}

/** The last player's latest turn (both steps of a two-step turn, where we saw them). */
function lastMove() {
  const last = shell.state?.last_action;
  if (!last || shell.state.result || !shell.game.describe) return null;
  const who = last.seat === shell.seat ? t("table.you_did") : playerName(last.seat);
  const turn = shell.players.length > 1 ? lastTurnOf(context(), last.seat) : [];
  const moves = (turn.length ? turn : [last]).map((move) => shell.game.describe(move.action, context()));
  return h("span", { class: "last-move banner-hint", "data-testid": "last-move" },
    h("span", {}, t("table.last_move", { name: who })), h("span", {}, moves.flatMap((move, i) => (i ? [", ", move] : [move]))));
}

function headline(state) {
  const custom = shell.game.headline?.(state, context());
  if (custom) return custom;
  const winner = state.result.winner;
  if (winner === null || winner === undefined) return t("end.draw");
  if (winner === state.seat) return t("end.you_won");
  return t("end.won", { name: playerName(winner) });
}

function rematchControls(state) {
  const asked = shell.rematch?.requested_by ?? [];
  const askedByMe = asked.includes(state.seat);
  const others = asked.filter((seat) => seat !== state.seat).map(playerName);
  const solo = shell.players.length === 1;
  const note = others.length ? t("end.asked", { names: others.join(", ") }) : askedByMe ? t("end.waiting_rematch") : "";
  const label = solo ? t("end.play_again") : others.length ? t("end.accept_rematch") : t("end.rematch");
  return h("div", { class: "end-actions" },
    state.seat === null ? null : h("button", {
      type: "button", class: "btn btn-turn", id: "rematch", disabled: askedByMe,
      onclick: () => shell.socket.send({ type: "rematch" }),
    }, label),
    note ? h("span", { class: "rematch-note", "data-testid": "rematch-note" }, note) : null,
    state.match_id ? h("a", { class: "btn", href: `/matches/${encodeURIComponent(state.match_id)}` }, t("end.review")) : null);
}

function tallyLine(state) {
  const tally = state.tally;
  if (!tally || shell.players.length < 2) return null;
  const wins = shell.players.map((p) => `${playerName(p.seat)} ${tally.wins?.[p.seat] ?? 0}`).join(" · ");
  return h("p", { class: "muted" }, t("end.tally", { matches: tally.matches ?? 0, wins, draws: tally.draws ?? 0 }));
}

function renderEnd() {
  const panel = document.getElementById("end");
  const state = shell.state;
  if (!state?.result) {
    panel.hidden = true;
    fill(panel);
    return;
  }
  const breakdown = h("div", { class: "end-breakdown" });
  shell.game.renderResult?.(breakdown, state, context());
  panel.hidden = false;
  fill(panel, h("h2", {}, headline(state)), breakdown, tallyLine(state), rematchControls(state));
}

/** Re-renders the board and puts keyboard focus back on the control that had it. */
function renderBoard() {
  if (!shell.state) return;
  const focused = document.activeElement?.closest?.("[data-key]");
  const key = board.contains(focused) ? focused.dataset.key : null;
  board.setAttribute("aria-busy", String(shell.pending));
  board.dataset.match = String(shell.state.match_number);
  board.dataset.version = String(shell.state.version);
  shell.game.render(board, shell.state, context());
  if (key) board.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
}

function render() {
  renderHead();
  renderSeats();
  renderBanner();
  renderEnd();
  renderBoard();
}

/* The connection */

function receiveState(message, { resync = false } = {}) {
  if (message.match_number !== shell.state?.match_number) {
    shell.ui = {};
    shell.recent = [];
  }
  if (message.last_action && !resync) shell.recent = [...shell.recent, { ...message.last_action, version: message.version }].slice(-4);
  shell.state = message;
  shell.seat = message.seat;
  shell.players = message.players ?? shell.players;
  shell.rematch = message.rematch;
  shell.pending = false;
  render();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  shell.socket = new RoomSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(roomId)}`, {
    state: receiveState,
    presence(message) {
      shell.players = message.players;
      renderSeats();
      renderBanner();
    },
    rematch(message) {
      shell.rematch = { requested_by: message.requested_by };
      renderEnd();
    },
    error(message) {
      shell.pending = false;
      toast(errorText(message.code, message.message));
      if (message.code === "unknown_room") showGone();
      else renderBoard();
    },
    status(value) {
      shell.connection = value;
      renderHead();
      if (value === "gone") showGone();
    },
  });
}

/* Joining */

async function join(name) {
  try {
    const { seat } = await api(`/api/rooms/${encodeURIComponent(roomId)}/join`, { method: "POST", body: { name } });
    shell.seat = seat;
    if (seat === null) toast(t("table.spectator_note"), "info");
  } catch (error) {
    if (error.status === 404) return showGone();
    toast(error.message);
    return askName();
  }
  fill(board, h("p", { class: "muted" }, t("banner.connecting")));
  renderHead();
  renderSeats();
  renderBanner();
  connect();
}

function askName() {
  const free = shell.players.some((p) => !p.name);
  const input = h("input", { type: "text", id: "join-name", maxlength: "24", required: true, autocomplete: "nickname", value: storedName() });
  const submit = (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      toast(t("name.required"));
      input.focus();
      return;
    }
    storeName(name);
    join(name);
  };
  fill(board, h("section", { class: "name-prompt panel", "aria-labelledby": "join-title" },
    h("form", { onsubmit: submit },
      h("h2", { id: "join-title" }, t("join.title", { game: shell.title })),
      h("p", {}, t(free ? "join.lead" : "join.full")),
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("name.label")), input),
      h("button", { type: "submit", class: "btn btn-primary" }, t(free ? "join.sit" : "join.watch")))));
  input.focus();
}

function showGone() {
  shell.socket?.close();
  document.querySelector(".table-head").hidden = true;
  document.getElementById("banner").hidden = true;
  fill(document.getElementById("seats"));
  document.getElementById("end").hidden = true;
  board.classList.remove("felt");
  fill(board, h("section", { class: "not-found" },
    h("h1", {}, t("gone.room_title")),
    h("p", { class: "lead" }, t("gone.room_text")),
    h("a", { class: "btn btn-primary", href: "/" }, t("gone.home"))));
  document.title = `${t("gone.room_title")} — Kartenrunde`;
}

/* Start */

function loadStyles(game) {
  document.head.append(h("link", { rel: "stylesheet", href: `/static/css/games/${encodeURIComponent(game)}.css` }));
}

async function loadRoom() {
  const [room, games] = await Promise.all([
    api(`/api/rooms/${encodeURIComponent(roomId)}`),
    api("/api/games"),
  ]);
  shell.room = room;
  shell.players = room.seats ?? [];
  const info = games.find((game) => game.name === room.game);
  shell.title = info ? localized(info.title) : room.game;
  document.getElementById("rules-link").href = `/rules/${encodeURIComponent(room.game)}`;
  loadStyles(room.game);
  shell.game = await import(`../games/${encodeURIComponent(room.game)}.js`);
  shell.info = info;
}

/** The name this browser sits under in this room, or null when it holds no seat here. */
async function heldName() {
  try {
    const mine = await api("/api/me/rooms");
    return mine.find((room) => room.room_id === roomId)?.name ?? null;
  } catch {
    return null;
  }
}

async function start() {
  boot(() => {
    const info = shell.info;
    if (info) shell.title = localized(info.title);
    if (shell.seat === undefined && shell.room) askName();
    render();
  });
  document.getElementById("share").addEventListener("click", async () => {
    toast(await copyText(roomLink(roomId)) ? t("share.copied") : t("share.failed"), "ok");
  });
  try {
    await loadRoom();
  } catch (error) {
    if (error.status === 404) return showGone();
    toast(error.message);
    return;
  }
  renderHead();
  renderSeats();
  renderBanner();
  const name = await heldName();
  if (name) join(name);
  else askName();
  document.body.dataset.ready = "true";
}

start();
