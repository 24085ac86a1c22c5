// @ts-check
// The chat's words kept in this browser: whom it muted (the table's chat hides their lines,
// the replay too).

const MUTED_KEY = "kr_muted";

/** @returns {Set<string>} */
export function mutedNames() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]"));
  } catch {
    return new Set();
  }
}

/** @param {Set<string>} names */
export function storeMuted(names) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...names]));
  } catch {
    // private mode: the choice lasts for this page
  }
}
