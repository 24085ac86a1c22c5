// Home: choose a game, a variant or options, create a room and go to the table; list your rooms.

import { card } from "../cards.js";
import { loadToday, todayItems, todayTitle } from "../daily.js";
import { loadGameStrings, localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { api, fill, givenName, h, knownName, offeredLevels, storedName, toast } from "../ui.js";
import { countWaiting, gameItem, loadGames } from "../your-games.js";

const CUSTOM = "custom";
const MAX_ROOMS = 8;
const STANDARD = "";
const form = document.getElementById("create-form");
const nameInput = document.getElementById("player-name");
let games = [];
let rooms = []; // your games (/api/me/games)
let today = null; // today's daily deals (/api/daily)
let fetchedAt = Date.now();
const MOVE_DAYS = [1, 2, 3, 7, null];
let chosen = { game: null, preset: STANDARD, options: {}, computer: null };
const pace = { turnBased: false, days: 2 }; // kept across games

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
  pace.turnBased = false;
  try {
    localStorage.setItem(GAME_KEY, name);
  } catch {
    // private mode: the first game of two is chosen next time
  }
  renderForm();
}

const GAME_KEY = "kr_home_game";

/** The game this browser chose last; at first a game of two, whose opponents (live, turn-based,
 * the computer) then show from the start. */
function firstChoice() {
  let last = null;
  try {
    last = localStorage.getItem(GAME_KEY);
  } catch {
    // none kept
  }
  return (gameByName(last) ?? games.find((game) => game.seats > 1) ?? games[0])?.name;
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

/** A friend through the link (live, or turn-based over days), or the computer at one of
 * its levels (games of two). */
function renderOpponent(game) {
  const fieldset = document.getElementById("opponent");
  fieldset.hidden = game.computer.length === 0;
  const chip = (value, label, turnBased = false) =>
    h(
      "label",
      { class: "chip-radio" },
      h("input", {
        type: "radio",
        name: "opponent",
        value: turnBased ? "turn" : (value ?? ""),
        checked: chosen.computer === value && pace.turnBased === turnBased,
        onchange: () => {
          chosen.computer = value;
          pace.turnBased = turnBased;
          renderPace(game);
          renderCreate(game);
        },
      }),
      h("span", {}, label),
    );
  fill(
    fieldset,
    h("legend", {}, t("home.opponent")),
    chip(null, t("home.friend")),
    chip(null, t("home.turn_based"), true),
    ...offeredLevels(game.computer).map((level) =>
      chip(level, t("home.computer", { level: t(`level.${level}`, {}, level) })),
    ),
  );
}

/** A turn-based room's time per move. */
function renderPace(game) {
  const fieldset = document.getElementById("pace");
  fieldset.hidden = !pace.turnBased || game.computer.length === 0;
  const days = (value) =>
    value === null
      ? t("home.no_limit")
      : value === 1
        ? t("home.move_day")
        : t("home.move_days", { n: value });
  fill(
    fieldset,
    h("legend", { class: "visually-hidden" }, t("home.move_time")),
    h(
      "div",
      { class: "field pace-days" },
      h("label", { for: "move-days" }, t("home.move_time")),
      h(
        "select",
        {
          id: "move-days",
          onchange: (e) => {
            pace.days = MOVE_DAYS[Number(e.target.value)];
          },
        },
        MOVE_DAYS.map((value, index) =>
          h("option", { value: String(index), selected: value === pace.days }, days(value)),
        ),
      ),
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
  renderPace(game);
  renderCreate(game);
  const body = document.getElementById("options-body");
  fill(body, ...game.options.map(optionControl));
  document.getElementById("options").hidden = game.options.length === 0;
}

/** "Create room" where someone is invited; alone or against the computer, "Start the game". */
function renderCreate(game) {
  const alone = game.seats === 1 || chosen.computer !== null;
  document.getElementById("create-room").textContent = t(alone ? "home.start" : "home.create");
}

/** Your unfinished games (the ones waiting for you first); the title counts those. */
function renderRooms() {
  const list = document.getElementById("my-rooms");
  list.closest("section").classList.toggle("has-rooms", rooms.length > 0);
  fill(
    list,
    ...(rooms.length
      ? rooms.slice(0, MAX_ROOMS).map((game) => gameItem(game, games, fetchedAt))
      : [h("li", { class: "empty" }, t("home.no_games"))]),
  );
  countWaiting(rooms);
}

/** Today's daily deal of each game: play, continue, or done with the score. */
function renderDaily() {
  const panel = document.getElementById("daily-panel");
  panel.hidden = today === null;
  document.getElementById("daily-jump").hidden = today === null;
  if (today === null) return;
  document.getElementById("daily-title").textContent = todayTitle(today);
  fill(
    document.getElementById("daily-today"),
    ...todayItems(today, games, () => givenName(nameInput)),
  );
}

async function createRoom(event) {
  event.preventDefault();
  const name = givenName(nameInput);
  if (!name) return;
  const body = { game: chosen.game };
  // The variant shown chosen is the one sent (a full suite run made a 3-round room of a
  // "short" one whose chip showed checked).
  const preset = form.querySelector("input[name='preset']:checked")?.value ?? chosen.preset;
  if (preset === CUSTOM) body.options = chosen.options;
  else if (preset !== STANDARD) body.preset = preset;
  if (chosen.computer) body.computer = chosen.computer;
  if (pace.turnBased && !chosen.computer) {
    body.turn_based = true;
    body.move_days = pace.days;
  }
  if (document.getElementById("spectator-chat").checked) body.spectator_chat = true;
  if (document.getElementById("private-chat").checked) body.private_chat = true;
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
    renderDaily();
  });
  renderHero();
  nameInput.value = storedName();
  knownName().then((name) => {
    if (!nameInput.value) nameInput.value = name;
  });
  form.addEventListener("submit", createRoom);
  try {
    games = await api("/api/games");
    await Promise.all(games.map((game) => loadGameStrings(game.name))); // the blurbs
    chooseGame(firstChoice());
  } catch (error) {
    toast(error.message);
  }
  try {
    today = await loadToday();
  } catch (error) {
    toast(error.message);
  }
  renderDaily();
  try {
    rooms = await loadGames();
    fetchedAt = Date.now();
  } catch (error) {
    toast(error.message);
  }
  renderRooms();
  document.body.dataset.ready = "true";
}

start();
