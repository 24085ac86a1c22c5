// @ts-check
// The sheets: the move log and the chat, one open at a time; over the board on a phone
// upright, beside it on a desktop.

import { board } from "./board.js";
import { chatSeen } from "./chat.js";
import { byId } from "./draw.js";
import { render } from "./render.js";
import { shell } from "./shell.js";

/** @typedef {"log" | "chat"} Sheet */
/** @typedef {{left: number, right: number, top: number, bottom: number}} Band a box on screen */

/** @type {Sheet[]} */
const SHEETS = ["log", "chat"];

/**
 * @param {Sheet} sheet
 * @param {boolean} open
 */
export function openSheet(sheet, open) {
  if (open) shell.sheet = sheet;
  else if (shell.sheet === sheet) shell.sheet = null;
  render();
  if (sheet === "chat" && chatSeen()) render();
  if (open) {
    // At the newest line: the list was scrolled to its end while the sheet was hidden,
    // where that does nothing, so it opened at the oldest move.
    const list = byId(`${sheet}-list`);
    list.scrollTop = list.scrollHeight;
  }
}

export function watchSheets() {
  for (const sheet of SHEETS) {
    byId(`${sheet}-toggle`).addEventListener("click", () =>
      openSheet(sheet, shell.sheet !== sheet),
    );
    byId(`${sheet}-close`).addEventListener("click", () => openSheet(sheet, false));
  }
  window.addEventListener("resize", render);
}

export function renderSheets() {
  for (const sheet of SHEETS) {
    const open = shell.sheet === sheet;
    document.body.classList.toggle(`${sheet}-open`, open);
    byId(`${sheet}-toggle`).setAttribute("aria-expanded", String(open));
  }
  placeSheet();
}

/* On a phone upright the open sheet lies over the board, in the largest band the current step
   (what the game marks data-needed) leaves free: above, below or beside it, at most half the
   screen (app.css places it elsewhere). */
const UPRIGHT_PHONE = matchMedia("(max-width: 700px) and (min-height: 501px)");
const SHEET_MIN = { width: 200, height: 120 };

function placeSheet() {
  if (!UPRIGHT_PHONE.matches || !shell.sheet) return;
  const band = sheetBand();
  const sheet = byId(shell.sheet).style;
  sheet.setProperty("--sheet-left", `${band.left}px`);
  sheet.setProperty("--sheet-top", `${band.top}px`);
  sheet.setProperty("--sheet-width", `${band.right - band.left}px`);
  sheet.setProperty("--sheet-height", `${band.bottom - band.top}px`);
}

/**
 * The largest band of the board (on screen) beside the current step; the board's foot if none.
 * @returns {Band}
 */
function sheetBand() {
  const box = board.getBoundingClientRect();
  const area = {
    left: box.left,
    right: box.right,
    top: Math.max(box.top, 0),
    bottom: Math.min(box.bottom, innerHeight),
  };
  const step = neededBox() ?? { ...area, top: area.bottom };
  const tall = Math.min(area.bottom - area.top, innerHeight / 2);
  const wide = Math.min(area.right - area.left, innerWidth / 2);
  const bands = [
    { ...area, top: Math.max(area.top, step.top - tall), bottom: step.top },
    { ...area, top: step.bottom, bottom: Math.min(area.bottom, step.bottom + tall) },
    { ...area, left: Math.max(area.left, step.left - wide), right: step.left },
    { ...area, left: step.right, right: Math.min(area.right, step.right + wide) },
  ];
  /** @param {Band} b */
  const fits = (b) => b.right - b.left >= SHEET_MIN.width && b.bottom - b.top >= SHEET_MIN.height;
  /** @param {Band} b */
  const size = (b) => (b.right - b.left) * (b.bottom - b.top);
  return (
    bands.filter(fits).sort((a, b) => size(b) - size(a))[0] ?? {
      ...area,
      top: area.bottom - SHEET_MIN.height,
    }
  );
}

/**
 * The box around everything the current step needs, or null.
 * @returns {Band | null}
 */
function neededBox() {
  const boxes = [...board.querySelectorAll("[data-needed]")]
    .map((el) => el.getBoundingClientRect())
    .filter((box) => box.width && box.height);
  if (!boxes.length) return null;
  return {
    left: Math.min(...boxes.map((box) => box.left)),
    right: Math.max(...boxes.map((box) => box.right)),
    top: Math.min(...boxes.map((box) => box.top)),
    bottom: Math.max(...boxes.map((box) => box.bottom)),
  };
}
