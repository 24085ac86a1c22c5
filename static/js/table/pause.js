// @ts-check
// A pause of the running match: a seat asks (a tool beside Resign, tools.js), the other
// agrees (the panel above the board), and while it holds nobody moves, the computer waits
// and no clock runs (the banner says so); either player resumes from the panel
// (app/table/pause.py).

import { t } from "../i18n.js";
import { h } from "../ui.js";
import { byId, patch } from "./draw.js";
import { isOffline, playerName, shell } from "./shell.js";

/**
 * The tool that asks, while the match runs and nobody asked yet (null otherwise).
 * @param {string} id
 */
export function pauseTool(id) {
  const pause = shell.state?.pause;
  if (!pause || pause.paused || pause.asked_by.length) return null;
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small match-tool",
      id,
      title: t("pause.ask"),
      onclick: () => shell.socket?.send({ type: "pause" }),
    },
    h("span", { class: "tool-glyph", "aria-hidden": "true" }, "‖"),
    h("span", { class: "tool-label" }, t("pause.ask")),
  );
}

/** An open request (agree, or wait for the other), or the match paused (resume). */
export function renderPause() {
  const panel = byId("pause");
  const pause = shell.state?.pause;
  const seat = shell.state ? shell.state.seat : null;
  const asked = pause?.asked_by ?? [];
  panel.hidden = !pause || (!pause.paused && (seat === null || asked.length === 0));
  if (!pause || panel.hidden) return;
  if (pause.paused) {
    patch(
      panel,
      h("span", { "data-testid": "pause-note" }, t("pause.nobody_moves")),
      seat === null ? null : button("resume", t("pause.resume")),
    );
    return;
  }
  const others = asked.filter((s) => s !== seat).map(playerName);
  const note = others.length ? t("pause.lead", { names: others.join(", ") }) : t("pause.asked");
  patch(
    panel,
    h("span", { "data-testid": "pause-note" }, note),
    asked.includes(seat ?? -1) ? null : button("pause", t("pause.agree")),
  );
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
      class: "btn btn-small btn-primary",
      id: `pause-${type === "pause" ? "agree" : "resume"}`,
      disabled: isOffline(),
      onclick: () => shell.socket?.send({ type }),
    },
    label,
  );
}
