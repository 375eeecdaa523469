// The match page: one seat's (or a spectator's) live table. The server pushes the seat's
// state over a WebSocket after every change; actions go back over it.
import { api, ApiError, botLabel, CardBook, clockText, currentLang, el,
  langSwitch, loadTexts, myName, rememberSeat, seatTokens, setMyName, t, toast } from "./common.js";
import { BoardContext, dice, iconText } from "./board-kit.js";
import { helpButton } from "./help.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
// Which seat this tab plays: a join link's token (kept for this tab until the first state
// says its seat, then remembered by seat and the address says ?seat=N, so that a reload, or
// another tab on another seat of the same match, stays itself), else ?seat=N, else the one
// seat this browser holds here.
const tabKey = `takujo.tab.${matchId}`;
if (params.get("token")) {
  sessionStorage.setItem(tabKey, params.get("token"));
  params.delete("token");
  history.replaceState(null, "", location.pathname + (params.toString() ? `?${params}` : ""));
}
function chooseToken() {
  const held = seatTokens(matchId);
  if (sessionStorage.getItem(tabKey)) return sessionStorage.getItem(tabKey);
  if (params.get("seat") !== null && held[params.get("seat")]) return held[params.get("seat")];
  const seats = Object.keys(held);
  if (seats.length === 1 && params.get("seat") === null) return held[seats[0]];
  return localStorage.getItem(`takujo.token.${matchId}`);  // kept by an older version of this page
}
const token = chooseToken();

let lang = currentLang();
let state = null;
let book = null;
let board = null;
let socket = null;
let log = [];
let chat = [];
let retry = 0;
let wasMyTurn = false;

const $ = (id) => document.getElementById(id);

async function start() {
  await loadTexts(lang);
  setUpChat();
  drawAlerts();
  drawHelp();
  connect();
}

function drawHelp() {
  $("help-slot").replaceChildren(helpButton(matchId, () => book, () => lang));
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
  if (msg.type === "chat") { chat = chat.concat(msg.lines).slice(-500); drawChat(); return; }
  if (msg.type === "history") { onHistory(msg); return; }
  if (msg.type !== "state") return;
  const fresh = !state || state.lang !== msg.lang || msg.events.length && log.length && msg.events[0].seq <= log[log.length - 1].seq;
  if (!state || state.game !== msg.game) {
    book = new CardBook(await api(`/api/matches/${encodeURIComponent(matchId)}/catalogue`));
    board = await loadBoard(msg.game);
  }
  log = fresh ? msg.events : log.concat(msg.events);
  state = msg;
  if (state.seat !== null && token) rememberTab(state.seat);
  draw();
  if (fresh && log.length && log[0].seq > 0) send({ type: "history", before: log[0].seq });  // the whole log
  turnSignals();
}

/** Remember this tab's seat: a reload finds its token by ?seat=N. */
function rememberTab(seat) {
  rememberSeat(matchId, seat, token);
  if (params.get("seat") !== String(seat)) {
    params.set("seat", String(seat));
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }
}

/** An older page of the log: put it before what we have, and ask for the one before it. */
function onHistory(page) {
  if (!state || page.lang !== state.lang) return;
  const first = log.length ? log[0].seq : Infinity;
  const older = page.events.filter((e) => e.seq < first);
  log = older.concat(log);
  drawLog();
  if (page.start > 0 && older.length) send({ type: "history", before: page.start });
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
  $("lang").replaceChildren(langSwitch(lang, async (l) => { lang = l; await loadTexts(l); setUpChat(); drawAlerts(); drawHelp(); send({ type: "lang", lang: l }); }));
  drawSeats();
  drawNameForm();
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
    const base = s.seat === mine ? t("you_player", { n: s.seat }) : t("player", { n: s.seat });
    const who = s.name ? (s.seat === mine ? `${s.name} — ${base}` : s.name) : base;
    const what = s.kind === "bot" ? botLabel(s.bot)
      : s.stand_in ? botLabel(s.stand_in, "stand_in")
      : s.opened ? t("person") : t("not_opened");
    const chip = el(`div.seat-chip${s.to_act ? ".to-act" : ""}${s.connected ? ".online" : ""}`, { dataset: { seat: String(s.seat) } },
      el("span.dot", { title: s.connected ? t("online") : t("offline") }),
      el("span.seat-name", {}, who), el("span.seat-kind", {}, what),
      s.to_act ? el("span.badge", {}, s.kind === "bot" || s.stand_in ? t("thinking") : t("to_act")) : null,
      s.idle_seconds >= 30 && s.seat !== mine ? el("span.idle", {}, t("idle", { s: Math.round(s.idle_seconds) })) : null,
      s.clock ? el(`span.clock${s.clock.running ? ".running" : ""}${s.clock.out_of_time ? ".out" : ""}`,
        { dataset: { left: String(s.clock.left), at: String(Date.now()), running: s.clock.running ? "1" : "" } },
        clockText(s.clock.left)) : null);
    if (s.may_take_over && mine !== null && mine !== s.seat) {
      chip.append(el("button.small", { type: "button", onclick: () => seatCall(`/api/matches/${matchId}/seats/${s.seat}/stand-in`) }, t("hand_to_bot")));
    }
    if (s.seat === mine && s.stand_in) {
      chip.append(el("button.small", { type: "button", onclick: () => seatCall(`/api/matches/${matchId}/seats/return`) }, t("take_back")));
    }
    return chip;
  }));
}

// the running clocks count down between states
setInterval(() => {
  for (const node of document.querySelectorAll("#seats .clock.running")) {
    const left = Number(node.dataset.left) - (Date.now() - Number(node.dataset.at)) / 1000;
    node.textContent = clockText(left);
    node.classList.toggle("out", left <= 0);
  }
}, 1000);

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
    const list = el("div.action-list");
    for (const [verb, actions] of groups) {
      const group = el("details.action-group", { open: groups.size <= 3 || actions.length <= 4 ? true : null },
        el("summary", {}, `${actions[0].label.split(":")[0]} (${actions.length})`),
        ...actions.map((a) => el("button.action", { type: "button", dataset: { notation: a.notation },
          onclick: () => send({ type: "act", version: state.version, action: a.notation }) }, iconText(a.label))));
      list.append(group);
    }
    parts.push(list);
  } else if (pend) {
    const waiting = (pend.players || []).map((p) => ctx.player(p)).join(", ");
    parts.push(el("div.waiting", {}, el("span.spinner"), t("waiting_for", { who: waiting })));
  }
  if (state.undo) parts.push(el("button.undo", { type: "button", onclick: () => send({ type: "undo" }) }, t("undo")));
  // actions open at any time (conceding), whoever is to act: asked for confirmation first
  for (const a of state.always || []) {
    parts.push(el("button.always", { type: "button", dataset: { notation: a.notation }, onclick: () => {
      if (window.confirm(t("confirm_always", { label: a.label }))) send({ type: "act", version: state.version, action: a.notation });
    } }, iconText(a.label)));
  }
  box.replaceChildren(...parts);
}

function drawLog() {
  const box = $("log");
  // a notice comes after the events logged before it (its seq: how many there were)
  const rows = log.map((e) => [e.seq, el(`li.event.ev-${e.e}`, { dataset: { seq: String(e.seq) } },
    e.faces ? dice(e.faces) : null, iconText(e.text))]);
  for (const n of state.notices || []) rows.push([(n.seq ?? Infinity) - 0.5, el("li.notice", {}, n.text)]);
  rows.sort((a, b) => a[0] - b[0]);
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
  box.replaceChildren(...rows.map((r) => r[1]));
  if (atEnd) box.scrollTop = box.scrollHeight;
}

/** Taking your seat: your name, once (the last one you used is offered). */
function drawNameForm() {
  const box = $("name-form");
  const mySeat = state.seat === null ? null : state.seats[state.seat];
  if (!mySeat || mySeat.name) { box.hidden = true; box.replaceChildren(); return; }
  if (!box.hidden && box.childElementCount) return;   // keep what is being typed
  const input = el("input", { type: "text", id: "seat-name", maxlength: 24, value: myName(), "aria-label": t("your_name"), autocomplete: "nickname" });
  box.hidden = false;
  box.replaceChildren(el("label", { for: "seat-name" }, t("name_needed")), input,
    el("button.primary", { type: "submit" }, t("take_seat")));
  box.onsubmit = async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      await api(`/api/matches/${encodeURIComponent(matchId)}/seats/name?lang=${lang}`, { method: "POST", token, body: { name } });
      setMyName(name);
    } catch (err) { toast(err.message); }
  };
}

// ----- chat: the players' channel for a seat, the spectators' for a spectator (who also read the players')
function drawChat() {
  const box = $("chat-lines");
  if (!box || !state) return;
  box.replaceChildren(...chat.map((line) => el(`li.chat-line.ch-${line.channel}`, {},
    el("span.chat-name", {}, line.seat === state.seat && line.seat !== null ? t("you_player", { n: line.seat })
      : line.name || (line.seat !== null ? t("player", { n: line.seat }) : t("spectator"))), " ",
    el("span.chat-text", {}, line.text))));
  box.scrollTop = box.scrollHeight;
}

function setUpChat() {
  $("chat-title").textContent = token ? t("chat") : t("chat_spectators");
  $("chat-text").placeholder = t("chat_placeholder");
  $("chat-text").setAttribute("aria-label", t("chat_placeholder"));
  $("chat-send").textContent = t("send");
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    send({ type: "chat", text, name: token ? undefined : myName() || undefined });
    $("chat-text").value = "";
  };
}

// ----- your turn: the title and the icon change, a sound (if chosen), a notification when the tab is hidden
const plainIcon = document.querySelector("link[rel=icon]")?.href || "/favicon.ico";
const turnIcon = "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<rect width="32" height="32" rx="6" fill="#b45309"/><circle cx="16" cy="16" r="8" fill="#fde68a"/></svg>');

function setIcon(href) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) { link = el("link", { rel: "icon" }); document.head.append(link); }
  link.href = href;
}

function turnSignals() {
  const mine = !!(state.actions && state.actions.length) && !state.outcome;
  document.title = `${mine ? `● ${t("your_turn_title")} — ` : ""}${state.title} — takujo`;
  setIcon(mine ? turnIcon : plainIcon);
  document.body.dataset.turnSignal = mine ? "on" : "off";
  if (mine && !wasMyTurn) {
    if (localStorage.getItem("takujo.sound") === "on") beep();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(t("your_turn_title"), { body: state.title, tag: `takujo-${matchId}` }); } catch { /* not allowed here */ }
    }
  }
  wasMyTurn = mine;
}

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.3);
  } catch { /* no audio here */ }
}

function drawAlerts() {
  const box = $("alerts");
  if (!token) { box.replaceChildren(); return; }
  const sound = el("input", { type: "checkbox", id: "sound", checked: localStorage.getItem("takujo.sound") === "on" ? true : null,
    onchange: (ev) => localStorage.setItem("takujo.sound", ev.target.checked ? "on" : "off") });
  const granted = "Notification" in window && Notification.permission === "granted";
  const ask = "Notification" in window && !granted
    ? el("button.small", { type: "button", id: "notify", onclick: async () => { await Notification.requestPermission(); drawAlerts(); } }, t("notify_me"))
    : granted ? el("span.small", {}, t("notify_on")) : null;
  box.replaceChildren(el("label.check", { for: "sound" }, sound, " ", t("sound")), " ", ask);
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

start().catch((err) => toast(err instanceof ApiError ? err.message : String(err)));
