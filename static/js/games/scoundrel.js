// Scoundrel's table: the dungeon, the room of four, health, the weapon with its slain
// monsters, the discard pile. Buttons come only from legal_actions.

import { card, cardChip, suitOf } from "../cards.js";
import { addStrings, t } from "../i18n.js";
import { api, fill, h } from "../ui.js";
import { legalMatching, num, rulesTables, sameAction, signed } from "./common.js";
import strings from "./scoundrel.strings.js";

addStrings(strings);

const TABLES = await rulesTables("scoundrel");

function value(code) {
  return TABLES.values[code];
}

function kind(code) {
  return TABLES.kinds[suitOf(code)];
}

/** The rank of a monster of this value ("J" for 11), to name the weapon's limit. */
function rankOfValue(n) {
  const code = Object.keys(TABLES.values).find((c) => value(c) === n && kind(c) === "monster");
  return code ? code.slice(0, -1) : String(n);
}

/* The hint: each choice's chance of getting out of the dungeon alive (health left does not
   count), from the server, which only uses what you have seen (sampled dungeons of the unseen
   cards, each solved as if known: an upper estimate). */

const hint = { on: false, key: null, answer: null };
const RETRIES = 5;

/** What `path` answers, asked again after a growing pause while it fails with one of the
    statuses `again` (the server's search workers busy: 503), up to RETRIES times and as
    long as `wanted()`; null if it fails for good. */
async function patiently(path, again, wanted = () => true) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await api(path);
    } catch (error) {
      if (error.code === "daily_running") return { daily_running: true };
      if (!again.has(error.status) || attempt === RETRIES || !wanted()) return null;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

function hintKey(state) {
  return `${state.match_id}:${state.version}`;
}

async function fetchHint(state, ctx) {
  const key = hintKey(state);
  hint.key = key;
  hint.answer = null;
  const path = `/api/rooms/${encodeURIComponent(state.room_id)}/hint`;
  const answer = (await patiently(path, new Set([503]), () => hint.key === key)) ?? {
    chances: [],
    samples: 0,
    failed: true,
  };
  if (hint.key !== key) return;
  hint.answer = answer;
  ctx.rerender();
}

/** No hint for an onlooker, after the end, nor in a daily deal (its board compares players). */
function hintOffered(state, ctx) {
  return !ctx.readOnly && !ctx.daily && state.view.phase !== "over";
}

function hintShown(state, ctx) {
  return hint.on && hintOffered(state, ctx);
}

function wantedHint(state, ctx) {
  if (!hintShown(state, ctx)) return null;
  if (hint.key !== hintKey(state)) fetchHint(state, ctx);
  return hint.answer;
}

function chanceOf(answer, action) {
  const found = answer?.chances.find((entry) => sameAction(entry.action, action));
  return found ? ` · ${Math.round(found.chance * 100)}\u00a0%` : "";
}

/** The toggle sits in the room's head line: under the room, it fell off a phone on its side. */
function hintToggle(state, ctx) {
  if (!hintOffered(state, ctx)) return null;
  return h(
    "button",
    {
      type: "button",
      class: ["btn", "btn-small", "sc-chances", hint.on && "btn-primary"],
      "aria-pressed": String(hint.on),
      data: { key: "chances", testid: "chances", needed: "chances" },
      onclick: () => {
        hint.on = !hint.on;
        hint.key = null;
        ctx.rerender();
      },
    },
    t("sc.chances.toggle"),
  );
}

function hintNote(state, ctx, answer) {
  if (!hintShown(state, ctx)) return null;
  const note = !answer
    ? t("sc.chances.estimating")
    : answer.failed || !answer.samples
      ? t("sc.chances.failed")
      : t("sc.chances.note", { n: answer.samples });
  return h("p", { class: "sc-chances-note", "data-testid": "chances-note" }, note);
}

/* The room: one slot per card with its possible takes. */

function takeButton(ctx, slot, action, label, style) {
  return h(
    "button",
    {
      type: "button",
      class: ["btn", "btn-small", style],
      disabled: ctx.pending,
      data: {
        key: `take-${slot}-${action.card}-${action.weapon}`,
        testid: `take-${action.card}-${action.weapon ? "weapon" : "bare"}`,
        needed: "take",
      },
      onclick: () => ctx.tap(action),
    },
    label,
  );
}

/** The take's button: what it does, with the change of health the engine computed. */
function takeLabel(view, action) {
  const card = action.card;
  if (kind(card) === "weapon") return t("sc.equip");
  if (kind(card) === "potion" && view.potion_used) return t("sc.potion_wasted");
  const take = view.takes.find((one) => one.card === card && one.weapon === action.weapon);
  const n = signed(take.health);
  if (kind(card) === "potion") return t("sc.drink", { n });
  return t(action.weapon ? "sc.fight_weapon" : "sc.fight_bare", { n });
}

function roomSlot(view, state, ctx, code, slot, answer) {
  const takes = ctx.readOnly ? [] : legalMatching(state, { type: "take", card: code });
  takes.sort((a, b) => Number(b.weapon) - Number(a.weapon));
  const label = (action) => takeLabel(view, action) + chanceOf(answer, action);
  return h(
    "li",
    { class: ["sc-slot", `sc-slot-${kind(code)}`] },
    card(code),
    h("span", { class: "sc-kind" }, t(`sc.kind.${kind(code)}`, { n: value(code) })),
    takes.length
      ? h(
          "div",
          { class: "sc-takes" },
          takes.map((action) =>
            takeButton(ctx, slot, action, label(action), action.weapon ? "btn-turn" : ""),
          ),
        )
      : null,
  );
}

function roomNote(view) {
  if (view.phase === "over") return "";
  if (view.last_room) return t("sc.note.last_room");
  const left = TABLES.takes_per_room - view.taken_this_room;
  const parts = [t("sc.note.take", { n: left })];
  if (view.avoided_last_room && view.taken_this_room === 0) parts.push(t("sc.note.avoided"));
  if (view.potion_used) parts.push(t("sc.note.potion_used"));
  return parts.join(" · ");
}

function roomZone(view, state, ctx) {
  const avoid = !ctx.readOnly && legalMatching(state, { type: "avoid" }).length > 0;
  const answer = wantedHint(state, ctx);
  return h(
    "section",
    { class: "sc-room-zone", "aria-labelledby": "sc-room-label" },
    h(
      "div",
      { class: "sc-room-head" },
      h("h2", { class: "zone-label", id: "sc-room-label" }, t("sc.room")),
      h("span", { class: "sc-room-note" }, roomNote(view)),
      h(
        "span",
        { class: "sc-room-tools" },
        hintToggle(state, ctx),
        avoid
          ? h(
              "button",
              {
                type: "button",
                class: "btn btn-small sc-avoid",
                disabled: ctx.pending,
                data: { key: "avoid", testid: "avoid", needed: "avoid" },
                onclick: () => ctx.tap({ type: "avoid" }),
              },
              t("sc.avoid") + chanceOf(answer, { type: "avoid" }),
            )
          : null,
      ),
    ),
    h(
      "ul",
      { class: "sc-room" },
      view.room.length
        ? view.room.map((code, slot) => roomSlot(view, state, ctx, code, slot, answer))
        : h("li", { class: "card-slot" }, t("sc.room_empty")),
    ),
    hintNote(state, ctx, answer),
  );
}

/* Piles, health, weapon */

function pile(label, count, top, options = {}) {
  const shown = top
    ? card(top)
    : count
      ? card(null, { faceDown: true })
      : h("div", { class: "card-slot" }, t("sc.empty"));
  return h(
    "section",
    { class: ["sc-pile", options.className], "aria-label": `${label}: ${count}` },
    h("h2", { class: "zone-label" }, label),
    h(
      "div",
      { class: ["pile", count > 1 && "pile-stack", options.moved && "just-moved"] },
      shown,
      count
        ? h("span", { class: "count-badge", "data-testid": options.testid }, String(count))
        : null,
      options.tag ? h("span", { class: "moved-tag" }, options.tag) : null,
    ),
  );
}

function healthZone(view) {
  const health = view.health;
  const share = Math.max(0, Math.min(1, health / view.max_health));
  const level = health > 10 ? "good" : health > 5 ? "warn" : "bad";
  return h(
    "section",
    { class: "sc-health", "aria-labelledby": "sc-health-label" },
    h("h2", { class: "zone-label", id: "sc-health-label" }, t("sc.health")),
    h(
      "div",
      { class: "sc-health-row" },
      h(
        "span",
        { class: "sc-health-number", "data-testid": "health", "data-needed": "health" },
        num(health),
      ),
      h("span", { class: "sc-health-max" }, `/ ${view.max_health}`),
    ),
    h(
      "div",
      {
        class: ["sc-bar", `is-${level}`],
        role: "meter",
        "aria-valuemin": "0",
        "aria-valuemax": String(view.max_health),
        "aria-valuenow": String(Math.max(0, health)),
        "aria-label": t("sc.health"),
      },
      h("span", { style: { width: `${share * 100}%` } }),
    ),
  );
}

function weaponNote(view) {
  if (!view.weapon) return t("sc.no_weapon");
  if (view.weapon_limit === null || view.weapon_limit === undefined) return t("sc.weapon_fresh");
  if (view.weapon_limit < 2) return t("sc.weapon_spent");
  return t("sc.weapon_limit", { n: rankOfValue(view.weapon_limit) });
}

function weaponZone(view, moved) {
  const stack = view.stack.map((code, index) =>
    card(code, {
      classes: [
        "sc-slain",
        moved === code && index === view.stack.length - 1 ? "just-moved" : "",
      ].filter(Boolean),
    }),
  );
  return h(
    "section",
    { class: "sc-weapon", "aria-labelledby": "sc-weapon-label", "data-needed": "weapon" },
    h("h2", { class: "zone-label", id: "sc-weapon-label" }, t("sc.weapon")),
    h(
      "div",
      { class: "sc-weapon-row" },
      view.weapon
        ? card(view.weapon, { classes: moved === view.weapon ? ["just-moved"] : [] })
        : h("div", { class: "card-slot" }, t("sc.no_weapon_short")),
      stack.length
        ? h(
            "div",
            { class: "sc-stack", style: { "--slain": stack.length }, "aria-label": t("sc.slain") },
            stack,
          )
        : null,
    ),
    h("p", { class: "sc-weapon-note" }, weaponNote(view)),
  );
}

function revealedDungeon(view) {
  if (!view.dungeon) return null;
  return h(
    "section",
    { class: "sc-revealed" },
    h("h2", { class: "zone-label" }, t("sc.dungeon_revealed")),
    h(
      "div",
      { class: "sc-revealed-row" },
      view.dungeon.length
        ? view.dungeon.map((code) => card(code))
        : h("span", { class: "muted" }, t("sc.empty")),
    ),
  );
}

/** Where the last taken card went: the weapon, the weapon's stack, or the discard pile. */
function movedCard(state) {
  const last = state.last_action;
  return last?.action?.type === "take" ? last.action.card : null;
}

export function render(root, state, ctx) {
  const view = state.view;
  const moved = movedCard(state);
  const avoided = state.last_action?.action?.type === "avoid";
  const discardTop = view.discard?.at(-1) ?? null; // face down unless open_discard
  fill(
    root,
    h(
      "div",
      { class: "sc-board" },
      pile(t("sc.dungeon"), view.dungeon_size, null, {
        className: "sc-dungeon",
        testid: "dungeon-count",
        moved: avoided,
        tag: avoided ? t("sc.avoided_tag") : null,
      }),
      roomZone(view, state, ctx),
      pile(t("sc.discard"), view.discard_count, discardTop, {
        className: "sc-discard",
        testid: "discard-count",
        moved: moved !== null && moved === discardTop,
      }),
      h("div", { class: "sc-status" }, healthZone(view), weaponZone(view, moved)),
      revealedDungeon(view),
    ),
  );
}

export function describe({ action }) {
  if (action.type === "avoid") return h("span", {}, t("sc.did.avoid"));
  const code = action.card;
  const key =
    kind(code) === "monster"
      ? action.weapon
        ? "sc.did.fight_weapon"
        : "sc.did.fight_bare"
      : `sc.did.${kind(code)}`;
  const [before, after] = t(key).split("{card}");
  return h("span", {}, before, cardChip(code), after ?? "");
}

/** Why a click on a card or pile did nothing, on your turn (the shell covers the rest). */
export function explainClick(event) {
  if (event.target.closest(".sc-slot")) return t("sc.note.use_buttons");
  if (event.target.closest(".sc-dungeon")) return t("sc.note.dungeon");
  if (event.target.closest(".sc-discard")) return t("sc.note.discard");
  if (event.target.closest(".sc-weapon")) return t("sc.note.weapon");
  return null;
}

export function turnHint(state) {
  const view = state.view;
  if (view.last_room) return t("sc.hint.last_room");
  return view.can_avoid
    ? t("sc.hint.avoid_or_take")
    : t("sc.hint.take", { n: 3 - view.taken_this_room });
}

export function headline(state) {
  const result = state.result;
  return t(result.outcome === "win" ? "sc.end.win" : "sc.end.loss", {
    score: num(result.scores[0]),
  });
}

export function endReason(result) {
  return t(`sc.reason.${result.reason}`, { n: num(result.health) });
}

/* After the match: the best score the deal allowed, from the server's solver. */

export const bestLine = true; // the replay page offers the best line beside yours

const analyses = new Map(); // match id -> the analysis, or a promise of it

function fetchAnalysis(matchId) {
  // 404 too: the finished match may reach the database a moment after its end.
  return patiently(`/api/matches/${encodeURIComponent(matchId)}/analysis`, new Set([404, 503]));
}

export function analysisOf(matchId) {
  if (!analyses.has(matchId)) analyses.set(matchId, fetchAnalysis(matchId));
  return analyses.get(matchId);
}

function analysisText(analysis, state, ctx) {
  // in the replay, state may be the best line's end
  if (!analysis) return [t("sc.best.none")];
  if (analysis.daily_running)
    return [
      h("p", {}, t("sc.best.daily")),
      h(
        "a",
        { class: "btn btn-small", href: "/daily", "data-testid": "daily-link" },
        t("sc.best.daily_board"),
      ),
    ];
  if (!analysis.solved) return [t("sc.best.unsolved")];
  const found = analysis.best_score === analysis.your_score;
  return [
    h(
      "p",
      { class: "sc-best-score" },
      h("span", {}, t("sc.best.score"), " "),
      h("strong", { "data-testid": "best-score" }, num(analysis.best_score)),
      h(
        "span",
        { class: "muted" },
        " · ",
        t(analysis.winnable ? "sc.best.winnable" : "sc.best.unwinnable"),
      ),
    ),
    found ? h("p", { class: "sc-best-found" }, t("sc.best.found")) : null,
    ctx?.replay
      ? null
      : h(
          "a",
          {
            class: "btn btn-small",
            href: `/matches/${encodeURIComponent(state.match_id)}#best`,
            "data-testid": "best-line-link",
          },
          t("sc.best.step_through"),
        ),
  ];
}

function bestLineBlock(state, ctx) {
  const box = h(
    "div",
    { class: "sc-best", "data-testid": "best-line" },
    h("p", { class: "muted" }, t("sc.best.searching")),
  );
  if (!state.match_id) return null;
  Promise.resolve(analysisOf(state.match_id)).then((analysis) => {
    analyses.set(state.match_id, analysis);
    fill(box, ...analysisText(analysis, state, ctx));
  });
  return box;
}

export function renderResult(root, state, ctx) {
  const result = state.result;
  const left = result.monsters_left ?? [];
  const leftSum = left.reduce((sum, code) => sum + value(code), 0);
  const rows = [
    [t("sc.result.health"), num(result.health)],
    result.outcome === "win" ? [t("sc.result.bonus"), signed(result.potion_bonus ?? 0)] : null,
    result.outcome === "loss"
      ? [
          h(
            "span",
            {},
            t("sc.result.left"),
            " ",
            left.map((code) => [cardChip(code), " "]),
          ),
          signed(-leftSum),
        ]
      : null,
  ].filter(Boolean);
  fill(
    root,
    h(
      "table",
      { class: "score-table sc-result" },
      h(
        "tbody",
        {},
        rows.map(([label, amount]) =>
          h("tr", {}, h("th", { scope: "row" }, label), h("td", { class: "num" }, amount)),
        ),
      ),
      h(
        "tfoot",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "row" }, t("sc.result.score")),
          h("td", { class: "num", "data-testid": "final-score" }, num(result.scores[0])),
        ),
      ),
    ),
    bestLineBlock(state, ctx),
  );
}
