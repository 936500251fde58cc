// Shared by every part of the page: its state, the DOM helpers and its words.
// No rule of the game lives in the page's scripts: legality, dice, points, previews, hints and the CPU's
// moves all come from the server (the same engine as the terminal game).

export const TOKEN = document.querySelector('meta[name="yahtzee-token"]').content;
export const SERVER_LANG = document.querySelector('meta[name="yahtzee-lang"]').content;

/** The page's state: the language and texts, the config, the game shown and what is in flight. */
export const S = {
  lang: "en", text: null, config: null, game: null, busy: false, cpuLoop: false,
  hint: null, events: [], pendingZero: null, advTimer: null, advSeq: 0, advLinkCard: "", gameLoaded: null,
};

/** The page's views by path. */
export const VIEWS = {"/": "game", "/advisor": "advisor", "/rules": "rules", "/records": "records", "/review": "review", "/coach": "coach"};

export const $ = (id) => document.getElementById(id);

export function view() { return VIEWS[location.pathname] || "game"; }

export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

/** The text of ``key`` in the page's language, with ``{name}`` filled from ``params``. */
export function t(key, params) {
  let s = (S.text && S.text.messages[key]) || key;
  if (params) s = s.replace(/\{(\w+)(![rs])?\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return s;
}

export function fmt(x) { return Number(x).toFixed(2); }

export function sleep(ms) { return new Promise((res) => setTimeout(res, ms)); }

/** The red banner: something went wrong (``""`` hides it). */
export function showError(msg) {
  const box = $("error");
  box.textContent = msg ? t("web.error") + ": " + msg : "";
  box.hidden = !msg;
}

/** The quiet banner: something the player should know that is not an error (``""`` hides it). */
export function showNotice(msg) {
  const box = $("notice");
  box.textContent = msg || "";
  box.hidden = !msg;
}
