// Shared by the lobby, the match page and the replay viewer: the API, the interface's
// texts (from the server's catalogue, ui.web.client.*), card lookups and small DOM helpers.

export const LANGS = ["ja", "en"];

export function currentLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(asked)) { localStorage.setItem("takujo.lang", asked); return asked; }
  const kept = localStorage.getItem("takujo.lang");
  if (LANGS.includes(kept)) return kept;
  return (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
}

export function setLang(lang) { localStorage.setItem("takujo.lang", lang); }

let TEXTS = {};
export async function loadTexts(lang) {
  TEXTS = await api(`/api/ui?lang=${lang}`);
  document.documentElement.lang = lang;
  return TEXTS;
}

/** An interface text by key (ui.web.client.KEY), with {name} arguments filled in. */
export function t(key, args = {}) {
  const template = TEXTS[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in args ? String(args[name]) : `{${name}}`));
}

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

// ----- who this browser is: a player key (a random secret, not an account), a name, and
// the tokens of the seats it holds (several seats of one match may be played from one browser)

/** This browser's player key, made the first time (24 random bytes, URL-safe base64). */
export function playerKey() {
  let key = localStorage.getItem("takujo.player");
  if (!key || !/^[A-Za-z0-9_-]{22,128}$/.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("takujo.player", key);
  }
  return key;
}

/** Use another device's player key here; false if it is not one. */
export function adoptPlayerKey(key) {
  const clean = String(key || "").trim();
  if (!/^[A-Za-z0-9_-]{22,128}$/.test(clean)) return false;
  localStorage.setItem("takujo.player", clean);
  return true;
}

export function myName() { return localStorage.getItem("takujo.name") || ""; }
export function setMyName(name) { if (name) localStorage.setItem("takujo.name", name); }

/** The tokens of the seats this browser holds in a match: {seat: token}. */
export function seatTokens(matchId) {
  try { return JSON.parse(localStorage.getItem(`takujo.seats.${matchId}`) || "{}") || {}; } catch { return {}; }
}

export function rememberSeat(matchId, seat, token) {
  const all = seatTokens(matchId);
  all[String(seat)] = token;
  localStorage.setItem(`takujo.seats.${matchId}`, JSON.stringify(all));
}

/** A short message at the page's corner (the page's #toasts), for six seconds. */
export function toast(text) {
  const node = el("div.toast", { role: "alert" }, text);
  document.getElementById("toasts").append(node);
  setTimeout(() => node.remove(), 6000);
}

/** Time left on a clock: "4:59", "1:02:03", "2d 3h"; "out of time" at zero. */
export function clockText(left) {
  if (left <= 0) return t("time_out");
  const s = Math.floor(left);
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** A bot level's name for people ("Hard"), the level itself in `title`. */
export function botName(level) {
  const key = `bot_${String(level).replace(/[^a-z0-9]+/gi, "_")}`;
  const name = t(key);
  return name === key ? String(level) : name;
}

/** A bot's seat in words ("Bot: Hard"; `key` "stand_in": "stand-in: Hard"), with its level
 * ("ismcts:1000") in a tooltip. */
export function botLabel(level, key = "bot_level") {
  return el("span.bot-level", { title: String(level) }, t(key, { name: botName(level) }));
}

export async function api(path, { method = "GET", body, token, text } = {}) {
  const headers = { "X-Takujo-Player": playerKey() };
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let payload;
  if (text !== undefined) { headers["Content-Type"] = "text/plain"; payload = text; }
  else if (body !== undefined) { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
  const res = await fetch(path, { method, headers, body: payload });
  const isJson = (res.headers.get("content-type") || "").includes("json");
  const data = isJson ? await res.json() : await res.text();
  if (!res.ok) throw new ApiError(res.status, isJson ? data : null);
  return data;
}

/** el("div.card.face-down", {title: "x", onclick: f}, child, "text", ...) */
export function el(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const node = document.createElement(tag || "div");
  if (classes.length) node.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Card lookups over a game's catalogue (GET /api/matches/ID/catalogue): by the reference a
 * view uses (an instance number, a card id or key), whatever the game's catalogue shape.
 */
export class CardBook {
  constructor(catalogue) {
    this.catalogue = catalogue || {};
    this.byRef = new Map();
    this.tables = {};
    const cards = this.catalogue.cards || [];
    const byId = new Map(cards.map((c) => [String(c.id), c]));
    for (const c of cards) {
      if (Array.isArray(c.instances)) for (const i of c.instances) this.byRef.set(String(i), c);
      this.byRef.set(String(c.id), this.byRef.get(String(c.id)) || c);
      if (c.key !== undefined) this.byRef.set(String(c.key), c);
    }
    if (Array.isArray(this.catalogue.instances)) {
      this.catalogue.instances.forEach((id, i) => { if (byId.has(String(id))) this.byRef.set(String(i), byId.get(String(id))); });
    }
    for (const [name, value] of Object.entries(this.catalogue)) {
      if (Array.isArray(value) && name !== "cards" && name !== "instances") {
        const m = new Map();
        for (const row of value) {
          if (row && typeof row === "object") {
            if (row.id !== undefined) m.set(String(row.id), row);
            if (row.key !== undefined) m.set(String(row.key), row);
          }
        }
        this.tables[name] = m;
      }
    }
  }
  /** The catalogue entry of a card reference (or of a row of another table: "board", "items" ...). */
  get(ref, table = null) {
    if (ref === null || ref === undefined) return null;
    if (table) return (this.tables[table] && this.tables[table].get(String(ref))) || null;
    return this.byRef.get(String(ref)) || null;
  }
}

/** The name of a catalogue entry in `lang`, and the other language's name. */
export function names(entry, lang) {
  if (!entry) return ["?", ""];
  const main = entry[`name_${lang}`] || entry.name_ja || entry.name_en || String(entry.id);
  const other = lang === "ja" ? entry.name_en : entry.name_ja;
  return [main, other && other !== main ? other : ""];
}

export function text(entry, lang) {
  if (!entry) return "";
  return entry[`text_${lang}`] || entry.text_ja || entry.text_en || "";
}

/** A language switch: two buttons, the current one pressed. */
export function langSwitch(lang, onChange) {
  return el("div.lang-switch", { role: "group", "aria-label": "language" },
    ...LANGS.map((l) => el("button", {
      type: "button", "aria-pressed": String(l === lang), "data-lang": l,
      onclick: () => { if (l !== lang) { setLang(l); onChange(l); } },
    }, l === "ja" ? "日本語" : "English")));
}

export function copyButton(value, label) {
  return el("button.copy", {
    type: "button", onclick: async (ev) => {
      try { await navigator.clipboard.writeText(value); ev.target.textContent = "✓"; }
      catch { prompt(label, value); }
    },
  }, label);
}
