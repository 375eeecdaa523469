// The lobby: create a match (game, players, the game's options, each seat a person or a
// bot), hand out join links, and list your games, open seats, running and finished matches.
import { drawCardSets, keptSets, loadMine } from "./cardsets.js";
import { adoptPlayerKey, api, botLabel, botName, clockText, copyButton, currentLang, el,
  langSwitch, loadTexts, myName, playerKey, rememberSeat, setMyName, t, toast } from "./common.js";

let lang = currentLang();
let games = [];
const $ = (id) => document.getElementById(id);

async function start() {
  await loadTexts(lang);
  games = await api(`/api/games?lang=${lang}`);
  drawStatic();
  await loadMine();
  drawForm();
  refresh();
  setInterval(refresh, 4000);
}

function drawStatic() {
  document.title = `takujo — ${t("lobby_title")}`;
  $("title").textContent = t("lobby_title");
  $("new-match").textContent = t("new_match");
  $("open-title").textContent = t("open_matches");
  $("mine-title").textContent = t("your_games");
  drawKeyBox();
  drawCardSets($("card-sets"), games, () => drawForm());
  if (shownLinks) showLinks(shownLinks);
  $("running-title").textContent = t("running");
  $("finished-title").textContent = t("finished");
  $("upload-link").textContent = t("upload_record");
  $("lab-link").textContent = t("lab_link");
  $("lang").replaceChildren(langSwitch(lang, async (l) => {
    lang = l; await loadTexts(l); games = await api(`/api/games?lang=${l}`); drawStatic(); drawForm(); refresh();
  }));
}

function field(label, input) { return el("label.field", {}, el("span", {}, label), input); }

/** An option in words: its label, its control, what it does (the key in a tooltip). */
function optionField(key, spec) {
  return el("label.field.option", { title: key }, el("span.option-label", {}, spec.label || key), optionInput(key, spec),
    spec.description ? el("small.option-help", {}, spec.description) : null);
}

function optionInput(name, spec) {
  const id = `opt-${name}`;
  if (spec.type === "boolean") {
    return el("input", { type: "checkbox", id, name, checked: spec.default ? true : null });
  }
  if (spec.enum) {
    const words = spec.value_labels || {};
    const select = el("select", { id, name }, ...spec.enum.map((v) => el("option", { value: v, selected: v === spec.default ? true : null },
      words[String(v)] || (v === "" ? t("default") : String(v)))),
      ...keptSets(currentGame, name).map((k) => el("option", { value: k.set }, `${k.title} (${t("your_sets")})`)));
    if (!spec.upload) return select;
    const file = el("input", { type: "file", accept: ".txt,text/plain", "aria-label": t("upload_deck"), id: `${id}-upload` });
    file.addEventListener("change", async () => {
      if (!file.files[0]) return;
      try {
        const pool = document.getElementById("opt-cards")?.value || "";   // a kept pool chosen for this match
        const res = await api(`/api/decklists?lang=${lang}`, { method: "POST",
          body: { game: currentGame, text: await file.files[0].text(), cards: pool.startsWith("set:") ? pool : null } });
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
  const typed = form.elements.name ? form.elements.name.value : myName();
  form.replaceChildren(
    field(t("your_name"), el("input", { type: "text", name: "name", id: "name", maxlength: 24, value: typed,
      placeholder: t("your_name_hint"), autocomplete: "nickname" })),
    field(t("game"), gameSelect), el("div", { id: "game-fields" }));
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
    .map(([k, spec]) => optionField(k, spec));
  box.replaceChildren(
    field(t("players"), players),
    el("div", { id: "seat-fields", class: "seat-fields" }),
    el("details.options", {}, el("summary", {}, t("options")), ...options),
    field(t("seed"), el("input", { type: "number", name: "seed", id: "seed", min: 0 })),
    field(t("idle_limit"), el("input", { type: "number", name: "idle_limit", id: "idle_limit", min: 10 })),
    field(t("clock"), el("select", { name: "clock", id: "clock" },
      ...Object.keys(game.clocks || { none: 1 }).map((k) => el("option", { value: k }, t(`clock_${k}`))))),
    field(t("clock_grace"), el("input", { type: "number", name: "clock_grace", id: "clock_grace", min: 0 })),
    el("label.check", {}, el("input", { type: "checkbox", name: "listed", id: "listed", checked: true }), " ", t("listed")),
    el("button.primary", { type: "submit", id: "create" }, t("create")));
  drawSeatsFor(game, Number(players.value));
  $("create-form").onsubmit = (ev) => { ev.preventDefault(); create(game); };
}

function drawSeatsFor(game, n) {
  $("seat-fields").replaceChildren(...Array.from({ length: n }, (_, i) => field(t("seat", { n: i }),
    el("select", { name: `seat${i}`, id: `seat${i}` },
      el("option", { value: "human", selected: i === 0 ? true : null }, t("human")),
      ...game.bots.map((b) => el("option", { value: `bot:${b}`, title: b, selected: i > 0 && b === (game.bots.includes("heuristic") ? "heuristic" : "random") ? true : null }, t("bot_level", { name: botName(b) })))))));
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
  const name = form.name.value.trim();
  if (name) { body.name = name; setMyName(name); }
  body.listed = form.listed.checked;
  if (form.clock.value !== "none") body.clock = form.clock.value;
  if (form.clock_grace.value !== "") body.clock_grace = Number(form.clock_grace.value);
  try {
    const res = await api(`/api/matches?lang=${lang}`, { method: "POST", body });
    for (const s of res.seats) if (s.token && s.seat === res.your_seat) rememberSeat(res.match, s.seat, s.token);
    showLinks(res);
    refresh();
  } catch (err) { toast(err.message); }
}

let shownLinks = null;   // redrawn in the new language when it changes

/** The join links of a match (just made, or its invites shown again). */
function showLinks(res) {
  shownLinks = res;
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
  let mine, open, live, done;
  try {  // one page of each (GET /api/matches is paged: ?status=&limit=&cursor=)
    [mine, open, live, done] = await Promise.all([api("/api/me/matches?limit=30"), api("/api/matches?status=open&limit=30"),
      api("/api/matches?status=running&limit=60"), api("/api/matches?status=finished&limit=30")]);
  } catch { return; }
  fillMine(mine.matches);
  fill("open", open.matches, "open");
  fill("running", live.matches, "running");
  fill("finished", done.matches, "finished");
}

const titleOf = (name) => { const g = games.find((x) => x.name === name); return g ? bothTitles(g) : name; };

/** "Hanako (to act) · Bot: Easy · open seat": each seat, whose turn it is, a bot's level in its tooltip. */
function seatWords(m, mySeats = []) {
  return m.seats.flatMap((s, i) => {
    let word;
    if (s.kind === "bot") word = botLabel(s.bot);
    else {
      const who = s.name || (s.open ? t("open_seat") : t("player", { n: s.seat }));
      word = (mySeats.includes(s.seat) ? (s.name ? `${s.name} — ${t("you_player", { n: s.seat })}` : t("you_player", { n: s.seat })) : who) + (s.connected ? " ●" : "");
    }
    const turn = s.to_act && m.status !== "finished" ? el("span.seat-turn", {}, ` (${t("to_act")})`) : null;
    return [i ? " · " : null, el("span.seat-word", { dataset: { seat: String(s.seat) } }, word, turn)];
  });
}

function steps(n) { return t(n === 1 ? "version_one" : "version", { n }); }

function fillMine(list) {
  $("mine").replaceChildren(...(list.length ? list.map((m) => {
    const seats = m.mine.map((s) => s.seat);
    for (const s of m.mine) rememberSeat(m.match, s.seat, s.token);
    return el(`li.match-row${m.your_turn ? ".your-turn" : ""}`, { dataset: { match: m.match } },
      el("span.match-game", {}, titleOf(m.game)), " ",
      m.your_turn ? el("span.badge", {}, t("your_turn_badge")) : null, " ",
      el("span.match-seats", {}, seatWords(m, seats)), " ",
      el("span.match-version", {}, m.status === "finished" ? t("finished") : steps(m.version)), " ",
      ...m.mine.map((s) => m.seats[s.seat] && m.seats[s.seat].clock
        ? el("span.my-clock", { title: t("clock") }, clockText(m.seats[s.seat].clock.left)) : null),
      ...m.mine.map((s) => el("a.button.small", { href: `/match/${m.match}?seat=${s.seat}` },
        m.mine.length > 1 ? `${t("open_match")} (${t("seat", { n: s.seat })})` : t("open_match"))),
      m.created_by_you && m.status !== "finished" ? el("button.small", { type: "button", onclick: () => showInvites(m.match) }, t("invites")) : null,
      seats.length ? null : el("a", { href: `/match/${m.match}` }, t("spectate")));
  }) : [el("li.none", {}, t("your_games_none"))]));
}

async function showInvites(matchId) {
  try { showLinks(await api(`/api/matches/${matchId}/invites`)); } catch (err) { toast(err.message); }
}

async function joinSeat(m, seat) {
  let name = $("name") ? $("name").value.trim() : myName();
  if (!name) name = (prompt(t("your_name"), myName()) || "").trim();
  if (!name) return;
  try {
    const res = await api(`/api/matches/${m.match}/seats/${seat}/join?lang=${lang}`, { method: "POST", body: { name } });
    setMyName(name);
    rememberSeat(m.match, res.seat, res.token);
    location.href = `/match/${m.match}?seat=${res.seat}`;
  } catch (err) { toast(err.message); refresh(); }
}

function fill(id, list, kind) {
  $(id).replaceChildren(...(list.length ? list.slice(0, 30).map((m) => el("li.match-row", { dataset: { match: m.match } },
    el("span.match-game", {}, titleOf(m.game)), " ",
    el("span.match-seats", {}, seatWords(m)), " ",
    el("span.match-version", {}, steps(m.version)), " ",
    ...(kind === "open" ? m.seats.filter((s) => s.open).map((s) => el("button.small.join", { type: "button", dataset: { seat: String(s.seat) },
      onclick: () => joinSeat(m, s.seat) }, t("join_seat", { n: s.seat }))) : []),
    el("a", { href: `/match/${m.match}` }, t("spectate")),
    kind === "finished" ? el("a", { href: `/replay/${m.match}` }, t("watch_replay")) : null)) : [el("li.none", {}, t("none_yet"))]));
}

function drawKeyBox() {
  const key = playerKey();
  const input = el("input", { type: "text", id: "other-key", "aria-label": t("player_key"), autocomplete: "off", spellcheck: "false" });
  $("key-box").replaceChildren(el("summary", {}, t("player_key")),
    el("p.hint", {}, t("player_key_hint")),
    el("p", {}, el("code.key", {}, key), " ", copyButton(key, t("copy"))),
    el("p", {}, input, " ", el("button.small", { type: "button", onclick: () => {
      if (adoptPlayerKey(input.value)) { drawKeyBox(); refresh(); } else toast(t("bad_key"));
    } }, t("use_key"))));
}

start().catch((err) => toast(String(err.message || err)));
