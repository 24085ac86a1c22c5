// Pilzwanderung's table: the forest row with each position's cost, the decay pile, both
// displays (empty pans, dishes, baskets, poison, sticks, night cards), your hand grouped by
// mushroom with its limit, and the cook, sell and discard dialogs.
// Every control comes from legal_actions: a dialog offers exactly the combinations listed there.

import { card, cardChip } from "../cards.js";
import { addStrings, t } from "../i18n.js";
import { fill, h } from "../ui.js";
import { lastTurnOf, legalMatching, waitingFor, waitingForPlayer } from "./common.js";
import {
  BUTTER_POINTS,
  CIDER_POINTS,
  cardLabel,
  cardTitle,
  DECAY_SIZE,
  KINDS,
  kindOf,
  mushroomCount,
  mushroomFace,
  NIGHT_MUSHROOMS,
  POINTS,
  roleOf,
  STICKS,
} from "./pilzwanderung.faces.js";
import strings from "./pilzwanderung.strings.js";

addStrings(strings);

const GROUP_ORDER = { mushroom: 0, night: 0, butter: 1, cider: 2, pan: 3 };
const MOBILE = "(max-width: 700px), (max-height: 480px)";
const LOW = "(max-height: 480px)";

// A display nobody opened or closed by hand follows the screen: the other's folds to its
// one-line summary on phones, yours only on a phone on its side (where it would push the forest
// off the screen); both are open elsewhere (also after turning the phone or resizing).
const mobile = window.matchMedia(MOBILE);
const low = window.matchMedia(LOW);
const openByDefault = (mine) => !(mine ? low : mobile).matches;
for (const query of [mobile, low]) {
  query.addEventListener("change", () => {
    for (const details of document.querySelectorAll(".pw-display[data-auto]"))
      details.open = openByDefault(details.dataset.auto === "mine");
  });
}

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

/* What changed last: the opponent's last turn until you act (for onlookers, the last action).
   Each move marks where its cards arrived or what it changed, per seat: the hand, sticks or
   score in the display's summary line, the last pans, dishes, baskets or poison mushrooms laid
   out; and the decay pile it took, or the discard pile when its top card is one the move put
   there. The forest is not marked: it closes up and refills after every turn. */

function lastMoves(view, ctx) {
  const recent = ctx.recent ?? [];
  if (!isSeated(view, ctx)) return recent.slice(-1);
  const other = seats(view).top;
  return recent.length && recent.at(-1).seat === other ? lastTurnOf(ctx, other) : [];
}

function marksFor(state, ctx) {
  const side = () => ({ stats: new Set(), pans: 0, dishes: 0, baskets: 0, poison: 0 });
  const marks = { sides: [side(), side()], decay: null, discard: [] };
  for (const move of lastMoves(state.view, ctx)) markMove(marks, move, state.view, ctx);
  return marks;
}

/** Where a taken card went: basket and poison to the display, a moon onto the discard pile
    (its night card into the hand), the rest into the hand. Unknown (not seen by this tab): nothing. */
function arrive(marks, seat, code, tag) {
  const side = marks.sides[seat];
  const role = code ? roleOf(code) : null;
  if (role === "basket") side.baskets += 1;
  else if (role === "poison") side.poison += 1;
  else if (role) side.stats.add("hand");
  if (role === "moon") marks.discard.push({ tag, put: (top) => top === code });
}

function markMove(marks, { seat, action, took }, view, ctx) {
  const name = ctx.name(seat);
  const tag = t("pw.tag.took", { name });
  const side = marks.sides[seat];
  if (action.type === "take") {
    if (view.forest[action.position - 1]?.cost > 0) side.stats.add("sticks");
    arrive(marks, seat, took[0], tag);
  } else if (action.type === "take_decay") {
    marks.decay = tag;
    for (const code of took) arrive(marks, seat, code, tag);
  } else if (action.type === "place_pan") side.pans += 1;
  else if (action.type === "cook") {
    side.dishes += 1;
    side.stats.add("score");
  } else if (action.type === "sell") {
    side.stats.add("sticks");
    marks.discard.push({
      tag: t("pw.tag.sold", { name }),
      put: (top) => kindOf(top) === action.rank,
    });
  } else if (action.type === "discard") {
    marks.discard.push({
      tag: t("pw.tag.discarded", { name }),
      put: (top) => action.cards.includes(top),
    });
  }
}

/** The classes of the i-th of n laid-out things, when the last `fresh` of them arrived last turn. */
function arrived(index, n, fresh) {
  return index >= n - fresh ? ["just-moved"] : [];
}

/* Cards: mushroom faces under the Morels preset, else the playing card with a small legend. */

function pwCard(view, code, opts = {}) {
  const mushrooms = view.card_faces === "mushrooms";
  const faceDown = code === "XX" && !mushrooms;
  const el = card(code, {
    ...opts,
    faceDown,
    face: mushrooms ? mushroomFace : null,
    label: opts.label ?? cardLabel(code),
    classes: [...(opts.classes ?? []), mushrooms ? "pw-mushroom-face" : "pw-playing-face"],
  });
  el.title = cardLabel(code);
  if (!mushrooms && !opts.plain) el.append(legendTag(code));
  return el;
}

/** The little band on a playing card that says what its rank means here. */
function legendTag(code) {
  const kind = kindOf(code);
  if (kind !== null) {
    return h(
      "span",
      { class: ["pw-tag", roleOf(code) === "night" && "is-night"], "aria-hidden": "true" },
      h("span", { class: "pw-tag-pts" }, String(POINTS[kind])),
      h("span", { class: "pw-tag-stk" }, String(STICKS[kind])),
    );
  }
  const role = code === "XX" ? "start_pan" : roleOf(code);
  return h(
    "span",
    { class: ["pw-tag", "pw-tag-role", `is-${roleOf(code)}`], "aria-hidden": "true" },
    t(`pw.role.${role}`),
  );
}

function stickIcon() {
  return h("span", { class: "pw-stick-icon", "aria-hidden": "true" });
}

/* The forest, the decay pile and the other piles. */

function costLabel(price) {
  if (price === 0) return t("pw.free");
  return price === 1 ? t("pw.cost_one") : t("pw.cost", { n: price });
}

function forestZone(state, ctx, marks) {
  const view = state.view;
  const active = myTurn(state, ctx) && view.phase === "turn";
  const sticks = isSeated(view, ctx) ? view.displays[view.seat].sticks : null;
  const slots = view.forest.map(({ position, card: code, cost }) => {
    const legal = active ? legalMatching(state, { type: "take", position })[0] : null;
    const affordable = sticks === null || cost <= sticks;
    const tag = h(
      "span",
      {
        class: ["pw-cost", cost === 0 && "is-free", affordable ? "is-affordable" : "is-too-far"],
        title: affordable ? costLabel(cost) : t("pw.cannot_afford", { n: sticks }),
      },
      cost === 0 ? t("pw.free") : [stickIcon(), String(cost)],
    );
    const face = legal
      ? pwCard(view, code, {
          button: true,
          disabled: ctx.pending,
          classes: ["is-takeable"],
          label: t("pw.take_position", {
            card: cardTitle(code),
            n: position,
            cost: costLabel(cost),
          }),
          data: { key: `take-${position}`, testid: `take-${position}`, needed: "take" },
        })
      : pwCard(view, code, { data: { testid: `forest-${position}` } });
    if (legal) face.addEventListener("click", () => ctx.tap(legal, [code]));
    return h(
      "li",
      {
        class: ["pw-slot", cost === 0 && "is-feet", !affordable && "is-too-far"],
        "aria-label": t("pw.position", { n: position }),
      },
      face,
      tag,
    );
  });
  return h(
    "section",
    { class: ["pw-forest-zone", active && "is-active"], "aria-label": t("pw.forest") },
    decayPile(state, ctx, marks),
    h(
      "div",
      { class: "pw-forest-wrap" },
      h(
        "h2",
        { class: "zone-label" },
        t("pw.forest"),
        " ",
        h("span", { class: "pw-note" }, t("pw.forest_note")),
      ),
      h("ol", { class: "pw-forest", "data-testid": "forest" }, slots),
    ),
    piles(view, marks),
  );
}

function decayPile(state, ctx, marks) {
  const view = state.view;
  const legal =
    myTurn(state, ctx) && view.phase === "turn"
      ? legalMatching(state, { type: "take_decay" })[0]
      : null;
  const cards = view.decay.length
    ? view.decay.map((code) => pwCard(view, code))
    : [h("div", { class: "card-slot pw-empty" }, t("pw.decay_empty"))];
  const fan = h("div", { class: "pw-decay-cards", "data-testid": "decay" }, cards);
  const body = legal
    ? h(
        "button",
        {
          type: "button",
          class: "pw-decay-btn",
          disabled: ctx.pending,
          "aria-label": t("pw.take_decay"),
          data: { key: "take-decay", testid: "take-decay", needed: "take" },
          onclick: () => ctx.tap(legal, view.decay),
        },
        fan,
        h("span", { class: "pw-take-cue", "aria-hidden": "true" }, t("pw.take_decay_short")),
      )
    : fan;
  return h(
    "div",
    { class: ["pw-decay", legal && "is-takeable"] },
    h(
      "h2",
      { class: "zone-label" },
      h("span", { class: "pw-long" }, t("pw.decay")),
      h("span", { class: "pw-short" }, t("pw.decay_short")),
      ` ${view.decay.length}/${DECAY_SIZE}`,
      // On the pile, not its cards: those came from the forest after the pile was taken.
      marks.decay
        ? h("span", { class: "moved-tag pw-took", "data-testid": "decay-took" }, marks.decay)
        : null,
    ),
    body,
  );
}

function piles(view, marks) {
  const top = view.discard.top;
  const put = top ? marks.discard.findLast((mark) => mark.put(top)) : null;
  return h(
    "div",
    { class: "pw-piles" },
    h(
      "div",
      { class: "pw-pile", title: t("pw.draw_pile") },
      h(
        "div",
        { class: ["pile", view.draw_pile > 1 && "pile-stack"] },
        view.draw_pile
          ? card(null, { faceDown: true, label: t("pw.draw_pile") })
          : h("div", { class: "card-slot" }, "0"),
        h("span", { class: "count-badge", "data-testid": "draw-count" }, String(view.draw_pile)),
      ),
      h("span", { class: "pw-pile-label" }, t("pw.draw_pile")),
    ),
    h(
      "div",
      { class: "pw-pile pw-pile-night", title: t("pw.night_deck") },
      h(
        "div",
        { class: "pile" },
        view.night_deck
          ? card(null, { faceDown: true, label: t("pw.night_deck"), classes: ["pw-night-back"] })
          : h("div", { class: "card-slot" }, "0"),
        h("span", { class: "count-badge", "data-testid": "night-count" }, String(view.night_deck)),
      ),
      h("span", { class: "pw-pile-label" }, t("pw.night_deck")),
    ),
    h(
      "div",
      { class: "pw-pile", title: t("pw.discard_pile") },
      h(
        "div",
        { class: ["pile", put && "just-moved"], "data-testid": "discard-pile" },
        top ? pwCard(view, top, { plain: true }) : h("div", { class: "card-slot" }, "0"),
        view.discard.size ? h("span", { class: "count-badge" }, String(view.discard.size)) : null,
        put ? h("span", { class: "moved-tag" }, put.tag) : null,
      ),
      h("span", { class: "pw-pile-label" }, t("pw.discard_pile")),
    ),
  );
}

/* A display: sticks, hand size, empty pans, dishes, baskets, poison, night cards. */

function dishElement(view, dish, classes) {
  const extras = [
    dish.butter ? t("pw.butter_n", { n: dish.butter }) : null,
    dish.cider ? t("pw.cider_n", { n: dish.cider }) : null,
  ].filter(Boolean);
  const label = `${t("pw.dish", { n: dish.mushrooms, name: t(`pw.kind.${dish.rank}`), score: dish.score })}${extras.length ? ` (${extras.join(", ")})` : ""}`;
  const shown = dish.cards.filter((code) => kindOf(code) !== null);
  const sides = dish.cards.filter((code) => kindOf(code) === null);
  return h(
    "li",
    { class: ["pw-dish", ...classes], title: label, "aria-label": label, "data-testid": "dish" },
    h(
      "div",
      { class: "pw-dish-cards" },
      pwCard(view, shown[0], { plain: true }),
      sides.map((code) => pwCard(view, code, { plain: true, classes: ["pw-dish-side"] })),
    ),
    h("span", { class: "pw-dish-count" }, `${dish.mushrooms}×`),
    h("span", { class: "pw-dish-score" }, String(dish.score)),
  );
}

/** How long a poison mushroom lasts: to the end of this turn, or of its owner's next turn. */
function poisonLasts(state, seat, turns, mine, ctx) {
  const limit = state.view.displays[seat].hand_limit;
  if (turns === 1 && state.view.to_move === seat) return t("pw.poison_turn", { limit });
  return mine
    ? t("pw.poison_next_yours", { limit })
    : t("pw.poison_next_of", { name: ctx.name(seat), limit });
}

function stat(label, value, testid, needed = null, moved = false) {
  return h(
    "span",
    { class: ["pw-stat", moved && "just-moved"], "data-testid": testid, "data-needed": needed },
    h("span", { class: "pw-stat-label" }, label),
    " ",
    h("strong", {}, value),
  );
}

function displayOf(state, ctx, seat, position, marks) {
  const view = state.view;
  const shown = view.displays[seat];
  const fresh = marks.sides[seat];
  const mine = isSeated(view, ctx) && seat === view.seat;
  const name = mine
    ? t("pw.your_display")
    : waitingForPlayer(state)
      ? t("pw.display_second")
      : t("pw.display_of", { name: ctx.name(seat) });
  const poisoned = shown.poison.length > 0;
  const hand = h(
    "span",
    {
      class: [
        "pw-stat",
        "pw-hand-stat",
        poisoned && "is-poisoned",
        fresh.stats.has("hand") && "just-moved",
      ],
      "data-testid": `hand-count-${position}`,
    },
    h("span", { class: "pw-stat-label" }, t("pw.hand")),
    " ",
    h("strong", {}, `${shown.hand_count}/${shown.hand_limit}`),
  );
  const nights =
    view.night_cards === "open"
      ? (shown.night ?? []).map((code) => pwCard(view, code, { plain: false }))
      : Array.from({ length: shown.night_count }, () =>
          card(null, { faceDown: true, classes: ["pw-night-back"], label: t("pw.night_cards") }),
        );
  const groups = [
    h(
      "div",
      { class: "pw-area pw-area-pans" },
      h("span", { class: "pw-area-label" }, t("pw.pans")),
      shown.pans.length
        ? h(
            "div",
            { class: "pw-mini-row", "data-testid": `pans-${position}` },
            shown.pans.map((code, i) =>
              pwCard(view, code, {
                plain: true,
                classes: arrived(i, shown.pans.length, fresh.pans),
              }),
            ),
          )
        : h("span", { class: "pw-none" }, "–"),
    ),
    h(
      "div",
      { class: "pw-area pw-area-dishes" },
      h("span", { class: "pw-area-label" }, t("pw.dishes")),
      shown.dishes.length
        ? h(
            "ul",
            { class: "pw-dishes", "data-testid": `dishes-${position}` },
            shown.dishes.map((dish, i) =>
              dishElement(view, dish, arrived(i, shown.dishes.length, fresh.dishes)),
            ),
          )
        : h("span", { class: "pw-none" }, "–"),
    ),
    shown.baskets.length
      ? h(
          "div",
          { class: "pw-area" },
          h("span", { class: "pw-area-label" }, t("pw.baskets")),
          h(
            "div",
            { class: "pw-mini-row" },
            shown.baskets.map((code, i) =>
              pwCard(view, code, {
                plain: true,
                classes: arrived(i, shown.baskets.length, fresh.baskets),
              }),
            ),
          ),
        )
      : null,
    poisoned
      ? h(
          "div",
          { class: "pw-area pw-area-poison", "data-testid": `poison-${position}` },
          h("span", { class: "pw-area-label" }, t("pw.poison")),
          h(
            "div",
            { class: "pw-mini-row" },
            shown.poison.map(({ card: code, turns }, i) =>
              h(
                "div",
                { class: "pw-poison" },
                pwCard(view, code, {
                  plain: true,
                  classes: arrived(i, shown.poison.length, fresh.poison),
                }),
                h("span", { class: "pw-poison-turns" }, poisonLasts(state, seat, turns, mine, ctx)),
              ),
            ),
          ),
        )
      : null,
    // Your own night cards, and every night card in the replay, are shown with the hand they count in.
    mine || view.hands
      ? null
      : nights.length
        ? h(
            "div",
            { class: "pw-area pw-area-night" },
            h("span", { class: "pw-area-label" }, t("pw.night_cards")),
            h("div", { class: "pw-mini-row", "data-testid": `night-${position}` }, nights),
          )
        : null,
  ];
  const summary = h(
    "summary",
    { class: "pw-display-head" },
    h("span", { class: "pw-display-name" }, name),
    h(
      "span",
      { class: "pw-stats" },
      stat(
        t("pw.score"),
        String(shown.score),
        `score-${position}`,
        mine ? "score" : null,
        fresh.stats.has("score"),
      ),
      h(
        "span",
        {
          class: ["pw-stat", fresh.stats.has("sticks") && "just-moved"],
          "data-testid": `sticks-${position}`,
          title: t("pw.sticks"),
        },
        stickIcon(),
        h("strong", {}, String(shown.sticks)),
      ),
      hand,
    ),
  );
  ctx.ui.open = ctx.ui.open ?? {};
  const chosen = ctx.ui.open[position];
  const open = chosen ?? openByDefault(mine);
  const inside = fresh.pans + fresh.dishes + fresh.baskets + fresh.poison > 0;
  const details = h(
    "details",
    {
      class: ["pw-display", `pw-display-${position}`, inside && "holds-moved"],
      open,
      "data-testid": `display-${position}`,
      "data-auto": chosen === undefined ? (mine ? "mine" : "other") : null,
    },
    summary,
    h("div", { class: "pw-display-body" }, groups),
  );
  summary.addEventListener("click", () => {
    ctx.ui.open[position] = !details.open;
    delete details.dataset.auto;
  });
  return details;
}

/* Your hand, grouped by mushroom, with the hand limit. */

/** The cards that count as your hand: the hand, plus the night cards lying open in the display. */
function handCards(view, seat) {
  if (view.hands) return view.hands[seat];
  const open = view.night_cards === "open" ? (view.displays[seat].night ?? []) : [];
  return [...(view.hand ?? []), ...open];
}

function groupKey(code) {
  const kind = kindOf(code);
  return kind !== null
    ? `k${String(kind).padStart(2, "0")}`
    : `z${GROUP_ORDER[roleOf(code)] ?? 9}${roleOf(code)}`;
}

function grouped(cards) {
  const groups = new Map();
  cards.forEach((code, index) => {
    const key = groupKey(code);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push({ code, index });
  });
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, items]) => ({
      key,
      items: items.sort(
        (a, b) => Number(roleOf(a.code) === "night") - Number(roleOf(b.code) === "night"),
      ),
    }));
}

function groupCount(items) {
  return items.reduce((sum, { code }) => sum + (roleOf(code) === "night" ? NIGHT_MUSHROOMS : 1), 0);
}

function handGroups(state, ctx, cards, { choosing = false, turn = false, used = null } = {}) {
  const view = state.view;
  const chosen = ctx.ui.discard ?? new Set();
  // On your turn a kind you can cook or sell opens its dialog with that kind chosen.
  const dialogFor = (kind) => {
    if (!turn || kind === null) return null;
    const type = ["cook", "sell"].find(
      (candidate) => legalMatching(state, { type: candidate, rank: kind }).length,
    );
    return type
      ? () => {
          ctx.ui.dialog = { type, choice: { rank: kind } };
          ctx.rerender();
        }
      : null;
  };
  return h(
    "div",
    {
      class: ["pw-groups", choosing && "is-choosing"],
      role: "group",
      "aria-label": t("pw.your_hand"),
    },
    grouped(cards).map(({ key, items }) => {
      const first = items[0].code;
      const kind = kindOf(first);
      const caption =
        kind !== null
          ? `${groupCount(items)}× ${t(`pw.kind.${kind}`)}`
          : `${items.length}× ${cardTitle(first)}`;
      const open = dialogFor(kind);
      return h(
        open ? "button" : "div",
        {
          class: ["pw-group", items.length > 1 && "is-stacked", open && "is-usable"],
          "data-testid": `group-${key}`,
          title: caption,
          type: open ? "button" : null,
          onclick: open,
          disabled: open ? ctx.pending : null,
          data: open ? { key: `group-${key}` } : null,
        },
        h(
          "div",
          { class: "pw-group-cards", style: { "--n": items.length } },
          items.map(({ code, index }) =>
            choosing
              ? pwCard(view, code, {
                  button: true,
                  selected: chosen.has(index),
                  disabled: ctx.pending,
                  data: {
                    key: `hand-${index}-${code}`,
                    testid: `hand-${code}`,
                    index: String(index),
                  },
                  classes: [roleOf(code) === "night" && "is-night"].filter(Boolean),
                })
              : pwCard(view, code, {
                  data: { testid: `hand-${code}` },
                  classes: [
                    roleOf(code) === "night" && "is-night",
                    used && (used.has(index) ? "is-used" : "is-unused"),
                  ].filter(Boolean),
                }),
          ),
        ),
        h("span", { class: "pw-group-caption" }, caption),
      );
    }),
  );
}

function meter(shown) {
  const full = Math.min(1, shown.hand_count / Math.max(1, shown.hand_limit));
  const over = shown.hand_count > shown.hand_limit;
  return h(
    "div",
    {
      class: [
        "pw-meter",
        shown.poison.length && "is-poisoned",
        over && "is-over",
        shown.hand_count >= shown.hand_limit && "is-full",
      ],
      role: "meter",
      "aria-valuemin": "0",
      "aria-valuemax": String(shown.hand_limit),
      "aria-valuenow": String(shown.hand_count),
      "aria-label": t("pw.hand_meter_label", { n: shown.hand_count, limit: shown.hand_limit }),
      "data-testid": "hand-meter",
    },
    h(
      "span",
      { class: "pw-meter-bar" },
      h("span", { class: "pw-meter-fill", style: { width: `${Math.round(full * 100)}%` } }),
    ),
    h(
      "span",
      { class: "pw-meter-text" },
      t("pw.hand_meter", { n: shown.hand_count, limit: shown.hand_limit }),
    ),
    shown.poison.length
      ? h("span", { class: "pw-meter-poison" }, t("pw.poisoned_limit", { limit: shown.hand_limit }))
      : null,
  );
}

function actionBar(state, ctx) {
  const has = (type) => legalMatching(state, { type }).length > 0;
  const open = (type) => () => {
    ctx.ui.dialog = { type, choice: {} };
    ctx.rerender();
  };
  const pan = legalMatching(state, { type: "place_pan" })[0];
  const button = (key, label, enabled, onclick) =>
    h(
      "button",
      {
        type: "button",
        class: ["btn", enabled && "btn-turn"],
        disabled: ctx.pending || !enabled,
        data: { key, testid: key, needed: "action" },
        onclick,
      },
      label,
    );
  return h(
    "div",
    { class: "pw-actions" },
    button("open-cook", t("pw.cook"), has("cook"), open("cook")),
    button("open-sell", t("pw.sell"), has("sell"), open("sell")),
    button("place-pan", t("pw.place_pan"), Boolean(pan), () => ctx.tap(pan)),
  );
}

/** The key of a text about n cards: its "_one" form for a single card. */
function counted(key, n) {
  return n === 1 ? `${key}_one` : key;
}

function discardBar(state, ctx, cards) {
  const view = state.view;
  const need = view.must_discard;
  const chosen = ctx.ui.discard ?? new Set();
  const picked = [...chosen].map((index) => cards[index]).sort();
  const match = legalMatching(state, { type: "discard" }).find(
    (action) => [...action.cards].sort().join(" ") === picked.join(" "),
  );
  return h(
    "div",
    {
      class: "pw-actions pw-discard-bar",
      role: "group",
      "aria-label": t("pw.discard_title", { n: need }),
    },
    h(
      "span",
      { class: "pw-chosen", "data-testid": "discard-chosen", "data-needed": "discard" },
      t("pw.discard_chosen", { n: chosen.size, of: need }),
    ),
    h(
      "button",
      {
        type: "button",
        class: ["btn", match && "btn-turn"],
        disabled: ctx.pending || !match,
        data: { key: "discard", testid: "discard", needed: "discard" },
        onclick: () => {
          ctx.ui.discard = new Set();
          ctx.act(match);
        },
      },
      t(counted("pw.discard_button", need), { n: need }),
    ),
  );
}

function handZone(state, ctx) {
  const view = state.view;
  if (view.hands) return revealedHands(state, ctx);
  if (!isSeated(view, ctx) || !view.hand)
    return h("section", { class: "pw-hand-zone" }, h("p", { class: "muted" }, t("pw.watching")));
  const seat = view.seat;
  const shown = view.displays[seat];
  const active = myTurn(state, ctx);
  const cards = handCards(view, seat);
  const discarding = active && view.phase === "discard";
  if (!discarding) ctx.ui.discard = new Set();
  const turn = active && view.phase === "turn";
  const groups = cards.length
    ? handGroups(state, ctx, cards, { choosing: discarding, turn })
    : h("p", { class: "pw-hint" }, t("pw.empty_hand"));
  if (cards.length) groups.dataset.needed = "hand";
  if (discarding) {
    groups.addEventListener("click", (event) => {
      const target = event.target.closest("button.card");
      if (!target || target.disabled) return;
      const index = Number(target.dataset.index);
      const chosen = ctx.ui.discard ?? new Set();
      if (chosen.has(index)) chosen.delete(index);
      else if (chosen.size < view.must_discard) chosen.add(index);
      ctx.ui.discard = chosen;
      ctx.rerender();
    });
  }
  return h(
    "section",
    {
      class: ["pw-hand-zone", active && "is-active"],
      "aria-label": t("pw.your_hand"),
      "data-testid": "hand-zone",
    },
    h(
      "div",
      { class: "pw-hand-head" },
      h("h2", { class: "zone-label" }, t("pw.your_hand")),
      discarding
        ? h(
            "span",
            { class: "pw-hint pw-hint-strong", "data-testid": "discard-hint" },
            t(counted("pw.discard_hint", view.must_discard), {
              n: view.must_discard,
              limit: shown.hand_limit,
            }),
          )
        : view.night_cards === "open" && shown.night_count
          ? h(
              "span",
              { class: "pw-note pw-night-note" },
              t("pw.night_in_hand", { mode: t("pw.night_mode.open") }),
            )
          : null,
      meter(shown),
    ),
    h(
      "div",
      { class: "pw-hand-main" },
      groups,
      active && view.phase === "turn" ? actionBar(state, ctx) : null,
      discarding ? discardBar(state, ctx, cards) : null,
    ),
    !active && !state.result
      ? h("p", { class: "pw-hint" }, waitingFor(state, ctx, "pw.waiting_for"))
      : null,
  );
}

function revealedHands(state, ctx) {
  const view = state.view;
  const { top, bottom } = seats(view);
  const row = (seat) =>
    h(
      "div",
      { class: "pw-revealed", "data-testid": `revealed-${seat}` },
      h(
        "h2",
        { class: "zone-label" },
        t("pw.hand_of", { name: ctx.name(seat) }),
        " ",
        h(
          "span",
          { class: "pw-note" },
          `${view.displays[seat].hand_count}/${view.displays[seat].hand_limit}`,
        ),
      ),
      view.hands[seat].length
        ? handGroups(state, ctx, view.hands[seat])
        : h("p", { class: "pw-hint" }, "–"),
    );
  return h("section", { class: "pw-hand-zone pw-hand-revealed" }, row(top), row(bottom));
}

/* The cook and sell dialogs: each field offers the values some legal action has, given the
   fields chosen before it; the button sends that very action. */

const FIELDS = {
  cook: ["rank", "night", "day", "pan", "butter", "cider"],
  sell: ["rank", "night", "day"],
};

/** What a field starts at: the kind worth most (cooking) or least (selling), the most cards,
    an empty pan of the display before one from the hand, the butter and cider worth most
    together (9 mushrooms: a butter and a cider, not two butters), then as much as allowed. */
function preferred(view, field, values, candidates, type) {
  if (field === "pan") return values.includes("display") ? "display" : values[0];
  if (field === "butter") {
    const score = (action) => offerFor(view, action).score;
    return candidates.reduce((best, action) => (score(action) > score(best) ? action : best))
      .butter;
  }
  if (field === "rank") {
    if (type === "sell") return values[0];
    const worth = (rank) =>
      Math.max(
        ...candidates
          .filter((a) => a.rank === rank)
          .map((a) => mushroomCount(a.day, a.night) * POINTS[rank]),
      );
    return values.reduce((best, rank) => (worth(rank) > worth(best) ? rank : best), values[0]);
  }
  return Math.max(...values);
}

/** What the engine says a legal cook or sale gives (the dish's score, the sticks). */
function offerFor(view, action) {
  const fields = FIELDS[action.type].filter((field) => field !== "pan");
  return view.offers.find(
    (offer) =>
      offer.type === action.type && fields.every((field) => offer[field] === action[field]),
  );
}

function resolveChoice(state, dialog) {
  let candidates = legalMatching(state, { type: dialog.type });
  const options = {};
  const choice = {};
  for (const field of FIELDS[dialog.type]) {
    const values = [...new Set(candidates.map((action) => action[field]))];
    values.sort((a, b) => (typeof a === "number" ? a - b : String(a).localeCompare(String(b))));
    options[field] = values;
    const wanted = dialog.choice[field];
    choice[field] = values.includes(wanted)
      ? wanted
      : preferred(state.view, field, values, candidates, dialog.type);
    candidates = candidates.filter((action) => action[field] === choice[field]);
  }
  return { options, choice, action: candidates[0] ?? null };
}

function fieldLabel(field, value) {
  if (field === "rank") return t(`pw.kind.${value}`);
  if (field === "pan") return t(`pw.pan.${value}`);
  if (field === "night")
    return value ? t("pw.use_night", { n: NIGHT_MUSHROOMS }) : t("pw.no_night");
  return String(value);
}

/** The hand's cards a cook or a sale takes: the day cards and the night card of its kind, a pan
    from the hand, butter and cider. */
function usedCards(cards, action) {
  const wanted = {
    mushroom: action.day,
    night: action.night,
    pan: action.pan === "hand" ? 1 : 0,
    butter: action.butter ?? 0,
    cider: action.cider ?? 0,
  };
  const used = new Set();
  cards.forEach((code, index) => {
    const role = roleOf(code);
    const kind = kindOf(code);
    if (wanted[role] > 0 && (kind === null || kind === action.rank)) {
      wanted[role] -= 1;
      used.add(index);
    }
  });
  return used;
}

/** Your hand under the dialog that chooses from it, the chosen cards raised (for the eye: the
    dialog's fields say the same in words). */
function handInSight(state, ctx, action) {
  const cards = handCards(state.view, state.view.seat);
  return h(
    "div",
    { class: "pw-dialog-hand", "aria-hidden": "true", "data-testid": "dialog-hand" },
    handGroups(state, ctx, cards, { used: usedCards(cards, action) }),
  );
}

function dialog(state, ctx) {
  const open = ctx.ui.dialog;
  if (!open || !myTurn(state, ctx) || state.view.phase !== "turn") {
    ctx.ui.dialog = null;
    return null;
  }
  const { options, choice, action } = resolveChoice(state, open);
  if (!action) {
    ctx.ui.dialog = null;
    return null;
  }
  const close = () => {
    ctx.ui.dialog = null;
    ctx.rerender();
  };
  const rows = FIELDS[open.type]
    .filter(
      (field) =>
        field === "rank" ||
        options[field].length > 1 ||
        (field === "night" && options.night.includes(1)) ||
        field === "day",
    )
    .map((field) =>
      h(
        "div",
        {
          class: "pw-field",
          role: "radiogroup",
          "aria-label": t(`pw.field.${field}`),
          "data-needed": "dialog",
        },
        h("span", { class: "pw-field-label" }, t(`pw.field.${field}`)),
        h(
          "div",
          { class: "pw-chips" },
          options[field].map((value) =>
            h(
              "button",
              {
                type: "button",
                class: ["pw-chip", value === choice[field] && "is-on"],
                role: "radio",
                "aria-checked": String(value === choice[field]),
                disabled: options[field].length === 1,
                data: { key: `field-${field}-${value}`, testid: `field-${field}-${value}` },
                onclick: () => {
                  open.choice = { ...choice, [field]: value };
                  ctx.rerender();
                },
              },
              field === "rank"
                ? [
                    h("span", { class: "pw-chip-rank" }, String(value)),
                    " ",
                    fieldLabel(field, value),
                  ]
                : fieldLabel(field, value),
            ),
          ),
        ),
      ),
    );
  const mushrooms = mushroomCount(action.day, action.night);
  const offer = offerFor(state.view, action);
  const preview =
    open.type === "cook"
      ? t("pw.cook_preview", { mushrooms, score: offer.score })
      : t("pw.sell_preview", { mushrooms, sticks: offer.sticks });
  const panel = h(
    "div",
    {
      class: "pw-dialog",
      role: "dialog",
      "aria-modal": "true",
      "aria-labelledby": "pw-dialog-title",
      "data-testid": `dialog-${open.type}`,
      onkeydown: (event) => {
        if (event.key === "Escape") close();
      },
    },
    h("h2", { id: "pw-dialog-title" }, t(`pw.${open.type}_title`)),
    rows,
    h("p", { class: "pw-preview", "data-testid": "preview" }, preview),
    h(
      "div",
      { class: "pw-dialog-buttons" },
      h(
        "button",
        {
          type: "button",
          class: "btn",
          data: { key: "dialog-cancel", testid: "dialog-cancel" },
          onclick: close,
        },
        t("pw.cancel"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-turn",
          disabled: ctx.pending,
          data: { key: "dialog-confirm", testid: "dialog-confirm", needed: "dialog" },
          onclick: () => {
            ctx.ui.dialog = null;
            ctx.act(action);
          },
        },
        t(`pw.confirm_${open.type}`),
      ),
    ),
  );
  return h(
    "div",
    {
      class: "pw-backdrop",
      onclick: (event) => {
        if (event.target === event.currentTarget) close();
      },
    },
    panel,
    handInSight(state, ctx, action),
  );
}

/* Notes: skipped turns. */

function skippedNote(state, ctx) {
  const skipped = state.view.skipped ?? [];
  if (!skipped.length || state.result) return null;
  const text =
    new Set(skipped).size > 1
      ? t("pw.skipped_both")
      : t("pw.skipped", { name: ctx.name(skipped[0]) });
  return h("p", { class: "pw-skipped", "data-testid": "skipped", role: "status" }, text);
}

function legend() {
  const rows = KINDS.map((kind) =>
    h(
      "tr",
      {},
      h("td", {}, String(kind)),
      h("td", {}, t(`pw.kind.${kind}`)),
      h("td", { class: "num" }, String(POINTS[kind])),
      h("td", { class: "num" }, String(STICKS[kind])),
    ),
  );
  const specials = [
    ["QH QD", "butter"],
    ["KH KD", "cider"],
    ["QS QC", "basket"],
    ["KS KC", "poison"],
    ["A", "moon"],
    ["J JK", "pan"],
  ];
  return h(
    "details",
    { class: "pw-legend", "data-testid": "legend" },
    h("summary", {}, t("pw.legend")),
    h(
      "div",
      { class: "pw-legend-body" },
      h(
        "table",
        { class: "pw-legend-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, t("pw.legend_rank")),
            h("th", {}, t("pw.legend_kind")),
            h("th", {}, t("pw.legend_points")),
            h("th", {}, t("pw.legend_sticks")),
          ),
        ),
        h("tbody", {}, rows),
      ),
      h(
        "ul",
        { class: "pw-legend-roles" },
        specials.map(([codes, role]) =>
          h(
            "li",
            {},
            h("strong", {}, codes),
            ` ${t(`pw.role.${role}`)}: ${t(`pw.role.help.${role}`)}`,
          ),
        ),
        h("li", {}, t("pw.legend_night")),
      ),
    ),
  );
}

/** A card in a move's words: its chip (rank and suit) and, unless `short`, its name on playing
    cards; its name alone under the mushroom faces (where no rank or suit is shown). */
function named(code, ctx, short = false) {
  const faces = ctx?.ui?.faces ?? ctx?.previous?.card_faces;
  if (faces === "mushrooms") return [cardTitle(code)];
  return short ? [cardChip(code)] : [cardChip(code), ` ${cardTitle(code)}`];
}

function namedList(codes, ctx) {
  const faces = ctx?.ui?.faces ?? ctx?.previous?.card_faces;
  const between = faces === "mushrooms" ? ", " : " ";
  return codes.map((code, i) => [i ? between : "", named(code, ctx, true)]);
}

export function render(root, state, ctx) {
  const view = state.view;
  if (ctx.ui) ctx.ui.faces = view.card_faces;
  const { top, bottom } = seats(view);
  const marks = marksFor(state, ctx);
  fill(
    root,
    h(
      "div",
      { class: ["pw-layout", `pw-faces-${view.card_faces}`, myTurn(state, ctx) && "is-my-turn"] },
      // Tab follows the step: the forest and the decay pile, your hand and its buttons, then
      // the displays (the other's is drawn on top by the stylesheet).
      forestZone(state, ctx, marks),
      h(
        "div",
        { class: "pw-bottom" },
        handZone(state, ctx),
        h(
          "div",
          { class: "pw-side" },
          displayOf(state, ctx, bottom, "bottom", marks),
          skippedNote(state, ctx),
          legend(),
        ),
      ),
      displayOf(state, ctx, top, "top", marks),
      dialog(state, ctx),
    ),
  );
  const confirm = root.querySelector(".pw-dialog [data-testid='dialog-confirm']");
  if (confirm && !root.querySelector(".pw-dialog").contains(document.activeElement))
    confirm.focus({ preventScroll: true });
}

export function describe({ action, took }, ctx) {
  const name = (rank) => t(`pw.kind.${rank}`);
  switch (action.type) {
    case "take": {
      const [head, tail] = t("pw.did.take", { n: action.position }).split("{card}");
      return h("span", {}, head, named(took[0], ctx), tail ?? "");
    }
    case "take_decay":
      return h("span", {}, t("pw.did.take_decay"), " ", namedList(took, ctx));
    case "place_pan":
      return h("span", {}, t("pw.did.place_pan"));
    case "sell": {
      const n = mushroomCount(action.day, action.night);
      return h(
        "span",
        {},
        t("pw.did.sell", { n, name: name(action.rank), sticks: n * STICKS[action.rank] }),
      );
    }
    case "cook": {
      const n = mushroomCount(action.day, action.night);
      const extras = [
        action.butter ? t("pw.butter_n", { n: action.butter }) : null,
        action.cider ? t("pw.cider_n", { n: action.cider }) : null,
      ].filter(Boolean);
      return h(
        "span",
        {},
        t("pw.did.cook", { n, name: name(action.rank) }),
        extras.length ? t("pw.did.cook_extras", { extras: extras.join(", ") }) : "",
      );
    }
    case "discard":
      return h("span", {}, t("pw.did.discard"), " ", namedList(action.cards, ctx));
    default:
      return h("span", {}, action.type);
  }
}

export function turnHint(state) {
  const view = state.view;
  if (view.phase === "discard")
    return t(counted("pw.hint.discard", view.must_discard), { n: view.must_discard });
  return t("pw.hint.turn");
}

export function endReason(result) {
  return t(`pw.reason.${result.reason}`);
}

export function renderResult(root, state, ctx) {
  const view = state.view;
  const result = state.result;
  const order = [seats(view).bottom, seats(view).top];
  const dishes = result.dishes ?? view.displays.map((shown) => shown.dishes);
  const cooked = result.mushrooms_cooked ?? view.displays.map((shown) => shown.mushrooms_cooked);
  const column = (seat) =>
    h(
      "div",
      { class: "pw-result-side", "data-testid": `result-${seat}` },
      h("h3", {}, `${ctx.name(seat)}: ${result.scores[seat]}`),
      h("p", { class: "muted" }, t("pw.mushrooms_cooked", { n: cooked[seat] })),
      dishes[seat].length
        ? h(
            "table",
            { class: "score-table pw-result-table" },
            h(
              "tbody",
              {},
              dishes[seat].map((dish) => {
                const extras = `${dish.butter ? ` + ${dish.butter}×${BUTTER_POINTS}` : ""}${dish.cider ? ` + ${dish.cider}×${CIDER_POINTS}` : ""}`;
                return h(
                  "tr",
                  {},
                  h("th", { scope: "row" }, `${dish.mushrooms}× ${t(`pw.kind.${dish.rank}`)}`),
                  h(
                    "td",
                    { class: "calc" },
                    t("pw.dish_calc", {
                      mushrooms: dish.mushrooms,
                      points: POINTS[dish.rank],
                      extras,
                      score: dish.score,
                    }),
                  ),
                  h("td", { class: "num" }, String(dish.score)),
                );
              }),
            ),
            h(
              "tfoot",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "row" }, t("pw.total")),
                h("td", {}),
                h("td", { class: "num" }, String(result.scores[seat])),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("pw.no_dishes")),
    );
  fill(
    root,
    h(
      "p",
      { class: "pw-final-line" },
      order.map((seat) => `${ctx.name(seat)} ${result.scores[seat]}`).join(" · "),
    ),
    h("div", { class: "pw-result" }, order.map(column)),
  );
}
