// The replay viewer: a finished match (/replay/MATCH) or an uploaded record (/replay), step
// by step, forward and back, from any seat's point of view or the spectator's.
import { api, CardBook, currentLang, el, langSwitch, loadTexts, t, toast } from "./common.js";
import { BoardContext, dice, icon, iconText } from "./board-kit.js";

let lang = currentLang();
let key = location.pathname.split("/").filter(Boolean)[1] || null;
let step = 0, seat = null, frame = null, book = null, board = null;
const $ = (id) => document.getElementById(id);

async function start() {
  await loadTexts(lang);
  drawStatic();
  if (key) await show(0); else $("upload").hidden = false;
}

function drawStatic() {
  $("title").textContent = t("replay_title");
  $("upload-label").textContent = t("upload_record");
  $("lang").replaceChildren(langSwitch(lang, async (l) => { lang = l; await loadTexts(l); drawStatic(); if (key) show(step); }));
}

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  try {
    const res = await api(`/api/replays?lang=${lang}`, { method: "POST", text: await file.text() });
    key = res.replay;
    history.replaceState(null, "", `/replay/${key}`);
    $("upload").hidden = true;
    await show(0);
  } catch (err) { toast(err.message); }
});

async function show(n) {
  const q = new URLSearchParams({ step: String(n), lang });
  if (seat !== null) q.set("seat", String(seat));
  try { frame = await api(`/api/replays/${key}?${q}`); } catch (err) { toast(err.message); return; }
  if (!book) {
    book = new CardBook(await api(`/api/replays/${key}/catalogue`));
    try { board = await import(`/static/boards/${frame.game}.js`); } catch { board = await import("/static/boards/generic.js"); }
  }
  step = frame.step;
  draw();
}

function draw() {
  $("title").textContent = `${t("replay_title")} — ${frame.title}`;
  const c = $("controls");
  c.hidden = false;
  const go = (n) => () => show(Math.max(0, Math.min(frame.steps, n)));
  const pov = el("select", { id: "pov", onchange: () => { seat = pov.value === "" ? null : Number(pov.value); show(step); } },
    el("option", { value: "", selected: seat === null ? true : null }, t("spectator")),
    ...Array.from({ length: frame.players }, (_, p) => el("option", { value: p, selected: seat === p ? true : null },
      frame.names && frame.names[p] ? `${frame.names[p]} (P${p})` : t("player", { n: p }))));
  c.replaceChildren(
    el("button", { type: "button", id: "first", onclick: go(0), disabled: step <= 0 ? true : null }, icon("first"), " ", t("first")),
    el("button", { type: "button", id: "back", onclick: go(step - 1), disabled: step <= 0 ? true : null }, icon("back"), " ", t("back")),
    el("span.step", { id: "step", "aria-live": "polite" }, t("step", { n: step, total: frame.steps })),
    el("button", { type: "button", id: "forward", onclick: go(step + 1), disabled: step >= frame.steps ? true : null }, t("forward"), " ", icon("forward")),
    el("button", { type: "button", id: "last", onclick: go(frame.steps), disabled: step >= frame.steps ? true : null }, t("last"), " ", icon("last")),
    el("label.field.inline", {}, el("span", {}, t("point_of_view")), pov));
  const ctx = new BoardContext({ lang, book, state: frame, act: () => {}, readOnly: true });
  board.render($("board"), frame, ctx);
  $("log").replaceChildren(...frame.events.map((e) => el(`li.event.ev-${e.e}`, {}, e.faces ? dice(e.faces) : null, iconText(e.text))));
  const o = $("outcome");
  o.hidden = !frame.outcome;
  if (frame.outcome) o.replaceChildren(el("h2", {}, t("game_over")), el("p", {}, frame.outcome_text));
  document.body.dataset.step = String(step);
}

document.addEventListener("keydown", (ev) => {
  if (!frame) return;
  if (ev.key === "ArrowRight") show(Math.min(frame.steps, step + 1));
  if (ev.key === "ArrowLeft") show(Math.max(0, step - 1));
});

start();
