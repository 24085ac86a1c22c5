// The card pictures of Pilzwanderung's rules page: our mushroom faces (cards.js's face hook).

import { card } from "../cards.js";
import { addStrings, onLangChange } from "../i18n.js";
import { cardLabel, mushroomFace } from "./pilzwanderung.faces.js";
import strings from "./pilzwanderung.strings.js";

addStrings(strings);

function draw() {
  for (const row of document.querySelectorAll("[data-mushrooms]")) {
    const codes = row.dataset.mushrooms.split(/\s+/).filter(Boolean);
    row.replaceChildren(
      ...codes.map((code) => card(code, { face: mushroomFace, label: cardLabel(code) })),
    );
  }
}

draw();
onLangChange(draw);
