// The coach's page: a game played with real dice, every player at the table (the server's web/coach.py,
// the terminal coach's game and save).  Enter the faces rolled (tap them, or type them), tap the dice kept,
// tap a box.  Every action carries the version of the game it was decided on (409 "stale": the page shows
// the current game and says so); nothing typed is lost on a refusal: the entry keeps it.
import {$, S, el, fmt, showError, showNotice, t} from "./core.js";
import {api} from "./api.js";

const C = {game: null, sel: [false, false, false, false, false], slots: [], active: 0, hint: null, events: [],
  seen: null, built: false, chain: Promise.resolve()};

function queue(job) {
  const run = C.chain.then(job);
  C.chain = run.catch(() => {});
  return run;
}

const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};

function face(d) {
  const f = el("span", {class: "face", "aria-hidden": "true"});
  for (let i = 0; i < 9; i++) f.append(el("span", {class: PIPS[d] && PIPS[d].includes(i) ? "pip" : "nopip"}));
  return f;
}

// -- the view's elements (made once; the words are set at every draw) ---------------------------------------
function build() {
  const sec = $("view-coach");
  const rules = el("select", {id: "coach-rules"});
  sec.replaceChildren(
    el("h1", {id: "coach-title"}),
    el("p", {id: "coach-intro"}),
    el("details", {id: "coach-new"},
      el("summary", {id: "coach-new-summary"}),
      el("form", {id: "coach-new-form"},
        el("label", {}, el("span", {id: "coach-players-label"}), " ",
          el("input", {id: "coach-players", type: "text", maxlength: "200", autocomplete: "off", value: "Ann, Bob, Chen"})),
        el("label", {}, el("span", {id: "coach-rules-label"}), " ", rules),
        el("label", {class: "again"}, el("input", {id: "coach-quiet", type: "checkbox"}), " ", el("span", {id: "coach-quiet-label"})),
        el("button", {type: "submit", id: "coach-start"}))),
    el("div", {id: "coach-game", hidden: true},
      el("div", {class: "coach-board"},
        el("div", {class: "coach-play"},
          el("p", {id: "coach-status", "aria-live": "polite"}),
          el("div", {id: "coach-dice-box"},
            el("p", {id: "coach-dice-label", class: "coach-label"}),
            el("div", {id: "coach-dice", role: "group", "aria-labelledby": "coach-dice-label"}),
            el("div", {class: "controls"}, el("button", {type: "button", id: "coach-keep", onclick: keep}))),
          el("form", {id: "coach-entry"},
            el("p", {id: "coach-entry-title", class: "coach-label"}),
            el("div", {id: "coach-slots", role: "group", "aria-labelledby": "coach-entry-title"}),
            el("p", {id: "coach-pad-label", class: "sr"}),
            el("div", {id: "coach-pad", role: "group", "aria-labelledby": "coach-pad-label"}),
            el("div", {class: "controls"},
              el("label", {}, el("span", {id: "coach-typed-label"}), " ",
                el("input", {id: "coach-typed", type: "text", inputmode: "numeric", maxlength: "9", size: "6", autocomplete: "off", placeholder: "12555"})),
              el("button", {type: "submit", id: "coach-enter"}),
              el("button", {type: "button", id: "coach-clear", onclick: () => { clearEntry(); $("coach-typed").value = ""; drawEntry(); }}))),
          el("div", {class: "controls"},
            el("button", {type: "button", id: "coach-advice", onclick: () => advice(null)}),
            el("button", {type: "button", id: "coach-undo", onclick: undo})),
          el("form", {id: "coach-whatif", class: "controls"},
            el("label", {}, el("span", {id: "coach-whatif-label"}), " ",
              el("input", {id: "coach-whatif-dice", type: "text", inputmode: "numeric", maxlength: "9", size: "6", autocomplete: "off", placeholder: "66655"})),
            el("button", {type: "submit", id: "coach-whatif-go"})),
          el("section", {id: "coach-hint", hidden: true, "aria-live": "polite"}),
          el("section", {id: "coach-result", hidden: true}),
          el("h2", {id: "coach-events-title", class: "sr"}),
          el("ol", {id: "coach-events", "aria-live": "polite", "aria-labelledby": "coach-events-title"})),
        el("div", {class: "coach-cards"}, el("div", {id: "coach-card", class: "coach-card", tabindex: "0", role: "region", "aria-labelledby": "coach-title"})))),
    el("dialog", {id: "coach-abandon"},
      el("form", {method: "dialog"},
        el("p", {id: "coach-abandon-text"}),
        el("div", {class: "controls"},
          el("button", {id: "coach-abandon-ok", value: "ok"}),
          el("button", {id: "coach-abandon-cancel", value: "cancel", autofocus: true})))));
  $("coach-new-form").addEventListener("submit", (ev) => { ev.preventDefault(); start(false); });
  $("coach-entry").addEventListener("submit", (ev) => { ev.preventDefault(); enterRoll(); });
  $("coach-whatif").addEventListener("submit", (ev) => { ev.preventDefault(); advice($("coach-whatif-dice").value.trim()); });
  $("coach-abandon").addEventListener("close", () => { if ($("coach-abandon").returnValue === "ok") start(true); });
  $("coach-quiet").checked = localStorage.getItem("yahtzee-coach-quiet") === "1";
  $("coach-quiet").addEventListener("change", () => localStorage.setItem("yahtzee-coach-quiet", $("coach-quiet").checked ? "1" : ""));
  C.built = true;
}

function words() {
  const set = (id, key, p) => { $(id).textContent = t(key, p); };
  set("coach-intro", "web.coach.intro");
  set("coach-new-summary", "web.coach.new");
  set("coach-players-label", "web.coach.players");
  set("coach-rules-label", "web.new.rules");
  set("coach-quiet-label", "web.coach.quiet");
  set("coach-start", "web.coach.start");
  set("coach-dice-label", "web.coach.dice");
  set("coach-keep", "web.coach.keep_btn");
  set("coach-pad-label", "web.coach.pick");
  set("coach-typed-label", "web.coach.type");
  set("coach-enter", "web.coach.enter");
  set("coach-clear", "web.coach.clear");
  set("coach-advice", "web.coach.advice");
  set("coach-undo", "web.coach.undo");
  set("coach-whatif-label", "web.coach.whatif");
  set("coach-whatif-go", "web.coach.whatif_btn");
  set("coach-events-title", "web.coach.events");
  set("coach-abandon-ok", "web.coach.start");
  set("coach-abandon-cancel", "web.btn.cancel");
  const sel = $("coach-rules");
  const keepRules = sel.value;
  sel.replaceChildren(...S.config.rules.map((r) => el("option", {value: r, text: S.text.rules[r].title})));
  if (keepRules) sel.value = keepRules;
}

/** Open the coach's view: build it once, say its words, read the game. */
export async function openCoach() {
  if (!C.built) build();
  words();
  try {
    const r = await api("GET", "/api/coach");
    if (r.problem) showNotice(r.problem);
    setGame(r.game);
  } catch (e) {
    showError(e.message);
  }
}

function setGame(g, events) {
  const turn = g ? [g.version].join() : null;
  if (events && events.length) C.events = C.events.concat(events).slice(-10);
  if (!g || !C.game || g.current !== C.game.current || g.phase !== C.game.phase || g.n_actions !== C.game.n_actions) C.hint = null;
  C.game = g;
  if (turn !== C.seen) {
    C.seen = turn;
    C.sel = g && g.dice ? g.held.slice() : [false, false, false, false, false];
  }
  draw();
}

// -- actions ---------------------------------------------------------------------------------------------
function post(path, make) {
  return queue(async () => {
    const body = make(C.game);
    if (body === null) return null;
    if (C.game && path !== "/api/coach/new") body.version = C.game.version;
    showError("");
    try {
      const r = await api("POST", path, body);
      setGame(r.game, r.events);
      return r;
    } catch (e) {
      if (e.code === "stale" && e.body.game !== undefined) {
        showNotice(t("web.stale"));
        setGame(e.body.game);
      } else if (e.code !== "game_in_progress") {
        showError(e.message);
      }
      return e;
    }
  });
}

async function start(abandon) {
  const body = {players: $("coach-players").value, rules: $("coach-rules").value, abandon};
  const r = await post("/api/coach/new", () => body);
  if (r && r.code === "game_in_progress") {
    $("coach-abandon-text").textContent = r.message;
    $("coach-abandon").showModal();
  } else if (r && r.game) {
    C.events = r.events || [];
    clearEntry();
    showNotice("");
    $("coach-new").open = false;
    draw();
  }
}

function enterRoll() {
  const typed = $("coach-typed").value.trim();
  const dice = typed || C.slots.filter((x) => x).join("");
  return post("/api/coach/roll", (g) => (g && !g.over ? {dice} : null)).then((r) => {
    if (r && r.game) { clearEntry(); $("coach-typed").value = ""; draw(); }  // a refusal keeps what was entered
  });
}

function keep() {
  return post("/api/coach/keep", (g) => (g && g.dice ? {held: C.sel.slice(), quiet: $("coach-quiet").checked} : null));
}

function score(c) {
  return post("/api/coach/score", (g) => (g && g.dice ? {box: c, quiet: $("coach-quiet").checked} : null));
}

function undo() {
  return post("/api/coach/undo", (g) => (g && g.can_undo ? {} : null)).then((r) => { if (r && r.game) { clearEntry(); draw(); } });
}

function advice(whatIf) {
  return queue(async () => {
    const g = C.game;
    if (!g || g.over) return;
    if (whatIf === "") { showError(t("coach.err.whatif")); return; }
    showError("");
    try {
      const q = "/api/coach/hint?version=" + encodeURIComponent(g.version) + (whatIf ? "&dice=" + encodeURIComponent(whatIf) : "");
      C.hint = await api("GET", q);
    } catch (e) {
      if (e.code === "stale" && e.body.game !== undefined) { showNotice(t("web.stale")); setGame(e.body.game); }
      else showError(e.message);
      return;
    }
    drawHint();
    // on a phone the advice is below the card: bring it into view
    $("coach-hint").scrollIntoView({block: "nearest", behavior: "smooth"});
  });
}

// -- the roll being entered ------------------------------------------------------------------------------
function wanted() {
  const g = C.game;
  if (!g || g.over) return 0;
  if (g.phase === "roll") return 5;
  if (g.phase === "reroll") return 5 - g.kept.length;
  return 0;
}

function clearEntry() {
  C.slots = [];
  C.active = 0;
}

function pick(d) {
  $("coach-typed").value = "";  // the faces tapped are the roll, not an earlier typed (refused) one
  const n = wanted();
  while (C.slots.length < n) C.slots.push(null);
  C.slots[C.active] = d;
  const next = C.slots.findIndex((x, i) => x === null && i > C.active);
  const first = C.slots.indexOf(null);
  C.active = next >= 0 ? next : (first >= 0 ? first : C.active);
  drawEntry();
}

function drawEntry() {
  const g = C.game;
  const n = wanted();
  const form = $("coach-entry");
  form.hidden = n === 0;
  if (!n) return;
  while (C.slots.length < n) C.slots.push(null);
  C.slots.length = n;
  if (C.active >= n) C.active = 0;
  const who = g.players[g.current].name;
  $("coach-entry-title").textContent = g.phase === "roll" ? t("web.coach.roll_title", {player: who}) : t("web.coach.reroll_title", {player: who, n});
  $("coach-slots").replaceChildren(...C.slots.map((d, i) => el("button", {
    type: "button", class: "die slot" + (i === C.active ? " active" : "") + (d ? "" : " blank"), "data-slot": i,
    "aria-pressed": i === C.active ? "true" : "false",
    "aria-label": d ? t("web.coach.slot", {i: i + 1, face: d}) : t("web.coach.slot_empty", {i: i + 1}),
    onclick: () => { C.active = i; drawEntry(); },
  }, d ? face(d) : el("span", {class: "face"}))));
  $("coach-pad").replaceChildren(...[1, 2, 3, 4, 5, 6].map((d) => el("button", {
    type: "button", class: "die pad", "data-face": d, "aria-label": t("web.coach.face", {n: d}), onclick: () => pick(d),
  }, face(d))));
  $("coach-enter").disabled = false;
}

// -- drawing --------------------------------------------------------------------------------------------
function draw() {
  const g = C.game;
  $("coach-game").hidden = !g;
  if (!g || g.over) $("coach-new").open = true;
  $("coach-title").textContent = g ? [t("web.coach.title"), g.title, g.over ? null : t("turn", {round: g.round, turns: g.turns})].filter(Boolean).join("  ·  ") : t("web.coach.title");
  if (!g) return;
  $("coach-status").textContent = g.status;
  $("coach-status").hidden = g.over;  // the end screen says it
  // the dice on the table: tap to keep (while rerolls are left)
  const box = $("coach-dice-box");
  box.hidden = !g.dice;
  if (g.dice) {
    const canKeep = g.rolls_used < g.max_rolls;
    $("coach-dice").replaceChildren(...g.dice.map((d, i) => {
      const kept = C.sel[i];
      return el("button", {
        type: "button", class: "die" + (kept ? " held" : "") + (canKeep ? "" : " locked"), "data-i": i, "data-face": d,
        "aria-pressed": kept ? "true" : "false", disabled: !canKeep,
        onclick: () => { C.sel[i] = !C.sel[i]; draw(); },
      }, el("span", {class: "sr", text: `${i + 1}: ${d} `}), face(d),
      el("span", {class: "tag", text: kept ? t("web.coach.kept_tag") : "\u00a0"}));
    }));
    const same = g.phase === "reroll" && C.sel.every((h, i) => h === g.held[i]);
    $("coach-keep").hidden = !canKeep || same;
  }
  drawEntry();
  $("coach-undo").disabled = !g.can_undo;
  $("coach-advice").disabled = g.over;
  $("coach-whatif").hidden = g.over;
  $("coach-advice").parentElement.hidden = g.over && !g.can_undo;
  $("coach-events").replaceChildren(...C.events.map((e) => el("li", {class: e.flag ? "flag" : null, text: e.text})));
  drawCard();
  drawHint();
  drawResult();
}

function drawCard() {
  const g = C.game;
  const info = S.text.rules[g.rules];
  const pv = g.preview;
  const head = el("tr", {}, el("th", {scope: "col", class: "boxname", text: t("box")}));
  g.players.forEach((p, i) => {
    const mover = i === g.current && !g.over;
    head.append(el("th", {scope: "col", class: "player" + (mover ? " mover" : "")}, p.name,
      mover ? el("span", {class: "sr", text: " (" + t("web.coach.to_move") + ")"}) : null));
  });
  const body = el("tbody");
  const row = (label, cells, cls) => body.append(el("tr", {class: cls || null}, el("th", {scope: "row", class: "boxname", text: label}), ...cells));
  const boxRow = (c) => row(info.boxes[c], g.players.map((p, i) => {
    const v = p.boxes[c];
    const mover = i === g.current && !g.over;
    if (v !== null) return el("td", {class: "filled" + (mover ? " mover" : ""), text: String(v)});
    if (mover && pv) {
      if (!pv.legal[c]) return el("td", {class: "closed mover", text: "–"});
      return el("td", {class: "open mover"}, el("button", {
        type: "button", class: "preview" + (pv.points[c] === 0 ? " zero" : ""), "data-box": c,
        "aria-label": `${p.name}, ${info.boxes[c]}: ${pv.points[c]}`, onclick: () => score(c),
      }, String(pv.points[c])));
    }
    return el("td", {class: "empty" + (mover ? " mover" : "")});
  }));
  for (let c = 0; c < info.n_upper; c++) boxRow(c);
  row(t("upper_subtotal"), g.players.map((p) => el("td", {text: `${p.upper_subtotal}/${info.upper_threshold}`})), "sum");
  row(t("upper_bonus"), g.players.map((p) => el("td", {class: p.upper_bonus ? "good" : "", text: p.upper_bonus ? "+" + p.upper_bonus : (p.upper_done ? "0" : "")})), "sum");
  for (let c = info.n_upper; c < info.boxes.length; c++) boxRow(c);
  if (info.yahtzee_bonus) row(t("yahtzee_bonus", {yahtzee: info.boxes[info.yahtzee_box]}), g.players.map((p) => el("td", {text: String(p.yahtzee_bonus)})), "sum");
  row(t("total"), g.players.map((p) => el("td", {class: "total", text: String(p.total)})), "total-row");
  $("coach-card").replaceChildren(el("table", {class: "coach-table"}, el("thead", {}, head), body));
}

function drawHint() {
  const box = $("coach-hint");
  const h = C.hint;
  box.hidden = !h;
  if (!h) return;
  const parts = [el("h2", {text: t("web.coach.advice")})];
  if (h.whatif) parts.push(el("p", {class: "whatif", text: h.whatif}));
  if (h.kind === "roll") parts.push(el("p", {text: h.text}));
  else {
    const win = h.options.some((o) => o.win !== null);
    const headCells = [el("th", {scope: "col", text: t("web.hint.option")}), el("th", {scope: "col", class: "num", text: t("web.hint.expected")}),
      el("th", {scope: "col", class: "num", text: t("web.adv.loss")})];
    if (win) headCells.push(el("th", {scope: "col", class: "num", text: t("web.coach.first")}));
    const rows = h.options.map((o, i) => {
      const cells = [el("td", {text: o.text}), el("td", {class: "num", text: fmt(o.expected)}),
        el("td", {class: "num", text: i === 0 ? t("hint.best") : "−" + fmt(o.loss)})];
      if (win) cells.push(el("td", {class: "num win", text: o.win_text || ""}));
      return el("tr", {class: i === 0 ? "best" : null, "data-keep": o.keep ? o.keep.join("") : null, "data-box": o.box !== undefined ? o.box : null}, ...cells);
    });
    parts.push(el("p", {class: "hint-title", text: t("hint.title")}),
      el("table", {class: "ranked"}, el("thead", {}, el("tr", {}, ...headCells)), el("tbody", {}, ...rows)));
  }
  const ch = h.chances;
  if (ch && ch.shown) {
    parts.push(el("p", {class: "win-note", text: ch.title}),
      el("ul", {class: "chances"}, ...ch.rows.map((r) => el("li", {"data-p": r.p}, `${r.player}: ${r.text}`))));
  } else if (ch) {
    parts.push(el("p", {class: "win-note", text: ch.text}));
  }
  box.replaceChildren(...parts);
}

function drawResult() {
  const g = C.game;
  const box = $("coach-result");
  const res = g.over ? g.result : null;
  box.hidden = !res;
  if (!res) return;
  const parts = [el("h2", {text: t("coach.over")}), el("ul", {class: "places"}, ...res.places.map((p, i) => el("li", {text: res.lines[i]})))];
  if (res.pending) parts.push(el("p", {class: "note pending", text: t("web.computing")}));
  if (res.review_problem) parts.push(el("p", {class: "note", text: res.review_problem}));
  if (res.splits.length) {
    parts.push(el("p", {text: res.split_title}), el("ul", {class: "splits"}, ...res.splits.map((s) => el("li", {text: s.text}))));
  }
  if (res.chart) {
    const doc = new DOMParser().parseFromString(res.chart, "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    const legend = el("ul", {class: "chart-legend"}, ...g.players.map((p, i) => el("li", {class: "p" + (i % 8)}, el("span", {class: "swatch", "aria-hidden": "true"}), p.name)));
    parts.push(el("figure", {class: "chance-figure"}, el("figcaption", {text: t("web.coach.chart_title")}), svg, legend));
  }
  if (res.filed) parts.push(el("p", {text: res.filed}));
  if (res.problem) parts.push(el("p", {class: "note", text: res.problem}));
  // one history game per player, or one for the whole table
  const each = res.numbers.length === g.players.length;
  const links = res.numbers.map((n, i) => (n === null ? null : el("li", {}, el("a", {href: "/review?game=" + n, "data-nav": true,
    text: t("web.coach.review_link", {n, player: each ? g.players[i].name : g.players.map((p) => p.name).join(", ")})}))));
  if (links.some((x) => x)) parts.push(el("ul", {class: "review-links"}, ...links));
  box.replaceChildren(...parts);
}
