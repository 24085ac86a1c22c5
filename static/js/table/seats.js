// @ts-check
// The seats in the head: each player's name (a link to their record where the server sent
// their rating), presence, the computer's level, wins in this room; "you", and a spectator's
// own line.

import { t } from "../i18n.js";
import { h } from "../ui.js";
import { byId, patch } from "./draw.js";
import { isComputerSeat, isOffline, levelName, playerName, shell } from "./shell.js";

export function renderSeats() {
  const tally = shell.state?.tally ?? shell.room?.tally;
  const toMove = shell.state?.result ? null : shell.state?.to_move;
  patch(
    byId("seats"),
    ...shell.players.map((player) => {
      const mine = player.seat === shell.seat;
      const connected = mine && shell.socket ? !isOffline() : player.connected;
      return h(
        "li",
        {
          class: [
            "seat",
            connected && "is-connected",
            toMove === player.seat && "is-moving",
            mine && "is-you",
            !player.name && "is-free",
          ],
          data: { seat: String(player.seat) },
        },
        h("span", { class: "dot", "aria-hidden": "true" }),
        seatName(player.seat),
        seatRating(player.seat),
        isComputerSeat(player) && player.computer
          ? h("span", { class: "seat-note seat-level" }, `(${levelName(player.computer)})`)
          : null,
        mine ? h("span", { class: "seat-note seat-you" }, t("table.you_note")) : null,
        player.computer && !isComputerSeat(player)
          ? h("span", { class: "seat-note seat-computer" }, t("table.computer_plays"))
          : null,
        player.name && !player.computer
          ? h(
              "span",
              { class: "seat-note seat-presence" },
              t(connected ? "table.online" : "table.offline"),
            )
          : null,
        tally && player.name && shell.players.length > 1
          ? winsChip(tally.wins?.[player.seat] ?? 0)
          : null,
      );
    }),
    shell.seat === null
      ? h(
          "li",
          { class: "seat is-spectator" },
          h("span", { class: "seat-name" }, t("table.spectating")),
        )
      : null,
  );
}

/**
 * A person's rating for the state's seat, if the server sent it (app/people/records.py).
 * @param {number} seat
 */
function ratingOf(seat) {
  return shell.state?.ratings?.[seat] ?? null;
}

/**
 * A seat's name, a link to the person's record where the server sent their rating.
 * @param {number} seat
 */
function seatName(seat) {
  const rating = ratingOf(seat);
  const name = playerName(seat);
  if (!rating) return h("span", { class: "seat-name" }, name);
  return h(
    "a",
    { class: "seat-name", href: `/players/${encodeURIComponent(rating.player_id)}` },
    name,
  );
}

/**
 * Small beside the name: the rating and the matches it rests on.
 * @param {number} seat
 */
function seatRating(seat) {
  const rating = ratingOf(seat);
  if (!rating) return null;
  const title =
    rating.rating === null
      ? t("players.unrated_chip")
      : t("players.rating_chip", { rating: rating.rating, n: rating.matches });
  // Labelled: "Rating 1512" where the seats have room, "(1512)" as on lichess where not.
  return h(
    "span",
    { class: "seat-rating", title, "aria-label": title, "data-testid": "seat-rating" },
    h("span", { class: "seat-rating-word" }, `${t("players.rating_word")} `),
    h("span", { class: "seat-rating-paren" }, "("),
    rating.rating === null ? t("players.unrated_word") : String(rating.rating),
    h("span", { class: "seat-rating-paren" }, ")"),
  );
}

/**
 * A seat's matches won; where the seats are narrow, the number alone shows.
 * @param {number} n
 */
function winsChip(n) {
  return h(
    "span",
    { class: "seat-wins", title: t("table.wins", { n }) },
    String(n),
    h("span", { class: "seat-wins-word" }, ` ${t("table.wins_word")}`),
  );
}
