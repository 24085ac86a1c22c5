// The daily deal: today's deal of each game (/api/daily), to play, to continue or done with
// its score; for the home page and /daily. Starting one opens its table; once played, its
// board (a second attempt is refused by the server: `daily_played`).

import { localized, t } from "./i18n.js";
import { num } from "./games/common.js";
import { api, h, toast } from "./ui.js";

export async function loadToday() {
  return api("/api/daily");
}

export function boardPath(day, game) {
  return `/daily/${encodeURIComponent(day)}/${encodeURIComponent(game)}`;
}

/** A result as the board and the list write it: "27", "61 : 48". */
export function scoreText(result) {
  if (result.score === null) return t(`daily.outcome.${result.outcome}`);
  if (result.opponent_score === null) return num(result.score);
  return `${num(result.score)} : ${num(result.opponent_score)}`;
}

async function play(game, nameOf) {
  const name = nameOf();
  if (!name) return;
  try {
    const started = await api(`/api/daily/${encodeURIComponent(game)}`, {
      method: "POST",
      body: { name },
    });
    location.assign(`/r/${encodeURIComponent(started.room_id)}`);
  } catch (error) {
    if (error.code === "daily_played") {
      const today = await loadToday();
      location.assign(boardPath(today.day, game));
      return;
    }
    toast(error.message);
  }
}

function action(today, entry, nameOf) {
  if (entry.status === "running") {
    return h(
      "a",
      {
        class: "btn btn-small btn-primary",
        href: `/r/${encodeURIComponent(entry.room_id)}`,
        "data-testid": `daily-continue-${entry.game}`,
      },
      t("daily.continue"),
    );
  }
  if (entry.status === "done") {
    return h(
      "a",
      {
        class: "btn btn-small",
        href: boardPath(today.day, entry.game),
        "data-testid": `daily-board-${entry.game}`,
      },
      t("daily.board"),
    );
  }
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small btn-primary",
      "data-testid": `daily-play-${entry.game}`,
      onclick: () => play(entry.game, nameOf),
    },
    t("daily.play"),
  );
}

function status(entry) {
  if (entry.status === "running") return t("daily.running");
  if (entry.status === "done") return t("daily.done", { score: scoreText(entry.result) });
  return t("daily.new");
}

/** Today's dailies as list items; `games` is /api/games (titles, seats); `nameOf` the
 * player's name for a new attempt (null: not given yet). */
export function todayItems(today, games, nameOf) {
  return today.games.map((entry) => {
    const game = games.find((known) => known.name === entry.game);
    return h(
      "li",
      {
        class: `daily-item is-${entry.status}`,
        "data-testid": `daily-${entry.game}`,
      },
      h(
        "div",
        { class: "room-main" },
        h("div", { class: "room-title" }, game ? localized(game.title) : entry.game),
        h(
          "div",
          { class: "muted room-when" },
          game && game.seats > 1 ? `${t("daily.against")} · ${status(entry)}` : status(entry),
        ),
      ),
      action(today, entry, nameOf),
    );
  });
}

/** "Daily deal #338 · streak 3" */
export function todayTitle(today) {
  const parts = [t("daily.number", { n: today.number })];
  if (today.streak > 0) parts.push(t("daily.streak", { n: today.streak }));
  return parts.join(" · ");
}
