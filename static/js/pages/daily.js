// The daily deal: today's deals (/daily), or one day's board of a game (/daily/{day}/{game}):
// the finished attempts best first, scores only; the player's streak and the text to share.

import { boardPath, loadToday, scoreText, todayItems, todayTitle } from "../daily.js";
import { num } from "../games/common.js";
import { localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { api, copyText, fill, gameList, givenName, h, storedName, toast, when } from "../ui.js";

const { day, game } = document.body.dataset;
let games = [];
let today = null;
let board = null;

function title(name) {
  const found = games.find((known) => known.name === name);
  return found ? localized(found.title) : name;
}

function renderToday() {
  if (!today) return;
  document.title = `${t("daily.title")} — Kartenrunde`;
  document.getElementById("today-title").textContent = todayTitle(today);
  const items = todayItems(today, games, () => givenName(document.getElementById("player-name")));
  for (const item of items) {
    const entry = today.games.find((e) => item.dataset.testid === `daily-${e.game}`);
    if (entry.status === "done") continue; // its button opens the board
    item
      .querySelector(".room-title")
      .append(
        " ",
        h(
          "a",
          { class: "daily-board-link", href: boardPath(today.day, entry.game) },
          t("daily.board"),
        ),
      );
  }
  fill(document.getElementById("today"), ...items);
}

function entryItem(entry, seats) {
  const result = scoreText(entry);
  const par = board.par !== null && seats === 1 && entry.score !== null ? `/${num(board.par)}` : "";
  const mark = seats > 1 && entry.score !== null ? ` ${t(`daily.outcome.${entry.outcome}`)}` : "";
  return h(
    "li",
    { class: `daily-entry${entry.you ? " is-you" : ""}`, "data-testid": "daily-entry" },
    h("span", { class: "daily-name" }, entry.name, entry.you ? ` (${t("daily.you")})` : ""),
    h("span", { class: "daily-score" }, `${result}${par}${mark}`),
  );
}

function renderBoard() {
  if (!board) return;
  const seats = games.find((known) => known.name === game)?.seats ?? 1;
  const heading = `${title(game)} #${board.number}`;
  document.title = `${heading} — Kartenrunde`;
  document.getElementById("board-title").textContent = heading;
  const lead = [
    new Date(`${board.day}T12:00:00Z`).toLocaleDateString(document.documentElement.lang, {
      dateStyle: "long",
    }),
  ];
  if (board.par !== null) lead.push(t("daily.par", { n: num(board.par) }));
  if (seats > 1) lead.push(t("daily.against"));
  document.getElementById("board-lead").textContent = lead.join(" · ");
  fill(
    document.getElementById("entries"),
    ...(board.entries.length
      ? board.entries.map((entry) => entryItem(entry, seats))
      : [h("li", { class: "empty" }, t("daily.nobody"))]),
  );
  document.getElementById("no-lines").textContent = board.over
    ? t("daily.replays_open")
    : t("daily.no_lines", { when: when(board.ends_at) });
  const you = document.getElementById("you");
  you.hidden = !board.you;
  if (board.you) {
    const streaks = [t("daily.streak", { n: board.you.streak })];
    streaks.push(t("daily.game_streak", { n: board.you.game_streak, game: title(game) }));
    document.getElementById("streak").textContent = streaks.join(" · ");
    document.getElementById("share-text").textContent = shareText();
  }
}

/** The result in words, then the link to this day's board, where the others' results are. */
function shareText() {
  const texts = board.you.share;
  const words = texts[document.documentElement.lang] ?? texts.en;
  return `${words} ${location.origin}${boardPath(board.day, game)}`;
}

async function copyShare() {
  const copied = await copyText(shareText());
  if (copied) toast(t("daily.copied"), "info");
  else {
    // No clipboard: select the text so the player can copy it themselves.
    const range = document.createRange();
    range.selectNodeContents(document.getElementById("share-text"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  }
}

async function start() {
  boot(() => {
    renderToday();
    renderBoard();
  });
  try {
    games = await gameList();
    if (game) {
      document.getElementById("copy-share").addEventListener("click", copyShare);
      board = await api(`/api/daily/${encodeURIComponent(day)}/${encodeURIComponent(game)}`);
      renderBoard();
    } else {
      document.getElementById("player-name").value = storedName();
      today = await loadToday();
      renderToday();
    }
  } catch (error) {
    toast(error.message);
  }
  document.body.dataset.ready = "true";
}

start();
