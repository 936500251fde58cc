// The page of yahtzee_solver: draws what the JSON API sends and sends intentions back.
// No rule of the game lives here: legality, dice, points, previews, hints and the CPU's
// moves all come from the server (the same engine as the terminal game).
"use strict";

const TOKEN = document.querySelector('meta[name="yahtzee-token"]').content;
const SERVER_LANG = document.querySelector('meta[name="yahtzee-lang"]').content;
const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};

const S = {
  lang: "en", text: null, config: null, game: null, busy: false, cpuLoop: false,
  hint: null, events: [], pendingZero: null, advTimer: null, advSeq: 0,
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

// -- words ----------------------------------------------------------------------------------
function t(key, params) {
  let s = (S.text && S.text.messages[key]) || key;
  if (params) s = s.replace(/\{(\w+)(![rs])?\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return s;
}

function translatePage() {
  document.documentElement.lang = S.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  $("lang").value = S.lang;
  fillSelect($("new-rules"), S.config.rules.map((r) => [r, S.text.rules[r].title]));
  fillSelect($("adv-rules"), S.config.rules.map((r) => [r, S.text.rules[r].title]));
  fillSelect($("rules-select"), S.config.rules.map((r) => [r, S.text.rules[r].title]));
  fillSelect($("new-opponent"), S.config.opponents.map((o) => [o, o === "none" ? t("web.new.solo") : t("cpu", {level: S.text.levels[o]})]));
}

function fillSelect(sel, items) {
  const keep = sel.value;
  sel.replaceChildren(...items.map(([v, label]) => el("option", {value: v, text: label})));
  if (items.some(([v]) => v === keep)) sel.value = keep;
}

function pickLang() {
  const want = SERVER_LANG || localStorage.getItem("yahtzee-lang") || "";
  if (S.config.langs.includes(want)) return want;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (S.config.langs.includes(base)) return base;
  }
  return "en";
}

// -- the API ------------------------------------------------------------------------------------
class ApiError extends Error {
  constructor(status, body) {
    super(body.error || "error " + status);
    this.status = status;
    this.code = body.code || "";
  }
}

async function api(method, path, body) {
  const url = path + (path.includes("?") ? "&" : "?") + "lang=" + S.lang;
  const opts = {method, headers: {}};
  if (method === "POST") {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-Yahtzee-Token"] = TOKEN;
    opts.body = JSON.stringify(body || {});
  }
  let resp;
  try {
    resp = await fetch(url, opts);
  } catch (e) {
    throw new ApiError(0, {error: String(e.message || e), code: "network"});
  }
  const data = await resp.json().catch(() => ({error: resp.statusText, code: "bad_reply"}));
  if (!resp.ok) {
    if (data.code === "bad_token") {
      showError(t("web.reload"));
      setTimeout(() => location.reload(), 1200);
    }
    throw new ApiError(resp.status, data);
  }
  return data;
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg ? t("web.error") + ": " + msg : "";
  box.hidden = !msg;
}

// -- routing ------------------------------------------------------------------------------------
const VIEWS = {"/": "game", "/advisor": "advisor", "/rules": "rules", "/records": "records"};

function route() {
  const view = VIEWS[location.pathname] || "game";
  S.gameLoaded = null;
  for (const v of Object.values(VIEWS)) $("view-" + v).hidden = v !== view;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("here", a.id === "nav-" + view);
  showError("");
  if (view === "game") S.gameLoaded = loadGame();
  else if (view === "advisor") openAdvisor();
  else if (view === "rules") loadRules();
  else if (view === "records") loadRecords();
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-nav]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  if (a.getAttribute("href") !== location.pathname + location.search) history.pushState(null, "", a.getAttribute("href"));
  route();
});
window.addEventListener("popstate", route);

// -- the game -------------------------------------------------------------------------------------
async function loadGame() {
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

function sleep(ms) { return new Promise((res) => setTimeout(res, ms)); }

async function runCpu() {
  if (S.cpuLoop) return;
  S.cpuLoop = true;
  renderControls();
  try {
    while (S.game && S.game.cpu_turn && VIEWS[location.pathname] === "game") {
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

function myTurn() {
  const g = S.game;
  return !!g && !g.over && !g.cpu_turn && !S.cpuLoop;
}

function dieFace(d) {
  const face = el("span", {class: "face", "aria-hidden": "true"});
  for (let i = 0; i < 9; i++) face.append(el("span", {class: PIPS[d] && PIPS[d].includes(i) ? "pip" : "nopip"}));
  return face;
}

function renderDice() {
  const g = S.game;
  const box = $("dice");
  box.replaceChildren();
  const canHold = myTurn() && g.dice && !g.locked;
  const suggested = S.hint && S.hint.kind === "keep" && S.hint.options[0].held;
  for (let i = 0; i < 5; i++) {
    const d = g.dice ? g.dice[i] : 0;
    const held = g.dice && g.held[i] && !g.locked;
    const label = g.dice ? `${i + 1}: ${d}${held ? " (" + t("web.held") + ")" : ""}` : `${i + 1}`;
    const b = el("button", {
      type: "button", class: "die" + (held ? " held" : "") + (g.locked && g.dice ? " locked" : "")
        + (suggested && suggested[i] ? " suggested" : "") + (g.dice ? "" : " blank"),
      "data-i": i, "aria-pressed": held ? "true" : "false", "aria-label": label, disabled: !canHold,
      "data-face": d, onclick: () => toggleHold(i),
    }, g.dice ? dieFace(d) : el("span", {class: "face"}), el("span", {class: "tag", text: held ? t("web.held") : "\u00a0"}));
    box.append(b);
  }
}

function toggleHold(i) {
  const g = S.game;
  if (!myTurn() || !g.dice || g.locked) return;
  const held = g.held.slice();
  held[i] = !held[i];
  act("/api/game/hold", {held});
}

function renderControls() {
  const g = S.game;
  if (!g) return;
  const roll = $("roll");
  roll.textContent = `${t("web.btn.roll")} (${g.rolls_used}/${g.max_rolls})`;
  roll.setAttribute("aria-label", t("web.btn.roll") + ", " + t("web.roll_count", {n: g.rolls_used, max: g.max_rolls}));
  roll.disabled = !myTurn() || !g.can_roll || S.busy;
  $("hint").disabled = !myTurn() || S.busy;
  for (const b of document.querySelectorAll("#card button[data-box]")) b.disabled = !myTurn() || S.busy || !g.dice;
  for (const b of document.querySelectorAll("#dice .die")) b.disabled = !myTurn() || S.busy || !g.dice || g.locked;
}

function renderGame() {
  const g = S.game;
  const newGame = $("new-game");
  $("game").hidden = !g;
  if (!g || g.over) newGame.open = true;
  if (!g) return;
  $("game-title").textContent = [g.practice ? t("practice.label", {rules: g.title}) : g.title, t("turn", {round: g.round, turns: g.turns}),
    g.n_players === 2 ? "vs " + g.players[1].name : null].filter(Boolean).join("  ·  ");
  $("status").textContent = g.status;
  renderDice();
  $("joker").hidden = !g.joker;
  $("joker").textContent = g.joker || "";
  $("bonus-now").hidden = !g.bonus_now;
  $("bonus-now").textContent = g.bonus_now || "";
  $("events").replaceChildren(...S.events.map((e) => el("li", {text: e})));
  renderCard();
  renderHint();
  const res = $("result");
  res.hidden = !g.over;
  if (g.over && g.result) {
    res.replaceChildren(el("h2", {text: t("end.title")}), ...g.result.lines.map((l) => el("p", {text: l})));
  }
  renderControls();
}

function renderCard() {
  const g = S.game;
  const info = S.text.rules[g.rules];
  const table = $("card");
  table.replaceChildren();
  const head = el("tr", {}, el("th", {scope: "col", text: "#"}), el("th", {scope: "col", class: "boxname", text: t("box")}));
  g.players.forEach((p, i) => head.append(el("th", {scope: "col", class: "player" + (i === g.current && !g.over ? " mover" : ""), text: p.column})));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  const pv = g.preview;
  const row = (num, label, cells, cls) => {
    const tr = el("tr", {class: cls || null}, el("td", {class: "num", text: num}), el("th", {scope: "row", class: "boxname", text: label}));
    for (const c of cells) tr.append(c);
    body.append(tr);
  };
  const boxRow = (c) => {
    const cells = g.players.map((p, i) => {
      const v = p.boxes[c];
      if (v !== null) return el("td", {class: "filled", text: String(v)});
      if (i === g.current && pv && !g.over) {
        if (!pv.legal[c]) return el("td", {class: "closed", text: "–"});
        const zero = pv.points[c] === 0;
        const label = `${info.boxes[c]}: ${pv.points[c]}` + (zero ? " (" + t("web.preview_zero") + ")" : "");
        if (i === 0) {
          return el("td", {class: "open"}, el("button", {
            type: "button", class: "preview" + (zero ? " zero" : ""), "data-box": c, "aria-label": label,
            onclick: () => scoreBox(c), onkeydown: boxKeys,
          }, String(pv.points[c])));
        }
        return el("td", {class: "open"}, el("span", {class: "preview" + (zero ? " zero" : ""), text: String(pv.points[c])}));
      }
      return el("td", {class: "empty", text: ""});
    });
    row(String(c + 1), info.boxes[c], cells, c === info.n_upper - 1 ? "section-end" : null);
  };
  for (let c = 0; c < info.n_upper; c++) boxRow(c);
  row("", t("upper_subtotal"), g.players.map((p) => el("td", {class: p.upper_subtotal >= info.upper_threshold ? "good" : "", text: `${p.upper_subtotal}/${info.upper_threshold}`})), "sum");
  row("", t("upper_bonus"), g.players.map((p) => el("td", {class: p.upper_bonus ? "good" : "", text: p.upper_bonus ? "+" + p.upper_bonus : (p.upper_done ? "0" : "")})), "sum section-end");
  for (let c = info.n_upper; c < info.boxes.length; c++) boxRow(c);
  if (info.yahtzee_bonus) {
    row("", t("yahtzee_bonus", {yahtzee: info.boxes[info.yahtzee_box]}), g.players.map((p, i) => {
      const extra = i === g.current && pv && pv.yahtzee_bonus && !g.over ? "+" + pv.yahtzee_bonus : "";
      return el("td", {class: extra ? "good" : ""}, String(p.yahtzee_bonus) + (extra ? " " + extra : ""));
    }), "sum");
  }
  row("", t("total"), g.players.map((p) => el("td", {class: "total", text: String(p.total)})), "total-row");
  table.append(body);
}

function boxKeys(ev) {
  if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
  const buttons = [...document.querySelectorAll("#card button[data-box]:not([disabled])")];
  const i = buttons.indexOf(ev.target);
  const next = buttons[(i + (ev.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length];
  if (next) next.focus();
  ev.preventDefault();
}

async function scoreBox(c, confirmed) {
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

async function showHint() {
  // Busy while the hint is computed (the chances of winning may take a moment): no move meanwhile,
  // so the hint shown is always for the dice on the table.
  if (!myTurn() || S.busy) return;
  S.busy = true;
  renderControls();
  $("hint-panel").setAttribute("aria-busy", "true");
  try {
    S.hint = await api("GET", "/api/game/hint");
    if (S.hint.practice) {
      S.events = S.events.concat([S.hint.practice]).slice(-8);
      S.game.practice = true;
    }
  } catch (e) {
    showError(e.message);
    return;
  } finally {
    S.busy = false;
    $("hint-panel").removeAttribute("aria-busy");
    renderControls();
  }
  renderGame();
}

function fmt(x) { return Number(x).toFixed(2); }

function renderHint() {
  const panel = $("hint-panel");
  const h = S.hint;
  panel.hidden = !h;
  if (!h) return;
  panel.replaceChildren(el("h2", {text: t("hint.title")}));
  const w = h.win;  // null in solitaire; the chances of winning against the CPU (shown late in the game)
  const winCols = !!(w && w.shown && h.kind !== "roll");
  if (h.kind === "roll") {
    panel.append(el("p", {text: h.text}));
  } else {
    const tbl = el("table", {class: "ranked"});
    const head = [el("th", {text: ""}), el("th", {class: "num", text: t("web.hint.expected")}),
      el("th", {class: "num", text: t("web.adv.loss")})];
    if (winCols) head.push(el("th", {class: "num", text: t("web.hint.win")}));
    tbl.append(el("thead", {}, el("tr", {}, ...head)));
    const body = el("tbody");
    const winCell = (o, best) => el("td", {class: "num win", text: (best ? "★ " : "") + o.win_text});
    const boxRow = (cls, label, o, best) => {
      const cells = [el("td", {text: label + " " + o.text}), el("td", {class: "num", text: fmt(o.expected)}), el("td", {})];
      if (winCols) cells.push(winCell(o, best));
      return el("tr", {class: cls, "data-box": o.box}, ...cells);
    };
    // the first six by expected total, and the best chance of winning wherever it is ranked
    const shown = h.options.map((o, i) => i).filter((i) => i < 6 || (winCols && i === w.best));
    shown.forEach((i) => {
      const o = h.options[i];
      const winBest = winCols && i === w.best;
      const data = h.kind === "box" ? {"data-box": o.box} : (o.keep.length < 5 ? {"data-held": JSON.stringify(o.held)} : {});
      const cls = [i === 0 ? "best" : "", winBest ? "win-best" : ""].join(" ").trim() || null;
      const cells = [el("td", {text: o.text}), el("td", {class: "num", text: fmt(o.expected)}),
        el("td", {class: "num", text: o.loss === 0 ? t("hint.best") : "−" + fmt(o.loss)})];
      if (winCols) cells.push(winCell(o, winBest));
      body.append(el("tr", {class: cls, ...data}, ...cells));
      const sameThen = i === 0 && h.then && h.win_then && h.then.box === h.win_then.box;
      if (i === 0 && h.then) body.append(boxRow("then" + (sameThen ? " win-best" : ""), t("hint.then"), h.then, winBest && sameThen));
      if (winBest && h.win_then && !sameThen) body.append(boxRow("then win-best", t("hint.then"), h.win_then, true));
    });
    tbl.append(body);
    panel.append(tbl);
    if (h.options.length > shown.length) panel.append(el("p", {class: "more", text: `(${shown.length}/${h.options.length})`}));
  }
  if (w) {
    const lines = winCols ? [w.caption, w.note] : [w.text, w.note];
    lines.filter((x) => x).forEach((x) => panel.append(el("p", {class: "win-note", text: x})));
  }
}

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
  if (VIEWS[location.pathname] !== "game" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
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

// -- the advisor ----------------------------------------------------------------------------------
function openAdvisor() {
  const q = new URLSearchParams(location.search);
  const rules = S.config.rules.includes(q.get("rules")) ? q.get("rules") : ($("adv-rules").value || "yahtzee");
  $("adv-rules").value = rules;
  if (q.has("dice")) $("adv-dice").value = q.get("dice");
  if (["0", "1", "2"].includes(q.get("r"))) $("adv-rolls").value = q.get("r");
  buildAdvCard(rules, parseCardText(q.get("card") || ""));
  askAdvisor();
}

function parseCardText(text) {
  const out = {};
  for (const part of text.split(",")) {
    const [k, v] = part.split("=");
    if (k && v !== undefined) out[k.trim()] = v.trim();
  }
  return out;
}

function buildAdvCard(rules, values) {
  const info = S.text.rules[rules];
  const box = $("adv-card");
  box.replaceChildren();
  const field = (slug, label) => el("label", {class: "adv-box"}, el("span", {text: label}),
    el("input", {type: "number", min: "0", step: "1", inputmode: "numeric", "data-slug": slug, value: values[slug] ?? "",
      placeholder: "—", oninput: scheduleAdvisor}));
  info.slugs.forEach((slug, c) => box.append(field(slug, `${c + 1}. ${info.boxes[c]}`)));
  if (info.yahtzee_bonus) box.append(field("yahtzee-bonus", t("web.adv.bonus")));
}

function advCardText() {
  return [...document.querySelectorAll("#adv-card input")].filter((i) => i.value.trim() !== "")
    .map((i) => `${i.dataset.slug}=${i.value.trim()}`).join(",");
}

function scheduleAdvisor() {
  clearTimeout(S.advTimer);
  S.advTimer = setTimeout(askAdvisor, 120);
}

for (const id of ["adv-dice", "adv-rolls"]) $(id).addEventListener("input", scheduleAdvisor);
$("adv-rules").addEventListener("change", () => { buildAdvCard($("adv-rules").value, {}); askAdvisor(); });
$("adv-clear").addEventListener("click", () => { buildAdvCard($("adv-rules").value, {}); askAdvisor(); });
$("adv-form").addEventListener("submit", (ev) => ev.preventDefault());

async function askAdvisor() {
  const q = new URLSearchParams();
  q.set("rules", $("adv-rules").value);
  const card = advCardText();
  if (card) q.set("card", card);
  const dice = $("adv-dice").value.replace(/[^1-6]/g, "");
  q.set("dice", dice);
  q.set("r", $("adv-rolls").value);
  const link = "/advisor?" + q.toString();
  $("adv-share").href = link;
  if (VIEWS[location.pathname] === "advisor") history.replaceState(null, "", link);
  const seq = ++S.advSeq;
  const result = $("adv-result");
  if (dice.length !== 5) {
    result.replaceChildren();
    $("adv-now").textContent = "";
    return;
  }
  const api_q = new URLSearchParams({rules: q.get("rules"), card, dice, rolls_left: q.get("r")});
  try {
    const r = await api("GET", "/api/advice?" + api_q.toString());
    if (seq !== S.advSeq) return;
    showError("");
    $("adv-now").textContent = t("web.adv.now", {ev: fmt(r.expected_now)});
    const tbl = el("table", {class: "ranked", id: "adv-table"});
    const heads = r.kind === "keep" ? [t("web.adv.keep"), t("web.adv.reroll")] : [t("web.adv.box"), t("web.adv.points")];
    tbl.append(el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", {text: h})),
      el("th", {class: "num", text: t("web.adv.expected")}), el("th", {class: "num", text: t("web.adv.loss")}))));
    const body = el("tbody");
    for (const [i, o] of r.options.entries()) {
      // keeping all five rerolls nothing: it scores now, in the box its text names (there is no pass)
      const a = r.kind === "keep" ? [o.keep.join(" ") || "–", o.stop ? o.text : (o.reroll.join(" ") || "–")] : [o.name, String(o.points)];
      body.append(el("tr", {class: i === 0 ? "best" : null}, ...a.map((x) => el("td", {text: x})),
        el("td", {class: "num", text: fmt(o.expected)}), el("td", {class: "num", text: o.loss === 0 ? t("hint.best") : "−" + fmt(o.loss)})));
    }
    tbl.append(body);
    result.replaceChildren(tbl);
  } catch (e) {
    if (seq !== S.advSeq) return;
    result.replaceChildren();
    $("adv-now").textContent = "";
    showError(e.message);
  }
}

// -- rules and records ----------------------------------------------------------------------------
$("rules-select").addEventListener("change", loadRules);

async function loadRules() {
  const rules = $("rules-select").value || (S.game && S.game.rules) || "yahtzee";
  $("rules-select").value = rules;
  try {
    const r = await api("GET", "/api/rules?rules=" + encodeURIComponent(rules));
    $("rules-pages").replaceChildren(...r.pages.map((p) => el("section", {class: "page"}, el("pre", {text: p}))));
  } catch (e) {
    showError(e.message);
  }
}

async function loadRecords() {
  try {
    const r = await api("GET", "/api/records");
    if (r.problem) showError(r.problem);
    const box = $("records");
    if (!r.records.length) {
      box.replaceChildren(el("p", {text: t("rec.none")}));
      return;
    }
    // Unaided games first, then practice (a chosen seed or hints) in a table of its own.
    const cols = ["games", "best", "average", "wins", "losses", "draws", "abandoned"];
    // Against the CPU an unfinished game is a forfeit (also among the losses): shown as abandoned, as `records` does.
    const cell = (row, c) => {
      const v = c === "abandoned" && row.opponent !== "solo" ? row.forfeits : row[c];
      return v === null ? "–" : (c === "average" ? v.toFixed(1) : String(v));
    };
    const table = (rows, id) => {
      const tbl = el("table", {class: "ranked", id});
      tbl.append(el("thead", {}, el("tr", {}, el("th", {text: t("rec.rules")}), el("th", {text: t("rec.opponent")}),
        ...cols.map((c) => el("th", {class: "num", text: t("rec." + c)})))));
      tbl.append(el("tbody", {}, ...rows.map((row) => el("tr", {}, el("td", {text: row.rules_title}), el("td", {text: row.opponent_name}),
        ...cols.map((c) => el("td", {class: "num", text: cell(row, c)}))))));
      return tbl;
    };
    const unaided = r.records.filter((row) => !row.practice);
    const practice = r.records.filter((row) => row.practice);
    const parts = [];
    if (unaided.length) parts.push(table(unaided, "records-unaided"));
    if (practice.length) parts.push(el("h2", {text: t("rec.practice_title")}), table(practice, "records-practice"));
    box.replaceChildren(...parts);
  } catch (e) {
    showError(e.message);
  }
}

// -- start ----------------------------------------------------------------------------------------
$("lang").addEventListener("change", async () => {
  S.lang = $("lang").value;
  localStorage.setItem("yahtzee-lang", S.lang);
  S.text = await api("GET", "/api/text");
  translatePage();
  route();
});

async function start() {
  try {
    S.config = await api("GET", "/api/config");
    S.lang = pickLang();
    S.text = await api("GET", "/api/text");
  } catch (e) {
    showError(e.message);
    return;
  }
  $("fast").checked = localStorage.getItem("yahtzee-fast") === "1";
  translatePage();
  $("new-first").disabled = $("new-opponent").value === "none";
  route();
  await S.gameLoaded;
  window.yahtzeeReadyAt = performance.now();  // read by benchmarks/bench_web.py
  document.body.classList.add("ready");
}

start();
