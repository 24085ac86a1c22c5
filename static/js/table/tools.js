// @ts-check
// A seat's tools beside the turn banner: resign and abort (each after a question), a pause
// (pause.js), and the takeback of its last move; leaving a waiting room (the offers show it).

import { t } from "../i18n.js";
import { api, asApiError, h, toast } from "../ui.js";
import { openDialog } from "./dialogs.js";
import { byId, byIdAs, patch } from "./draw.js";
import { say } from "./note.js";
import { pauseTool } from "./pause.js";
import { isOffline, playerName, shell } from "./shell.js";

export function renderTools() {
  drawMatchTools();
  drawTakeback();
}

/** Beside the turn banner; on a phone upright, at the head of the move log's sheet, where
 * they cost the banner no width (and a mis-tap takes one more). */
function drawMatchTools() {
  const state = shell.state;
  const seated = state && state.seat !== null && !isOffline();
  const playing = seated && !state.result && state.to_move !== null;
  for (const [place, prefix] of [
    ["match-tools", ""],
    ["log-tools", "log-"],
  ])
    patch(
      byId(place),
      playing && state.abortable
        ? matchTool(`${prefix}abort`, t("tools.abort"), "✕", abortQuestion)
        : null,
      playing ? matchTool(`${prefix}resign`, t("tools.resign"), "⚑", resignQuestion) : null,
      playing ? pauseTool(`${prefix}pause-ask`) : null,
    );
}

/** @typedef {import("./shell.js").Question} Question */

/** @returns {Question} */
function abortQuestion() {
  return {
    kind: "confirm",
    title: t("confirm.abort_title"),
    text: t("confirm.abort_text"),
    yes: t("tools.abort"),
    run: () => shell.socket?.send({ type: "abort" }),
  };
}

/** @returns {Question} */
function resignQuestion() {
  const winner = shell.players.find((p) => p.seat !== shell.state?.seat);
  return {
    kind: "confirm",
    title: t("confirm.resign_title"),
    text:
      shell.players.length === 1
        ? t("confirm.resign_solo")
        : t("confirm.resign_text", { name: playerName(winner?.seat) }),
    yes: t("tools.resign"),
    run: () => shell.socket?.send({ type: "resign" }),
  };
}

/**
 * A tool's button: a narrow screen shows its glyph alone (the label stays its name);
 * `question()`, asked when it is clicked, gives the confirmation's words and step.
 * @param {string} id
 * @param {string} label
 * @param {string} glyph
 * @param {() => Question} question
 */
function matchTool(id, label, glyph, question) {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small match-tool",
      id,
      title: label,
      onclick: (/** @type {MouseEvent} */ event) => openDialog(question(), event.currentTarget),
    },
    h("span", { class: "tool-glyph", "aria-hidden": "true" }, glyph),
    h("span", { class: "tool-label" }, label),
  );
}

/** Leave a waiting room: beside the offer of a computer player, out of the banner's way. */
export function leaveButton() {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      id: "leave",
      onclick: (/** @type {MouseEvent} */ event) =>
        openDialog(
          {
            kind: "confirm",
            title: t("confirm.leave_title"),
            text: t("confirm.leave_text"),
            yes: t("tools.leave"),
            run: leave,
          },
          event.currentTarget,
        ),
    },
    t("tools.leave"),
  );
}

async function leave() {
  try {
    await api(`/api/rooms/${encodeURIComponent(shell.roomId)}/leave`, { method: "POST" });
  } catch (error) {
    toast(asApiError(error).message);
    return;
  }
  location.href = "/";
}

/** The button of the seat whose last move may be taken back (the others answer: offers.js). */
function drawTakeback() {
  const button = byIdAs("takeback", HTMLButtonElement);
  const takeback = shell.state?.takeback;
  const mine =
    takeback && !shell.state?.result && shell.seat != null && takeback.seat === shell.seat;
  button.hidden = !mine;
  if (!mine) return;
  button.disabled = takeback.requested || shell.takebackWait || isOffline();
  const phase = takeback.requested ? "asked" : shell.takebackWait ? "wait" : "button";
  const label = t(`takeback.${phase}`);
  button.title = label;
  button.setAttribute("aria-label", label);
  patch(
    button,
    h("span", { "aria-hidden": "true" }, "↶"),
    " ",
    h("span", { class: "takeback-label" }, label),
    h("span", { class: "takeback-short", "aria-hidden": "true" }, t(`takeback.short_${phase}`)),
  );
}

export function watchTakeback() {
  byId("takeback").addEventListener("click", () => {
    if (isOffline()) return say(t("note.offline"));
    shell.socket?.send({ type: "takeback" });
  });
}
