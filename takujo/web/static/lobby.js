// The lobby: create a match (game, players, the game's options, each seat a person or a
// bot), hand out join links, and list open, running and finished matches.
import { api, copyButton, currentLang, el, langSwitch, loadTexts, t } from "./common.js";

let lang = currentLang();
let games = [];
const $ = (id) => document.getElementById(id);

async function start() {
  await loadTexts(lang);
  games = await api(`/api/games?lang=${lang}`);
  drawStatic();
  drawForm();
  refresh();
  setInterval(refresh, 4000);
}

function drawStatic() {
  document.title = `takujo — ${t("lobby_title")}`;
  $("title").textContent = t("lobby_title");
  $("new-match").textContent = t("new_match");
  $("open-title").textContent = t("open_matches");
  $("running-title").textContent = t("running");
  $("finished-title").textContent = t("finished");
  $("upload-link").textContent = t("upload_record");
  $("lang").replaceChildren(langSwitch(lang, async (l) => {
    lang = l; await loadTexts(l); games = await api(`/api/games?lang=${l}`); drawStatic(); drawForm(); refresh();
  }));
}

function field(label, input) { return el("label.field", {}, el("span", {}, label), input); }

function optionInput(name, spec) {
  const id = `opt-${name}`;
  if (spec.type === "boolean") {
    return el("input", { type: "checkbox", id, name, checked: spec.default ? true : null });
  }
  if (spec.enum) {
    const select = el("select", { id, name }, ...spec.enum.map((v) => el("option", { value: v, selected: v === spec.default ? true : null }, v === "" ? t("default") : v)));
    if (!spec.upload) return select;
    const file = el("input", { type: "file", accept: ".txt,text/plain", "aria-label": t("upload_deck"), id: `${id}-upload` });
    file.addEventListener("change", async () => {
      if (!file.files[0]) return;
      try {
        const res = await api(`/api/decklists?lang=${lang}`, { method: "POST", body: { game: currentGame, text: await file.files[0].text() } });
        const option = el("option", { value: res.deck, selected: true }, t("uploaded_deck", { name: file.files[0].name }));
        select.append(option);
        select.value = res.deck;
      } catch (err) { toast(err.message); file.value = ""; }
    });
    return el("span.with-upload", {}, select, el("label.upload-deck", {}, t("upload_deck"), file));
  }
  if (spec.type === "integer" || spec.type === "number") {
    return el("input", { type: "number", id, name, value: spec.default ?? "", min: spec.minimum, max: spec.maximum });
  }
  return el("input", { type: "text", id, name, value: spec.default ?? "" });
}

function drawForm() {
  const form = $("create-form");
  const keep = form.elements.game ? form.elements.game.value : games[0].name;
  const game = games.find((g) => g.name === keep) || games[0];
  const gameSelect = el("select", { name: "game", id: "game", onchange: () => { drawFormFor(gameSelect.value); } },
    ...games.map((g) => el("option", { value: g.name, selected: g.name === game.name ? true : null }, bothTitles(g))));
  form.replaceChildren(field(t("game"), gameSelect), el("div", { id: "game-fields" }));
  drawFormFor(game.name);
}

/** A game's title in the interface language, with the other language's beside it. */
function bothTitles(g) {
  const other = lang === "ja" ? g.title_en : g.title_ja;
  return other && other !== g.title ? `${g.title} · ${other}` : g.title;
}

let currentGame = null;

function drawFormFor(name) {
  const game = games.find((g) => g.name === name);
  currentGame = game.name;
  const box = $("game-fields");
  const players = el("select", { name: "players", id: "players", onchange: () => drawSeatsFor(game, Number(players.value)) },
    ...Array.from({ length: game.players.max - game.players.min + 1 }, (_, i) => game.players.min + i)
      .map((n) => el("option", { value: n, selected: n === game.players.default ? true : null }, String(n))));
  const options = Object.entries(game.options).filter(([k]) => k !== "players")
    .map(([k, spec]) => field(spec.description ? `${k} — ${spec.description}` : k, optionInput(k, spec)));
  box.replaceChildren(
    field(t("players"), players),
    el("div", { id: "seat-fields", class: "seat-fields" }),
    el("details.options", {}, el("summary", {}, t("options")), ...options),
    field(t("seed"), el("input", { type: "number", name: "seed", id: "seed", min: 0 })),
    field(t("idle_limit"), el("input", { type: "number", name: "idle_limit", id: "idle_limit", min: 10 })),
    el("button.primary", { type: "submit", id: "create" }, t("create")));
  drawSeatsFor(game, Number(players.value));
  $("create-form").onsubmit = (ev) => { ev.preventDefault(); create(game); };
}

function drawSeatsFor(game, n) {
  $("seat-fields").replaceChildren(...Array.from({ length: n }, (_, i) => field(t("seat", { n: i }),
    el("select", { name: `seat${i}`, id: `seat${i}` },
      el("option", { value: "human", selected: i === 0 ? true : null }, t("human")),
      ...game.bots.map((b, k) => el("option", { value: `bot:${b}`, selected: i > 0 && b === (game.bots.includes("heuristic") ? "heuristic" : "random") ? true : null }, t("bot", { name: b })))))));
}

async function create(game) {
  const form = $("create-form").elements;
  const n = Number(form.players.value);
  const opts = [`players=${n}`];
  for (const [k, spec] of Object.entries(game.options)) {
    if (k === "players" || !form[k]) continue;
    const value = spec.type === "boolean" ? String(form[k].checked) : form[k].value;
    if (value !== "" && String(value) !== String(spec.default ?? "")) opts.push(`${k}=${value}`);
  }
  const body = { game: `${game.name}(${opts.join(",")})`, seats: Array.from({ length: n }, (_, i) => form[`seat${i}`].value) };
  if (form.seed.value !== "") body.seed = Number(form.seed.value);
  if (form.idle_limit.value !== "") body.idle_limit = Number(form.idle_limit.value);
  try {
    const res = await api(`/api/matches?lang=${lang}`, { method: "POST", body });
    showCreated(res);
    refresh();
  } catch (err) { toast(err.message); }
}

function showCreated(res) {
  const box = $("created");
  box.hidden = false;
  box.replaceChildren(el("p", {}, t("created")),
    el("ul.links", {}, ...res.seats.filter((s) => s.token).map((s) => el("li", { dataset: { seat: String(s.seat) } },
      el("strong", {}, t("seat", { n: s.seat })), " ",
      el("a.join", { href: s.join_url, target: "_blank", rel: "noopener" }, t("play_here")), " ",
      copyButton(s.join_url, `${t("copy")} (${t("join_link")})`)))),
    el("p", {}, el("a", { href: res.spectate_url }, t("spectate"))));
}

async function refresh() {
  let live, done;
  try {  // one page of each (GET /api/matches is paged: ?status=&limit=&cursor=)
    [live, done] = await Promise.all([api("/api/matches?status=running&limit=60"), api("/api/matches?status=finished&limit=30")]);
  } catch { return; }
  const open = live.matches.filter((m) => m.seats.some((s) => s.kind === "human" && !s.connected));
  const running = live.matches.filter((m) => !open.includes(m));
  const finished = done.matches;
  fill("open", open, false); fill("running", running, false); fill("finished", finished, true);
}

function fill(id, list, done) {
  const title = (name) => { const g = games.find((x) => x.name === name); return g ? bothTitles(g) : name; };
  $(id).replaceChildren(...(list.length ? list.slice(0, 30).map((m) => el("li.match-row", { dataset: { match: m.match } },
    el("span.match-game", {}, title(m.game)), " ",
    el("span.match-seats", {}, m.seats.map((s) => (s.kind === "bot" ? s.bot : t("human")) + (s.kind === "human" && s.connected ? "●" : "")).join(" · ")), " ",
    el("span.match-version", {}, t("version", { n: m.version })), " ",
    el("a", { href: `/match/${m.match}` }, t("spectate")),
    done ? el("a", { href: `/replay/${m.match}` }, t("watch_replay")) : null)) : [el("li.none", {}, t("none_yet"))]));
}

function toast(text) {
  const node = el("div.toast", { role: "alert" }, text);
  $("toasts").append(node);
  setTimeout(() => node.remove(), 6000);
}

start().catch((err) => toast(String(err.message || err)));
