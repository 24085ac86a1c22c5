// @ts-check
// A pause of the running match: a seat asks (a tool beside the turn banner), the other
// agrees (the panel under it), and while it holds nobody moves, the computer waits and no
// clock runs (the banner says so); the same tool resumes, for either player
// (app/table/pause.py).

import { t } from "../i18n.js";
import { h } from "../ui.js";
import { byId, byIdAs, patch } from "./draw.js";
import { isOffline, playerName, shell } from "./shell.js";

/** @typedef {import("../protocol.js").PauseStatus} PauseStatus */

export function renderPause() {
  const pause = shell.state?.pause ?? null;
  const seat = shell.state ? shell.state.seat : null;
  drawTool(pause, seat);
  drawRequest(pause, seat);
}

/**
 * Pause (while the match runs and nobody asked yet) or resume (while paused); a seat's only.
 * @param {PauseStatus | null} pause
 * @param {number | null} seat
 */
function drawTool(pause, seat) {
  const tool = byIdAs("pause-tool", HTMLButtonElement);
  tool.hidden = !pause || seat === null || (!pause.paused && pause.asked_by.length > 0);
  if (!pause || tool.hidden) return;
  const type = pause.paused ? "resume" : "pause";
  const label = t(pause.paused ? "pause.resume" : "pause.ask");
  tool.disabled = isOffline();
  tool.title = label;
  tool.dataset.send = type;
  tool.onclick = () => shell.socket?.send({ type });
  patch(
    tool,
    h("span", { class: "tool-glyph", "aria-hidden": "true" }, pause.paused ? "▶" : "⏸"),
    h("span", { class: "tool-label" }, label),
  );
}

/**
 * An open request: another seat's (agree), or this seat's (wait for the other).
 * @param {PauseStatus | null} pause
 * @param {number | null} seat
 */
function drawRequest(pause, seat) {
  const panel = byId("pause");
  const asked = pause?.asked_by ?? [];
  panel.hidden = !pause || pause.paused || seat === null || asked.length === 0;
  if (panel.hidden) return;
  const others = asked.filter((s) => s !== seat).map(playerName);
  const note = others.length ? t("pause.lead", { names: others.join(", ") }) : t("pause.asked");
  patch(
    panel,
    h("span", { "data-testid": "pause-note" }, note),
    asked.includes(seat ?? -1)
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "btn btn-small btn-primary",
            id: "pause-agree",
            disabled: isOffline(),
            onclick: () => shell.socket?.send({ type: "pause" }),
          },
          t("pause.agree"),
        ),
  );
}
