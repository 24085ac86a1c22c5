// @ts-check
// The table given way to a notice, for good: the room is gone, or this device was signed
// out (its socket closed, nothing of the table left to act on).

import { lang, t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { board } from "./board.js";
import { byId, redraw } from "./draw.js";
import { render } from "./render.js";
import { shell } from "./shell.js";

/**
 * @param {string} [title] the key of the notice's title
 * @param {string} [text] the key of its words
 */
export function endTable(title = "gone.room_title", text = "gone.room_text") {
  shell.notice = { title, text };
  shell.socket?.close();
  render();
}

export function renderNotice() {
  const notice = shell.notice;
  if (!notice) return;
  const turnLine = document.querySelector(".table-shell .turn-line");
  if (turnLine instanceof HTMLElement) turnLine.hidden = true;
  for (const id of ["end", "offer", "log", "chat", "chat-toggle", "offline", "conn"])
    byId(id).hidden = true;
  fill(byId("seats"));
  board.classList.remove("felt");
  board.inert = false;
  document.body.classList.remove("is-offline", "my-turn");
  document.body.classList.add("is-gone");
  redraw(board, ["notice", notice, lang()], () =>
    fill(
      board,
      h(
        "section",
        { class: "not-found" },
        h("h1", {}, t(notice.title)),
        h("p", { class: "lead" }, t(notice.text)),
        h("a", { class: "btn btn-primary", href: "/" }, t("gone.home")),
      ),
    ),
  );
  document.title = `${t(notice.title)} — Kartenrunde`;
}
