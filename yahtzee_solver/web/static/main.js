// The page of yahtzee_solver: starts it, picks the language and shows one view at a time.
// The parts: api.js (the API client), board.js (the scorecard and controls), dice.js, hint.js (the hint
// panel), game.js (the game's actions and keys), advisor.js, rules.js, records.js, review.js; core.js is shared.
// train.js: the trainer (it adds its view to VIEWS).
import {$, S, SERVER_LANG, VIEWS, el, showError, t, view} from "./core.js";
import {api} from "./api.js";
import {loadTrainer} from "./train.js";
import {loadGame} from "./game.js";
import {openAdvisor} from "./advisor.js";
import {loadRules} from "./rules.js";
import {loadRecords} from "./records.js";
import {loadReview} from "./review.js";
import {openCoach} from "./coach.js";

function fillSelect(sel, items) {
  const keep = sel.value;
  sel.replaceChildren(...items.map(([v, label]) => el("option", {value: v, text: label})));
  if (items.some(([v]) => v === keep)) sel.value = keep;
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

function pickLang() {
  const want = SERVER_LANG || localStorage.getItem("yahtzee-lang") || "";
  if (S.config.langs.includes(want)) return want;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (S.config.langs.includes(base)) return base;
  }
  return "en";
}

// -- routing ------------------------------------------------------------------------------------
function route() {
  const v = view();
  S.gameLoaded = null;
  for (const name of Object.values(VIEWS)) $("view-" + name).hidden = name !== v;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("here", a.id === "nav-" + v);
  showError("");
  if (v === "train") loadTrainer();
  if (v === "game") S.gameLoaded = loadGame();
  else if (v === "advisor") openAdvisor();
  else if (v === "rules") loadRules();
  else if (v === "records") loadRecords();
  else if (v === "review") loadReview();
  else if (v === "coach") openCoach();
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-nav]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  if (a.getAttribute("href") !== location.pathname + location.search) history.pushState(null, "", a.getAttribute("href"));
  route();
});
window.addEventListener("popstate", route);

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
