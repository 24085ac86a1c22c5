// @ts-check
// The offer above the board, one at a time: for a player away (the computer plays the seat,
// keep waiting, or end the match), a takeback to answer, what the computer did for you while
// you were away (said once), a computer player for a waiting room's free seat.

import { t } from "../i18n.js";
import { api, asApiError, h, offeredLevels, toast } from "../ui.js";
import { byId, byIdAs, patch } from "./draw.js";
import { say } from "./note.js";
import { render } from "./render.js";
import { isComputerSeat, levelName, playerName, shell } from "./shell.js";
import { leaveButton } from "./tools.js";

/** Which offer there is (the board leaves the current step to it); null: none. */
export function offerKind() {
  if (takeoverShown()) return "takeover";
  if (takebackAsked()) return "takeback";
  if (standInShown()) return "stand-in";
  if (roomWaiting()) return "computer";
  return null;
}

const OFFERS = {
  takeover: takeoverOffer,
  takeback: takebackOffer,
  "stand-in": standInNote,
  computer: computerOffer,
};

export function renderOffers() {
  const kind = offerKind();
  const panel = byId("offer");
  panel.hidden = kind === null;
  patch(panel, kind === null ? null : OFFERS[kind]());
}

/* For a player away during their turn: the others choose */

function takeoverShown() {
  const state = shell.state;
  const absent = shell.takeover?.seat;
  return Boolean(
    state &&
      !state.result &&
      absent !== null &&
      absent !== undefined &&
      state.seat !== null &&
      state.seat !== absent,
  );
}

function takeoverOffer() {
  const { seat, levels, time_ran_out } = shell.takeover ?? { seat: null, levels: [] };
  const name = playerName(seat);
  /** @param {"computer" | "wait" | "end"} choice */
  const choose = (choice) =>
    shell.socket?.send({
      type: "takeover",
      choice,
      ...(choice === "computer" ? { level: levels[0] } : {}),
    });
  return h(
    "div",
    { class: "offer", "data-testid": "takeover", "data-needed": "offer" },
    h("p", {}, t(time_ran_out ? "takeover.time_lead" : "takeover.lead", { name })),
    h(
      "div",
      { class: "end-actions" },
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-primary",
          id: "takeover-computer",
          onclick: () => choose("computer"),
        },
        t("takeover.computer", { name }),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          id: "takeover-wait",
          onclick: () => choose("wait"),
        },
        t("takeover.wait"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          id: "takeover-end",
          onclick: () => choose("end"),
        },
        t("takeover.end"),
      ),
    ),
  );
}

/* A takeback another seat asked for: allow it or not */

function takebackAsked() {
  const takeback = shell.state?.takeback;
  return Boolean(takeback?.requested && shell.seat != null && takeback.seat !== shell.seat);
}

function takebackOffer() {
  const answer = (/** @type {boolean} */ accept) =>
    shell.socket?.send({ type: "takeback_answer", accept });
  return h(
    "div",
    { class: "offer", "data-testid": "takeback-offer", "data-needed": "offer" },
    h("p", {}, t("takeback.lead", { name: playerName(shell.state?.takeback.seat) })),
    h(
      "div",
      { class: "end-actions" },
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-primary",
          id: "takeback-accept",
          onclick: () => answer(true),
        },
        t("takeback.accept"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          id: "takeback-decline",
          onclick: () => answer(false),
        },
        t("takeback.decline"),
      ),
    ),
  );
}

/**
 * News of a takeback request: the asker hears that it was asked, then of the answer (after a
 * decline the button waits the minute the server does); the others of a takeback.
 * @param {import("../protocol.js").TakebackMessage} message
 */
export function heardTakeback(message) {
  if (message.seat !== shell.seat) {
    if (message.answer === "accepted") say(t("takeback.done", { name: playerName(message.seat) }));
    return;
  }
  if (message.answer === "asked") say(t("takeback.asked"));
  if (message.answer === "accepted") say(t("takeback.mine_done"));
  if (message.answer === "declined") {
    say(t("takeback.declined", { name: playerName(otherSeat(message.seat)) }));
    shell.takebackWait = true;
    setTimeout(() => {
      shell.takebackWait = false;
      render();
    }, DECLINED_WAIT_MS);
  }
}

const DECLINED_WAIT_MS = 60_000; // app/table/takebacks.py: none for a minute after a decline

/**
 * The other seat of a two-seat table (who answered a request).
 * @param {number} seat
 */
function otherSeat(seat) {
  return shell.players.find((player) => player.seat !== seat)?.seat ?? seat;
}

/* Back at a seat the computer played: what it did meanwhile, said once */

/** The turns the computer played for this seat since its person last moved (the log's
 * standing moves), once the person holds the seat again; [] otherwise. */
function standInTurns() {
  const state = shell.state;
  const me = shell.players.find((player) => player.seat === state?.seat);
  if (!state || state.result || !me || me.computer || isComputerSeat(me)) return [];
  const standing = shell.log.filter((move) => !move.taken_back);
  const turns = standing.filter((move, i) => i === 0 || standing[i - 1].seat !== move.seat);
  const mine = turns.filter((move) => move.seat === state.seat);
  const since = mine.findLastIndex((move) => !move.computer);
  return mine.slice(since + 1);
}

const STAND_IN_KEY = `kr_stand_in:${shell.roomId}`; // the last such turn told

/** The stand-in turns as stored once told: "match number:ply" of the last one. */
function standInMark() {
  return `${shell.state?.match_number}:${standInTurns().at(-1)?.ply}`;
}

function standInShown() {
  return standInTurns().length > 0 && localStorage.getItem(STAND_IN_KEY) !== standInMark();
}

function standInNote() {
  const close = (/** @type {boolean} */ openLog) => {
    localStorage.setItem(STAND_IN_KEY, standInMark());
    if (openLog) shell.sheet = "log";
    render();
  };
  return h(
    "div",
    { class: "offer", "data-testid": "stand-in-note" },
    h("p", {}, t("stand_in.lead", { n: standInTurns().length })),
    h(
      "div",
      { class: "end-actions" },
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-primary",
          id: "stand-in-log",
          onclick: () => close(true),
        },
        t("stand_in.log"),
      ),
      h(
        "button",
        { type: "button", class: "btn btn-small", id: "stand-in-ok", onclick: () => close(false) },
        t("stand_in.ok"),
      ),
    ),
  );
}

/* A room waiting for a second player: a computer player for the free seat, or leave */

function roomWaiting() {
  const state = shell.state;
  return Boolean(
    state &&
      !state.result &&
      state.to_move === null &&
      shell.players.some((p) => !p.name) &&
      state.seat !== null,
  );
}

function computerOffer() {
  const levels = offeredLevels(shell.info?.computer ?? []);
  if (!levels.length)
    return h("div", { class: "offer", "data-needed": "offer" }, h("div", {}, leaveButton()));
  return h(
    "div",
    { class: "offer", "data-needed": "offer" },
    h("p", {}, t("table.add_computer_lead")),
    h(
      "div",
      { class: "end-actions" },
      h("label", { class: "visually-hidden", for: "computer-level" }, t("table.computer_level")),
      h(
        "select",
        { id: "computer-level" },
        levels.map((level) => h("option", { value: level }, levelName(level))),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-primary",
          id: "add-computer",
          onclick: addComputer,
        },
        t("table.add_computer"),
      ),
      leaveButton(),
    ),
  );
}

/** @param {MouseEvent} event */
async function addComputer(event) {
  const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
  button.disabled = true;
  try {
    await api(`/api/rooms/${encodeURIComponent(shell.roomId)}/computer`, {
      method: "POST",
      body: { level: byIdAs("computer-level", HTMLSelectElement).value },
    });
  } catch (error) {
    toast(asApiError(error).message);
    button.disabled = false;
  }
}
