// The API client: every request the page sends, with the token on each POST.
import {$, S, TOKEN, showError, t} from "./core.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body.error || "error " + status);
    this.status = status;
    this.code = body.code || "";
    this.body = body;
  }
}

// A request that takes longer than this shows "Computing…" (the first hint after an install compiles).
const SLOW_MS = 300;
let inFlight = 0;
let slowTimer = null;

function computing(on) {
  if (on) {
    if (inFlight++ === 0) slowTimer = setTimeout(() => { $("computing").hidden = false; document.body.classList.add("computing"); }, SLOW_MS);
  } else if (--inFlight === 0) {
    clearTimeout(slowTimer);
    $("computing").hidden = true;
    document.body.classList.remove("computing");
  }
}

/**
 * One API request; a refusal throws :class:`ApiError` (its ``body`` is the reply, with ``game`` on a 409 ``stale``).
 * ``quiet``: no "Computing…" banner (a request that runs beside the player's input, as the hint's reasons).
 */
export async function api(method, path, body, quiet = false) {
  const url = path + (path.includes("?") ? "&" : "?") + "lang=" + S.lang;
  const opts = {method, headers: {}};
  if (method === "POST") {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-Yahtzee-Token"] = TOKEN;
    opts.body = JSON.stringify(body || {});
  }
  let resp, data;
  if (!quiet) computing(true);
  try {
    try {
      resp = await fetch(url, opts);
    } catch (e) {
      throw new ApiError(0, {error: String(e.message || e), code: "network"});
    }
    data = await resp.json().catch(() => ({error: resp.statusText, code: "bad_reply"}));
  } finally {
    if (!quiet) computing(false);
  }
  if (!resp.ok) {
    if (data.code === "bad_token") {
      showError(t("web.reload"));
      setTimeout(() => location.reload(), 1200);
    }
    throw new ApiError(resp.status, data);
  }
  return data;
}
