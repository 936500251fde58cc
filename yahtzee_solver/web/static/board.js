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
  for (const b of document.querySelectorAll("#card button[data-box]")) b.disabled = !myTurn() || !g.dice;
  for (const b of document.querySelectorAll("#dice .die")) b.disabled = !myTurn() || !g.dice || g.locked;
  refocus(key);
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
  const key = S.focusBefore || (document.activeElement === document.body ? S.focusWant : null);
  S.focusBefore = null;
  renderControls();
  refocus(key);
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
