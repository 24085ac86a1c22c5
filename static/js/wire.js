// @ts-check
// The wire inspector (issue 37): the exact state message a viewer received, pretty-printed,
// and beneath it, greyed, what was not sent to it. The replay shows every seat and the
// spectator side by side (GET /api/matches/{id}/wire); the table, behind the developer
// switch, its own seat's last message as its socket received it, with the counts of what it
// may not see (the message's own `unseen`: nothing else leaves the server).
// A place's words come from the game's strings: "unseen.<game>.<zone>".

import { t } from "./i18n.js";
import { fill, h } from "./ui.js";

/**
 * A place whose cards a viewer was not sent: the state's `unseen` counts them; the replay's
 * wire (GET /api/matches/{id}/wire) names them too.
 * @typedef {import("./protocol.js").UnseenCount & {cards?: string[]}} Place
 */

/**
 * One viewer's column: its message and what it was not sent.
 * @typedef {{title: string, message: Record<string, unknown>, notSentTitle: string,
 *   notSent: string[]}} Column
 */

/**
 * The replay's wire at a step (GET /api/matches/{id}/wire?ply=).
 * @typedef {object} MatchWire
 * @property {string} game
 * @property {{seat: number | null, message: Record<string, unknown>, not_sent: Place[]}[]} viewers
 * @property {Place[]} not_sent_to_anyone
 * @property {string[]} per_connection
 */

/**
 * One place not sent: "8 cards in Anna's hand", with the cards named where given.
 * @param {string | undefined} game
 * @param {Place} place
 * @param {(seat: number) => string} name
 */
export function placeText(game, place, name) {
  const owner = place.seat === null || place.seat === undefined ? "" : name(place.seat);
  const text = t(`unseen.${game}.${place.zone}`, { n: place.count, owner });
  return place.cards?.length ? `${text}: ${place.cards.join(" ")}` : text;
}

/**
 * The message as JSON with two spaces, each top-level field a line of its own, those that
 * tell of the room when it was sent (not of the step) greyed.
 * @param {Record<string, unknown>} message
 * @param {string[]} perConnection
 */
function pretty(message, perConnection) {
  const room = new Set(perConnection.map((field) => field.split(".")[0]));
  const keys = Object.keys(message);
  const lines = keys.map((key, index) => {
    const value = JSON.stringify(message[key], null, 2).replace(/\n/g, "\n  ");
    const text = `  ${JSON.stringify(key)}: ${value}${index < keys.length - 1 ? "," : ""}\n`;
    return room.has(key)
      ? h("span", { class: "wire-room", title: t("wire.per_connection_field") }, text)
      : text;
  });
  return h("pre", { class: "wire-json", tabindex: "0" }, "{\n", ...lines, "}");
}

/**
 * The greyed list: "Not sent to Ben:" and a line per place.
 * @param {string} title
 * @param {string[]} lines
 * @param {string} testid
 * @param {string | null} [extra] one more class
 */
function notSent(title, lines, testid, extra = null) {
  if (!lines.length) return null;
  return h(
    "div",
    { class: ["wire-not-sent", extra], data: { testid } },
    h("p", { class: "wire-not-sent-title" }, title),
    h(
      "ul",
      {},
      lines.map((line) => h("li", {}, line)),
    ),
  );
}

/**
 * columns: [{title, message, notSentTitle, notSent: [text]}]; anyone: [text] (not sent to
 * any viewer); perConnection: the message fields that tell of the room, not of the step.
 * @param {{lead: string, columns: Column[], anyone: string[], perConnection: string[]}} panel
 */
export function wirePanel({ lead, columns, anyone, perConnection }) {
  return [
    lead ? h("p", { class: "muted wire-lead" }, lead) : null,
    perConnection.length
      ? h(
          "p",
          { class: "muted wire-lead" },
          t("wire.per_connection", { fields: perConnection.join(", ") }),
        )
      : null,
    columns.length > 1
      ? h(
          "p",
          { class: "wire-swipe", "data-testid": "wire-swipe", "aria-hidden": "true" },
          t("wire.swipe", { n: columns.length }),
        )
      : null,
    h(
      "div",
      { class: "wire-columns", data: { columns: String(columns.length) } },
      columns.map((column) =>
        h(
          "section",
          { class: "wire-column", data: { testid: "wire-column" } },
          h("h3", { class: "wire-title" }, column.title),
          pretty(column.message, perConnection),
          notSent(column.notSentTitle, column.notSent, "wire-not-sent"),
        ),
      ),
    ),
    notSent(
      t("wire.not_sent_anyone"),
      [...anyone, t("wire.seed")],
      "wire-not-sent-anyone",
      "wire-anyone",
    ),
  ];
}

/** The replay's panel: every viewer at the step shown, fetched once per step. */
export class ReplayWire {
  /**
   * @param {object} parts
   * @param {string} parts.matchId
   * @param {(path: string) => Promise<unknown>} parts.api
   * @param {(seat: number) => string} parts.name
   * @param {HTMLElement} parts.body
   * @param {HTMLElement} parts.panel
   * @param {HTMLElement} parts.toggle
   */
  constructor({ matchId, api, name, body, panel, toggle }) {
    this.matchId = matchId;
    this.api = api;
    this.name = name;
    this.body = body;
    this.panel = panel;
    this.toggle = toggle;
    this.open = false;
    /** @type {Map<number, Promise<MatchWire>>} each step's wire, asked once */
    this.cache = new Map();
    /** @type {number | null} */
    this.step = null;
    this.hide = false;
    toggle.addEventListener("click", () => {
      this.open = !this.open;
      this.show(this.step, this.hide);
    });
  }

  /**
   * Shows the wire at `step` (hidden while `hide`: the best line was never sent).
   * @param {number | null} step
   * @param {boolean} [hide]
   */
  async show(step, hide = false) {
    this.step = step;
    this.hide = hide;
    this.toggle.setAttribute("aria-pressed", String(this.open));
    this.toggle.hidden = hide;
    this.panel.hidden = !this.open || hide;
    if (this.panel.hidden || step === null) return;
    let asked = this.cache.get(step);
    if (!asked) {
      asked = /** @type {Promise<MatchWire>} */ (
        this.api(`/api/matches/${encodeURIComponent(this.matchId)}/wire?ply=${step}`)
      ).catch((error) => {
        this.cache.delete(step);
        throw error;
      });
      this.cache.set(step, asked);
    }
    let wire;
    try {
      wire = await asked;
    } catch {
      this.body.replaceChildren(h("p", { class: "muted" }, t("wire.unavailable")));
      return;
    }
    if (step !== this.step) return; // stepped on meanwhile
    this.render(wire);
  }

  /** @param {MatchWire} wire */
  render(wire) {
    const name = this.name;
    const columns = wire.viewers.map((viewer) => {
      return {
        title:
          viewer.seat === null
            ? t("wire.spectator")
            : `${name(viewer.seat)} · ${t("wire.seat", { n: viewer.seat })}`, // as the JSON counts
        message: viewer.message,
        notSentTitle:
          viewer.seat === null
            ? t("wire.not_sent_spectator")
            : t("wire.not_sent_to", { name: name(viewer.seat) }),
        notSent: viewer.not_sent.map((place) => placeText(wire.game, place, name)),
      };
    });
    fill(
      this.body,
      wirePanel({
        lead: t("wire.lead_replay"),
        columns,
        anyone: wire.not_sent_to_anyone.map((place) => placeText(wire.game, place, name)),
        perConnection: wire.per_connection,
      }),
    );
  }
}
