// @ts-check
// Small DOM helpers shared by every page: element builder, toasts, the JSON API, clipboard.

import { t } from "./i18n.js";

/**
 * A child as h() and fill() take it: a node, text (never HTML), nothing, or a list of them.
 * @typedef {Node | string | number | boolean | null | undefined | Child[]} Child
 */

/**
 * h()'s attributes: `class` a name or a list (falsy entries skipped), `data` the dataset,
 * `style` CSS properties, `on<event>` a listener, a property of the element (checked,
 * disabled, value, ...) or else an attribute; null, undefined and false are left out.
 * @typedef {{
 *   class?: string | (string | false | null | undefined)[],
 *   data?: Record<string, string | null | undefined>,
 *   style?: Record<string, string | number>,
 *   [name: string]: unknown,
 * }} Attrs
 */

/**
 * h("button", {class: "btn", onclick: fn, data: {x: 1}}, "text", child, [more]) builds an element.
 * Strings become text nodes (never HTML); null, undefined and false children are skipped.
 * `style: {width: "50%", "--n": 3}` sets properties through CSSOM: the site's
 * Content-Security-Policy refuses style attributes (app/headers.py).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class")
      el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : String(value);
    else if (key === "data") {
      for (const [name, item] of Object.entries(/** @type {object} */ (value)))
        if (item !== null && item !== undefined) el.dataset[name] = item;
    } else if (key === "style") {
      for (const [name, item] of Object.entries(/** @type {object} */ (value)))
        el.style.setProperty(name, String(item));
    } else if (key.startsWith("on"))
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key in el && typeof value !== "string")
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {ParentNode} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * A message at the bottom of the screen that goes away by itself; kind is error, info or ok.
 * @param {string} message
 * @param {"error" | "info" | "ok"} [kind]
 */
export function toast(message, kind = "error") {
  const region = document.getElementById("toasts");
  if (!region) return;
  const item = h(
    "div",
    { class: ["toast", `toast-${kind}`], role: kind === "error" ? "alert" : "status" },
    message,
  );
  const close = h(
    "button",
    {
      type: "button",
      class: "toast-close",
      "aria-label": t("action.close"),
      onclick: () => item.remove(),
    },
    "×",
  );
  item.append(close);
  region.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 4000);
}

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * What a failed api() call threw, as an ApiError (any other error as one of status 0).
 * @param {unknown} error
 * @returns {ApiError}
 */
export function asApiError(error) {
  if (error instanceof ApiError) return error;
  return new ApiError(0, "unknown", error instanceof Error ? error.message : String(error));
}

/**
 * Calls the JSON API; refusals become an ApiError with the server's code and a readable
 * message. The answer is what the server sent: the caller names its type (protocol.js).
 * @param {string} path
 * @param {{method?: string, body?: unknown}} [options]
 * @returns {Promise<unknown>}
 */
export async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network", t("error.network"));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw apiError(response.status, data);
  return data;
}

/** @typedef {import("./protocol.js").GameInfo} GameInfo */

/** @type {Promise<GameInfo[]> | null} */
let listed = null;
/** The games this server offers (`GET /api/games`), asked once a page; asked again after a
 * failure.
 * @returns {Promise<GameInfo[]>}
 */
export function gameList() {
  listed ??= /** @type {Promise<GameInfo[]>} */ (api("/api/games")).catch((error) => {
    listed = null;
    throw error;
  });
  return listed;
}

/**
 * @param {number} status
 * @param {{detail?: unknown} | null} data
 */
function apiError(status, data) {
  const detail = data?.detail;
  if (detail && typeof detail === "object" && !Array.isArray(detail)) {
    const { code, message } = /** @type {{code: string, message: string}} */ (detail);
    return new ApiError(status, code, errorText(code, message));
  }
  if (Array.isArray(detail)) return new ApiError(status, "invalid", t("error.invalid"));
  return new ApiError(status, "http", t("error.http", { status }));
}

/**
 * A readable sentence for a server error code; the server's own message when we have none.
 * @param {string} code
 * @param {string} [message]
 */
export function errorText(code, message) {
  const key = `error.${code}`;
  const known = t(key);
  return known !== key ? known : message || t("error.unknown");
}

/**
 * Copies text; falls back to a hidden textarea where the clipboard API is missing or refused.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "visually-hidden", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done;
  }
}

/**
 * A date from the API as a short local date and time.
 * @param {string | null | undefined} iso
 */
export function when(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(document.documentElement.lang, {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

const NAME_KEY = "kr_name";

/** The display name this browser used last, remembered across visits. */
export function storedName() {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

/** The name this browser used last, else the player's own (a device signed in by a link
 * has none stored yet: issue 53, its home form was left empty), remembered here. */
export async function knownName() {
  const stored = storedName();
  if (stored) return stored;
  try {
    const me = /** @type {{name: string | null}} */ (await api("/api/me/devices"));
    if (me.name) storeName(me.name);
    return me.name ?? "";
  } catch {
    return "";
  }
}

/** @param {string} name */
export function storeName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // private mode: the name is simply asked again next time
  }
}

/**
 * The name typed into `input`, remembered; or null, and the name is asked for.
 * @param {HTMLInputElement} input
 */
export function givenName(input) {
  const name = input.value.trim();
  if (!name) {
    input.focus();
    toast(t("name.required"));
    return null;
  }
  storeName(name);
  return name;
}

/**
 * The share link of a room, on this site.
 * @param {string} roomId
 */
export function roomLink(roomId) {
  return `${location.origin}/r/${encodeURIComponent(roomId)}`;
}

/**
 * Replaces an element's children; null, false and nested arrays are handled as in h().
 * @template {ParentNode} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * How long ago a date from the API was, in words: "5 minutes ago", "vor 2 Stunden".
 * @param {string} iso
 */
export function ago(iso) {
  const seconds = (new Date(iso).getTime() - Date.now()) / 1000;
  const format = new Intl.RelativeTimeFormat(document.documentElement.lang, { numeric: "auto" });
  /** @type {[Intl.RelativeTimeFormatUnit, number][]} */
  const units = [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, "second");
}

/** Since when a turn runs: "turn began 3 h 20 min ago"; in its first minute "turn just
 * began" (a minute rounded up read "1 min ago" right after the move).
 * @param {number} seconds since it began, by the server's clock (clock.js)
 */
export function turnSince(seconds) {
  if (seconds < 60) return t("games.since_now");
  return t("games.since", { when: timeLeft(seconds) });
}

/** Time left in words, its two largest units: "1 day 4 h", "3 h 20 min", "12 min"; its
 * spaces do not break a line.
 * @param {number} seconds
 */
export function timeLeft(seconds) {
  return unitsLeft(seconds).replaceAll(" ", "\u00a0");
}

/** @param {number} seconds */
function unitsLeft(seconds) {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const dayText = days === 1 ? t("time.day") : t("time.days", { n: days });
  if (days) return hours ? `${dayText} ${t("time.hours", { n: hours })}` : dayText;
  if (hours) return `${t("time.hours", { n: hours })} ${t("time.minutes", { n: rest })}`;
  return t("time.minutes", { n: Math.max(1, rest) });
}

/** The count of games waiting for you in the page title ("(2) Kartenrunde") and on the
 * app icon where the browser has badges.
 * @param {number} count
 * @param {string} title
 */
export function showWaiting(count, title) {
  document.title = count ? `(${count}) ${title}` : title;
  if (count && navigator.setAppBadge) navigator.setAppBadge(count).catch(() => {});
  else if (!count && navigator.clearAppBadge) navigator.clearAppBadge().catch(() => {});
}

/**
 * The computer's levels worth offering a person: "random" only where there is no other.
 * @param {string[]} levels
 */
export function offeredLevels(levels) {
  const real = levels.filter((level) => level !== "random");
  return real.length ? real : levels;
}
