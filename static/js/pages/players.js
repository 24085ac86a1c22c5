// A player's record: per game (matches, wins, draws, losses, margin, streaks, the rating and
// the matches it rests on, the computer per level), then head to head per opponent.

import { num } from "../games/common.js";
import { localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { api, fill, h, toast } from "../ui.js";

const playerId = document.body.dataset.playerId;
const box = document.getElementById("record");
// Each column of a tally: its heading, and the letter a phone shows instead.
const COLUMNS = [
  ["players.matches", "players.matches_short"],
  ["players.wins", "players.wins_short"],
  ["players.draws", "players.draws_short"],
  ["players.losses", "players.losses_short"],
];
let games = [];
let record = null;

function gameTitle(name) {
  const game = games.find((g) => g.name === name);
  return game ? localized(game.title) : name;
}

function signed(value) {
  if (value === null || value === undefined) return "–";
  return `${value > 0 ? "+" : ""}${num(value)}`;
}

/** A rating: the number and the matches it rests on. */
function ratingText(rating) {
  if (!rating) return t("players.unrated");
  return t("players.rating_of", { rating: num(rating.rating), n: rating.matches });
}

function figure(label, value, extra = {}) {
  return h(
    "div",
    { class: "record-figure", ...extra },
    h("dt", {}, label),
    h("dd", {}, String(value)),
  );
}

function tallyRow(label, tally, link = null, kind = null) {
  return h(
    "tr",
    { class: kind },
    h("th", { scope: "row" }, link ? h("a", { href: link }, label) : label),
    h("td", {}, String(tally.matches)),
    h("td", {}, String(tally.wins)),
    h("td", {}, String(tally.draws)),
    h("td", {}, String(tally.losses)),
  );
}

function tallyTable(first, rows, caption) {
  return h(
    "table",
    { class: "record-table" },
    caption ? h("caption", {}, caption) : null,
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, first),
        ...COLUMNS.map(([key, short]) =>
          h(
            "th",
            { scope: "col" },
            h("span", { class: "long" }, t(key)),
            h("abbr", { class: "short", title: t(key) }, t(short)),
          ),
        ),
      ),
    ),
    h("tbody", {}, ...rows),
  );
}

function gameCard(game) {
  const solo = game.solo;
  const figures = solo
    ? [
        figure(t("players.plays"), game.matches),
        figure(t("players.survived"), game.wins),
        figure(t("players.best_score"), game.best_score === null ? "–" : num(game.best_score)),
        figure(
          t("players.average_score"),
          game.average_score === null ? "–" : num(game.average_score),
        ),
      ]
    : [
        figure(t("players.matches"), game.matches),
        figure(t("players.wins"), game.wins),
        figure(t("players.draws"), game.draws),
        figure(t("players.losses"), game.losses),
        figure(t("players.margin"), signed(game.average_margin)),
      ];
  figures.push(
    figure(t("players.streak"), game.streak),
    figure(t("players.best_streak"), game.best_streak),
  );
  return h(
    "section",
    { class: "panel record-game", data: { game: game.game } },
    h(
      "h2",
      {},
      gameTitle(game.game),
      solo
        ? null
        : h(
            "span",
            { class: "record-rating", title: t("players.rating_help") },
            `${t("players.rating")}: ${ratingText(game.rating)}`,
          ),
    ),
    h("dl", { class: "record-figures" }, ...figures),
    game.computer.length
      ? tallyTable(
          t("players.level"),
          game.computer.map((level) => tallyRow(t(`level.${level.level}`), level)),
          t("players.computer"),
        )
      : null,
  );
}

function opponentName(opponent) {
  return opponent.player_id === null ? t("players.others") : opponent.name || "?";
}

function opponentsTable(opponents) {
  const rows = [];
  for (const opponent of opponents) {
    const link =
      opponent.player_id === null ? null : `/players/${encodeURIComponent(opponent.player_id)}`;
    rows.push(tallyRow(opponentName(opponent), opponent, link));
    if (opponent.games.length > 1)
      for (const game of opponent.games)
        rows.push(tallyRow(gameTitle(game.game), game, null, "record-sub"));
  }
  return h(
    "section",
    { class: "panel record-opponents" },
    h("h2", {}, t("players.opponents")),
    h("div", { class: "record-scroll" }, tallyTable(t("players.opponent"), rows)),
  );
}

function render() {
  if (!record) return;
  const title = record.you ? t("players.yours") : t("players.of", { name: record.name });
  document.title = `${title} — Kartenrunde`;
  fill(document.getElementById("player-name"), title);
  fill(
    box,
    record.games.length
      ? record.games.map(gameCard)
      : h("p", { class: "panel empty" }, t("players.none")),
    record.opponents.length ? opponentsTable(record.opponents) : null,
  );
}

async function start() {
  boot(render);
  try {
    [games, record] = await Promise.all([
      api("/api/games"),
      api(`/api/players/${encodeURIComponent(playerId)}`),
    ]);
  } catch (error) {
    toast(error.message);
  }
  render();
  document.body.dataset.ready = "true";
}

start();
