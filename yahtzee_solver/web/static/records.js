// The records page: unaided games, then practice.
import {$, el, showError, t} from "./core.js";
import {api} from "./api.js";

export async function loadRecords() {
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
    // As `records` shows them: no wins, losses or draws in solitaire; against the CPU an unfinished game is a
    // forfeit, counted among the losses, and the Abandoned column says how many of them (a note says so).
    const cell = (row, c) => {
      const solo = row.opponent === "solo";
      if (solo && ["wins", "losses", "draws"].includes(c)) return "–";
      if (c === "abandoned" && !solo) return row.forfeits ? t("web.rec.forfeits", {n: row.forfeits}) : "0";
      const v = row[c];
      return v === null ? "–" : (c === "average" ? v.toFixed(1) : String(v));
    };
    const table = (rows, id) => {
      const tbl = el("table", {class: "ranked", id});
      tbl.append(el("thead", {}, el("tr", {}, el("th", {scope: "col", text: t("rec.rules")}), el("th", {scope: "col", text: t("rec.opponent")}),
        ...cols.map((c) => el("th", {scope: "col", class: "num", text: t("rec." + c)})))));
      tbl.append(el("tbody", {}, ...rows.map((row) => el("tr", {}, el("td", {text: row.rules_title}), el("td", {text: row.opponent_name}),
        ...cols.map((c) => el("td", {class: "num", text: cell(row, c)}))))));
      // wider than a phone: it scrolls in its own box (reachable by keyboard), not the page
      return el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": t("web.nav.records")}, tbl);
    };
    const unaided = r.records.filter((row) => !row.practice);
    const practice = r.records.filter((row) => row.practice);
    const parts = [];
    if (unaided.length) parts.push(table(unaided, "records-unaided"));
    if (practice.length) parts.push(el("h2", {text: t("rec.practice_title")}), table(practice, "records-practice"));
    if (r.records.some((row) => row.opponent !== "solo" && row.forfeits)) parts.push(el("p", {class: "note-small", text: t("web.rec.forfeit_note")}));
    box.replaceChildren(...parts);
  } catch (e) {
    showError(e.message);
  }
}
