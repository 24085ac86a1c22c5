// Replay: a finished match step by step (buttons, slider, arrow keys), every hand revealed,
// drawn by the game's own table module in read-only mode.

import { localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { api, fill, h, toast } from "../ui.js";

const matchId = document.body.dataset.matchId;
const board = document.getElementById("board");
const slider = document.getElementById("slider");
const replay = { match: null, game: null, title: "", step: 0, ui: {} };

function lastStep() {
  return replay.match.steps.length - 1;
}

function name(seat) {
  return replay.match.players[seat] ?? t("table.seat", { n: seat + 1 });
}

function stateAt(index) {
  const step = replay.match.steps[index];
  return {
    match_number: 1,
    version: step.ply,
    seat: null,
    to_move: step.view.to_move ?? null,
    view: step.view,
    legal_actions: [],
    last_action: step.action ? { seat: step.seat, action: step.action, text: step.text } : null,
    result: index === lastStep() ? replay.match.result : null,
    players: replay.match.players.map((player, seat) => ({ seat, name: player, connected: false })),
  };
}

function context(state) {
  return {
    seat: null,
    readOnly: true,
    replay: true,
    pending: false,
    offline: false,
    ui: replay.ui,
    recent: state.last_action ? [state.last_action] : [],
    act: () => {},
    say: () => {},
    name,
    rerender: render,
  };
}

function stepText(state) {
  const last = state.last_action;
  if (!last) return [h("strong", {}, t("replay.start"))];
  return [
    h("strong", {}, `${name(last.seat)}:`),
    replay.game.describe ? replay.game.describe(last.action, context(state)) : h("span", {}, last.text),
  ];
}

function renderResult(state) {
  const panel = document.getElementById("result");
  for (const link of document.querySelectorAll(".site-nav a[href^='/rules/']")) link.href = `/rules/${encodeURIComponent(replay.match.game)}`;
  panel.hidden = !state.result;
  if (!state.result) return;
  const breakdown = h("div", { class: "end-breakdown" });
  replay.game.renderResult?.(breakdown, state, context(state));
  fill(panel, h("h2", {}, t("replay.result")), breakdown);
}

function render() {
  if (!replay.match) return;
  const state = stateAt(replay.step);
  slider.value = String(replay.step);
  document.getElementById("step-label").textContent = t("replay.step", { n: replay.step, of: lastStep() });
  fill(document.getElementById("step-text"), ...stepText(state));
  document.getElementById("first").disabled = document.getElementById("back").disabled = replay.step === 0;
  document.getElementById("forward").disabled = document.getElementById("last").disabled = replay.step === lastStep();
  document.getElementById("replay-title").textContent = `${t("replay.title")}: ${replay.title}`;
  document.title = `${t("replay.title")}: ${replay.title} — Kartenrunde`;
  document.getElementById("replay-players").textContent = t("replay.players", { names: replay.match.players.join(" · ") });
  renderResult(state);
  replay.game.render(board, state, context(state));
}

function go(index) {
  replay.step = Math.max(0, Math.min(lastStep(), index));
  history.replaceState(null, "", `#${replay.step}`);
  render();
}

function wireControls() {
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("back").addEventListener("click", () => go(replay.step - 1));
  document.getElementById("forward").addEventListener("click", () => go(replay.step + 1));
  document.getElementById("last").addEventListener("click", () => go(lastStep()));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider || event.target.closest?.("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowLeft: replay.step - 1, ArrowRight: replay.step + 1, Home: 0, End: lastStep() };
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
}

function showGone() {
  board.classList.remove("felt");
  fill(board, h("section", { class: "not-found" },
    h("h1", {}, t("gone.match_title")),
    h("p", { class: "lead" }, t("gone.match_text")),
    h("a", { class: "btn btn-primary", href: "/history" }, t("nav.history"))));
  document.querySelector(".replay .table-head").hidden = true;
  document.querySelector(".replay > .muted").hidden = true;
}

async function start() {
  let info = null;
  boot(() => {
    if (info) replay.title = localized(info.title);
    render();
  });
  let games;
  try {
    [replay.match, games] = await Promise.all([api(`/api/matches/${encodeURIComponent(matchId)}`), api("/api/games")]);
  } catch (error) {
    if (error.status === 404 || error.status === 422) showGone();
    else toast(error.message);
    document.body.dataset.ready = "true";
    return;
  }
  info = games.find((game) => game.name === replay.match.game);
  replay.title = info ? localized(info.title) : replay.match.game;
  document.head.append(h("link", { rel: "stylesheet", href: `/static/css/games/${encodeURIComponent(replay.match.game)}.css` }));
  replay.game = await import(`../games/${encodeURIComponent(replay.match.game)}.js`);
  slider.max = String(lastStep());
  document.getElementById("controls").hidden = false;
  wireControls();
  const fromAddress = Number.parseInt(location.hash.slice(1), 10);
  go(Number.isNaN(fromAddress) ? 0 : fromAddress);
  document.body.dataset.ready = "true";
}

start();
