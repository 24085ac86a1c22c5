// @ts-check
// The head of the page: the game's title, the tab's title, the connection's state, and the
// page's classes the stylesheet reads (your turn, offline, over).

import { t } from "../i18n.js";
import { h } from "../ui.js";
import { byId, patch, setText } from "./draw.js";
import { gameTitle, isMyTurn, isOffline, roomMode, shell } from "./shell.js";

export function renderHead() {
  const title = gameTitle() ?? t("table.loading");
  setText(byId("game-title"), title);
  // How the room plays, where a pointer rests on the name; the settings and the join card
  // say it in words (the head bar has no room for it beside the seats).
  byId("game-title").title = roomMode();
  const mine = isMyTurn() && !isOffline();
  const prefix = mine ? `▶ ${t("banner.your_turn")} · ` : "";
  document.title = `${prefix}${title} — Kartenrunde`;
  document.body.classList.toggle("my-turn", mine);
  document.body.classList.toggle("is-offline", isOffline());
  document.body.classList.toggle("is-over", Boolean(shell.state?.result));
  const conn = byId("conn");
  const status = !shell.online && shell.socket ? "offline" : shell.connection;
  conn.className = `conn is-${status}`;
  conn.hidden = !shell.socket;
  conn.title = t(`conn.${status}`);
  patch(conn, h("span", { class: "conn-text" }, t(`conn.${status}`)));
}
