// Replay: a finished match step by step (buttons, slider, arrow keys), every hand revealed,
// drawn by the game's own table module in read-only mode. Where the game's module offers a
// best line (Scoundrel's solver), a toggle steps through it beside the line played.

import { mutedWriters, writerOf } from "../chat.js";
import { num } from "../games/common.js";
import { localized, t } from "../i18n.js";
import { boot } from "../page.js";
import { api, fill, gameList, h, toast } from "../ui.js";
import { ReplayWire } from "../wire.js";

const matchId = document.body.dataset.matchId;
const board = document.getElementById("board");
const slider = document.getElementById("slider");
const replay = {
  match: null,
  game: null,
  title: "",
  step: 0,
  ui: {},
  analysis: null,
  line: "yours",
};

function showingBest() {
  return replay.line === "best" && replay.analysis?.solved;
}

function steps() {
  return showingBest() ? replay.analysis.steps : replay.match.steps;
}

function lastStep() {
  return steps().length - 1;
}

function name(seat) {
  return replay.match.players[seat] ?? t("table.seat", { n: seat + 1 });
}

function stateAt(index) {
  const step = steps()[index];
  return {
    match_id: replay.match.match_id,
    match_number: 1,
    version: step.ply,
    seat: null,
    to_move: step.view.to_move ?? null,
    view: step.view,
    legal_actions: [],
    last_action: step.action
      ? { seat: step.seat, action: step.action, text: step.text, took: step.took }
      : null,
    result:
      index === lastStep() ? (showingBest() ? replay.analysis.result : replay.match.result) : null,
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
    previous: replay.step > 0 ? steps()[replay.step - 1].view : null,
    act: () => {},
    say: () => {},
    name,
    rerender: render,
  };
}

/** The step of the line played after which the best score was out of reach, if any. */
function slip() {
  return replay.analysis?.solved ? replay.analysis.slip : null;
}

function stepText(state) {
  const last = state.last_action;
  const step = steps()[replay.step];
  if (step.undoes != null)
    return [
      h("strong", {}, `${name(step.seat)}:`),
      h("span", { "data-testid": "replay-took-back" }, t("replay.took_back")),
    ];
  if (!last) return [h("strong", {}, t("replay.start"))];
  const slipped = !showingBest() && replay.step === slip();
  return [
    h("strong", {}, `${showingBest() ? t("replay.line_best") : name(last.seat)}:`),
    replay.game.describe ? replay.game.describe(last, context(state)) : h("span", {}, last.text),
    step.taken_back
      ? h(
          "span",
          { class: "replay-taken-back", "data-testid": "replay-taken-back" },
          ` (${t("log.taken_back")})`,
        )
      : null,
    slipped
      ? h(
          "span",
          { class: "replay-slip", "data-testid": "slip-here" },
          t("replay.slip_here", { score: num(replay.analysis.best_score) }),
        )
      : null,
  ];
}

/** What a player's resignation or abort says (null: the match ended otherwise). */
function playerEnded(result) {
  const name = (seat) => replay.match.players[seat] ?? "";
  if (result.reason === "resigned") return t("end.resigned", { name: name(result.resigned_by) });
  if (result.reason === "aborted") return t("end.aborted", { name: name(result.aborted_by) });
  return null;
}

function renderResult(state) {
  const panel = document.getElementById("result");
  for (const link of document.querySelectorAll(".site-nav a[href^='/rules/']"))
    link.href = `/rules/${encodeURIComponent(replay.match.game)}`;
  panel.hidden = !state.result;
  if (!state.result) return;
  const breakdown = h("div", { class: "end-breakdown" });
  const chosen = playerEnded(state.result);
  if (chosen === null) replay.game.renderResult?.(breakdown, state, context(state));
  const reason =
    chosen === null && state.result.reason !== "abandoned" && replay.game.endReason
      ? h(
          "p",
          { class: "end-reason", "data-testid": "end-reason" },
          replay.game.endReason(state.result),
        )
      : chosen && h("p", { class: "end-reason", "data-testid": "end-reason" }, chosen);
  const ranOut = state.result.time_ran_out;
  const timeRanOut =
    ranOut !== undefined && ranOut !== null
      ? h(
          "p",
          { class: "end-reason", "data-testid": "end-reason" },
          t("end.time_ran_out", { name: replay.match.players[ranOut] ?? "" }),
        )
      : null;
  fill(panel, h("h2", {}, t("replay.result")), reason ?? timeRanOut, breakdown);
}

function render() {
  if (!replay.match) return;
  const state = stateAt(replay.step);
  slider.max = String(lastStep());
  slider.value = String(replay.step);
  renderLines();
  document.getElementById("step-label").textContent = t("replay.step", {
    n: replay.step,
    of: lastStep(),
  });
  fill(document.getElementById("step-text"), ...stepText(state));
  document.getElementById("first").disabled = document.getElementById("back").disabled =
    replay.step === 0;
  document.getElementById("forward").disabled = document.getElementById("last").disabled =
    replay.step === lastStep();
  document.getElementById("replay-title").textContent = `${t("replay.title")}: ${replay.title}`;
  document.title = `${t("replay.title")}: ${replay.title} — Kartenrunde`;
  document.getElementById("replay-players").textContent = t("replay.players", {
    names: replay.match.players.join(" · "),
  });
  renderResult(state);
  renderMoves();
  renderChat();
  replay.game.render(board, state, context(state));
  replay.wire?.show(replay.step, showingBest());
}

/** Every step of the line shown, as lichess lists a game's moves: the one shown marked, each
 * a button that goes to it; the list keeps the one shown in sight. */
function renderMoves() {
  const list = document.getElementById("moves");
  document.getElementById("moves-panel").hidden = false;
  fill(
    list,
    ...steps().map((_, index) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: "replay-move",
            "aria-current": index === replay.step ? "step" : null,
            onclick: () => go(index),
          },
          h("span", { class: "replay-move-number" }, String(index)),
          ...moveWords(index),
        ),
      ),
    ),
  );
  const shown = list.children[replay.step];
  if (shown instanceof HTMLElement)
    list.scrollTop = shown.offsetTop - list.offsetTop - list.clientHeight / 2;
}

/** A step of the move list in words: who did what ("Anna: discarded K♠"). */
function moveWords(index) {
  const step = steps()[index];
  if (index === 0 || !step.action) {
    const words = step.undoes != null ? t("replay.took_back") : t("replay.start");
    return [step.undoes != null ? h("strong", {}, `${name(step.seat)}:`) : null, words];
  }
  const state = stateAt(index);
  const who = showingBest() ? t("replay.line_best") : name(step.seat);
  return [
    h("strong", {}, `${who}:`),
    replay.game.describe ? replay.game.describe(state.last_action, context(state)) : step.text,
    step.taken_back ? h("span", { class: "replay-taken-back" }, `(${t("log.taken_back")})`) : null,
  ];
}

/** The chat lines sent at this step of the line played (as text, never markup). */
function renderChat() {
  const list = document.getElementById("replay-chat");
  const muted = mutedWriters();
  const ply = steps()[replay.step].ply;
  const lines = showingBest()
    ? []
    : (replay.match.chat ?? []).filter((line) => line.ply === ply && !muted.has(writerOf(line)));
  list.hidden = lines.length === 0;
  fill(
    list,
    ...lines.map((line) =>
      h(
        "li",
        { class: "chat-line" },
        h("span", { class: "log-who" }, line.name),
        " ",
        line.reaction ? t(`chat.reaction.${line.reaction}`) : line.text,
      ),
    ),
  );
}

function renderLines() {
  const lines = document.getElementById("lines");
  lines.hidden = !replay.analysis?.solved;
  if (lines.hidden) return;
  const button = (line, label) =>
    h(
      "button",
      {
        type: "button",
        class: ["btn", "btn-small", replay.line === line && "btn-primary"],
        "aria-pressed": String(replay.line === line),
        data: { testid: `line-${line}` },
        onclick: () => go(replay.step, line), // the same step: the lines side by side
      },
      label,
    );
  fill(
    lines,
    button("yours", t("replay.line_yours", { score: num(replay.analysis.your_score) })),
    button("best", t("replay.line_best_score", { score: num(replay.analysis.best_score) })),
    slip() === null
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "btn btn-small replay-slip-link",
            data: { testid: "slip" },
            onclick: () => go(slip(), "yours"),
          },
          t("replay.slip", { n: slip() }),
        ),
  );
}

function go(index, line = replay.line) {
  replay.line = line;
  replay.step = Math.max(0, Math.min(lastStep(), index));
  history.replaceState(null, "", `#${showingBest() ? "best-" : ""}${replay.step}`);
  render();
}

/** The line and step an address asks for: `#5` is move 5 played, `#best-5` of the best line. */
function fromAddress() {
  const best = location.hash.startsWith("#best");
  const step = Number.parseInt(location.hash.replace(/^#(best-?)?/, ""), 10);
  return { line: best ? "best" : "yours", step: Number.isNaN(step) ? 0 : step };
}

async function loadBestLine(wanted) {
  if (!replay.game.bestLine) return;
  replay.analysis = await replay.game.analysisOf(matchId);
  if (wanted.line === "best" && replay.line === "yours" && replay.step === 0)
    go(wanted.step, "best");
  else render();
}

function wireControls() {
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("back").addEventListener("click", () => go(replay.step - 1));
  document.getElementById("forward").addEventListener("click", () => go(replay.step + 1));
  document.getElementById("last").addEventListener("click", () => go(lastStep()));
  slider.addEventListener("input", () => go(Number(slider.value)));
  window.addEventListener("hashchange", () => {
    const wanted = fromAddress();
    if (wanted.line !== replay.line || wanted.step !== replay.step) go(wanted.step, wanted.line);
  });
  document.addEventListener("keydown", (event) => {
    if (
      event.target === slider ||
      event.target.closest?.("input, select, textarea") ||
      event.altKey ||
      event.ctrlKey ||
      event.metaKey
    )
      return;
    const moves = {
      ArrowLeft: replay.step - 1,
      ArrowRight: replay.step + 1,
      Home: 0,
      End: lastStep(),
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
}

function showGone() {
  board.classList.remove("felt");
  fill(
    board,
    h(
      "section",
      { class: "not-found" },
      h("h1", {}, t("gone.match_title")),
      h("p", { class: "lead" }, t("gone.match_text")),
      h("a", { class: "btn btn-primary", href: "/history" }, t("nav.history")),
    ),
  );
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
    [replay.match, games] = await Promise.all([
      api(`/api/matches/${encodeURIComponent(matchId)}`),
      gameList(),
    ]);
  } catch (error) {
    if (error.status === 404 || error.status === 422) showGone();
    else toast(error.message);
    document.body.dataset.ready = "true";
    return;
  }
  info = games.find((game) => game.name === replay.match.game);
  replay.title = info ? localized(info.title) : replay.match.game;
  document.head.append(
    h("link", {
      rel: "stylesheet",
      href: `/static/css/games/${encodeURIComponent(replay.match.game)}.css`,
    }),
  );
  replay.game = await import(`../games/${encodeURIComponent(replay.match.game)}.js`);
  document.getElementById("controls").hidden = false;
  replay.wire = new ReplayWire({
    matchId,
    api,
    name,
    body: document.getElementById("wire-body"),
    panel: document.getElementById("wire"),
    toggle: document.getElementById("wire-toggle"),
  });
  wireControls();
  const wanted = fromAddress();
  go(wanted.line === "best" ? 0 : wanted.step, "yours"); // the best line follows once found
  document.body.dataset.ready = "true";
  loadBestLine(wanted);
}

start();
