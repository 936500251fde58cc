// The rules page: the terminal game's rules pages for a rule set.
import {$, S, el, showError} from "./core.js";
import {api} from "./api.js";

$("rules-select").addEventListener("change", loadRules);

export async function loadRules() {
  const rules = $("rules-select").value || (S.game && S.game.rules) || "yahtzee";
  $("rules-select").value = rules;
  try {
    const r = await api("GET", "/api/rules?rules=" + encodeURIComponent(rules));
    $("rules-pages").replaceChildren(...r.pages.map((p) => el("section", {class: "page"}, el("pre", {text: p}))));
  } catch (e) {
    showError(e.message);
  }
}
