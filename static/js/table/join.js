// @ts-check
// Joining the table: under the name this browser sits under here; else, while a seat is free,
// the name prompt (or just watching); else watching at once, no name asked. Then the room's
// socket.

import { t } from "../i18n.js";
import { api, asApiError, fill, h, knownName, storedName, storeName, toast } from "../ui.js";
import { endTable } from "./notice.js";
import { render } from "./render.js";
import { gameTitle, roomMode, shell } from "./shell.js";

/** @type {() => void} opens the room's socket once joined (the entry's, from joinTable) */
let connect = () => {};

/**
 * Joins under the name held here, or asks for one; `open()` opens the socket once joined.
 * @param {() => void} open
 */
export async function joinTable(open) {
  connect = open;
  const name = await heldName();
  if (name) join(name);
  else if (shell.players.some((player) => !player.name)) {
    await knownName(); // the prompt offers the player's own name
    askName();
  } else watch();
}

/** A spectator who gave no name: the socket alone (the server refuses their chat lines). */
function watch() {
  shell.seat = null;
  toast(t("table.spectator_note"), "info");
  render();
  connect();
}

/** The name this browser sits under in this room, or null when it holds no seat here. */
async function heldName() {
  try {
    const mine = /** @type {import("../protocol.js").MyRoom[]} */ (await api("/api/me/rooms"));
    return mine.find((room) => room.room_id === shell.roomId)?.name ?? null;
  } catch {
    return null;
  }
}

/** @param {string} name */
async function join(name) {
  try {
    const path = `/api/rooms/${encodeURIComponent(shell.roomId)}/join`;
    const joined = await api(path, { method: "POST", body: { name } });
    const { seat } = /** @type {{seat: number | null}} */ (joined);
    shell.seat = seat;
    if (seat === null) toast(t("table.spectator_note"), "info");
  } catch (error) {
    const failed = asApiError(error);
    if (failed.status === 404) return endTable();
    toast(failed.message);
    return askName();
  }
  render();
  connect();
}

/** Shows the name prompt, anew and focused. */
function askName() {
  shell.nameAsked += 1;
  render();
}

/**
 * The prompt, drawn on the board while this browser holds no seat here.
 * @param {HTMLElement} board
 */
export function drawNamePrompt(board) {
  const free = shell.players.some((p) => !p.name);
  const input = h("input", {
    type: "text",
    id: "join-name",
    maxlength: "24",
    required: true,
    autocomplete: "nickname",
    value: storedName(),
  });
  const submit = (/** @type {SubmitEvent} */ event) => {
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
  fill(
    board,
    h(
      "section",
      { class: "name-prompt panel", "aria-labelledby": "join-title" },
      h(
        "form",
        { onsubmit: submit },
        h("h2", { id: "join-title" }, t("join.title", { game: gameTitle() })),
        h("p", { class: "join-mode", "data-testid": "join-mode" }, roomMode()),
        h("p", {}, t(free ? "join.lead" : "join.full")),
        h("div", { class: "field" }, h("label", { for: "join-name" }, t("name.label")), input),
        h(
          "div",
          { class: "popover-actions" },
          h(
            "button",
            { type: "submit", class: "btn btn-primary" },
            t(free ? "join.sit" : "join.watch"),
          ),
          free
            ? h("button", { type: "button", class: "btn", onclick: watch }, t("join.just_watch"))
            : null,
        ),
      ),
    ),
  );
  input.focus();
}
