// The trainer: positions one at a time, answered with a keep (tap the dice) or a box (tap it), then the ranking,
// what the answer cost and why; at the end the proficiency score, saved with the terminal's sessions, and the trend.
// The server draws, grades and saves (web/train.py); this page only sends the answer.
import {$, S, VIEWS, el, fmt, showError, t} from "./core.js";
import {api} from "./api.js";
import {dieFace} from "./dice.js";
import {whyBlock} from "./hint.js";

VIEWS["/train"] = "train";

/** The trainer's page state: the session and the stats the server sent, the dice picked, the answer on screen. */
const T = {train: null, stats: null, picked: [false, false, false, false, false], shown: null, why: {}, seq: 0};

export async function loadTrainer() {
  fillRules();
  const seq = ++T.seq;
  try {
    const r = await api("GET", "/api/train");
    if (seq !== T.seq) return;
    take(r);
  } catch (e) {
    showError(e.message);
  }
}

function fillRules() {
  const sel = $("train-rules");
  const keep = sel.value || "yahtzee";
  sel.replaceChildren(...S.config.rules.map((r) => el("option", {value: r, text: S.text.rules[r].title})));
  sel.value = S.config.rules.includes(keep) ? keep : S.config.rules[0];
}

function take(r) {
  const before = T.train && T.train.position ? T.train.position.number : null;
  T.train = r.train;
  if (r.stats) T.stats = r.stats;
  const now = T.train && T.train.position ? T.train.position.number : null;
  if (now !== before) T.picked = [false, false, false, false, false];
  render();
}

function stale(e) {
  if (e.code === "stale" && e.body.train !== undefined) {
    T.shown = null;
    take({train: e.body.train});
  }
  showError(e.message);
}

$("train-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const seed = $("train-seed").value.trim();
  const body = {rules: $("train-rules").value, count: Number($("train-count").value) || 10,
    from_history: $("train-history").checked};
  if (seed) body.seed = seed;
  showError("");
  try {
    const r = await api("POST", "/api/train/new", body);
    T.shown = null;
    T.why = {};
    take(r);
    $("train-header").focus();
  } catch (e) {
    showError(e.message);
  }
});

async function answer(body) {
  const tr = T.train;
  if (!tr || !tr.position || T.busy) return;
  T.busy = true;
  showError("");
  try {
    const r = await api("POST", "/api/train/answer", {position: tr.position.number, version: tr.version, ...body});
    T.shown = r.train.last.number;
    T.answeredAt = tr.position;  // its scorecard stays on screen beside the result
    take(r);
    askWhy(r.train.last.number);
    const next = $("train-next");
    if (next) next.focus();
  } catch (e) {
    stale(e);
  } finally {
    T.busy = false;
  }
}

async function askWhy(n) {
  if (T.why[n]) return;
  T.why[n] = {pending: true};
  try {
    T.why[n] = await api("GET", "/api/train/why?position=" + n, undefined, true);
  } catch (e) {
    T.why[n] = {error: e.message};
  }
  if (T.shown === n && $("train-why")) $("train-why").replaceChildren(whyPart(T.train.last));  // the rest stays, focus too
}

function whyPart(g) {
  const w = T.why[g.number];
  if (w && w.options) {
    const label = (r) => (r.which === "best" ? t("web.train.why_best") + " — " + g.ranking[0].text
      : t("web.train.why_answer") + " — " + g.answer.text);
    return el("div", {}, el("h3", {class: "why-title", text: t("web.train.why")}), whyBlock(w, label, "train-why"));
  }
  if (w && w.error) return el("p", {class: "why-wait", text: w.error});
  return el("p", {class: "why-wait", role: "status", text: t("web.hint.why_computing")});
}

// -- drawing -------------------------------------------------------------------------------------
function render() {
  const tr = T.train;
  $("train-session").hidden = !tr;
  renderStats();
  if (!tr) return;
  $("train-note").textContent = tr.intro;
  if (T.shown !== null && tr.last && tr.last.number === T.shown) {
    renderResult();
    return;
  }
  T.shown = null;
  if (tr.done) { renderSummary(); return; }
  renderPosition();
}

function keepLabel(p) {
  const faces = p.dice.filter((d, i) => T.picked[i]).sort();
  if (faces.length === 0) return t("web.train.keep_none");
  if (faces.length === 5) return t("web.train.keep_all");
  return t("web.train.keep_btn", {dice: faces.join(" ")});
}

function renderPosition() {
  const p = T.train.position;
  $("train-header").hidden = false;
  $("train-header").textContent = p.header;
  $("train-stage").textContent = t("web.train.turn", {turn: p.turn, turns: p.turns}) + " · " + t("web.train.rolls_left", {n: p.rolls_left});
  $("train-ask").textContent = p.rolls_left ? t("web.train.ask_keep") : t("web.train.ask_box");
  const dice = $("train-dice");
  dice.replaceChildren();
  p.dice.forEach((d, i) => {
    const on = T.picked[i];
    dice.append(el("button", {
      type: "button", class: "die" + (on ? " held" : "") + (p.rolls_left ? "" : " locked"), "data-i": i, "data-face": d,
      "aria-pressed": on ? "true" : "false", disabled: !p.rolls_left,
      "aria-label": `${i + 1}: ${d}${on ? " (" + t("web.held") + ")" : ""}`,
      onclick: () => { T.picked[i] = !T.picked[i]; renderPosition(); $("train-dice").children[i].focus(); },
    }, dieFace(d), el("span", {class: "tag", text: on ? t("web.held") : "\u00a0"})));
  });
  const keep = $("train-keep");
  keep.hidden = !p.rolls_left;
  keep.textContent = keepLabel(p);
  $("train-quit").hidden = false;
  $("train-result").replaceChildren();
  renderCard(p);
}

// The position's scorecard: filled boxes with their points, open ones as buttons with what these dice score there.
function renderCard(p, live = true) {
  const rules = S.text.rules[T.train.rules];
  const c = p.card;
  const rows = [];
  const boxRow = (i) => {
    const v = c.boxes[i];
    let cell;
    if (v !== null) cell = el("td", {class: "num filled", text: String(v)});
    else {
      const pts = p.preview.points[i];
      const label = `${rules.boxes[i]}: ${pts}`;
      cell = el("td", {class: "num"}, el("button", {
        type: "button", class: "preview" + (pts === 0 ? " zero" : ""), "data-box": i, "aria-label": label,
        disabled: !live, onclick: () => answer({box: i}), text: String(pts),
      }));
    }
    return el("tr", {}, el("th", {scope: "row", class: "boxname", text: rules.boxes[i]}), cell);
  };
  for (let i = 0; i < rules.n_upper; i++) rows.push(boxRow(i));
  rows.push(el("tr", {class: "sum"}, el("th", {scope: "row", text: t("upper_subtotal")}),
    el("td", {class: "num", text: `${c.upper_subtotal}/${rules.upper_threshold}`})));
  for (let i = rules.n_upper; i < c.boxes.length; i++) rows.push(boxRow(i));
  rows.push(el("tr", {class: "total-row"}, el("th", {scope: "row", text: t("total")}),
    el("td", {class: "num", text: String(c.total)})));
  $("train-card").replaceChildren(el("table", {class: "train-card"}, el("tbody", {}, ...rows)));
}

function renderResult() {
  const tr = T.train;
  const g = tr.last;
  $("train-header").hidden = false;
  $("train-header").textContent = t("train.header", {i: g.number, n: tr.count, kind: t("train.kind." + g.kind)});
  $("train-keep").hidden = true;
  $("train-quit").hidden = tr.done;
  const dice = $("train-dice");
  dice.replaceChildren(...g.dice.map((d, i) => el("span", {class: "die locked" + (keptFace(g, i) ? " held" : ""), "data-face": d,
    "aria-label": `${i + 1}: ${d}`, role: "img"}, dieFace(d), el("span", {class: "tag", text: "\u00a0"}))));
  $("train-stage").textContent = t("web.train.rolls_left", {n: g.rolls_left});
  $("train-ask").textContent = "";
  const verdict = el("p", {class: "verdict " + (g.cost === 0 ? "good" : "warn"), text: g.verdict});
  const tbl = el("table", {class: "ranked", id: "train-ranking"},
    el("caption", {text: t("web.train.ranking")}),
    el("thead", {}, el("tr", {}, el("th", {scope: "col", text: t("web.hint.option")}),
      el("th", {scope: "col", class: "num", text: t("web.hint.expected")}), el("th", {scope: "col", class: "num", text: t("web.adv.loss")}))));
  const body = el("tbody");
  for (const r of g.ranking) {
    if (r.apart) body.append(el("tr", {class: "gap"}, el("td", {colspan: "3", text: "…"})));
    const mark = r.mine ? " (" + t("web.train.mine") + ")" : "";
    body.append(el("tr", {class: [r.best ? "best" : "", r.mine ? "mine" : ""].join(" ").trim() || null},
      el("td", {text: r.text + mark}), el("td", {class: "num", text: fmt(r.expected)}),
      el("td", {class: "num", text: r.best ? t("hint.best") : "−" + fmt(r.loss)})));
  }
  tbl.append(body);
  const why = el("div", {id: "train-why", "aria-live": "polite"}, whyPart(g));
  const next = el("button", {type: "button", id: "train-next", class: "primary",
    text: tr.done ? t("web.train.finish") : t("web.train.next"),
    onclick: () => { T.shown = null; render(); const h = $("train-header"); if (h) h.focus(); }});
  $("train-result").replaceChildren(verdict, tbl, why, el("div", {class: "controls"}, next));
  if (T.answeredAt && T.answeredAt.number === g.number) renderCard(T.answeredAt, false);
  else $("train-card").replaceChildren();
}

function keptFace(g, i) {
  if (!g.answer.keep) return false;
  // the dice kept, marked from the left as the faces come (a multiset)
  const want = g.answer.keep.slice();
  for (let j = 0; j <= i; j++) {
    const k = want.indexOf(g.dice[j]);
    if (k >= 0) { want.splice(k, 1); if (j === i) return true; }
  }
  return false;
}

function renderSummary() {
  const s = T.train.summary;
  $("train-header").hidden = true;
  $("train-stage").textContent = "";
  $("train-ask").textContent = "";
  $("train-dice").replaceChildren();
  $("train-keep").hidden = true;
  $("train-quit").hidden = true;
  $("train-card").replaceChildren();
  const parts = [el("p", {class: "summary " + (s.strong ? "good" : ""), id: "train-score", text: s.text})];
  if (s.answered) {
    if (s.saved) parts.push(el("p", {class: "note-small", text: t("web.train.saved")}));
    else parts.push(el("p", {class: "warn", text: t("web.train.unsaved", {problem: s.problem || ""})}),
      el("button", {type: "button", id: "train-save", text: t("web.train.save_again"), onclick: quit}));
    if (s.saved && s.problem) parts.push(el("p", {class: "note-small", text: s.problem}));
    parts.push(el("p", {class: "note-small", text: s.seed_text}));
  }
  $("train-result").replaceChildren(...parts);
}

async function quit() {
  const tr = T.train;
  if (!tr) return;
  try {
    const r = await api("POST", "/api/train/quit", {version: tr.version});
    T.shown = null;
    take(r);
  } catch (e) {
    stale(e);
  }
}

$("train-keep").addEventListener("click", () => {
  const p = T.train && T.train.position;
  if (!p) return;
  answer({keep: p.dice.filter((d, i) => T.picked[i]).join("")});
});
$("train-quit").addEventListener("click", quit);

// -- the saved sessions: a table and a bar chart of the proficiency, with the line at 0.2 ---------------------------
// The bars are boxes whose heights are set through the CSSOM (the page's CSP allows no inline style attribute).
function chart(st) {
  const rows = st.sessions;
  const top = Math.max(0.25, ...rows.map((r) => r.proficiency)) * 1.1;
  const pct = (v) => (100 * v / top).toFixed(2) + "%";
  const plot = el("div", {class: "plot"});
  for (const r of rows) {
    const bar = el("div", {class: r.strong ? "bar strong" : "bar", title: `#${r.number} ${r.date}: ${r.proficiency.toFixed(3)}`});
    bar.style.height = pct(r.proficiency);
    plot.append(el("div", {class: "col"}, bar));
  }
  const line = el("div", {class: "strong-line"}, el("span", {text: `${st.strong} · ${t("web.train.strong_mark")}`}));
  line.style.bottom = pct(st.strong);
  plot.append(line);
  const axis = el("div", {class: "axis"}, ...rows.map((r) => el("span", {text: String(r.number)})));
  return el("div", {class: "train-chart", role: "img", "aria-label": t("web.train.chart")}, plot, axis);
}

function renderStats() {
  const st = T.stats;
  const box = $("train-stats");
  if (!st) { box.replaceChildren(); return; }
  const parts = [el("h2", {text: t("web.train.stats")})];
  if (st.problem) parts.push(el("p", {class: "warn", text: st.problem}));
  if (!st.sessions.length) {
    parts.push(el("p", {text: t("web.train.stats_none")}));
    box.replaceChildren(...parts);
    return;
  }
  parts.push(el("p", {class: "note-small", text: t("web.train.chart")}), chart(st));
  const head = ["stats.col_n", "stats.col_date", "stats.col_rules", "stats.col_positions", "stats.col_score"];
  const tbl = el("table", {class: "ranked", id: "train-sessions"},
    el("thead", {}, el("tr", {}, ...head.map((k, i) => el("th", {scope: "col", class: i >= 3 ? "num" : null, text: t(k)})))));
  const body = el("tbody");
  for (const r of st.sessions.slice().reverse()) {
    body.append(el("tr", {class: r.strong ? "strong" : null}, el("td", {text: String(r.number)}), el("td", {text: r.date}),
      el("td", {text: r.rules_title}), el("td", {class: "num", text: String(r.positions)}),
      el("td", {class: "num", text: r.proficiency.toFixed(3) + (r.strong ? " ★" : "")})));
  }
  tbl.append(body);
  parts.push(el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": t("web.train.stats")}, tbl));
  if (st.trend) parts.push(el("p", {class: "note-small", text: st.trend}));
  if (st.by_kind) parts.push(el("p", {class: "note-small", text: st.by_kind}));
  box.replaceChildren(...parts);
}
