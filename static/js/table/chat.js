// @ts-check
// The table's chat: the room's lines, quick reactions, muting a person in this browser, and
// the unread count on the toggle (a sheet on a phone, a panel beside the move log on a
// desktop). Text is only ever set as text (never as markup), so a link stays what was typed.

import { mutedWriters, storeMuted, writerOf } from "../chat.js";
import { lang, t } from "../i18n.js";
import { api, fill, h, storedName } from "../ui.js";
import { byId, redraw, setText } from "./draw.js";
import { render } from "./render.js";
import { shell } from "./shell.js";

/** @typedef {import("../protocol.js").ChatLine} ChatLine */

const REACTIONS = ["good_move", "well_played", "thanks", "oops", "thumbs_up", "laugh", "wow"];
const MAX_CHARS = 300;

/** The socket opened: the chat shows, with this browser's mutes and the room's lines. */
export function openChat() {
  shell.chat.ready = true;
  shell.chat.muted = mutedWriters();
  loadChat();
}

async function loadChat() {
  try {
    const data = await api(`/api/rooms/${encodeURIComponent(shell.roomId)}/chat`);
    shell.chat.lines = /** @type {import("../protocol.js").RoomChat} */ (data).messages;
  } catch {
    return;
  }
  render();
}

/**
 * A line from the socket; unread while the chat is out of sight.
 * @param {ChatLine} line
 */
export function receiveLine(line) {
  const chat = shell.chat;
  chat.lines = [...chat.lines, line];
  if (!isMine(line) && !chat.muted.has(writerOf(line)) && !chatShown()) chat.unread += 1;
}

/** The chat shows now (its sheet opened, or a desktop's column): all is read. Answers
 * whether that changed the count. */
export function chatSeen() {
  if (!chatShown() || shell.chat.unread === 0) return false;
  shell.chat.unread = 0;
  return true;
}

function chatShown() {
  const panel = byId("chat");
  return panel.checkVisibility?.() ?? panel.offsetParent !== null;
}

/** @param {ChatLine} line */
function isMine(line) {
  const seat = shell.seat ?? null;
  return line.seat !== null ? line.seat === seat : seat === null && line.name === storedName();
}

function mayWrite() {
  return shell.seat !== undefined && (shell.seat !== null || Boolean(shell.room?.spectator_chat));
}

/**
 * @param {string} writer
 * @param {string} name the name they wrote under
 * @param {boolean} mute
 */
function setMuted(writer, name, mute) {
  const muted = new Map(shell.chat.muted);
  if (mute) muted.set(writer, name);
  else muted.delete(writer);
  storeMuted(muted);
  shell.chat.muted = muted;
  render();
}

export function renderChat() {
  const { ready, lines, muted, unread } = shell.chat;
  byId("chat").hidden = !ready;
  const list = byId("chat-list");
  redraw(list, [lines, muted, lang(), shell.seat, storedName()], () => {
    const visible = lines.filter((line) => !muted.has(writerOf(line)));
    fill(
      list,
      ...(visible.length
        ? visible.map(lineItem)
        : [h("li", { class: "log-empty muted" }, t("chat.empty"))]),
    );
    list.scrollTop = list.scrollHeight;
    drawMuted();
  });
  // The form keeps what is typed in it: drawn again only when the right to write changed.
  redraw(byId("chat-write"), [mayWrite(), lang()], drawWrite);
  const badge = byId("chat-unread");
  badge.hidden = unread === 0;
  setText(badge, unread ? String(unread) : "");
  byId("chat-toggle").setAttribute(
    "aria-label",
    unread ? t("chat.unread", { count: unread }) : t("chat.title"),
  );
}

/** @param {ChatLine} line */
function lineItem(line) {
  const mine = isMine(line);
  return h(
    "li",
    { class: ["chat-line", mine && "is-mine", line.reaction && "is-reaction"] },
    h("span", { class: "log-who" }, mine ? t("table.you") : line.name),
    " ",
    h(
      "span",
      { class: "chat-text" },
      line.reaction ? t(`chat.reaction.${line.reaction}`) : line.text,
    ),
    mine
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "chat-mute",
            title: t("chat.mute", { name: line.name }),
            "aria-label": t("chat.mute", { name: line.name }),
            onclick: () => setMuted(writerOf(line), line.name, true),
          },
          h("span", { "aria-hidden": "true" }, "⊘"),
          h("span", { class: "chat-mute-word", "aria-hidden": "true" }, t("chat.mute_word")),
        ),
  );
}

/** The muted writers among the lines (by their latest name), each a button that unmutes. */
function drawMuted() {
  const bar = byId("chat-muted");
  /** @type {Map<string, string>} */
  const writers = new Map();
  for (const line of shell.chat.lines) {
    const writer = writerOf(line);
    if (shell.chat.muted.has(writer)) writers.set(writer, line.name);
  }
  bar.hidden = writers.size === 0;
  fill(
    bar,
    t("chat.muted"),
    ...[...writers].map(([writer, name]) =>
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small chat-unmute",
          "aria-label": t("chat.unmute", { name }),
          onclick: () => setMuted(writer, name, false),
        },
        name,
        " ✕",
      ),
    ),
  );
}

function drawWrite() {
  const area = byId("chat-write");
  if (!mayWrite()) {
    fill(area, h("p", { class: "muted chat-read-only" }, t("chat.read_only")));
    return;
  }
  const input = h("input", {
    type: "text",
    id: "chat-input",
    maxlength: String(MAX_CHARS),
    autocomplete: "off",
    enterkeyhint: "send",
    placeholder: t("chat.placeholder"),
    "aria-label": t("chat.placeholder"),
  });
  const submit = (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    shell.socket?.send({ type: "chat", text });
    input.value = "";
  };
  fill(
    area,
    h(
      "div",
      { class: "chat-reactions", role: "group", "aria-label": t("chat.reactions") },
      REACTIONS.map((reaction) =>
        h(
          "button",
          {
            type: "button",
            class: "btn btn-small chat-reaction",
            data: { reaction },
            onclick: () => shell.socket?.send({ type: "react", reaction }),
          },
          t(`chat.reaction.${reaction}`),
        ),
      ),
    ),
    h(
      "form",
      { class: "chat-form", onsubmit: submit },
      input,
      h("button", { type: "submit", class: "btn btn-small btn-primary" }, t("chat.send")),
    ),
  );
}
