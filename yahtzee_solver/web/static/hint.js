// The hint panel: the advisor's ranked options for the dice on the table, with the chances of winning.
import {$, S, el, fmt, showError, t} from "./core.js";
import {api} from "./api.js";
import {renderGame} from "./board.js";
import {enqueue, myTurn, resync} from "./game.js";

/**
 * Ask for the hint (queued behind the actions before it; input meanwhile waits behind it).  The first hint of an
 * unaided game asks first, since it makes the game practice ("do not ask again" is kept in the browser).
 */
export function showHint() {
  if (!myTurn()) return null;
  if (!S.game.practice && localStorage.getItem("yahtzee-hint-nowarn") !== "1") {
    $("hint-warn-never").checked = false;
    $("hint-warn-dialog").showModal();
    return null;
  }
  return askHint();
}

$("hint-warn-dialog").addEventListener("close", () => {
  if ($("hint-warn-dialog").returnValue !== "ok") { $("hint").focus(); return; }
  if ($("hint-warn-never").checked) localStorage.setItem("yahtzee-hint-nowarn", "1");
  askHint();
});

function askHint() {
  return enqueue(async () => {
    if (!myTurn()) return;
    S.busy = true;
    $("hint-panel").setAttribute("aria-busy", "true");
    try {
      const h = await api("POST", "/api/game/hint", {version: S.game.version});
      S.hint = h;
      $("hint-live").textContent = hintLine(h);
      if (h.practice) {
        S.events = S.events.concat([h.practice]).slice(-8);
        S.game.practice = true;
      }
    } catch (e) {
      if (e.code === "stale" && e.body.game !== undefined) resync(e);
      else showError(e.message);
      return;
    } finally {
      S.busy = false;
      $("hint-panel").removeAttribute("aria-busy");
    }
    renderGame();
  });
}

// -- the reasons of the best options ----------------------------------------------------------------
// Asked with the hint panel's "Why?" button, as the terminal's `why` beside `h`: from an early card they take
// seconds of both cores, so a hint never waits for them.  They run beside the player's input (not queued before
// it) and are shown under the ranking if the hint is still the one on screen; the game having moved on, dropped.
async function askWhy(h) {
  if (!h || h.kind === "roll" || h.why || h.whyBusy) return;
  h.whyBusy = true;
  h.whyError = null;
  renderHint();
  try {
    const w = await api("POST", "/api/game/why", {version: S.game.version});
    if (S.hint !== h) return;
    h.why = w;
  } catch (e) {
    if (S.hint !== h || e.code === "stale") return;
    h.whyError = e.message;
  } finally {
    h.whyBusy = false;
  }
  renderHint();
  const first = document.querySelector("#hint-panel .why-list");
  if (first) $("hint-live").textContent = t("web.hint.why") + ": " + h.why.options[0].sentence;
}

/** The label of a hint row that a reason is about (its keep or its box), else the keep's faces. */
function whyLabel(h, r) {
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const row = h.options.find((o) => (r.keep ? o.keep && same(o.keep, r.keep) : o.box === r.box));
  return row ? row.text : (r.keep ? r.keep.join(" ") : String(r.box));
}

/** The reasons block (figures and sentence of each explained option), as ``hint --why`` prints them. */
export function whyBlock(w, labelOf, cls) {
  const list = el("ul", {class: "why-list"});
  for (const r of w.options) {
    list.append(el("li", {}, el("span", {class: "why-label", text: labelOf(r) + ": "}),
      el("span", {class: "why-figures", text: r.figures}), el("span", {class: "why-sentence", text: r.sentence})));
  }
  return el("div", {class: "why " + (cls || "")}, el("p", {class: "why-head", text: w.head}), list);
}

function renderWhy(panel, h) {
  if (h.kind === "roll") return;
  if (h.why) {
    panel.append(el("h3", {class: "why-title", text: t("web.hint.why")}), whyBlock(h.why, (r) => whyLabel(h, r), "hint-why"));
    return;
  }
  if (h.whyError) panel.append(el("p", {class: "why-wait", text: h.whyError}));
  if (h.whyBusy) panel.append(el("p", {class: "why-wait", role: "status", text: t("web.hint.why_computing")}));
  else panel.append(el("p", {}, el("button", {type: "button", id: "hint-why", text: t("web.hint.why_btn"), onclick: () => askWhy(S.hint)})));
}

/** The bonuses a box earns now and the Joker, as the CLI's notes (" (+100 Yahtzee bonus, Joker)"), or "". */
export function boxNotes(o, rules) {
  const info = S.text.rules[rules || S.game.rules];
  const notes = [];
  if (o.yahtzee_bonus) notes.push(t("web.adv.note.yahtzee_bonus", {points: o.yahtzee_bonus, yahtzee: info.boxes[info.yahtzee_box]}));
  if (o.upper_bonus) notes.push(t("web.adv.note.upper_bonus", {points: o.upper_bonus}));
  if (o.joker) notes.push(t("web.adv.note.joker"));
  return notes.length ? " (" + notes.join(", ") + ")" : "";
}

// The hint's best option in one line: the collapsed panel's summary, and what a screen reader hears.
function hintLine(h) {
  if (h.kind === "roll") return h.text;
  const o = h.options[0];
  const then = h.then ? " → " + h.then.text : "";
  return `${o.text}${then} (${fmt(o.expected)})`;
}

// The panel is a <details>: open on a wide screen, folded to its one-line summary on a phone (the card stays
// on screen); the player's choice is kept for the next hints.
function panelOpen() {
  const kept = localStorage.getItem("yahtzee-hint-open");
  if (kept === "1" || kept === "0") return kept === "1";
  return window.matchMedia("(min-width: 600px)").matches;
}

export function renderHint() {
  const panel = $("hint-panel");
  const h = S.hint;
  panel.hidden = !h;
  if (!h) return;
  const summary = el("summary", {}, el("h2", {text: t("web.btn.hint")}), el("span", {class: "hint-best", text: hintLine(h)}));
  panel.replaceChildren(summary, el("p", {class: "hint-title", text: t("hint.title")}));
  panel.open = panelOpen();
  const w = h.win;  // null in solitaire; the chances of winning against the CPU (shown late in the game)
  const winCols = !!(w && w.shown && h.kind !== "roll");
  if (h.kind === "roll") {
    panel.append(el("p", {text: h.text}));
  } else {
    const tbl = el("table", {class: "ranked"});
    const head = [el("th", {scope: "col", text: t("web.hint.option")}), el("th", {class: "num", text: t("web.hint.expected")}),
      el("th", {class: "num", text: t("web.adv.loss")})];
    if (winCols) head.push(el("th", {class: "num", text: t("web.hint.win")}));
    tbl.append(el("thead", {}, el("tr", {}, ...head)));
    const body = el("tbody");
    const winCell = (o, best) => el("td", {class: "num win", text: (best ? "★ " : "") + o.win_text});
    const boxRow = (cls, label, o, best) => {
      const cells = [el("td", {text: label + " " + o.text + boxNotes(o)}), el("td", {class: "num", text: fmt(o.expected)}), el("td", {})];
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
      const cells = [el("td", {text: o.text + (h.kind === "box" ? boxNotes(o, h.rules) : "")}), el("td", {class: "num", text: fmt(o.expected)}),
        el("td", {class: "num", text: o.loss === 0 ? t("hint.best") : "−" + fmt(o.loss)})];
      if (winCols) cells.push(winCell(o, winBest));
      body.append(el("tr", {class: cls, ...data}, ...cells));
      const sameThen = i === 0 && h.then && h.win_then && h.then.box === h.win_then.box;
      if (i === 0 && h.then) body.append(boxRow("then" + (sameThen ? " win-best" : ""), t("hint.then"), h.then, winBest && sameThen));
      if (winBest && h.win_then && !sameThen) body.append(boxRow("then win-best", t("hint.then"), h.win_then, true));
    });
    tbl.append(body);
    panel.append(tbl);
    if (h.options.length > shown.length) panel.append(el("p", {class: "more", text: t("web.hint.more", {shown: shown.length, n: h.options.length})}));
  }
  renderWhy(panel, h);
  if (w) {
    const lines = winCols ? [w.caption, w.note] : [w.text, w.note];
    lines.filter((x) => x).forEach((x) => panel.append(el("p", {class: "win-note", text: x})));
    // the outlined dice follow the best expected total; say so when the star is on another row
    if (winCols && w.best !== null && w.best !== 0) panel.append(el("p", {class: "star-note", text: t("web.hint.star_apart")}));
  }
}
