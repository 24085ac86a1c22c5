// Helpers every game's table module may use. A game module exports
// render(root, state, ctx) and, optionally, renderResult, describe, turnHint and headline.

/** True when two actions are the same intention (same fields, same values). */
export function sameAction(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The legal actions of the latest state that match `partial` ({type: "take", card: "7C"}). */
export function legalMatching(state, partial) {
  return (state.legal_actions ?? []).filter((action) => Object.entries(partial).every(([key, value]) => action[key] === value));
}

/** The actions of `seat`'s latest turn among the recent ones, oldest first (to highlight a move). */
export function lastTurnOf(ctx, seat) {
  const moves = [];
  for (const entry of [...(ctx.recent ?? [])].reverse()) {
    if (entry.seat === seat) moves.unshift(entry);
    else if (moves.length) break;
  }
  return moves;
}

/** A change with its sign, using a real minus sign: "+5", "−3", "±0". */
export function signed(value) {
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${Math.abs(value)}`;
  return "±0";
}

/** A negative number with a real minus sign. */
export function num(value) {
  return value < 0 ? `−${Math.abs(value)}` : String(value);
}
