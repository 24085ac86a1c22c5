// The table's chat: the room's lines, quick reactions, muting a person in this browser, and
// the unread count on the toggle (a sheet on a phone, a panel beside the move log on a
// desktop). Text is only ever set as text (never as markup), so a link stays what was typed.

import { t } from "./i18n.js";
import { api, fill, h } from "./ui.js";

export const REACTIONS = [
  "good_move",
  "well_played",
  "thanks",
  "oops",
  "thumbs_up",
  "laugh",
  "wow",
];
const MAX_CHARS = 300;
const MUTED_KEY = "kr_muted";

export function mutedNames() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]"));
  } catch {
    return new Set();
  }
}

/**
 * The chat of room `roomId`. `me()` answers {seat, name, mayWrite} of this browser now;
 * `send(message)` sends on the room's socket.
 */
export function createChat({ roomId, me, send }) {
  const panel = document.getElementById("chat");
  const list = document.getElementById("chat-list");
  const toggle = document.getElementById("chat-toggle");
  const unreadBadge = document.getElementById("chat-unread");
  let lines = [];
  let unread = 0;
  let muted = mutedNames();

  const isMine = (line) => {
    const self = me();
    return line.seat !== null
      ? line.seat === self.seat
      : self.seat === null && line.name === self.name;
  };
  const shown = () => panel.checkVisibility?.() ?? panel.offsetParent !== null;

  function setMuted(name, mute) {
    if (mute) muted.add(name);
    else muted.delete(name);
    localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
    render();
  }

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
              onclick: () => setMuted(line.name, true),
            },
            "⊘",
          ),
    );
  }

  function renderMuted() {
    const bar = document.getElementById("chat-muted");
    const names = [...new Set(lines.map((line) => line.name))].filter((name) => muted.has(name));
    bar.hidden = names.length === 0;
    fill(
      bar,
      t("chat.muted"),
      ...names.map((name) =>
        h(
          "button",
          {
            type: "button",
            class: "btn btn-small chat-unmute",
            "aria-label": t("chat.unmute", { name }),
            onclick: () => setMuted(name, false),
          },
          name,
          " ✕",
        ),
      ),
    );
  }

  function renderWrite() {
    const area = document.getElementById("chat-write");
    if (!me().mayWrite) {
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
    const submit = (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      send({ type: "chat", text });
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
              onclick: () => send({ type: "react", reaction }),
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

  function renderUnread() {
    unreadBadge.hidden = unread === 0;
    unreadBadge.textContent = unread ? String(unread) : "";
    toggle.setAttribute(
      "aria-label",
      unread ? t("chat.unread", { count: unread }) : t("chat.title"),
    );
  }

  function render() {
    const visible = lines.filter((line) => !muted.has(line.name));
    fill(
      list,
      ...(visible.length
        ? visible.map(lineItem)
        : [h("li", { class: "log-empty muted" }, t("chat.empty"))]),
    );
    list.scrollTop = list.scrollHeight;
    renderMuted();
    renderUnread();
  }

  return {
    /** The room's latest lines, after the socket (re)opened. */
    async load() {
      try {
        const data = await api(`/api/rooms/${encodeURIComponent(roomId)}/chat`);
        lines = data.messages;
      } catch {
        return;
      }
      render();
    },
    receive(line) {
      lines.push(line);
      if (!isMine(line) && !muted.has(line.name) && !shown()) unread += 1;
      render();
    },
    /** The panel shows (the sheet opened, or a desktop's column): all is read. */
    seen() {
      if (shown()) unread = 0;
      renderUnread();
    },
    show() {
      panel.hidden = false;
      muted = mutedNames();
      renderWrite();
      render();
    },
  };
}
