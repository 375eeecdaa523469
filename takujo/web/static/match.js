// The match page: one seat's (or a spectator's) live table. The server pushes the seat's
// state over a WebSocket after every change; actions go back over it.
import { api, ApiError, copyButton, CardBook, currentLang, el, langSwitch, loadTexts, t } from "./common.js";
import { BoardContext, dice } from "./board-kit.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
const tokenKey = `takujo.token.${matchId}`;
if (params.get("token")) {
  localStorage.setItem(tokenKey, params.get("token"));
  params.delete("token");
  history.replaceState(null, "", location.pathname + (params.toString() ? `?${params}` : ""));
}
const token = localStorage.getItem(tokenKey);

let lang = currentLang();
let state = null;
let book = null;
let board = null;
let socket = null;
let log = [];
let retry = 0;

const $ = (id) => document.getElementById(id);

async function start() {
  await loadTexts(lang);
  connect();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ lang });
  if (token) query.set("token", token);
  socket = new WebSocket(`${proto}://${location.host}/ws/matches/${encodeURIComponent(matchId)}?${query}`);
  setStatus(t("connecting"));
  socket.onopen = () => { retry = 0; setStatus(""); };
  socket.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  socket.onclose = (ev) => {
    if (ev.code === 4404 || ev.code === 4403) return;
    setStatus(t("reconnecting"));
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  };
}

function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  else toast(t("not_connected"));
}

async function onMessage(msg) {
  if (msg.type === "error") { toast(msg.message); return; }
  if (msg.type !== "state") return;
  const fresh = !state || state.lang !== msg.lang || msg.events.length && log.length && msg.events[0].seq <= log[log.length - 1].seq;
  if (!state || state.game !== msg.game) {
    book = new CardBook(await api(`/api/matches/${encodeURIComponent(matchId)}/catalogue`));
    board = await loadBoard(msg.game);
  }
  log = fresh ? msg.events : log.concat(msg.events);
  state = msg;
  draw();
}

async function loadBoard(game) {
  try { return await import(`/static/boards/${game}.js`); }
  catch { return await import("/static/boards/generic.js"); }
}

function draw() {
  document.querySelectorAll(".popover").forEach((n) => n.remove());  // their anchors are redrawn
  document.title = `${state.title} — takujo`;
  $("title").textContent = state.title;
  $("whoami").textContent = state.seat === null ? t("spectating") : t("you_are", { n: state.seat });
  $("lang").replaceChildren(langSwitch(lang, async (l) => { lang = l; await loadTexts(l); send({ type: "lang", lang: l }); }));
  drawSeats();
  const ctx = new BoardContext({ lang, book, state, act: (notation) => send({ type: "act", version: state.version, action: notation }) });
  try { board.render($("board"), state, ctx); }
  catch (err) { console.error(err); (import("/static/boards/generic.js")).then((g) => g.render($("board"), state, ctx)); }
  drawDecision(ctx);
  drawLog();
  drawOutcome();
  document.body.dataset.version = String(state.version);
  document.body.dataset.status = state.status;
  document.body.dataset.toAct = state.actions.length ? "me" : "";
}

function drawSeats() {
  const mine = state.seat;
  $("seats").replaceChildren(...state.seats.map((s) => {
    const who = s.seat === mine ? t("you_player", { n: s.seat }) : t("player", { n: s.seat });
    const what = s.kind === "bot" ? t("bot", { name: s.bot }) : s.stand_in ? t("stand_in", { name: s.stand_in }) : t("person");
    const chip = el(`div.seat-chip${s.to_act ? ".to-act" : ""}${s.connected ? ".online" : ""}`, { dataset: { seat: String(s.seat) } },
      el("span.dot", { title: s.connected ? t("online") : t("offline") }),
      el("span.seat-name", {}, who), el("span.seat-kind", {}, what),
      s.to_act ? el("span.badge", {}, s.kind === "bot" || s.stand_in ? t("thinking") : t("to_act")) : null,
      s.idle_seconds >= 30 ? el("span.idle", {}, t("idle", { s: Math.round(s.idle_seconds) })) : null);
    if (s.may_take_over && mine !== null && mine !== s.seat) {
      chip.append(el("button.small", { type: "button", onclick: () => seatCall(`/api/matches/${matchId}/seats/${s.seat}/stand-in`) }, t("hand_to_bot")));
    }
    if (s.seat === mine && s.stand_in) {
      chip.append(el("button.small", { type: "button", onclick: () => seatCall(`/api/matches/${matchId}/seats/return`) }, t("take_back")));
    }
    return chip;
  }));
}

async function seatCall(path) {
  try { await api(path, { method: "POST", token }); } catch (err) { toast(err.message); }
}

function drawDecision(ctx) {
  const box = $("decision");
  const pend = state.pending;
  const parts = [];
  if (state.outcome) {
    box.replaceChildren();
    return;
  }
  if (state.actions.length) {
    parts.push(el("div.prompt", {}, state.prompt || t("your_turn")));
    const groups = new Map();
    for (const a of state.actions) {
      if (!groups.has(a.verb)) groups.set(a.verb, []);
      groups.get(a.verb).push(a);
    }
    const list = el("div.action-list", { role: "list" });
    for (const [verb, actions] of groups) {
      const group = el("details.action-group", { open: groups.size <= 3 || actions.length <= 4 ? true : null },
        el("summary", {}, `${actions[0].label.split(":")[0]} (${actions.length})`),
        ...actions.map((a) => el("button.action", { type: "button", role: "listitem", dataset: { notation: a.notation },
          onclick: () => send({ type: "act", version: state.version, action: a.notation }) }, a.label)));
      list.append(group);
    }
    parts.push(list);
  } else if (pend) {
    const waiting = (pend.players || []).map((p) => ctx.player(p)).join(", ");
    parts.push(el("div.waiting", {}, el("span.spinner"), t("waiting_for", { who: waiting })));
  }
  if (state.undo) parts.push(el("button.undo", { type: "button", onclick: () => send({ type: "undo" }) }, t("undo")));
  box.replaceChildren(...parts);
}

function drawLog() {
  const box = $("log");
  const notices = (state.notices || []).map((n) => el("li.notice", {}, n.text));
  box.replaceChildren(...log.slice(-200).map((e) => el(`li.event.ev-${e.e}`, { dataset: { seq: String(e.seq) } },
    e.faces ? dice(e.faces) : null, e.text)), ...notices);
  box.scrollTop = box.scrollHeight;
}

function drawOutcome() {
  const box = $("outcome");
  if (!state.outcome) { box.hidden = true; return; }
  box.hidden = false;
  const record = `/api/matches/${matchId}/record` + (token ? `?token=${encodeURIComponent(token)}` : "");
  box.replaceChildren(
    el("h2", {}, t("game_over")),
    el("p.outcome-text", {}, state.outcome_text),
    el("div.buttons", {},
      el("a.button", { href: record, download: `${matchId}.jsonl` }, t("download_record")),
      el("a.button", { href: `/replay/${matchId}` }, t("open_replay")),
      token ? el("button", { type: "button", onclick: rematch }, t("rematch")) : null,
      el("a.button", { href: "/" }, t("lobby"))));
}

async function rematch() {
  try {
    const res = await api(`/api/matches/${matchId}/rematch`, { method: "POST", token });
    location.href = `/match/${res.match}?token=${encodeURIComponent(res.token)}`;
  } catch (err) { toast(err.message); }
}

function setStatus(text) { $("status").textContent = text; $("status").hidden = !text; }

function toast(text) {
  const node = el("div.toast", { role: "alert" }, text);
  $("toasts").append(node);
  setTimeout(() => node.remove(), 6000);
}

start().catch((err) => toast(err instanceof ApiError ? err.message : String(err)));
