// @ts-check
// The wire inspector at the table, behind the developer switch: this seat's last state
// message exactly as its socket received it, and the counts of what was not sent to it
// (never which). The panel itself is the replay's too (../wire.js).

import { t } from "../i18n.js";
import { prefs } from "../prefs.js";
import { fill } from "../ui.js";
import { placeText, wirePanel } from "../wire.js";
import { byId, redraw } from "./draw.js";
import { seating, shell } from "./shell.js";

export function renderWire() {
  const panel = byId("wire");
  panel.hidden = !prefs().developer || shell.wire === null || shell.state?.seat === null;
  document.body.classList.toggle("wire-open", !panel.hidden);
  if (panel.hidden || shell.wire === null) return;
  const text = shell.wire;
  redraw(panel, [text, seating()], () => {
    /** @type {import("../protocol.js").StateMessage} */
    const message = JSON.parse(text);
    panel.dataset.raw = text;
    const places = (message.unseen ?? []).filter((place) => place.count > 0);
    fill(
      byId("wire-body"),
      wirePanel({
        lead: t("wire.lead_table"),
        columns: [
          {
            title: `${t("wire.yours")} · v${message.version}`,
            message,
            notSentTitle: t("wire.not_sent_you"),
            notSent: places.map((place) => placeText(shell.room?.game, place, dealtName)),
          },
        ],
        anyone: [],
        perConnection: [],
      }),
    );
  });
}

/**
 * A seat's name where a hand is dealt: a free seat's too ("Seat 2", not "Free seat").
 * @param {number} seat
 */
function dealtName(seat) {
  return shell.players.find((p) => p.seat === seat)?.name || t("table.seat", { n: seat + 1 });
}
