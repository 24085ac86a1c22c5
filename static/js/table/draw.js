// How a part draws: render() may run at any time, so each part draws again only what
// changed. A redraw under a pointer would swallow its click; a new element loses the focus,
// the scroll position and a choice made in it.

import { fill } from "../ui.js";

const drawnFrom = new WeakMap(); // element -> the inputs it was last drawn from (a DOM cache)

/** Calls draw() when one of `inputs` differs (Object.is) from those `el` was last drawn from. */
export function redraw(el, inputs, draw) {
  const before = drawnFrom.get(el);
  if (before?.length === inputs.length && before.every((input, i) => Object.is(input, inputs[i])))
    return false;
  drawnFrom.set(el, inputs);
  draw();
  return true;
}

/** Replaces el's children with these unless it shows equal ones already. Equal nodes keep
 * their listeners: a handler built here reads the shell when it runs, not when it is made. */
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

/** The page's element with this id (table.html has them all). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the table has no #${id}`);
  return el;
}
