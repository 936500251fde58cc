// The API client: every request the page sends, with the token on each POST.
import {S, TOKEN, showError, t} from "./core.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body.error || "error " + status);
    this.status = status;
    this.code = body.code || "";
    this.body = body;
  }
}

export async function api(method, path, body) {
  const url = path + (path.includes("?") ? "&" : "?") + "lang=" + S.lang;
  const opts = {method, headers: {}};
  if (method === "POST") {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-Yahtzee-Token"] = TOKEN;
    opts.body = JSON.stringify(body || {});
  }
  let resp;
  try {
    resp = await fetch(url, opts);
  } catch (e) {
    throw new ApiError(0, {error: String(e.message || e), code: "network"});
  }
  const data = await resp.json().catch(() => ({error: resp.statusText, code: "bad_reply"}));
  if (!resp.ok) {
    if (data.code === "bad_token") {
      showError(t("web.reload"));
      setTimeout(() => location.reload(), 1200);
    }
    throw new ApiError(resp.status, data);
  }
  return data;
}
