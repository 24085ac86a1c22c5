// This browser's table preferences (kept in localStorage): the turn sound, browser
// notifications (only after the player opts in) and the colour theme.

const KEY = "kr_prefs";
const DEFAULTS = { sound: false, notify: false, theme: "system" };

export function prefs() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) ?? "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function setPref(key, value) {
  const next = { ...prefs(), [key]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // private mode: the choice lasts for this page
  }
  return next;
}

/** Sets html[data-theme] to light or dark when chosen; "system" follows prefers-color-scheme. */
export function applyTheme() {
  const { theme } = prefs();
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}
