// The table given way to a notice, for good: the room is gone, or this device was signed
// out (its socket closed, nothing of the table left to act on).

import { lang, t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { board } from "./board.js";
import { byId, redraw } from "./draw.js";
import { render } from "./render.js";
import { shell } from "./shell.js";

export function endTable(title = "gone.room_title", text = "gone.room_text") {
  shell.notice = { title, text };
  shell.socket?.close();
  render();
}

export function renderNotice() {
  const { title, text } = shell.notice;
  for (const el of [".table-shell .turn-line", "#end", "#offer", "#log", "#chat", "#offline"])
    document.querySelector(el).hidden = true;
  byId("chat-toggle").hidden = true;
  byId("conn").hidden = true;
  fill(byId("seats"));
  board.classList.remove("felt");
  board.inert = false;
  document.body.classList.remove("is-offline", "my-turn");
  document.body.classList.add("is-gone");
  redraw(board, ["notice", shell.notice, lang()], () =>
    fill(
      board,
      h(
        "section",
        { class: "not-found" },
        h("h1", {}, t(title)),
        h("p", { class: "lead" }, t(text)),
        h("a", { class: "btn btn-primary", href: "/" }, t("gone.home")),
      ),
    ),
  );
  document.title = `${t(title)} — Kartenrunde`;
}
