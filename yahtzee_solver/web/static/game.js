// The game's actions: load the game, roll, hold, score, the CPU's turn, a new game, and the keys.
//
// Every action goes through one queue, so quick input is never dropped ("2" then "4" holds both dice,
// input while a hint computes runs after it), and carries the version of the game it was decided on:
// the server refuses an out-of-date one (another tab moved) with 409 "stale" and the current game,
// which the page then shows, says so, and plays on from.
import {$, S, showError, showNotice, sleep, t, view} from "./core.js";
import {ApiError, api} from "./api.js";
import {renderControls, renderGame} from "./board.js";
import {showHint} from "./hint.js";

let chain = Promise.resolve();

/** Run ``job`` after every action queued before it; returns its result. */
export function enqueue(job) {
  const run = chain.then(job);
  chain = run.catch(() => {});
  return run;
}

/** What an action was decided on: the turn, the roll and the dice (holding a die leaves it the same). */
function turnKey(g) {
  return g ? [g.round, g.current, g.rolls_used, g.over, (g.dice || []).join("")].join("|") : "";
}

export async function loadGame() {
  try {
    const r = await api("GET", "/api/game");
    showNotice(r.notice || "");
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

/** The game changed elsewhere (409 ``stale``): show the current one, say so, carry on. */
export function resync(e) {
  S.hint = null;
  showNotice(t("web.stale"));
  setGame(e.body.game);
}

/**
 * Queue a POST to ``path``.  ``make(game)`` gives the body from the game current when it runs (``null``: no
 * longer possible); with ``decided`` the action is dropped if the turn, roll or dice changed before it ran.
 */
function act(path, make, decided) {
  const key = decided ? turnKey(S.game) : null;
  return enqueue(async () => {
    if (decided && turnKey(S.game) !== key) return null;  // an earlier queued action changed what it was for
    const body = typeof make === "function" ? make(S.game) : (make || {});
    if (body === null) return null;
    if (S.game && path !== "/api/game/new") body.version = S.game.version;
    S.busy = true;
    showError("");
    try {
      const r = await api("POST", path, body);
      S.hint = null;
      setGame(r.game, r.events);
      return r;
    } catch (e) {
      if (e.code === "stale" && e.body.game !== undefined) { resync(e); return e; }
      if (e.code === "confirm_zero" || e.code === "game_in_progress") return e;  // a question, not an error
      showError(e.message);
      return e;
    } finally {
      S.busy = false;
      renderControls();
    }
  });
}

async function runCpu() {
  if (S.cpuLoop) return;
  S.cpuLoop = true;
  renderControls();
  // Another tab may be playing the CPU's turn (the server refuses a second one with "stale"): then watch
  // the game until the turn is over, and take the turn over only if that tab stops.
  let watching = false;
  let lastChange = Date.now();
  try {
    while (S.game && S.game.cpu_turn && view() === "game") {
      await sleep($("fast").checked ? 60 : 700);
      if (watching) {
        const r = await api("GET", "/api/game");
        if (!r.game || r.game.version !== S.game.version) {
          lastChange = Date.now();
          S.game = r.game;
          renderGame();
        } else if (Date.now() - lastChange > 4000) {
          watching = false;
        }
        continue;
      }
      try {
        const r = await api("POST", "/api/game/cpu", {version: S.game.version});
        S.game = r.game;
        S.events = S.events.concat(r.events).slice(-8);
        renderGame();
      } catch (e) {
        if (!(e.body && e.body.game !== undefined && (e.code === "stale" || e.code === "not_cpu_turn"))) throw e;
        S.game = e.body.game;
        showNotice(t("web.stale"));
        renderGame();
        watching = true;
        lastChange = Date.now();
      }
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

export function canRoll() {
  return myTurn() && S.game.can_roll;
}

export function roll() {
  return act("/api/game/roll", (g) => (myTurn() && g.can_roll ? {} : null), true);
}

/** Take back the last score (solitaire, before the next roll): the game becomes practice, as in the terminal. */
export function undo() {
  return act("/api/game/undo", (g) => (g && g.can_undo ? {} : null), true);
}

export function toggleHold(i) {
  return act("/api/game/hold", (g) => {
    if (!myTurn() || !g.dice || g.locked) return null;
    const held = g.held.slice();
    held[i] = !held[i];
    return {held};
  }, true);
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
  const r = await act("/api/game/score", (now) => (myTurn() && now.dice && now.preview && now.preview.legal[c]
    ? {box: c, confirm: !!confirmed} : null), true);
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
  // The seed goes as a decimal string: a 64-bit seed loses digits as a JavaScript number.
  const seedText = $("new-seed").value.trim();
  const body = {rules: $("new-rules").value, opponent: $("new-opponent").value, first: $("new-first").value, abandon};
  if (body.opponent === "none") body.first = "me";
  if (seedText !== "") body.seed = seedText;
  const r = await act("/api/game/new", () => body);
  if (r instanceof ApiError && r.code === "game_in_progress") {
    $("abandon-text").textContent = r.message;
    $("abandon-dialog").showModal();
  } else if (!(r instanceof ApiError) && r) {
    S.events = r.events || [];
    renderGame();
    showNotice("");
    $("new-game").open = false;
    $("roll").focus();
  }
}

$("abandon-dialog").addEventListener("close", () => {
  if ($("abandon-dialog").returnValue === "ok") startGame(true);
  else $("new-start").focus();
});
$("roll").addEventListener("click", roll);
$("undo").addEventListener("click", undo);
$("hint-panel").addEventListener("toggle", (ev) => {
  if (ev.isTrusted && document.activeElement && document.activeElement.closest("#hint-panel")) {
    localStorage.setItem("yahtzee-hint-open", $("hint-panel").open ? "1" : "0");
  }
});
$("hint").addEventListener("click", showHint);
$("fast").addEventListener("change", () => localStorage.setItem("yahtzee-fast", $("fast").checked ? "1" : ""));

document.addEventListener("keydown", (ev) => {
  if (view() !== "game" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest("input, select, textarea, dialog") || document.querySelector("dialog[open]")) return;
  const k = ev.key.toLowerCase();
  if (k === "r") { roll(); ev.preventDefault(); }
  else if (k >= "1" && k <= "5") { toggleHold(Number(k) - 1); ev.preventDefault(); }
  else if (k === "h") { showHint(); ev.preventDefault(); }
  else if (k === "u") { undo(); ev.preventDefault(); }
  else if (k === "s") {
    const b = document.querySelector("#card button[data-box]:not([disabled])");
    if (b) b.focus();
    ev.preventDefault();
  }
});
