// The advisor page: any position, ranked keeps or boxes, and a link to share it.
import {$, S, el, fmt, showError, t, view} from "./core.js";
import {api} from "./api.js";
import {boxNotes} from "./hint.js";

export function openAdvisor() {
  const q = new URLSearchParams(location.search);
  const rules = S.config.rules.includes(q.get("rules")) ? q.get("rules") : ($("adv-rules").value || "yahtzee");
  $("adv-rules").value = rules;
  if (q.has("dice")) $("adv-dice").value = q.get("dice");
  if (["0", "1", "2"].includes(q.get("r"))) $("adv-rolls").value = q.get("r");
  buildAdvCard(rules, {});
  // a link's card goes to the server as written, which reads it as --card does (aliases, ";" or
  // blanks between entries, "-" for an open box); the fields are then filled as it read them
  S.advLinkCard = q.get("card") || "";
  askAdvisor();
}

export function buildAdvCard(rules, values) {
  S.advLinkCard = "";
  const info = S.text.rules[rules];
  const box = $("adv-card");
  box.replaceChildren();
  const field = (slug, label) => el("label", {class: "adv-box"}, el("span", {text: label}),
    el("input", {type: "number", min: "0", step: "1", inputmode: "numeric", "data-slug": slug, value: values[slug] ?? "",
      placeholder: "—", oninput: () => { S.advLinkCard = ""; scheduleAdvisor(); }}));
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
  const linked = S.advLinkCard;
  const card = linked || advCardText();
  if (card) q.set("card", card);
  const dice = $("adv-dice").value.replace(/[^1-6]/g, "");
  q.set("dice", dice);
  q.set("r", $("adv-rolls").value);
  const link = "/advisor?" + q.toString();
  $("adv-share").href = link;
  if (view() === "advisor") history.replaceState(null, "", link);
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
    if (linked) {  // the link's card, box by box, as the server read it (no Yahtzee bonus: an empty field)
      const read = {...r.card};
      if (!read["yahtzee-bonus"]) delete read["yahtzee-bonus"];
      buildAdvCard(r.rules, read);
    }
    showError("");
    $("adv-now").textContent = t("web.adv.now", {ev: fmt(r.expected_now)});
    const tbl = el("table", {class: "ranked", id: "adv-table"});
    const heads = r.kind === "keep" ? [t("web.adv.keep"), t("web.adv.reroll")] : [t("web.adv.box"), t("web.adv.points")];
    const notes = r.kind === "box" && r.options.some((o) => boxNotes(o, r.rules));  // as the CLI's note column
    tbl.append(el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", {scope: "col", text: h})),
      el("th", {scope: "col", class: "num", text: t("web.adv.expected")}), el("th", {scope: "col", class: "num", text: t("web.adv.loss")}),
      notes ? el("th", {scope: "col", text: t("web.adv.notes")}) : null)));
    const body = el("tbody");
    for (const [i, o] of r.options.entries()) {
      // keeping all five rerolls nothing: it scores now, in the box its text names (there is no pass)
      const a = r.kind === "keep" ? [o.keep.join(" ") || "–", o.stop ? o.text : (o.reroll.join(" ") || "–")] : [o.name, String(o.points)];
      body.append(el("tr", {class: i === 0 ? "best" : null}, ...a.map((x) => el("td", {text: x})),
        el("td", {class: "num", text: fmt(o.expected)}), el("td", {class: "num", text: o.loss === 0 ? t("hint.best") : "−" + fmt(o.loss)}),
        notes ? el("td", {class: "notes", text: boxNotes(o, r.rules).replace(/^ \((.*)\)$/, "$1")}) : null));
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
