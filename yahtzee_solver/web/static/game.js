// The game's actions: load the game, roll, hold, score, the CPU's turn, a new game, and the keys.
import {$, S, showError, sleep, t, view} from "./core.js";
import {ApiError, api} from "./api.js";
import {renderControls, renderGame} from "./board.js";
import {showHint} from "./hint.js";

export async function loadGame() {
  try {
    const r = await api("GET", "/api/game");
    if (r.notice) showError(r.notice);
    S.events = [];
    S.hint = null;
    setGame(r.game);
  } catch (e) {
    showError(e.message);
  }
}

function setGame(game, events) {
  S.game = game;
  if (events && events.length) S.events = S.events.concat(events).slice(-8);
  renderGame();
  if (game && game.cpu_turn) runCpu();
}

async function act(path, body) {
  if (S.busy) return null;
  S.busy = true;
  showError("");
  try {
    const r = await api("POST", path, body);
    S.hint = null;
    setGame(r.game, r.events);
    return r;
  } catch (e) {
    if (e.code === "confirm_zero") return e;
    showError(e.message);
    return e;
  } finally {
    S.busy = false;
    renderControls();
  }
}

async function runCpu() {
  if (S.cpuLoop) return;
  S.cpuLoop = true;
  renderControls();
  try {
    while (S.game && S.game.cpu_turn && view() === "game") {
      await sleep($("fast").checked ? 60 : 700);
      const r = await api("POST", "/api/game/cpu");
      S.game = r.game;
      S.events = S.events.concat(r.events).slice(-8);
      renderGame();
    }
  } catch (e) {
    showError(e.message);
  } finally {
    S.cpuLoop = false;
    renderGame();
  }
}

export function myTurn() {
  const g = S.game;
  return !!g && !g.over && !g.cpu_turn && !S.cpuLoop;
}

export function toggleHold(i) {
  const g = S.game;
  if (!myTurn() || !g.dice || g.locked) return;
  const held = g.held.slice();
  held[i] = !held[i];
  act("/api/game/hold", {held});
}

export async function scoreBox(c, confirmed) {
  const g = S.game;
  if (!myTurn() || !g.dice) return;
  if (!confirmed && g.preview && g.preview.zero[c]) {
    const pts = g.preview.points;
    let best = -1;
    pts.forEach((p, i) => { if (g.preview.legal[i] && (best < 0 || p > pts[best])) best = i; });
    const info = S.text.rules[g.rules];
    askZero(c, t("confirm.zero", {box: info.boxes[c], other: info.boxes[best], points: pts[best]}));
    return;
  }
  const r = await act("/api/game/score", {box: c, confirm: !!confirmed});
  if (r instanceof ApiError && r.code === "confirm_zero") askZero(c, r.message);
}

function askZero(c, text) {
  S.pendingZero = c;
  $("zero-text").textContent = text;
  $("zero-dialog").showModal();
}

$("zero-dialog").addEventListener("close", () => {
  const c = S.pendingZero;
  S.pendingZero = null;
  if ($("zero-dialog").returnValue === "ok" && c !== null) scoreBox(c, true);
  else {
    const b = document.querySelector(`#card button[data-box="${c}"]`);
    if (b) b.focus();
  }
});

// new game
$("new-opponent").addEventListener("change", () => { $("new-first").disabled = $("new-opponent").value === "none"; });
$("new-form").addEventListener("submit", (ev) => { ev.preventDefault(); startGame(false); });

async function startGame(abandon) {
  const seedText = $("new-seed").value.trim();
  const body = {rules: $("new-rules").value, opponent: $("new-opponent").value, first: $("new-first").value, abandon};
  if (body.opponent === "none") body.first = "me";
  if (seedText !== "") body.seed = Number(seedText);
  S.events = [];
  const r = await act("/api/game/new", body);
  if (r instanceof ApiError && r.code === "game_in_progress") {
    $("abandon-text").textContent = r.message;
    $("abandon-dialog").showModal();
  } else if (!(r instanceof ApiError) && r) {
    $("new-game").open = false;
    $("roll").focus();
  }
}

$("abandon-dialog").addEventListener("close", () => { if ($("abandon-dialog").returnValue === "ok") startGame(true); });
$("roll").addEventListener("click", () => act("/api/game/roll"));
$("hint").addEventListener("click", showHint);
$("fast").addEventListener("change", () => localStorage.setItem("yahtzee-fast", $("fast").checked ? "1" : ""));

document.addEventListener("keydown", (ev) => {
  if (view() !== "game" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest("input, select, textarea, dialog") || document.querySelector("dialog[open]")) return;
  const k = ev.key.toLowerCase();
  if (k === "r" && !$("roll").disabled) { act("/api/game/roll"); ev.preventDefault(); }
  else if (k >= "1" && k <= "5") { toggleHold(Number(k) - 1); ev.preventDefault(); }
  else if (k === "h") { showHint(); ev.preventDefault(); }
  else if (k === "s") {
    const b = document.querySelector("#card button[data-box]:not([disabled])");
    if (b) b.focus();
    ev.preventDefault();
  }
});
