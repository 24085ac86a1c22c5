// @ts-check
// The popovers over the table, one at a time: the invitation (the room's link and its QR
// code), the settings (settings.js) and a question before a step that cannot be undone.

import { t } from "../i18n.js";
import { qrSvg } from "../qr.js";
import { copyText, fill, h, roomLink, toast } from "../ui.js";
import { byId, redraw } from "./draw.js";
import { render } from "./render.js";
import { drawSettings } from "./settings.js";
import { gameTitle, shell } from "./shell.js";

/** @typedef {import("./shell.js").Dialog} Dialog */

/** @type {Record<Dialog["kind"], string>} each popover's panel */
const PANELS = { share: "share-panel", settings: "settings", confirm: "confirm-panel" };

/** @type {HTMLElement | null} the button that opened the popover: it has the focus back
 * (private) */
let opener = null;

/**
 * Opens a popover: {kind: "share"}, {kind: "settings"} or {kind: "confirm", title, text,
 * yes, run}; the focus goes into it, and back to `button` when it closes.
 * @param {Dialog} dialog
 * @param {EventTarget | null} button
 */
export function openDialog(dialog, button) {
  opener = button instanceof HTMLElement ? button : null;
  shell.dialog = dialog;
  render();
  /** @type {HTMLElement | null} */
  const first = byId(PANELS[dialog.kind]).querySelector("button, input");
  (dialog.kind === "confirm" ? byId("confirm-no") : first)?.focus();
}

function closeDialogs() {
  shell.dialog = null;
  render();
  opener?.focus();
  opener = null;
}

export function renderDialogs() {
  const kind = shell.dialog?.kind;
  for (const [name, id] of Object.entries(PANELS)) byId(id).hidden = kind !== name;
  byId("dialog-backdrop").hidden = !kind;
  byId("share").setAttribute("aria-expanded", String(kind === "share"));
  byId("settings-button").setAttribute("aria-expanded", String(kind === "settings"));
  if (kind === "share") drawShare();
  if (kind === "settings") drawSettings();
  if (kind === "confirm") drawQuestion();
}

/** The room's link and its QR code, drawn in the browser (qr.js). */
function drawShare() {
  redraw(byId("share-panel"), [shell.dialog], () => {
    const link = roomLink(shell.roomId);
    fill(byId("share-link"), h("a", { href: link }, link));
    const qr = byId("share-qr");
    qr.innerHTML = qrSvg(link);
    qr.firstElementChild?.setAttribute("aria-label", t("share.qr"));
    byId("share-native").hidden = !navigator.share;
  });
}

function drawQuestion() {
  const question = shell.dialog;
  if (question?.kind !== "confirm") return;
  const { title, text, yes, run } = question;
  redraw(byId("confirm-panel"), [question], () => {
    byId("confirm-title").textContent = title;
    byId("confirm-text").textContent = text;
    const confirm = byId("confirm-yes");
    confirm.textContent = yes;
    confirm.onclick = () => {
      closeDialogs();
      run();
    };
  });
}

export function watchDialogs() {
  byId("share").addEventListener("click", (event) =>
    openDialog({ kind: "share" }, event.currentTarget),
  );
  byId("share-copy").addEventListener("click", async () => {
    toast((await copyText(roomLink(shell.roomId))) ? t("share.copied") : t("share.failed"), "ok");
  });
  byId("share-native").addEventListener("click", () => {
    navigator
      .share?.({ title: gameTitle() ?? "Kartenrunde", url: roomLink(shell.roomId) })
      .catch(() => {});
  });
  byId("settings-button").addEventListener("click", (event) =>
    openDialog({ kind: "settings" }, event.currentTarget),
  );
  for (const id of ["share-close", "settings-close", "confirm-no", "dialog-backdrop"])
    byId(id).addEventListener("click", closeDialogs);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shell.dialog) closeDialogs();
  });
}
