// The dice: five buttons that hold and release, drawn from the game the server sent.
import {$, S, el, t} from "./core.js";
import {myTurn, toggleHold} from "./game.js";

const PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]};

export function dieFace(d) {
  const face = el("span", {class: "face", "aria-hidden": "true"});
  for (let i = 0; i < 9; i++) face.append(el("span", {class: PIPS[d] && PIPS[d].includes(i) ? "pip" : "nopip"}));
  return face;
}

export function renderDice() {
  const g = S.game;
  const box = $("dice");
  box.replaceChildren();
  const canHold = myTurn() && g.dice && !g.locked;
  const suggested = S.hint && S.hint.kind === "keep" && S.hint.options[0].held;
  for (let i = 0; i < 5; i++) {
    const d = g.dice ? g.dice[i] : 0;
    const held = g.dice && g.held[i] && !g.locked;
    const label = g.dice ? `${i + 1}: ${d}${held ? " (" + t("web.held") + ")" : ""}` : `${i + 1}`;
    const b = el("button", {
      type: "button", class: "die" + (held ? " held" : "") + (g.locked && g.dice ? " locked" : "")
        + (S.rolled && !(g.held[i] && g.rolls_used > 1) ? " rolling" : "")
        + (suggested && suggested[i] ? " suggested" : "") + (g.dice ? "" : " blank"),
      "data-i": i, "aria-pressed": held ? "true" : "false", "aria-label": label, disabled: !canHold,
      "data-face": d, onclick: () => toggleHold(i),
    }, g.dice ? dieFace(d) : el("span", {class: "face"}), el("span", {class: "tag", text: held ? t("web.held") : "\u00a0"}));
    box.append(b);
  }
}
