// The board: the game's title and status, the scorecard with the previews, the controls and the end screen.
import {$, S, el, t} from "./core.js";
import {renderDice} from "./dice.js";
import {myTurn, scoreBox} from "./game.js";
import {renderHint} from "./hint.js";

// The element that has the keyboard focus is redrawn with the dice and the card: find its successor.
function focusKey() {
  const a = document.activeElement;
  if (!a || a === document.body || !a.closest("#game")) return null;
  if (a.matches("#dice .die")) return `#dice .die[data-i="${a.dataset.i}"]`;
  if (a.matches("#card button[data-box]")) return `#card button[data-box="${a.dataset.box}"]`;
  return a.id ? "#" + a.id : null;
}

function refocus(key) {
  if (!key) return;
  const a = document.activeElement;
  if (a && a !== document.body && a.matches(key) && !a.disabled) return;
  // the same element if it is still there, else the next thing to do: roll, or choose a box
  for (const sel of [key, "#roll", "#card button[data-box]", "#hint"]) {
    const e = document.querySelector(sel);
    if (e && !e.disabled && !e.closest("[hidden]")) { e.focus(); S.focusWant = null; return; }
  }
  S.focusWant = key;  // nothing to focus now (the CPU plays): try again at the next redraw
}

export function renderControls() {
  const g = S.game;
  if (!g) return;
  const key = focusKey() || (document.activeElement === document.body ? S.focusWant : null);
  const roll = $("roll");
  roll.textContent = `${t("web.btn.roll")} (${g.rolls_used}/${g.max_rolls})`;
  roll.setAttribute("aria-label", t("web.btn.roll") + ", " + t("web.roll_count", {n: g.rolls_used, max: g.max_rolls}));
  // (not disabled while a request runs: input meanwhile is queued, and a disabled button would lose the focus)
  roll.disabled = !myTurn() || !g.can_roll;
  $("hint").disabled = !myTurn();
  $("undo").hidden = !g.can_undo;
  $("undo").disabled = !myTurn() || !g.can_undo;
  for (const b of document.querySelectorAll("#card button[data-box]")) b.disabled = !myTurn() || !g.dice;
  for (const b of document.querySelectorAll("#dice .die")) b.disabled = !myTurn() || !g.dice || g.locked;
  refocus(key);
}

// Which roll the dice on the table come from: three marks, one filled per roll made.
function renderStage(g) {
  const stage = $("stage");
  stage.hidden = g.over;
  const n = g.dice ? g.rolls_used : 0;
  const marks = el("span", {class: "marks", "aria-hidden": "true"});
  for (let i = 1; i <= g.max_rolls; i++) marks.append(el("span", {class: "mark" + (i <= n ? " done" : "")}));
  const text = g.cpu_turn ? t("web.stage.cpu", {n, max: g.max_rolls})
    : (n === 0 ? t("web.stage.none", {max: g.max_rolls}) : t("web.stage.n", {n, max: g.max_rolls, left: g.max_rolls - n}));
  stage.replaceChildren(marks, el("span", {class: "stage-text", text}));
  stage.classList.toggle("last", n === g.max_rolls);
}

// New dice: announced to screen readers, and the dice rolled shake (not under prefers-reduced-motion).
function announce(g) {
  const key = g.dice ? [g.round, g.current, g.rolls_used].join("|") : null;
  S.rolled = key !== null && S.diceKey !== undefined && key !== S.diceKey;
  if (S.rolled) $("dice-live").textContent = t("web.rolled", {n: g.rolls_used, max: g.max_rolls, dice: g.dice.join(" ")});
  S.diceKey = key;
}

export function renderGame() {
  const g = S.game;
  S.focusBefore = focusKey() || S.focusBefore;
  const newGame = $("new-game");
  $("game").hidden = !g;
  if (!g || g.over) newGame.open = true;
  if (!g) return;
  $("game-title").textContent = [g.practice ? t("practice.label", {rules: g.title}) : g.title, t("turn", {round: g.round, turns: g.turns}),
    g.n_players === 2 ? "vs " + g.players[1].name : null].filter(Boolean).join("  ·  ");
  $("status").textContent = g.status;
  renderStage(g);
  announce(g);
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
    if (g.result.history_number) {  // the game is in the history: its review, as `yahtzee-solve review N`
      res.append(el("p", {}, el("a", {id: "review-link", href: "/review?game=" + g.result.history_number, "data-nav": true,
        text: t("web.review.link")})));
    }
  }
  const key = S.focusBefore || (document.activeElement === document.body ? S.focusWant : null);
  S.focusBefore = null;
  renderControls();
  refocus(key);
}

// The card is two tables, the upper section and the lower: one under the other on a wide screen, side by
// side on a phone, so that the dice, the roll button and the whole card fit one screen.
function renderCard() {
  const g = S.game;
  const info = S.text.rules[g.rules];
  const pv = g.preview;
  const part = (cls) => {
    const head = el("tr", {}, el("th", {scope: "col", class: "num", text: "#"}), el("th", {scope: "col", class: "boxname", text: t("box")}));
    g.players.forEach((p, i) => head.append(el("th", {scope: "col", class: "player" + (i === g.current && !g.over ? " mover" : ""), text: p.column})));
    const body = el("tbody");
    return {table: el("table", {class: cls}, el("thead", {}, head), body), body};
  };
  const upper = part("card-upper");
  const lower = part("card-lower");
  const row = (body, num, label, cells, cls) => {
    const tr = el("tr", {class: cls || null}, el("td", {class: "num", text: num}), el("th", {scope: "row", class: "boxname", text: label}));
    for (const c of cells) tr.append(c);
    body.append(tr);
  };
  const boxRow = (body, c) => {
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
    row(body, String(c + 1), info.boxes[c], cells);
  };
  for (let c = 0; c < info.n_upper; c++) boxRow(upper.body, c);
  row(upper.body, "", t("upper_subtotal"), g.players.map((p) => el("td", {class: p.upper_subtotal >= info.upper_threshold ? "good" : "", text: `${p.upper_subtotal}/${info.upper_threshold}`})), "sum");
  row(upper.body, "", t("upper_bonus"), g.players.map((p) => el("td", {class: p.upper_bonus ? "good" : "", text: p.upper_bonus ? "+" + p.upper_bonus : (p.upper_done ? "0" : "")})), "sum");
  for (let c = info.n_upper; c < info.boxes.length; c++) boxRow(lower.body, c);
  if (info.yahtzee_bonus) {
    row(lower.body, "", t("yahtzee_bonus", {yahtzee: info.boxes[info.yahtzee_box]}), g.players.map((p, i) => {
      const extra = i === g.current && pv && pv.yahtzee_bonus && !g.over ? "+" + pv.yahtzee_bonus : "";
      return el("td", {class: extra ? "good" : ""}, String(p.yahtzee_bonus) + (extra ? " " + extra : ""));
    }), "sum");
  }
  row(lower.body, "", t("total"), g.players.map((p) => el("td", {class: "total", text: String(p.total)})), "total-row");
  $("card").replaceChildren(upper.table, lower.table);
}

function boxKeys(ev) {
  if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
  const buttons = [...document.querySelectorAll("#card button[data-box]:not([disabled])")];
  const i = buttons.indexOf(ev.target);
  const next = buttons[(i + (ev.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length];
  if (next) next.focus();
  ev.preventDefault();
}
