// @ts-check
// The chat's words kept in this browser: whom it muted (the table's chat hides their lines,
// the replay too). A writer is muted by the server's key for them, the same in every room
// and under every name; a line stored before there were keys, by its name.

const MUTED_KEY = "kr_muted";

/**
 * @param {import("./protocol.js").ChatLine} line
 * @returns {string}
 */
export function writerOf(line) {
  return line.writer ?? `name:${line.name}`;
}

/** @returns {Map<string, string>} each muted writer, with the name they were muted under */
export function mutedWriters() {
  try {
    const stored = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]");
    // Before writers had keys this browser kept bare names.
    return new Map(
      stored.map((/** @type {string | [string, string]} */ entry) =>
        typeof entry === "string" ? [`name:${entry}`, entry] : entry,
      ),
    );
  } catch {
    return new Map();
  }
}

/** @param {Map<string, string>} muted */
export function storeMuted(muted) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
  } catch {
    // private mode: the choice lasts for this page
  }
}
