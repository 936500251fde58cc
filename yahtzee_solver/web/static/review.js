// The review page: a finished game's decisions, the best ones and what each lost (`yahtzee-solve review`).
import {$, S, el, fmt, showError, t} from "./core.js";
import {api} from "./api.js";

export async function loadReview() {
  const q = new URLSearchParams(location.search);
  const game = /^\d+$/.test(q.get("game") || "") ? q.get("game") : "";
  const player = q.get("player") || "you";  // you or cpu; a coach game's player by name
  const p = new URLSearchParams({player});
  if (game) p.set("game", game);
  const out = $("review-result");
  try {
    const r = await api("GET", "/api/review?" + p.toString());
    fillGames(r.games, String(r.number));
    fillPlayers(r.names, r.player);
    const tbl = el("table", {class: "ranked", id: "review-table"});
    // the endgame's winning chance given up, as the terminal's review shows it: only when the game has one
    const win = r.rows.some((d) => d.win_lost !== null && d.win_lost !== undefined);
    const heads = ["review.col_turn", "review.col_dice", "review.col_rolls", "review.col_choice", "review.col_best", "review.col_loss"];
    if (win) heads.push("review.col_win");
    tbl.append(el("thead", {}, el("tr", {}, ...heads.map((h, i) => el("th", {scope: "col", class: [0, 2, 5, 6].includes(i) ? "num" : null, text: t(h)})))));
    const costly = new Set(r.costliest);
    tbl.append(el("tbody", {}, ...r.rows.map((d, i) => el("tr", {class: costly.has(i) ? "costly" : (d.loss === 0 ? "best" : null)},
      el("td", {class: "num", text: String(d.turn)}), el("td", {text: d.dice}),
      el("td", {class: "num", text: d.rolls_left === null ? "–" : String(d.rolls_left)}),
      el("td", {text: d.choice}), el("td", {text: d.best}),
      el("td", {class: "num", text: d.loss === 0 ? "0" : "−" + fmt(d.loss)}),
      ...(win ? [el("td", {class: "num", text: winLost(d.win_lost)})] : [])))));
    out.replaceChildren(...r.lines.map((l) => el("p", {class: "review-line", text: l})), el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": t("web.nav.review")}, tbl));
    if (r.players >= 2) loadTable(out, r.number);
  } catch (e) {
    if (e.body && e.body.games) fillGames(e.body.games, "");
    out.replaceChildren(el("p", {text: e.message}));
  }
}

// Every player's luck and skill split and the chart of the chances by round (a game of two or more):
// solved after the review is shown, since it takes seconds from the early rounds.
async function loadTable(out, number) {
  const box = el("section", {id: "review-table-players", "aria-live": "polite"}, el("p", {class: "note pending", text: t("web.computing")}));
  out.append(box);
  try {
    const r = await api("GET", "/api/review/table?game=" + number, undefined, true);  // quiet: the page stays usable
    const parts = [el("p", {text: r.split_title}), el("ul", {class: "splits"}, ...r.splits.map((s) => el("li", {text: s})))];
    if (r.chart) {
      const doc = new DOMParser().parseFromString(r.chart, "image/svg+xml");
      const svg = document.importNode(doc.documentElement, true);
      const legend = el("ul", {class: "chart-legend"}, ...r.names.map((n, i) => el("li", {class: "p" + (i % 8)}, el("span", {class: "swatch", "aria-hidden": "true"}), n)));
      parts.push(el("figure", {class: "chance-figure"}, el("figcaption", {text: t("web.coach.chart_title")}), svg, legend));
    }
    box.replaceChildren(...parts);
  } catch (e) {
    box.replaceChildren(el("p", {class: "note", text: e.message}));
  }
}

// A winning chance given up, in percentage points; empty outside the exact endgame.
function winLost(x) {
  if (x === null || x === undefined) return "";
  return x === 0 ? "0" : "−" + (100 * x).toFixed(2) + " %";
}

// The players to choose from: a coach game's names, else you and the CPU (the page's own words).
function fillPlayers(names, current) {
  const sel = $("review-player");
  const opts = names ? names.map((n) => el("option", {value: n, text: n}))
    : [el("option", {value: "you", text: t("web.review.you")}), el("option", {value: "cpu", text: t("web.review.cpu_player")})];
  sel.replaceChildren(...opts);
  sel.value = names ? current : (current === "cpu" ? "cpu" : "you");
}

function fillGames(games, current) {
  const sel = $("review-game");
  sel.replaceChildren(...games.map((g) => el("option", {value: String(g.number),
    text: `${g.number}. ${g.date.slice(0, 16).replace("T", " ")} · ${g.rules_title} · ${g.opponent_name} · ${g.scores.join(" : ")}`})));
  if (current) sel.value = current;
}

function go() {
  const p = new URLSearchParams({game: $("review-game").value, player: $("review-player").value});
  history.replaceState(null, "", "/review?" + p.toString());
  loadReview();
}

$("review-game").addEventListener("change", go);
$("review-player").addEventListener("change", go);
