// @ts-check
// The note: one short line under the table saying why a click did nothing (or that a
// request was sent), gone after a few seconds.

import { byId, redraw } from "./draw.js";
import { render } from "./render.js";
import { shell } from "./shell.js";

const SHOWN_MS = 3500;

/** @param {string} text */
export function say(text) {
  shell.note = { text };
  render();
}

/** @type {ReturnType<typeof setTimeout> | undefined} the note's own: it goes after SHOWN_MS */
let timer;

export function renderNote() {
  const note = byId("table-note");
  redraw(note, [shell.note], () => {
    clearTimeout(timer);
    note.textContent = "";
    if (!shell.note) {
      note.classList.remove("is-shown");
      return;
    }
    // Emptied first and filled on the next frame: the same words said again are read again.
    const { text } = shell.note;
    requestAnimationFrame(() => {
      note.textContent = text;
      note.classList.add("is-shown");
    });
    timer = setTimeout(() => {
      shell.note = null;
      render();
    }, SHOWN_MS);
  });
}
