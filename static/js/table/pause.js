// @ts-check
// A pause of the running match: a seat asks, the other agrees, and while it holds nobody
// moves, the computer waits and no clock runs; either player resumes (app/table/pause.py).
// While paused, a banner over the board says so to everyone, spectators too.

import { t } from "../i18n.js";
import { h } from "../ui.js";
import { byId, patch } from "./draw.js";
import { isOffline, playerName, shell } from "./shell.js";

export function renderPause() {
  const panel = byId("pause");
  const state = shell.state;
  const pause = state?.pause;
  const seated = state != null && state.seat !== null;
  panel.hidden = !pause || (!pause.paused && !seated);
  document.body.classList.toggle("is-paused", Boolean(pause?.paused));
  if (!pause || panel.hidden) return;
  panel.classList.toggle("is-paused", pause.paused);
  patch(panel, ...(pause.paused ? pausedContent(seated) : askContent(pause.asked_by)));
}

/** @param {boolean} seated */
function pausedContent(seated) {
  return [
    h("strong", { class: "pause-title", "data-testid": "paused" }, t("pause.paused")),
    h("span", { class: "muted-strong" }, t("pause.nobody_moves")),
    seated ? button("resume", t("pause.resume")) : null,
  ];
}

/** Ask for a pause, or agree to the other's; once asked, wait for them. @param {number[]} asked */
function askContent(asked) {
  const mine = asked.includes(shell.seat ?? -1);
  const others = asked.filter((seat) => seat !== shell.seat).map(playerName);
  if (mine) return [h("span", { class: "muted", "data-testid": "pause-note" }, t("pause.asked"))];
  if (others.length)
    return [
      h("span", { "data-testid": "pause-note" }, t("pause.lead", { names: others.join(", ") })),
      button("pause", t("pause.agree")),
    ];
  return [button("pause", t("pause.ask"))];
}

/**
 * @param {"pause" | "resume"} type
 * @param {string} label
 */
function button(type, label) {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      id: `pause-${type}`,
      disabled: isOffline(),
      onclick: () => shell.socket?.send({ type }),
    },
    label,
  );
}
