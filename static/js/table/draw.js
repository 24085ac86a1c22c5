// @ts-check
// How a part draws: render() may run at any time, so each part draws again only what
// changed. A redraw under a pointer would swallow its click; a new element loses the focus,
// the scroll position and a choice made in it.

import { fill } from "../ui.js";

/** @type {WeakMap<Element, unknown[]>} the inputs each element was last drawn from (a DOM cache) */
const drawnFrom = new WeakMap();

/**
 * Calls draw() when one of `inputs` differs (Object.is) from those `el` was last drawn from.
 * @param {Element} el
 * @param {unknown[]} inputs
 * @param {() => void} draw
 */
export function redraw(el, inputs, draw) {
  const before = drawnFrom.get(el);
  if (before?.length === inputs.length && before.every((input, i) => Object.is(input, inputs[i])))
    return false;
  drawnFrom.set(el, inputs);
  draw();
  return true;
}

/**
 * Replaces el's children with these unless it shows equal ones already. Equal nodes keep
 * their listeners: a handler built here reads the shell when it runs, not when it is made.
 * @param {Element} el
 * @param {...import("../ui.js").Child} children
 */
export function patch(el, ...children) {
  const next = fill(document.createDocumentFragment(), ...children);
  const shown = el.childNodes;
  if (
    shown.length === next.childNodes.length &&
    [...shown].every((node, i) => node.isEqualNode(next.childNodes[i]))
  )
    return false;
  el.replaceChildren(...next.childNodes);
  return true;
}

/**
 * Sets el's text unless it shows it already (setting the same text still replaces the node).
 * @param {Element} el
 * @param {string} text
 */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * The element an event happened on (a click's, a key's), or null for one on no element.
 * @param {Event} event
 */
export function targetOf(event) {
  return event.target instanceof Element ? event.target : null;
}

/**
 * The element of `root` with this data-key (the game's controls carry one), or null.
 * @param {ParentNode} root
 * @param {string} key
 * @returns {HTMLElement | null}
 */
export function keyed(root, key) {
  return root.querySelector(`[data-key="${CSS.escape(key)}"]`);
}

/**
 * The page's element with this id (table.html has them all).
 * @param {string} id
 */
export function byId(id) {
  return byIdAs(id, HTMLElement);
}

/**
 * The page's element with this id, of this type (a button, a select).
 * @template {Element} E
 * @param {string} id
 * @param {{new (): E, prototype: E}} type
 * @returns {E}
 */
export function byIdAs(id, type) {
  const el = document.getElementById(id);
  if (el instanceof type) return el;
  throw new Error(`the table has no #${id} of its type`);
}
