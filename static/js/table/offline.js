// @ts-check
// The offline box over the board while the socket is not open: why, when the next attempt
// comes, and "Retry now". No move can be made meanwhile (the board is inert).

import { t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { board } from "./board.js";
import { byId, setText } from "./draw.js";
import { isOffline, shell } from "./shell.js";

export function renderOffline() {
  const panel = byId("offline");
  const offline = isOffline() && (Boolean(shell.state) || shell.connection === "reconnecting");
  panel.hidden = !offline;
  board.inert = offline;
  if (!offline) return;
  const when = shell.socket?.nextAttemptAt;
  const seconds = when ? Math.max(0, Math.ceil((when - Date.now()) / 1000)) : 0;
  const reason = !shell.online
    ? t("offline.no_network")
    : seconds > 0
      ? t("offline.retry_in", { n: seconds })
      : t("offline.trying");
  // Each second only the reason's words change: a box drawn anew would take "Retry now"
  // from under a finger (or a click) in the middle of it.
  const shown = panel.querySelector(".offline-reason");
  if (shown && panel.dataset.lang === document.documentElement.lang) {
    setText(shown, reason);
    return;
  }
  panel.dataset.lang = document.documentElement.lang;
  fill(
    panel,
    h(
      "div",
      { class: "offline-box" },
      h("strong", { class: "offline-title" }, t("offline.title")),
      h("span", { class: "offline-reason" }, reason),
      h("span", { class: "muted-strong" }, t("offline.no_moves")),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-primary",
          id: "retry-now",
          onclick: () => shell.socket?.retryNow(),
        },
        t("offline.retry"),
      ),
    ),
  );
}
