// Home: choose a game, a variant or options, create a room and go to the table; list your rooms.

import { card } from "../cards.js";
import { loadGameStrings, localized, t } from "../i18n.js";
import { boot } from "../page.js";
import {
  ago,
  api,
  copyText,
  fill,
  h,
  offeredLevels,
  roomLink,
  storedName,
  storeName,
  toast,
  when,
} from "../ui.js";

const CUSTOM = "custom";
const MAX_ROOMS = 8;
const STANDARD = "";
const form = document.getElementById("create-form");
const nameInput = document.getElementById("player-name");
let games = [];
let rooms = [];
let chosen = { game: null, preset: STANDARD, options: {}, computer: null };

function gameByName(name) {
  return games.find((game) => game.name === name);
}

function defaults(game) {
  return Object.fromEntries(game.options.map((option) => [option.name, option.default]));
}

/** A preset that changes nothing (Pilzwanderung's own) is the game's standard choice. */
function standardPreset(game) {
  return game.presets.find((preset) => Object.keys(preset.options).length === 0)?.name ?? STANDARD;
}

function chooseGame(name) {
  const game = gameByName(name);
  chosen = { game: name, preset: standardPreset(game), options: defaults(game), computer: null };
  renderForm();
}

function choosePreset(presetName) {
  const game = gameByName(chosen.game);
  const preset = game.presets.find((p) => p.name === presetName);
  chosen.preset = presetName;
  chosen.options = { ...defaults(game), ...(preset?.options ?? {}) };
  renderForm();
}

function setOption(name, value) {
  chosen.options = { ...chosen.options, [name]: value };
  chosen.preset = CUSTOM;
  renderForm();
}

function renderGames() {
  const fieldset = document.getElementById("game-choices");
  fill(fieldset, fieldset.querySelector("legend"));
  for (const game of games) {
    const id = `game-${game.name}`;
    fieldset.append(
      h(
        "div",
        { class: "game-choice" },
        h("input", {
          type: "radio",
          name: "game",
          id,
          value: game.name,
          checked: game.name === chosen.game,
          onchange: () => chooseGame(game.name),
        }),
        h(
          "label",
          { for: id },
          h("span", { class: "game-name" }, localized(game.title)),
          h(
            "span",
            { class: "game-seats" },
            t(game.seats === 1 ? "home.solo" : "home.seats", { n: game.seats }),
          ),
          h("span", { class: "game-blurb" }, t(`game.${game.name}.blurb`, {}, "")),
          h("a", { href: `/rules/${game.name}`, class: "game-rules" }, t("home.rules_link")),
        ),
      ),
    );
  }
}

function renderPresets(game) {
  const fieldset = document.getElementById("presets");
  const chip = (value, label) =>
    h(
      "label",
      { class: "chip-radio" },
      h("input", {
        type: "radio",
        name: "preset",
        value,
        checked: chosen.preset === value,
        onchange: () => choosePreset(value),
      }),
      h("span", {}, label),
    );
  fill(
    fieldset,
    h("legend", {}, t("home.variant")),
    standardPreset(game) === STANDARD ? chip(STANDARD, t("home.standard")) : null,
    ...game.presets.map((preset) => chip(preset.name, localized(preset.label))),
    chosen.preset === CUSTOM ? chip(CUSTOM, t("home.custom")) : null,
  );
}

/** A friend through the link, or the computer at one of its levels (two-player games). */
function renderOpponent(game) {
  const fieldset = document.getElementById("opponent");
  fieldset.hidden = game.computer.length === 0;
  const chip = (value, label) =>
    h(
      "label",
      { class: "chip-radio" },
      h("input", {
        type: "radio",
        name: "opponent",
        value: value ?? "",
        checked: chosen.computer === value,
        onchange: () => {
          chosen.computer = value;
        },
      }),
      h("span", {}, label),
    );
  fill(
    fieldset,
    h("legend", {}, t("home.opponent")),
    chip(null, t("home.friend")),
    ...offeredLevels(game.computer).map((level) =>
      chip(level, t("home.computer", { level: t(`level.${level}`, {}, level) })),
    ),
  );
}

function choiceLabel(option, value) {
  const key = `choice.${option.name}.${JSON.stringify(value)}`;
  return t(key, {}, value === null ? t("choice.none") : String(value));
}

function optionControl(option) {
  const id = `option-${option.name}`;
  const value = chosen.options[option.name];
  const help = localized(option.help);
  const isSwitch =
    option.choices.length === 2 && option.choices.every((c) => typeof c === "boolean");
  if (isSwitch) {
    return h(
      "div",
      { class: "field" },
      h(
        "label",
        { class: "check", for: id },
        h("input", {
          type: "checkbox",
          id,
          checked: value === true,
          onchange: (e) => setOption(option.name, e.target.checked),
        }),
        h("span", {}, localized(option.label)),
      ),
      help ? h("span", { class: "field-help" }, help) : null,
    );
  }
  const select = h(
    "select",
    { id, onchange: (e) => setOption(option.name, option.choices[Number(e.target.value)]) },
    option.choices.map((choice, index) =>
      h(
        "option",
        { value: String(index), selected: choice === value },
        choiceLabel(option, choice),
      ),
    ),
  );
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, localized(option.label)),
    select,
    help ? h("span", { class: "field-help" }, help) : null,
  );
}

function renderForm() {
  renderGames();
  const game = gameByName(chosen.game);
  if (!game) return;
  renderPresets(game);
  renderOpponent(game);
  const body = document.getElementById("options-body");
  fill(body, ...game.options.map(optionControl));
  document.getElementById("options").hidden = game.options.length === 0;
}

/** One of your rooms: `held` from /api/me/rooms, `info` (seats, status) from /api/rooms/{id}. */
function roomItem({ held, info }) {
  const game = gameByName(held.game);
  const names = (info?.seats ?? []).map((seat) => seat.name).filter(Boolean);
  const copy = async () =>
    toast((await copyText(roomLink(held.room_id))) ? t("share.copied") : t("share.failed"), "ok");
  const toMove = info.status === "playing" ? held.to_move : null;
  const mover = info.seats?.find((seat) => seat.seat === toMove)?.name;
  const turn =
    toMove === null || toMove === undefined
      ? null
      : toMove === held.seat
        ? h(
            "span",
            { class: "status-pill is-your-turn", "data-testid": "room-turn" },
            t("room.your_turn"),
          )
        : h(
            "span",
            { class: "status-pill", "data-testid": "room-turn" },
            t("room.their_turn", { name: mover ?? t("table.seat", { n: toMove + 1 }) }),
          );
  return h(
    "li",
    { class: ["room-item", toMove === held.seat && "is-your-turn"] },
    h(
      "div",
      { class: "room-main" },
      h(
        "div",
        { class: "room-title" },
        game ? localized(game.title) : held.game,
        " ",
        turn ??
          h(
            "span",
            { class: ["status-pill", `is-${info.status}`] },
            t(`status.${info.status}`, {}, info.status),
          ),
      ),
      h("div", { class: "muted" }, names.length ? names.join(" · ") : held.name),
      h(
        "div",
        { class: "muted room-when", title: when(held.last_active_at) },
        t("room.active", { when: ago(held.last_active_at) }),
      ),
    ),
    h(
      "div",
      { class: "room-actions" },
      h("button", { type: "button", class: "btn btn-small", onclick: copy }, t("share.copy")),
      h(
        "a",
        { class: "btn btn-small btn-primary", href: `/r/${encodeURIComponent(held.room_id)}` },
        t("room.open"),
      ),
    ),
  );
}

/** Your rooms with their seats and status; rooms closed meanwhile are left out. */
async function loadRooms() {
  const held = await api("/api/me/rooms");
  const shown = await Promise.all(
    held.slice(0, MAX_ROOMS).map(async (room) => ({
      held: room,
      info: await api(`/api/rooms/${encodeURIComponent(room.room_id)}`).catch(() => null),
    })),
  );
  return shown.filter((room) => room.info !== null);
}

function renderRooms() {
  const list = document.getElementById("my-rooms");
  list.closest("section").classList.toggle("has-rooms", rooms.length > 0);
  fill(
    list,
    ...(rooms.length ? rooms.map(roomItem) : [h("li", { class: "empty" }, t("home.no_rooms"))]),
  );
}

async function createRoom(event) {
  event.preventDefault();
  const name = nameInput.value.trim();
  if (!name) {
    nameInput.focus();
    toast(t("name.required"));
    return;
  }
  storeName(name);
  const body = { game: chosen.game };
  if (chosen.preset === CUSTOM) body.options = chosen.options;
  else if (chosen.preset !== STANDARD) body.preset = chosen.preset;
  if (chosen.computer) body.computer = chosen.computer;
  const button = document.getElementById("create-room");
  button.disabled = true;
  try {
    const room = await api("/api/rooms", { method: "POST", body });
    await api(`/api/rooms/${encodeURIComponent(room.room_id)}/join`, {
      method: "POST",
      body: { name },
    });
    location.assign(`/r/${encodeURIComponent(room.room_id)}`);
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

function renderHero() {
  fill(
    document.getElementById("hero-cards"),
    ...["AS", "10H", "QD", "7C"].map((code) => card(code)),
  );
}

async function start() {
  boot(() => {
    renderForm();
    renderRooms();
  });
  renderHero();
  nameInput.value = storedName();
  form.addEventListener("submit", createRoom);
  try {
    games = await api("/api/games");
    await Promise.all(games.map((game) => loadGameStrings(game.name))); // the blurbs
    chooseGame(games[0]?.name);
  } catch (error) {
    toast(error.message);
  }
  try {
    rooms = await loadRooms();
  } catch (error) {
    toast(error.message);
  }
  renderRooms();
  document.body.dataset.ready = "true";
}

start();
