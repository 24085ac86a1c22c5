// @ts-check
// Cards travel from where they were to where they land (FLIP): before a new state is drawn the
// shell notes where each card code sits; after, a card that appears elsewhere glides there.
// Works for any game module: cards are matched by data-card code (the last copy of a code).
// Respects prefers-reduced-motion.

const DURATION_MS = 420;

function reduced() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The cards shown in `root`, each with its code (data-card).
 * @param {ParentNode} root
 */
function cards(root) {
  return /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".card[data-card]"));
}

/**
 * Where each card code is shown now: code -> DOMRect (of its last copy).
 * @param {ParentNode} root
 * @returns {Map<string | undefined, DOMRect>}
 */
export function snapshotCards(root) {
  const places = new Map();
  for (const el of cards(root)) places.set(el.dataset.card, el.getBoundingClientRect());
  return places;
}

/**
 * Moves every card whose code now shows somewhere else from its old place to the new one.
 * `last` ({seat, action}) is the move just made: a card it names that was hidden before (in
 * another player's hand) starts from that player's hand, marked [data-hand-seat] by the game.
 * @param {Map<string | undefined, DOMRect> | null} before
 * @param {ParentNode} root
 * @param {{seat: number, action?: Record<string, unknown>} | null} [last]
 * @param {number | null} [mySeat]
 */
export function animateMoves(before, root, last = null, mySeat = null) {
  if (reduced() || !before) return 0;
  let moved = 0;
  const seen = new Set();
  for (const el of [...cards(root)].reverse()) {
    const code = el.dataset.card;
    if (seen.has(code)) continue;
    seen.add(code);
    let from = before.get(code);
    if (!from && last && last.seat !== mySeat && last.action?.card === code) {
      from = root.querySelector(`[data-hand-seat="${last.seat}"]`)?.getBoundingClientRect();
    }
    if (!from) continue;
    const to = el.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) < 12 && Math.abs(dy) < 12) continue;
    if (!to.width || !from.width) continue;
    const scale = from.width / to.width;
    el.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, zIndex: 20 },
        { transform: "none", zIndex: 20 },
      ],
      { duration: DURATION_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
    el.dataset.travelled = "yes";
    moved += 1;
  }
  return moved;
}
