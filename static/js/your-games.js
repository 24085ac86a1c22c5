// "Your games": every unfinished match of this browser's player (/api/me/games), for the
// home page and /games: whose turn since when, the time left, a link to the table.

import { localized, t } from "./i18n.js";
import { api, copyText, h, roomLink, showWaiting, timeLeft, toast, turnSince, when } from "./ui.js";

const TITLE = "Kartenrunde";

export async function loadGames() {
  return api("/api/me/games");
}

/** The seconds left now, from the server's count when the list was fetched. */
function secondsLeft(game, fetchedAt) {
  return game.seconds_left - (Date.now() - fetchedAt) / 1000;
}

function turnPill(game) {
  if (game.to_move === null) {
    return h(
      "span",
      { class: "status-pill is-waiting", "data-testid": "room-turn" },
      t("games.waiting_players"),
    );
  }
  if (game.your_turn) {
    return h(
      "span",
      { class: "status-pill is-your-turn", "data-testid": "room-turn" },
      t("room.your_turn"),
    );
  }
  const name = game.players[game.to_move] ?? t("table.seat", { n: game.to_move + 1 });
  return h(
    "span",
    { class: "status-pill", "data-testid": "room-turn" },
    t("room.their_turn", { name }),
  );
}

function clockLine(game, fetchedAt) {
  if (!game.since) return null;
  const parts = [turnSince(game.seconds_since + (Date.now() - fetchedAt) / 1000)];
  if (!game.turn_based) parts.push(t("games.live"));
  else if (game.deadline === null) parts.push(t("turn.no_limit"));
  else {
    const left = secondsLeft(game, fetchedAt);
    const name = game.players[game.to_move] ?? "";
    if (left <= 0) parts.push(game.your_turn ? t("turn.ran_out_you") : t("turn.ran_out", { name }));
    else if (game.your_turn) parts.push(t("turn.you_have", { left: timeLeft(left) }));
    else parts.push(t("turn.has", { name, left: timeLeft(left) }));
  }
  return h(
    "div",
    { class: "muted room-when", title: when(game.since), "data-testid": "game-clock" },
    parts.join("\u00a0· "), // a wrapped line never starts with the dot
  );
}

/** One game as a list item; `games` is /api/games (for the titles). */
export function gameItem(game, games, fetchedAt) {
  const info = games.find((each) => each.name === game.game);
  const copy = async () =>
    toast((await copyText(roomLink(game.room_id))) ? t("share.copied") : t("share.failed"), "ok");
  const names = game.players.filter(Boolean);
  return h(
    "li",
    { class: ["room-item", game.your_turn && "is-your-turn"], "data-testid": "your-game" },
    h(
      "div",
      { class: "room-main" },
      h(
        "div",
        { class: "room-title" },
        info ? localized(info.title) : game.game,
        " ",
        turnPill(game),
      ),
      h("div", { class: "muted" }, names.join(" · ")),
      clockLine(game, fetchedAt),
    ),
    h(
      "div",
      { class: "room-actions" },
      h("button", { type: "button", class: "btn btn-small", onclick: copy }, t("share.copy")),
      h(
        "a",
        { class: "btn btn-small btn-primary", href: `/r/${encodeURIComponent(game.room_id)}` },
        t("room.open"),
      ),
    ),
  );
}

/** The page title and the app icon count the games waiting for this player. */
export function countWaiting(yourGames, title = TITLE) {
  showWaiting(yourGames.filter((game) => game.your_turn).length, title);
}
