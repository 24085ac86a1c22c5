// History: the finished matches, newest first, filtered by game and player; each opens its replay.

import { num } from "../games/common.js";
import { localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { api, fill, h, toast, when } from "../ui.js";

const PAGE = 20;
const list = document.getElementById("matches");
const more = document.getElementById("more");
const gameSelect = document.getElementById("filter-game");
const playerInput = document.getElementById("filter-player");
const publicHistory = document.body.dataset.publicHistory === "true";
let games = [];
let matches = [];
let scope = "mine";

function gameTitle(name) {
  const game = games.find((g) => g.name === name);
  return game ? localized(game.title) : name;
}

function outcome(match) {
  const result = match.result ?? {};
  const scores = result.scores ?? [];
  if (result.reason === "aborted")
    return t("history.aborted", { name: match.players[result.aborted_by] ?? "" });
  if (result.reason === "resigned" && match.players.length === 1)
    return t("history.resigned", { name: match.players[0] ?? "" });
  if (result.reason === "resigned")
    return [
      t("history.resigned", { name: match.players[result.resigned_by] ?? "" }),
      t("history.winner", { name: match.players[result.winner] ?? "" }),
    ].join(" · ");
  if (match.players.length === 1) return t("history.score", { score: num(scores[0] ?? 0) });
  if (result.reason === "abandoned" && result.time_ran_out !== undefined)
    return t("history.time_ran_out", { name: match.players[result.time_ran_out] ?? "" });
  if (result.reason === "abandoned")
    return t("history.abandoned", {
      name: match.players.find((_, seat) => seat !== result.abandoned_by) ?? "",
    });
  const line = match.players.map((name, seat) => `${name} ${num(scores[seat] ?? 0)}`).join(" : ");
  const winner =
    result.winner === null || result.winner === undefined
      ? t("history.draw")
      : t("history.winner", { name: match.players[result.winner] });
  return `${line} · ${winner}`;
}

function matchItem(match) {
  // The whole row opens the replay (the title's link stretches over it); each person's name
  // opens their record (/players/{id}). A daily deal's replay opens once its day is over:
  // no link before.
  const held = Boolean(match.replay_from);
  return h(
    "li",
    { class: `match-item${held ? " is-held" : ""}` },
    h(
      "div",
      { class: held ? "match-row match-held" : "match-row" },
      held
        ? h("span", { class: "match-game" }, gameTitle(match.game))
        : h(
            "a",
            {
              class: "match-game match-open",
              href: `/matches/${encodeURIComponent(match.match_id)}`,
            },
            gameTitle(match.game),
          ),
      h(
        "span",
        { class: "match-players" },
        ...match.players.flatMap((name, seat) => [
          seat ? " · " : null,
          match.player_ids?.[seat]
            ? h(
                "a",
                {
                  class: "match-player",
                  href: `/players/${encodeURIComponent(match.player_ids[seat])}`,
                },
                name,
              )
            : name,
        ]),
        h("br"),
        h("span", { class: "muted" }, outcome(match)),
      ),
      h(
        "span",
        { class: "match-when" },
        held
          ? t("history.replay_from", { when: when(match.replay_from) })
          : when(match.finished_at),
      ),
    ),
  );
}

function renderList() {
  document.title = `${t("history.title")} — Kartenrunde`;
  const filtered = gameSelect.value || playerInput.value.trim();
  const none = filtered
    ? "history.none_filtered"
    : scope === "mine"
      ? "history.none_mine"
      : "history.none";
  fill(list, ...(matches.length ? matches.map(matchItem) : [h("li", { class: "empty" }, t(none))]));
  for (const [id, value] of [
    ["scope-mine", "mine"],
    ["scope-all", "all"],
  ]) {
    document.getElementById(id)?.setAttribute("aria-pressed", String(scope === value));
  }
}

function renderGames() {
  const chosen = gameSelect.value;
  fill(
    gameSelect,
    h("option", { value: "" }, t("history.all_games")),
    ...games.map((game) =>
      h("option", { value: game.name, selected: game.name === chosen }, localized(game.title)),
    ),
  );
}

function query(offset) {
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (scope === "mine") params.set("mine", "true");
  if (gameSelect.value) params.set("game", gameSelect.value);
  if (playerInput.value.trim()) params.set("player", playerInput.value.trim());
  return params;
}

async function load(offset = 0) {
  try {
    const page = await api(`/api/matches?${query(offset)}`);
    matches = offset ? [...matches, ...page] : page;
    more.hidden = page.length < PAGE;
  } catch (error) {
    toast(error.message);
  }
  renderList();
}

function keepFiltersInAddress() {
  const params = new URLSearchParams();
  if (scope === "all") params.set("scope", "all");
  if (gameSelect.value) params.set("game", gameSelect.value);
  if (playerInput.value.trim()) params.set("player", playerInput.value.trim());
  history.replaceState(null, "", params.size ? `?${params}` : location.pathname);
}

async function start() {
  boot(() => {
    renderGames();
    renderList();
  });
  const params = new URLSearchParams(location.search);
  playerInput.value = params.get("player") ?? "";
  scope = publicHistory && params.get("scope") === "all" ? "all" : "mine";
  for (const [id, value] of [
    ["scope-mine", "mine"],
    ["scope-all", "all"],
  ]) {
    document.getElementById(id)?.addEventListener("click", () => {
      scope = value;
      keepFiltersInAddress();
      load();
    });
  }
  try {
    games = await api("/api/games");
  } catch (error) {
    toast(error.message);
  }
  renderGames();
  gameSelect.value = params.get("game") ?? "";
  document.getElementById("filters").addEventListener("submit", (event) => {
    event.preventDefault();
    keepFiltersInAddress();
    load();
  });
  gameSelect.addEventListener("change", () => {
    keepFiltersInAddress();
    load();
  });
  more.addEventListener("click", () => load(matches.length));
  await load();
  document.body.dataset.ready = "true";
}

start();
