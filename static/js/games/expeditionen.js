// Expeditionen's table: both sides' expeditions per suit, the four discard piles and the
// draw pile between them, your hand, the two steps of a turn, the round scores.
// Every control comes from legal_actions; the client never decides what is allowed.

import { card, cardChip, rankOf, suitIcon, suitOf, SUITS } from "../cards.js";
import { addStrings, t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { lastTurnOf, legalMatching, num } from "./common.js";
import strings from "./expeditionen.strings.js";

addStrings(strings);

function seats(view) {
  const bottom = view.seat ?? 0;
  return { top: 1 - bottom, bottom };
}

function isSeated(view, ctx) {
  return view.seat !== null && view.seat !== undefined && !ctx.readOnly;
}

function myTurn(state, ctx) {
  return isSeated(state.view, ctx) && !state.result && state.to_move === state.view.seat;
}

/* What changed last: the opponent's last turn (or, for onlookers, the last action). */

function marksFor(state, ctx) {
  const view = state.view;
  const moves = isSeated(view, ctx) ? lastTurnOf(ctx, seats(view).top) : (ctx.recent ?? []).slice(-1);
  const marks = { cards: new Set(), piles: {}, deck: null };  // cards: "seat:code", the code played last
  for (const { seat, action } of moves) {
    const name = ctx.name(seat);
    if (action.type === "play") marks.cards.add(`${seat}:${action.card}`);
    else if (action.type === "discard") marks.piles[suitOf(action.card)] = t("ex.tag.discarded", { name });
    else if (action.source === "deck") marks.deck = t("ex.tag.drew", { name });
    else marks.piles[action.source] = t("ex.tag.took", { name });
  }
  return marks;
}

/* One side of the table: who, then an expedition column per suit. */

function whoCell(view, seat, ctx, position) {
  const isYou = view.seat === seat && isSeated(view, ctx);
  const running = SUITS.reduce((sum, suit) => sum + view.expeditions[seat][suit].score, 0);
  return h("div", { class: "ex-who" },
    h("span", { class: "ex-who-name", title: ctx.name(seat) }, isYou ? t("table.you") : ctx.name(seat)),
    h("span", { class: "ex-who-hand", title: t("ex.in_hand") }, card(null, { faceDown: true, label: t("ex.in_hand") }), `${view.hand_counts[seat]}`),
    h("span", { class: ["ex-who-score", running < 0 && "neg"], title: t("ex.round_score"), "data-testid": `round-score-${position}` }, num(running)));
}

function expeditionColumn(view, seat, suit, marks, position) {
  const { cards, score } = view.expeditions[seat][suit];
  const wagers = cards.filter((code) => ["J", "Q", "K"].includes(rankOf(code))).length;
  // A played card lies on top of its expedition: mark that copy only (two decks repeat codes).
  const moved = (code, index) => marks.cards.has(`${seat}:${code}`) && index === cards.lastIndexOf(code);
  const stack = cards.length
    ? cards.map((code, index) => card(code, { classes: moved(code, index) ? ["just-moved"] : [] }))
    : [h("div", { class: "card-slot ex-empty" }, suitIcon(suit))];
  const label = cards.length
    ? h("span", { class: ["ex-col-score", score < 0 && "neg"] }, num(score), wagers ? h("span", { class: "ex-wager" }, ` ×${wagers + 1}`) : null)
    : h("span", { class: "ex-col-score muted" }, "–");
  return h("div", {
    class: ["ex-col", `suit-${suit}`], "data-testid": `expedition-${position}-${suit}`,
    "aria-label": t("ex.expedition", { suit: t(`suit.${suit}`), n: cards.length, score: num(score) }),
  }, h("div", { class: "ex-stack" }, stack), label);
}

function sideRow(view, seat, position, ctx, marks) {
  return h("section", { class: ["ex-row", "ex-side", `ex-${position}`], "aria-label": t("ex.side", { name: ctx.name(seat) }) },
    whoCell(view, seat, ctx, position),
    SUITS.map((suit) => expeditionColumn(view, seat, suit, marks, position)));
}

/* The middle: the draw pile and the four discard piles. */

function drawable(state, ctx, source) {
  return myTurn(state, ctx) && legalMatching(state, { type: "draw", source }).length > 0;
}

function drawButton(state, ctx, source, content, label) {
  if (!drawable(state, ctx, source)) return h("div", { class: "ex-pile-face" }, content);
  return h("button", {
    type: "button", class: "ex-pile-btn", disabled: ctx.pending, "aria-label": label,
    data: { key: `draw-${source}`, testid: `draw-${source}` }, onclick: () => ctx.act({ type: "draw", source }),
  }, content, h("span", { class: "ex-draw-cue", "aria-hidden": "true" }, t("ex.draw_here")));
}

function deckPile(state, ctx, marks) {
  const size = state.view.draw_pile;
  const face = h("div", { class: ["pile", size > 1 && "pile-stack", marks.deck && "just-moved"] },
    size ? card(null, { faceDown: true }) : h("div", { class: "card-slot" }, "0"),
    h("span", { class: "count-badge", "data-testid": "deck-count" }, String(size)),
    marks.deck ? h("span", { class: "moved-tag" }, marks.deck) : null);
  return h("div", { class: "ex-pile ex-deck" },
    drawButton(state, ctx, "deck", face, t("ex.draw_deck", { n: size })),
    h("span", { class: "ex-pile-label" }, t("ex.deck")));
}

function discardPile(state, ctx, suit, marks) {
  const { top, size } = state.view.discards[suit];
  const blocked = top !== null && top === state.view.discarded;
  const tag = blocked ? t("ex.tag.not_drawable") : marks.piles[suit];
  const face = h("div", { class: ["pile", size > 1 && "pile-stack", marks.piles[suit] && "just-moved", blocked && "is-blocked"] },
    top ? card(top) : h("div", { class: "card-slot ex-empty" }, suitIcon(suit)),
    size ? h("span", { class: "count-badge" }, String(size)) : null,
    tag ? h("span", { class: "moved-tag" }, tag) : null);
  return h("div", { class: ["ex-pile", `suit-${suit}`], "data-testid": `discard-${suit}` },
    drawButton(state, ctx, suit, face, t("ex.draw_discard", { card: top ?? "", suit: t(`suit.${suit}`) })),
    h("span", { class: "ex-pile-label" }, suitIcon(suit), ` ${size}`));
}

function middleRow(state, ctx, marks) {
  const drawing = myTurn(state, ctx) && state.view.phase === "draw";
  return h("section", { class: ["ex-row", "ex-middle", drawing && "is-drawing"], "aria-label": t("ex.middle") },
    deckPile(state, ctx, marks),
    SUITS.map((suit) => discardPile(state, ctx, suit, marks)));
}

/* Your hand and the two steps of a turn. */

function stepper(view, active) {
  const step = (n, key, current) => h("li", { class: ["ex-step", current && "is-current"], "aria-current": current ? "step" : null },
    h("span", { class: "ex-step-n" }, String(n)), t(key));
  return h("ol", { class: "ex-steps", "aria-label": t("ex.steps") },
    step(1, "ex.step.play", active && view.phase === "play"),
    step(2, "ex.step.draw", active && view.phase === "draw"));
}

/** The selected hand card is one position and its code (two decks repeat codes). */
function handCards(state, ctx) {
  const view = state.view;
  const choosing = myTurn(state, ctx) && view.phase === "play";
  if (view.hand[ctx.ui.selectedIndex] !== ctx.ui.selected || !choosing) {
    ctx.ui.selected = null;
    ctx.ui.selectedIndex = null;
  }
  return view.hand.map((code, index) => choosing
    ? card(code, {
      button: true, selected: ctx.ui.selectedIndex === index, disabled: ctx.pending,
      data: { key: `hand-${index}-${code}`, testid: `hand-${code}`, index: String(index) },
      classes: [legalMatching(state, { type: "play", card: code }).length ? "is-playable" : "is-discard-only"],
    })
    : card(code, { data: { testid: `hand-${code}` } }));
}

function actionBar(state, ctx) {
  const selected = ctx.ui.selected;
  if (!selected) return h("p", { class: "ex-hint" }, t("ex.select_card"));
  const button = (type, style) => h("button", {
    type: "button", class: ["btn", style], disabled: ctx.pending || !legalMatching(state, { type, card: selected }).length,
    data: { key: type, testid: type }, onclick: () => ctx.act({ type, card: selected }),
  }, t(`ex.${type}`), " ", cardChip(selected));
  const canPlay = legalMatching(state, { type: "play", card: selected }).length > 0;
  return h("div", { class: "ex-actions" },
    button("play", "btn-turn"), button("discard", ""),
    canPlay ? null : h("span", { class: "ex-hint" }, t("ex.cannot_play")));
}

function handZone(state, ctx) {
  const view = state.view;
  if (view.hands) return revealedHands(view, ctx);
  if (!isSeated(view, ctx) || !view.hand) return h("section", { class: "ex-hand-zone" }, h("p", { class: "muted" }, t("ex.watching")));
  const active = myTurn(state, ctx);
  const hand = h("div", { class: "ex-hand", role: "group", "aria-label": t("ex.your_hand") }, handCards(state, ctx));
  hand.addEventListener("click", (event) => {
    const target = event.target.closest("button.card");
    if (!target || target.disabled) return;
    const index = Number(target.dataset.index);
    const again = ctx.ui.selectedIndex === index;
    ctx.ui.selected = again ? null : target.dataset.card;
    ctx.ui.selectedIndex = again ? null : index;
    ctx.rerender();
  });
  return h("section", { class: ["ex-hand-zone", active && "is-active"] },
    h("div", { class: "ex-hand-head" }, h("h2", { class: "zone-label" }, t("ex.your_hand")), stepper(view, active)),
    hand,
    active && view.phase === "play" ? actionBar(state, ctx) : null,
    active && view.phase === "draw" ? h("p", { class: "ex-hint ex-hint-draw" }, t("ex.hint.draw_where")) : null,
    !active && !state.result ? h("p", { class: "ex-hint" }, t("ex.waiting_for", { name: ctx.name(view.to_move ?? seats(view).top) })) : null);
}

function revealedHands(view, ctx) {
  const { top, bottom } = seats(view);
  const row = (seat) => h("div", { class: "ex-revealed" },
    h("h2", { class: "zone-label" }, t("ex.hand_of", { name: ctx.name(seat) })),
    h("div", { class: "ex-hand ex-hand-small" }, view.hands[seat].map((code) => card(code))));
  return h("section", { class: "ex-hand-zone" }, row(top), row(bottom));
}

/* Scores. */

function roundTitle(view) {
  if (view.tiebreak > 0) return t("ex.tiebreak", { n: view.tiebreak, max: view.max_tiebreaks });
  return t("ex.round", { n: view.round, of: view.rounds });
}

function scoreboard(state, ctx) {
  const view = state.view;
  const order = [seats(view).bottom, seats(view).top];
  const running = order.map((seat) => SUITS.reduce((sum, suit) => sum + view.expeditions[seat][suit].score, 0));
  const cell = (value) => h("td", { class: ["num", value < 0 && "neg"] }, num(value));
  return h("section", { class: "ex-scores" },
    h("h2", { class: "ex-round-title" }, state.result ? t("ex.final") : roundTitle(view)),
    h("table", { class: "score-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ex.round_col")), order.map((seat) => h("th", { scope: "col", class: "num" }, ctx.name(seat))))),
      h("tbody", {},
        view.finished.map((done) => h("tr", {}, h("th", { scope: "row" }, String(done.round)), order.map((seat) => cell(done.scores[seat])))),
        state.result ? null : h("tr", { class: "ex-running" }, h("th", { scope: "row" }, t("ex.now")), running.map(cell))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("ex.total")), order.map((seat) => cell(view.totals[seat]))))),
    state.result ? null : h("p", { class: "muted ex-dealer" }, t("ex.dealer", { name: ctx.name(view.dealer) })));
}

function calculation(part) {
  if (!part.ranks.length) return "–";
  const base = `${part.sum} − 20`;
  const multiplied = part.wagers ? `(${base}) × ${part.wagers + 1}` : base;
  return `${multiplied}${part.bonus ? ` + ${part.bonus}` : ""} = ${num(part.score)}`;
}

function breakdownTable(done, order, ctx) {
  const cell = (part) => h("td", {},
    h("div", { class: "ex-ranks" }, part.ranks.length ? part.ranks.join(" ") : t("ex.not_started")),
    h("div", { class: "calc" }, calculation(part)));
  return h("div", { class: "table-scroll" }, h("table", { class: "score-table ex-breakdown" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ex.suit")), order.map((seat) => h("th", { scope: "col" }, ctx.name(seat))))),
    h("tbody", {}, SUITS.map((suit) => h("tr", { class: `suit-${suit}` },
      h("th", { scope: "row" }, suitIcon(suit), " ", h("span", { class: "suit-name" }, t(`suit.${suit}`))),
      order.map((seat) => cell(done.expeditions[seat][suit]))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("ex.round_score")), order.map((seat) => h("td", { class: ["num", done.scores[seat] < 0 && "neg"] }, num(done.scores[seat])))))));
}

function roundSummary(state, ctx) {
  const view = state.view;
  const count = view.finished.length;
  const fresh = SUITS.every((suit) => view.discards[suit].size === 0 && view.expeditions.every((side) => side[suit].cards.length === 0));
  if (ctx.ui.knownRounds === undefined) ctx.ui.showRound = fresh && count > 0 ? count : null;
  else if (count > ctx.ui.knownRounds) ctx.ui.showRound = count;
  ctx.ui.knownRounds = count;
  if (ctx.ui.showRound > count) ctx.ui.showRound = null;
  if (!ctx.ui.showRound || state.result) return null;
  const done = view.finished[ctx.ui.showRound - 1];
  const order = [seats(view).bottom, seats(view).top];
  return h("section", { class: "panel ex-round-summary", "data-testid": "round-summary", "aria-live": "polite" },
    h("h2", {}, t("ex.round_over", { n: done.round })),
    h("p", {}, order.map((seat) => `${ctx.name(seat)} ${num(done.scores[seat])}`).join(" · ")),
    breakdownTable(done, order, ctx),
    h("button", {
      type: "button", class: "btn btn-primary", data: { key: "close-summary" },
      onclick: () => { ctx.ui.showRound = null; ctx.rerender(); },
    }, t("ex.continue")));
}

export function render(root, state, ctx) {
  const view = state.view;
  const { top, bottom } = seats(view);
  const marks = marksFor(state, ctx);
  fill(root, h("div", { class: "ex-layout" },
    roundSummary(state, ctx),
    h("div", { class: "ex-table" },
      sideRow(view, top, "top", ctx, marks),
      middleRow(state, ctx, marks),
      sideRow(view, bottom, "bottom", ctx, marks)),
    h("aside", { class: "ex-panel" }, handZone(state, ctx), scoreboard(state, ctx))));
}

export function describe(action) {
  if (action.type === "draw") {
    if (action.source === "deck") return h("span", {}, t("ex.did.draw_deck"));
    const [before, after] = t("ex.did.draw_pile").split("{suit}");
    return h("span", {}, before, suitIcon(action.source), after ?? "");
  }
  const [before, after] = t(`ex.did.${action.type}`).split("{card}");
  return h("span", {}, before, cardChip(action.card), after ?? "");
}

export function turnHint(state) {
  return t(state.view.phase === "draw" ? "ex.hint.draw" : "ex.hint.play");
}

export function renderResult(root, state, ctx) {
  const view = state.view;
  const order = [seats(view).bottom, seats(view).top];
  const rounds = state.result.rounds ?? view.finished;
  fill(root, 
    h("p", { class: "ex-final-line" }, order.map((seat) => `${ctx.name(seat)} ${num(state.result.scores[seat])}`).join(" · ")),
    ...rounds.map((done, index) => h("details", { class: "ex-round-details", open: index === rounds.length - 1 },
      h("summary", {}, t("ex.round_over", { n: done.round }), " — ", order.map((seat) => `${ctx.name(seat)} ${num(done.scores[seat])}`).join(" · ")),
      breakdownTable(done, order, ctx))));
}
