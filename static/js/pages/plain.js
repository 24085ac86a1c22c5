// Pages without their own logic (rules, not found): translation, language switch, card pictures.

import { card } from "../cards.js";
import { boot } from "../page.js";
import { fill } from "../ui.js";

/** Draws the cards a page names in data-cards="AS 10H" (rules examples, the lost page). */
function drawCards() {
  for (const row of document.querySelectorAll("[data-cards]")) {
    fill(
      row,
      ...row.dataset.cards
        .split(/\s+/)
        .filter(Boolean)
        .map((code) => card(code)),
    );
  }
}

boot(drawCards);
drawCards();
document.body.dataset.ready = "true";
