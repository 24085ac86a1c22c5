// Your games: every unfinished match of this browser's player, the ones waiting for it
// first; the title and the app icon count those. Refreshed every minute.

import { t } from "../i18n.js";
import { boot } from "../page.js";
import { api, fill, h, toast } from "../ui.js";
import { countWaiting, gameItem, loadGames } from "../your-games.js";

const REFRESH_MS = 60_000;
let games = [];
let yours = [];
let fetchedAt = Date.now();

function render() {
  const list = document.getElementById("your-games");
  fill(
    list,
    ...(yours.length
      ? yours.map((game) => gameItem(game, games, fetchedAt))
      : [h("li", { class: "empty" }, t("home.no_games"))]),
  );
  countWaiting(yours);
}

async function refresh() {
  try {
    yours = await loadGames();
    fetchedAt = Date.now();
  } catch (error) {
    toast(error.message);
  }
  render();
}

async function start() {
  boot(render);
  try {
    games = await api("/api/games");
  } catch (error) {
    toast(error.message);
  }
  await refresh();
  document.body.dataset.ready = "true";
  setInterval(refresh, REFRESH_MS);
}

start();
