// @ts-check
// This browser's preferences (kept in localStorage): the turn sound, browser notifications
// (only after the player opts in), the colour theme of every page and whether one-tap moves
// wait for a confirmation (null until the player chooses: the table decides), and the
// developer switch (the table's wire inspector, static/js/wire.js; off by default).

const KEY = "kr_prefs";

/**
 * @typedef {object} Prefs
 * @property {boolean} sound
 * @property {boolean} notify
 * @property {"system" | "light" | "dark"} theme
 * @property {boolean | null} confirmMoves null until the player chooses: the table decides
 * @property {boolean} developer
 */

/** @type {Prefs} */
const DEFAULTS = {
  sound: false,
  notify: false,
  theme: "system",
  confirmMoves: null,
  developer: false,
};

/** @returns {Prefs} */
export function prefs() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) ?? "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

/**
 * @template {keyof Prefs} K
 * @param {K} key
 * @param {Prefs[K]} value
 */
export function setPref(key, value) {
  const next = { ...prefs(), [key]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // private mode: the choice lasts for this page
  }
  return next;
}

const SYSTEM_DARK = matchMedia("(prefers-color-scheme: dark)");

/** Whether the page shows dark colours: chosen, or the system's while none is chosen. */
export function isDark() {
  const { theme } = prefs();
  return theme === "dark" || (theme === "system" && SYSTEM_DARK.matches);
}

/** Sets html[data-theme] to light or dark when chosen; "system" follows prefers-color-scheme.
 * The header's switch shows which one the page is in. */
export function applyTheme() {
  const { theme } = prefs();
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  for (const button of document.querySelectorAll(".theme-switch")) {
    button.setAttribute("aria-pressed", String(isDark()));
  }
}

/** The header's switch: the other of light and dark, kept for every page. */
export function toggleTheme() {
  setPref("theme", isDark() ? "light" : "dark");
  applyTheme();
}

SYSTEM_DARK.addEventListener("change", applyTheme);
