// @ts-check
// The table's settings (a dialog): the turn's sound, the browser's notification, Web Push,
// confirming one-tap moves, the developer's wire panel, the colour theme; and the language
// (on a phone the head bar leaves the language and the colours out).

import { lang, setLang, t } from "../i18n.js";
import { applyTheme, prefs, setPref } from "../prefs.js";
import { pushSetting } from "../push.js";
import { fill, h, toast } from "../ui.js";
import { dropConfirming } from "./confirm.js";
import { byId, redraw } from "./draw.js";
import { render } from "./render.js";
import { confirmsMoves, gameTitle, roomMode, shell } from "./shell.js";

/** Drawn when the dialog opens and when the language or the browser's permission changes;
 * otherwise each control shows what it was set to (a redraw would take its focus). */
export function drawSettings() {
  const body = byId("settings-body");
  const permission = "Notification" in window ? Notification.permission : null;
  redraw(body, [shell.dialog, lang(), permission], () => fill(body, ...settings()));
}

function settings() {
  const current = { ...prefs(), confirmMoves: confirmsMoves() };
  const supported = "Notification" in window;
  const denied = supported && Notification.permission === "denied";
  /**
   * A setting's checkbox; `changed` is given the box when it is ticked or unticked.
   * @param {string} id
   * @param {"sound" | "notify" | "confirmMoves" | "developer"} key
   * @param {string} label
   * @param {string} help
   * @param {(input: HTMLInputElement) => void} changed
   */
  const check = (id, key, label, help, changed) =>
    h(
      "div",
      { class: "field" },
      h(
        "label",
        { class: "check", for: id },
        h("input", {
          type: "checkbox",
          id,
          checked: current[key],
          disabled: key === "notify" && (!supported || denied),
          onchange: (/** @type {Event} */ event) =>
            changed(/** @type {HTMLInputElement} */ (event.currentTarget)),
        }),
        h("span", {}, label),
      ),
      help ? h("span", { class: "field-help" }, help) : null,
    );
  return [
    h("p", { class: "muted", "data-testid": "settings-mode" }, `${gameTitle()}: ${roomMode()}`),
    languageChoice(),
    check("pref-sound", "sound", t("settings.sound"), t("settings.sound_help"), (input) =>
      setPref("sound", input.checked),
    ),
    check(
      "pref-notify",
      "notify",
      t("settings.notify"),
      !supported
        ? t("settings.notify_unsupported")
        : denied
          ? t("settings.notify_denied")
          : t("settings.notify_help"),
      askNotifications,
    ),
    pushSetting(),
    check(
      "pref-confirm",
      "confirmMoves",
      t("settings.confirm"),
      t("settings.confirm_help"),
      (input) => {
        setPref("confirmMoves", input.checked);
        if (!input.checked) dropConfirming();
      },
    ),
    check(
      "pref-developer",
      "developer",
      t("settings.developer"),
      t("settings.developer_help"),
      (input) => {
        setPref("developer", input.checked);
        render();
      },
    ),
    themeChoice(current.theme),
  ];
}

/** Each language in its own words. */
const LANGUAGES = { de: "Deutsch", en: "English" };

function languageChoice() {
  return h(
    "fieldset",
    { class: "variant-list language-choice" },
    h("legend", {}, t("settings.language")),
    Object.entries(LANGUAGES).map(([code, name]) =>
      h(
        "label",
        { class: "chip-radio", lang: code },
        h("input", {
          type: "radio",
          name: "lang",
          value: code,
          checked: lang() === code,
          onchange: () => setLang(code),
        }),
        h("span", {}, name),
      ),
    ),
  );
}

/** @typedef {import("../prefs.js").Prefs["theme"]} Theme */

/** @type {Theme[]} */
const THEMES = ["system", "light", "dark"];

/** @param {Theme} chosen */
function themeChoice(chosen) {
  return h(
    "fieldset",
    { class: "variant-list theme-choice" },
    h("legend", {}, t("settings.theme")),
    THEMES.map((theme) =>
      h(
        "label",
        { class: "chip-radio" },
        h("input", {
          type: "radio",
          name: "theme",
          value: theme,
          checked: chosen === theme,
          onchange: () => {
            setPref("theme", theme);
            applyTheme();
          },
        }),
        h("span", {}, t(`settings.theme_${theme}`)),
      ),
    ),
  );
}

/**
 * The in-tab notification: asks the browser's permission when ticked.
 * @param {HTMLInputElement} input
 */
async function askNotifications(input) {
  if (!input.checked) {
    setPref("notify", false);
    return;
  }
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  setPref("notify", permission === "granted");
  input.checked = permission === "granted";
  if (permission !== "granted") toast(t("settings.notify_denied"), "info");
  render(); // a permission now granted or denied changes the dialog's words
}
