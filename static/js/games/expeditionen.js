// Expeditionen's table: both sides' expeditions per suit, the four discard piles and the
// draw pile between them, your hand, the two steps of a turn, the round scores.
// Every control comes from legal_actions; the client never decides what is allowed.

import { card, cardChip, cardName, suitIcon, suitOf, SUITS } from "../cards.js";
import { addStrings, t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { lastTurnOf, legalMatching, num, rulesTables, waitingFor } from "./common.js";
import strings from "./expeditionen.strings.js";

addStrings(strings);

const TABLES = await rulesTables("expeditionen");

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

/* What changed last: the opponent's last turn until you act (for onlookers, the last action). */

function marksFor(state, ctx) {
  const view = state.view;
  const recent = ctx.recent ?? [];
  const answered = recent.length && recent.at(-1).seat !== seats(view).top;
  const moves = isSeated(view, ctx)
    ? answered
      ? []
      : lastTurnOf(ctx, seats(view).top)
    : recent.slice(-1);
  const marks = { cards: new Set(), piles: {}, deck: null }; // cards: "seat:code", the code played last
  for (const { seat, action } of moves) {
    const name = ctx.name(seat);
    if (action.type === "play") marks.cards.add(`${seat}:${action.card}`);
    else if (action.type === "discard")
      marks.piles[suitOf(action.card)] = t("ex.tag.discarded", { name });
    else if (action.source === "deck") marks.deck = t("ex.tag.drew", { name });
    else marks.piles[action.source] = t("ex.tag.took", { name });
  }
  return marks;
}

/* One side of the table: who, then an expedition column per suit. */

function whoCell(view, seat, ctx, position) {
  const isYou = view.seat === seat && isSeated(view, ctx);
  const running = SUITS.reduce((sum, suit) => sum + view.expeditions[seat][suit].score, 0);
  return h(
    "div",
    { class: "ex-who" },
    h(
      "span",
      { class: "ex-who-name", title: ctx.name(seat) },
      isYou ? t("table.you") : ctx.name(seat),
    ),
    h(
      "span",
      {
        class: "ex-who-hand",
        title: t("ex.in_hand"),
        "aria-label": t("ex.in_hand_n", { n: view.hand_counts[seat] }),
        data: { handSeat: String(seat) },
      },
      card(null, { faceDown: true, label: "" }),
      h("span", { "aria-hidden": "true" }, `${view.hand_counts[seat]}`),
    ),
    h(
      "span",
      {
        class: ["ex-who-score", running < 0 && "neg"],
        title: t("ex.round_score"),
        "aria-label": t("ex.round_score_n", { score: num(running) }),
        "data-testid": `round-score-${position}`,
        data: { needed: position === "bottom" && isYou ? "score" : null },
      },
      num(running),
    ),
  );
}

function expeditionColumn(view, seat, suit, marks, position, drop, choosing) {
  const { cards, score, multiplier } = view.expeditions[seat][suit];
  const wagers = multiplier - 1;
  // A played card lies on top of its expedition: mark that copy only (two decks repeat codes).
  const moved = (code, index) =>
    marks.cards.has(`${seat}:${code}`) && index === cards.lastIndexOf(code);
  const stack = cards.length
    ? cards.map((code, index) => card(code, { classes: moved(code, index) ? ["just-moved"] : [] }))
    : [h("div", { class: "card-slot ex-empty" }, suitIcon(suit))];
  const label = cards.length
    ? h(
        "span",
        { class: ["ex-col-score", score < 0 && "neg"], "aria-hidden": "true" },
        num(score),
        wagers ? h("span", { class: "ex-wager" }, ` ×${multiplier}`) : null,
      )
    : h("span", { class: "ex-col-score muted", "aria-hidden": "true" }, "–");
  const counts = {
    cards: t("ex.cards", { n: cards.length }),
    wagers: t("ex.wager_cards", { n: wagers }),
    points: t("ex.points", { n: num(score) }),
  };
  const spoken = cards.length
    ? t(wagers ? "ex.expedition_wagers" : "ex.expedition", { suit: t(`suit.${suit}`), ...counts })
    : t("ex.expedition_empty", { suit: t(`suit.${suit}`) });
  return h(
    "div",
    {
      class: ["ex-col", `suit-${suit}`],
      role: "group",
      "data-testid": `expedition-${position}-${suit}`,
      "aria-label": spoken,
      data: { drop: drop ? `play-${suit}` : null, needed: choosing ? "expedition" : null },
    },
    h("div", { class: "ex-stack", style: { "--n": Math.max(1, cards.length) } }, stack),
    label,
  );
}

/** `choosing`: your step 1, when your own expeditions are where a chosen card goes. */
function sideRow(view, seat, position, ctx, marks, choosing) {
  const drop = position === "bottom" && isSeated(view, ctx);
  return h(
    "section",
    {
      class: ["ex-row", "ex-side", `ex-${position}`],
      "aria-label": t("ex.side", { name: ctx.name(seat) }),
    },
    whoCell(view, seat, ctx, position),
    SUITS.map((suit) =>
      expeditionColumn(view, seat, suit, marks, position, drop, drop && choosing),
    ),
  );
}

/* The middle: the draw pile and the four discard piles. */

function drawable(state, ctx, source) {
  return myTurn(state, ctx) && legalMatching(state, { type: "draw", source }).length > 0;
}

function drawButton(state, ctx, source, content, label) {
  if (!drawable(state, ctx, source))
    return h("div", { class: "ex-pile-face", role: "img", "aria-label": label.still }, content);
  return h(
    "button",
    {
      type: "button",
      class: "ex-pile-btn",
      disabled: ctx.pending,
      "aria-label": label.draw,
      data: { key: `draw-${source}`, testid: `draw-${source}`, needed: "draw" },
      onclick: () => {
        const top = source === "deck" ? null : state.view.discards[source].top;
        ctx.tap({ type: "draw", source }, top ? [top] : []);
      },
    },
    content,
    h("span", { class: "ex-draw-cue", "aria-hidden": "true" }, t("ex.draw_here")),
  );
}

function deckPile(state, ctx, marks) {
  const size = state.view.draw_pile;
  const face = h(
    "div",
    { class: ["pile", size > 1 && "pile-stack", marks.deck && "just-moved"] },
    size ? card(null, { faceDown: true }) : h("div", { class: "card-slot" }, "0"),
    h("span", { class: "count-badge", "data-testid": "deck-count" }, String(size)),
    marks.deck ? h("span", { class: "moved-tag" }, marks.deck) : null,
  );
  return h(
    "div",
    { class: "ex-pile ex-deck" },
    drawButton(state, ctx, "deck", face, {
      draw: t("ex.draw_deck", { n: size }),
      still: t("ex.deck_n", { n: size }),
    }),
    h("span", { class: "ex-pile-label", "aria-hidden": "true" }, t("ex.deck")),
  );
}

function discardPile(state, ctx, suit, marks) {
  const { top, size } = state.view.discards[suit];
  const blocked = top !== null && top === state.view.discarded;
  const tag = blocked ? t("ex.tag.not_drawable") : marks.piles[suit];
  const face = h(
    "div",
    {
      class: [
        "pile",
        size > 1 && "pile-stack",
        marks.piles[suit] && "just-moved",
        blocked && "is-blocked",
      ],
    },
    top ? card(top) : h("div", { class: "card-slot ex-empty" }, suitIcon(suit)),
    size ? h("span", { class: "count-badge" }, String(size)) : null,
    tag ? h("span", { class: "moved-tag" }, tag) : null,
  );
  const still = top
    ? t("ex.discard_pile", { suit: t(`suit.${suit}`), n: size, card: cardName(top) })
    : t("ex.discard_pile_empty", { suit: t(`suit.${suit}`) });
  return h(
    "div",
    {
      class: ["ex-pile", `suit-${suit}`],
      "data-testid": `discard-${suit}`,
      data: { drop: isSeated(state.view, ctx) ? `discard-${suit}` : null },
    },
    drawButton(state, ctx, suit, face, {
      draw: t("ex.draw_discard", { card: top ? cardName(top) : "", suit: t(`suit.${suit}`) }),
      still: blocked ? `${still} (${t("ex.tag.not_drawable")})` : still,
    }),
    h("span", { class: "ex-pile-label", "aria-hidden": "true" }, suitIcon(suit), ` ${size}`),
  );
}

function middleRow(state, ctx, marks) {
  const drawing = myTurn(state, ctx) && state.view.phase === "draw";
  return h(
    "section",
    { class: ["ex-row", "ex-middle", drawing && "is-drawing"], "aria-label": t("ex.middle") },
    deckPile(state, ctx, marks),
    SUITS.map((suit) => discardPile(state, ctx, suit, marks)),
  );
}

/* Your hand and the two steps of a turn. */

function stepper(view, active) {
  const step = (n, key, current) =>
    h(
      "li",
      { class: ["ex-step", current && "is-current"], "aria-current": current ? "step" : null },
      h("span", { class: "ex-step-n" }, String(n)),
      t(key),
    );
  return h(
    "ol",
    { class: "ex-steps", "aria-label": t("ex.steps") },
    step(1, "ex.step.play", active && view.phase === "play"),
    step(2, "ex.step.draw", active && view.phase === "draw"),
  );
}

/** The action a double-click, a long press or Enter twice means: play when it may, else discard. */
function obviousAction(state, code) {
  if (legalMatching(state, { type: "play", card: code }).length)
    return { type: "play", card: code };
  if (legalMatching(state, { type: "discard", card: code }).length)
    return { type: "discard", card: code };
  return null;
}

/** The selected hand card is one position and its code (two decks repeat codes). */
function handCards(state, ctx) {
  const view = state.view;
  const choosing = myTurn(state, ctx) && view.phase === "play";
  if (view.hand[ctx.ui.selectedIndex] !== ctx.ui.selected || !choosing) {
    ctx.ui.selected = null;
    ctx.ui.selectedIndex = null;
  }
  const focusIndex = ctx.ui.selectedIndex ?? Math.min(ctx.ui.focusIndex ?? 0, view.hand.length - 1);
  return view.hand.map((code, index) => {
    if (!choosing) return card(code, { data: { testid: `hand-${code}` } });
    const playable = legalMatching(state, { type: "play", card: code }).length > 0;
    const el = card(code, {
      button: true,
      selected: ctx.ui.selectedIndex === index,
      disabled: ctx.pending || ctx.offline,
      label: `${cardName(code)}, ${t(playable ? "ex.can_play" : "ex.discard_only")}`,
      data: {
        key: `hand-${index}-${code}`,
        testid: `hand-${code}`,
        index: String(index),
        needed: "hand",
      },
      classes: [playable ? "is-playable" : "is-discard-only"],
    });
    el.tabIndex = index === focusIndex ? 0 : -1;
    el.draggable = !ctx.pending;
    if (playable) el.append(h("span", { class: "ex-play-mark", "aria-hidden": "true" }, "▲"));
    return el;
  });
}

function actionBar(state, ctx) {
  const selected = ctx.ui.selected;
  if (!selected) return h("p", { class: "ex-hint ex-hint-select" }, t("ex.select_card"));
  const button = (type, style) =>
    h(
      "button",
      {
        type: "button",
        class: ["btn", style],
        disabled: ctx.pending || !legalMatching(state, { type, card: selected }).length,
        data: { key: type, testid: type, needed: "action" },
        onclick: () => ctx.act({ type, card: selected }),
      },
      t(`ex.${type}`),
      " ",
      cardChip(selected),
    );
  const canPlay = legalMatching(state, { type: "play", card: selected }).length > 0;
  return h(
    "div",
    { class: "ex-actions" },
    button("play", "btn-turn"),
    button("discard", ""),
    canPlay ? null : h("span", { class: "ex-hint" }, t("ex.cannot_play")),
  );
}

function select(ctx, index, code) {
  const again = ctx.ui.selectedIndex === index;
  ctx.ui.selected = again ? null : code;
  ctx.ui.selectedIndex = again ? null : index;
  ctx.ui.focusIndex = index;
  ctx.rerender();
}

/** Clicks, double-clicks, long presses, arrow keys and dragging on the hand. */
function wireHand(hand, state, ctx) {
  const target = (event) => {
    const el = event.target.closest("button.card");
    return el && !el.disabled ? el : null;
  };
  hand.addEventListener("click", (event) => {
    const el = target(event);
    if (!el) return;
    if (Date.now() - (ctx.ui.pressedAt ?? 0) < 400) {
      // The long press or the drag already chose its move: this click must not drop the
      // move it shows for confirming (a click elsewhere does).
      event.stopPropagation();
      return;
    }
    select(ctx, Number(el.dataset.index), el.dataset.card);
  });
  hand.addEventListener("dblclick", (event) => {
    const el = target(event);
    const action = el && obviousAction(state, el.dataset.card);
    if (action) gesture(ctx, action, el);
  });
  // Touch: a long press plays the obvious action; dragging a card moves a copy of it under the
  // finger to your expedition or a discard pile (mice use the browser's drag and drop).
  let timer = null;
  let drag = null;
  const endDrag = () => {
    drag?.ghost?.remove();
    document.querySelector(".is-drop-target")?.classList.remove("is-drop-target");
    document.body.classList.remove("is-dragging");
    ctx.ui.dragging = null;
    drag = null;
  };
  hand.addEventListener("pointerdown", (event) => {
    const el = target(event);
    if (!el || event.pointerType === "mouse") return;
    clearTimeout(timer);
    drag = { el, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null };
    timer = setTimeout(() => {
      const action = obviousAction(state, el.dataset.card);
      if (!action || drag?.ghost) return;
      ctx.ui.pressedAt = Date.now();
      endDrag();
      gesture(ctx, action, el);
    }, 550);
  });
  hand.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < 12) return;
      clearTimeout(timer);
      const box = drag.el.getBoundingClientRect();
      drag.ghost = drag.el.cloneNode(true);
      drag.ghost.classList.add("ex-drag-ghost");
      Object.assign(drag.ghost.style, {
        left: `${box.left}px`,
        top: `${box.top}px`,
        width: `${box.width}px`,
      });
      document.body.append(drag.ghost);
      drag.box = box;
      ctx.ui.dragging = drag.el.dataset.card;
      document.body.classList.add("is-dragging");
      try {
        drag.el.setPointerCapture(event.pointerId);
      } catch {
        // touch pointers are captured by their target anyway
      }
    }
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    document.querySelector(".is-drop-target")?.classList.remove("is-drop-target");
    const over = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-drop]");
    if (dropAction(over, ctx.ui.dragging, state)) over.classList.add("is-drop-target");
  });
  hand.addEventListener("pointerup", (event) => {
    clearTimeout(timer);
    if (!drag?.ghost) {
      drag = null;
      return;
    }
    drag.ghost.hidden = true;
    const over = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-drop]");
    const action = dropAction(over, ctx.ui.dragging, state);
    ctx.ui.pressedAt = Date.now();
    endDrag();
    if (action) gesture(ctx, action, over);
  });
  hand.addEventListener("pointercancel", () => {
    clearTimeout(timer);
    endDrag();
  });
  hand.addEventListener("contextmenu", (event) => {
    if (target(event)) event.preventDefault();
  });
  hand.addEventListener("keydown", (event) => {
    const el = target(event);
    if (!el) return;
    const cards = [...hand.querySelectorAll("button.card")];
    const at = cards.indexOf(el);
    const next = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: cards.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const to = cards[Math.max(0, Math.min(cards.length - 1, next))];
    for (const other of cards) other.tabIndex = other === to ? 0 : -1;
    ctx.ui.focusIndex = Number(to.dataset.index);
    to.focus();
  });
  hand.addEventListener("dragstart", (event) => {
    const el = target(event);
    if (!el) return;
    event.dataTransfer.setData("text/x-kartenrunde-card", el.dataset.card);
    event.dataTransfer.effectAllowed = "move";
    ctx.ui.dragging = el.dataset.card;
    document.body.classList.add("is-dragging");
  });
  hand.addEventListener("dragend", () => {
    ctx.ui.dragging = null;
    document.body.classList.remove("is-dragging");
  });
}

/** The action of dropping `code` on `el`: your expedition of its suit (play), its discard pile. */
function dropAction(el, code, state) {
  const [type, suit] = (el?.dataset.drop ?? "").split("-");
  if (!code || !type || suitOf(code) !== suit) return null;
  const action = { type, card: code };
  return legalMatching(state, action).length ? action : null;
}

/**
 * The match ended with a score: not an aborted one, which counts for nothing.
 * @param {StateMessage} state
 */
function scored(state) {
  return Boolean(state.result) && state.result?.reason !== "aborted";
}

/** Drop targets for the mouse (the browser's drag and drop). */
function wireDrops(root, state, ctx) {
  const actionFor = (el) => dropAction(el, ctx.ui.dragging, state);
  root.addEventListener("dragover", (event) => {
    const el = event.target.closest("[data-drop]");
    if (actionFor(el)) {
      event.preventDefault();
      el.classList.add("is-drop-target");
    }
  });
  root.addEventListener("dragleave", (event) =>
    event.target.closest?.("[data-drop]")?.classList.remove("is-drop-target"),
  );
  root.addEventListener("drop", (event) => {
    const el = event.target.closest("[data-drop]");
    const action = actionFor(el);
    if (!action) return;
    event.preventDefault();
    ctx.ui.dragging = null;
    document.body.classList.remove("is-dragging");
    gesture(ctx, action, el);
  });
}

/**
 * A move made by a gesture (a double tap, a long press, a drop): through "Confirm moves"
 * where it is on (the table's ctx.tap), as a tap on a pile is; the element it marks.
 * @param {Ctx} ctx
 * @param {Action} action
 * @param {HTMLElement | null} el
 */
function gesture(ctx, action, el) {
  if (ctx.tap) ctx.tap(action, [], el?.closest("[data-key]")?.dataset.key ?? null);
  else ctx.act(action);
}

function scoreLine(state, ctx) {
  const view = state.view;
  const { top, bottom } = seats(view);
  return h(
    "p",
    { class: "ex-score-line" },
    scored(state) ? t("ex.final") : roundTitle(view),
    " · ",
    t("ex.total"),
    ": ",
    `${isSeated(view, ctx) ? t("table.you") : ctx.name(bottom)} ${num(view.totals[bottom])} · ${ctx.name(top)} ${num(view.totals[top])}`,
  );
}

function handZone(state, ctx) {
  const view = state.view;
  if (view.hands) return revealedHands(view, ctx);
  if (!isSeated(view, ctx) || !view.hand)
    return h(
      "section",
      { class: "ex-hand-zone" },
      h("p", { class: "muted" }, t("ex.watching")),
      scoreLine(state, ctx),
    );
  const active = myTurn(state, ctx);
  const hand = h(
    "div",
    { class: "ex-hand", role: "group", "aria-label": t("ex.your_hand") },
    handCards(state, ctx),
  );
  wireHand(hand, state, ctx);
  return h(
    "section",
    {
      class: ["ex-hand-zone", active && "is-active", active && `is-${view.phase}`],
      "aria-label": t("ex.your_hand"),
    },
    h(
      "div",
      { class: "ex-hand-head" },
      h("h2", { class: "zone-label" }, t("ex.your_hand")),
      state.result ? null : stepper(view, active),
    ),
    hand,
    active && view.phase === "play" ? actionBar(state, ctx) : null,
    active && view.phase === "draw"
      ? h("p", { class: "ex-hint ex-hint-draw" }, t("ex.hint.draw_where"))
      : null,
    !active && !state.result
      ? h("p", { class: "ex-hint" }, waitingFor(state, ctx, "ex.waiting_for"))
      : null,
    scoreLine(state, ctx),
  );
}

function revealedHands(view, ctx) {
  const { top, bottom } = seats(view);
  const row = (seat) =>
    h(
      "div",
      { class: "ex-revealed" },
      h("h2", { class: "zone-label" }, t("ex.hand_of", { name: ctx.name(seat) })),
      h(
        "div",
        { class: "ex-hand ex-hand-small" },
        view.hands[seat].map((code) => card(code)),
      ),
    );
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
  const running = order.map((seat) =>
    SUITS.reduce((sum, suit) => sum + view.expeditions[seat][suit].score, 0),
  );
  const cell = (value) => h("td", { class: ["num", value < 0 && "neg"] }, num(value));
  return h(
    "section",
    { class: "ex-scores" },
    h("h2", { class: "ex-round-title" }, scored(state) ? t("ex.final") : roundTitle(view)),
    h(
      "table",
      { class: "score-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("ex.round_col")),
          order.map((seat) => h("th", { scope: "col", class: "num" }, ctx.name(seat))),
        ),
      ),
      h(
        "tbody",
        {},
        view.finished.map((done) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, String(done.round)),
            order.map((seat) => cell(done.scores[seat])),
          ),
        ),
        state.result
          ? null
          : h(
              "tr",
              { class: "ex-running" },
              h("th", { scope: "row" }, t("ex.now")),
              running.map(cell),
            ),
      ),
      h(
        "tfoot",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "row" }, t("ex.total")),
          order.map((seat) => cell(view.totals[seat])),
        ),
      ),
    ),
    state.result
      ? null
      : h("p", { class: "muted ex-dealer" }, t("ex.dealer", { name: ctx.name(view.dealer) })),
  );
}

function calculation(part) {
  if (!part.ranks.length) return "–";
  const base = `${part.sum} − ${TABLES.expedition_cost}`;
  const multiplied = part.wagers ? `(${base}) × ${part.multiplier}` : base;
  return `${multiplied}${part.bonus ? ` + ${part.bonus}` : ""} = ${num(part.score)}`;
}

function breakdownTable(done, order, ctx) {
  const cell = (part) =>
    h(
      "td",
      {},
      h(
        "div",
        { class: "ex-ranks" },
        part.ranks.length ? part.ranks.join(" ") : t("ex.not_started"),
      ),
      h("div", { class: "calc" }, calculation(part)),
    );
  return h(
    "div",
    { class: "table-scroll" },
    h(
      "table",
      { class: "score-table ex-breakdown" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("ex.suit")),
          order.map((seat) => h("th", { scope: "col" }, ctx.name(seat))),
        ),
      ),
      h(
        "tbody",
        {},
        SUITS.map((suit) =>
          h(
            "tr",
            { class: `suit-${suit}` },
            h(
              "th",
              { scope: "row" },
              suitIcon(suit),
              " ",
              h("span", { class: "suit-name" }, t(`suit.${suit}`)),
            ),
            order.map((seat) => cell(done.expeditions[seat][suit])),
          ),
        ),
      ),
      h(
        "tfoot",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "row" }, t("ex.round_score")),
          order.map((seat) =>
            h(
              "td",
              {
                class: ["ex-round-total", done.scores[seat] < 0 && "neg"],
                data: { seat: String(seat) },
              },
              num(done.scores[seat]),
            ),
          ),
        ),
      ),
    ),
  );
}

function roundSummary(state, ctx) {
  const view = state.view;
  const count = view.finished.length;
  const fresh = SUITS.every(
    (suit) =>
      view.discards[suit].size === 0 &&
      view.expeditions.every((side) => side[suit].cards.length === 0),
  );
  if (ctx.replay) {
    // The replay: a round's summary belongs to the first view of the next round only.
    ctx.ui.showRound = fresh && count > 0 && !state.result ? count : null;
  } else {
    if (ctx.ui.knownRounds === undefined) ctx.ui.showRound = fresh && count > 0 ? count : null;
    else if (count > ctx.ui.knownRounds) ctx.ui.showRound = count;
    ctx.ui.knownRounds = count;
  }
  if (ctx.ui.showRound > count) ctx.ui.showRound = null;
  if (!ctx.ui.showRound || state.result) return null;
  const done = view.finished[ctx.ui.showRound - 1];
  const order = [seats(view).bottom, seats(view).top];
  return h(
    "section",
    { class: "panel ex-round-summary", "data-testid": "round-summary", "aria-live": "polite" },
    h("h2", {}, t("ex.round_over", { n: done.round })),
    h("p", {}, order.map((seat) => `${ctx.name(seat)} ${num(done.scores[seat])}`).join(" · ")),
    breakdownTable(done, order, ctx),
    ctx.replay
      ? null
      : h(
          "div",
          { class: "ex-summary-actions" },
          h(
            "button",
            {
              type: "button",
              class: "btn btn-primary",
              data: { key: "close-summary", needed: "continue" },
              onclick: () => {
                ctx.ui.showRound = null;
                ctx.rerender();
              },
            },
            t("ex.continue"),
          ),
        ),
  );
}

export function render(root, state, ctx) {
  const view = state.view;
  const { top, bottom } = seats(view);
  const marks = marksFor(state, ctx);
  const summary = roundSummary(state, ctx);
  const choosing = myTurn(state, ctx) && view.phase === "play";
  const layout = h(
    "div",
    { class: ["ex-layout", summary && "has-summary"] },
    sideRow(view, top, "top", ctx, marks, false),
    middleRow(state, ctx, marks),
    sideRow(view, bottom, "bottom", ctx, marks, choosing),
    handZone(state, ctx),
    scoreboard(state, ctx),
    summary,
  );
  if (choosing) wireDrops(layout, state, ctx);
  if (summary) {
    // the summary is what this step needs; the table waits under it
    for (const el of layout.querySelectorAll("[data-needed]"))
      if (!summary.contains(el)) delete el.dataset.needed;
  }
  fill(root, layout);
}

/** Why a click on a card or pile did nothing, on your turn (the shell covers the rest). */
export function explainClick(event, state) {
  const phase = state.view.phase;
  const pile = event.target.closest(".ex-pile");
  if (phase === "play" && pile) return t("ex.note.play_first");
  if (phase === "draw" && event.target.closest(".ex-hand")) return t("ex.note.draw_now");
  if (phase === "draw" && pile?.querySelector(".is-blocked")) return t("ex.note.blocked");
  if (event.target.closest(".ex-side"))
    return t(phase === "play" ? "ex.note.choose_hand" : "ex.note.draw_now");
  return null;
}

/**
 * Round ends for the move log: every round uses up the draw pile, which starts each round with
 * the cards not dealt (all cards on the table now minus the two hands), so the round's last move
 * is the draw that empties it.
 */
export function logNotes(moves, state, ctx) {
  const view = state.view;
  if (!view?.finished) return [];
  const onTable = SUITS.reduce(
    (sum, suit) =>
      sum +
      view.discards[suit].size +
      view.expeditions.reduce((n, side) => n + side[suit].cards.length, 0),
    0,
  );
  const handSize = Math.max(...view.hand_counts);
  const deckAtStart =
    view.draw_pile + onTable + view.hand_counts.reduce((a, b) => a + b, 0) - 2 * handSize;
  const notes = [];
  let drawn = 0;
  let round = 0;
  moves.forEach((move, index) => {
    if (move.action.type !== "draw" || move.action.source !== "deck") return;
    drawn += 1;
    if (drawn < deckAtStart) return;
    drawn = 0;
    const done = view.finished[round];
    round += 1;
    if (!done) return;
    const order = [seats(view).bottom, seats(view).top];
    notes.push({
      after: index,
      content: h(
        "span",
        {},
        h("strong", {}, t("ex.round_over", { n: done.round })),
        " ",
        order.map((seat) => `${ctx.name(seat)} ${num(done.scores[seat])}`).join(" · "),
      ),
    });
  });
  return notes;
}

export function describe({ action, took }) {
  if (action.type === "draw") {
    if (action.source === "deck") return h("span", {}, t("ex.did.draw_deck"));
    const parts = t("ex.did.draw_pile").split(/(\{card\}|\{suit\})/);
    return h(
      "span",
      {},
      parts.map(
        (part) =>
          ({ "{card}": cardChip(took[0]), "{suit}": suitIcon(action.source) })[part] ?? part,
      ),
    );
  }
  const [before, after] = t(`ex.did.${action.type}`).split("{card}");
  return h("span", {}, before, cardChip(action.card), after ?? "");
}

export function turnHint(state) {
  return t(state.view.phase === "draw" ? "ex.hint.draw" : "ex.hint.play");
}

export function endReason(result) {
  return t(`ex.reason.${result.reason}`, { n: result.rounds.at(-1).round });
}

export function renderResult(root, state, ctx) {
  const view = state.view;
  const order = [seats(view).bottom, seats(view).top];
  const rounds = state.result.rounds ?? view.finished;
  fill(
    root,
    h(
      "p",
      { class: "ex-final-line" },
      order.map((seat) => `${ctx.name(seat)} ${num(state.result.scores[seat])}`).join(" · "),
    ),
    ...rounds.map((done, index) =>
      h(
        "details",
        { class: "ex-round-details", open: index === rounds.length - 1 },
        h(
          "summary",
          {},
          t("ex.round_over", { n: done.round }),
          " — ",
          order.map((seat) => `${ctx.name(seat)} ${num(done.scores[seat])}`).join(" · "),
        ),
        breakdownTable(done, order, ctx),
      ),
    ),
  );
}
