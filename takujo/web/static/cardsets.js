// The lobby's card sets: start from a game's built-in card file (or your own file, or a set
// you kept), edit it with live checking (the server's own loader: every problem by card and
// field), keep it (by the hash of its text), and play it: kept sets are offered in the new
// match form's option.
import { api, ApiError, el, t } from "./common.js";

let mine = [];          // your kept sets (without their texts)
let onKept = () => {};

/** Your kept sets for one option of a game (for the new match form's choices). */
export function keptSets(game, option) { return mine.filter((s) => s.game === game && s.option === option); }

export async function loadMine() {
  try { mine = (await api("/api/me/cardsets")).sets; } catch { mine = []; }
  return mine;
}

/** Draw the card set panel into `box` for the games `games` (GET /api/games); `kept()` is
 * called after a set is kept (the form redraws its choices). */
export async function drawCardSets(box, games, kept) {
  onKept = kept;
  await loadMine();
  const withSets = games.filter((g) => (g.set_options || []).length);
  const gameSel = el("select", { id: "set-game", "aria-label": t("game") },
    ...withSets.map((g) => el("option", { value: g.name }, g.title)));
  const optionSel = el("select", { id: "set-option", "aria-label": t("set_option") });
  const editor = el("textarea", { id: "set-text", rows: 14, spellcheck: "false", "aria-label": t("set_text") });
  const status = el("div.set-status", { id: "set-status", "aria-live": "polite" });
  const title = el("input", { type: "text", id: "set-title", maxlength: 60, placeholder: t("set_title"), "aria-label": t("set_title") });
  const file = el("input", { type: "file", id: "set-file", accept: ".toml,text/plain", "aria-label": t("set_file") });
  const list = el("ul.set-list", { id: "set-list" });
  const fillOptions = () => {
    const g = withSets.find((x) => x.name === gameSel.value);
    optionSel.replaceChildren(...(g ? g.set_options : []).map((o) => el("option", { value: o }, o)));
  };
  let timer = null;
  let asked = 0;
  const check = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const ticket = ++asked;
      if (!editor.value.trim()) { status.replaceChildren(); return; }
      status.replaceChildren(el("span.checking", {}, t("set_checking")));
      const res = await checked(gameSel.value, optionSel.value, editor.value);
      if (ticket !== asked) return;   // an older answer
      status.replaceChildren(...res);
    }, 500);
  };
  gameSel.addEventListener("change", () => { fillOptions(); check(); });
  optionSel.addEventListener("change", check);
  editor.addEventListener("input", check);
  file.addEventListener("change", async () => { if (file.files[0]) { editor.value = await file.files[0].text(); check(); } });
  const start = el("button.small", { type: "button", id: "set-builtin", onclick: async () => {
    try { editor.value = await api(`/api/games/${gameSel.value}/builtin/${optionSel.value}`); check(); } catch (err) { status.textContent = err.message; }
  } }, t("set_builtin"));
  const keep = el("button.primary", { type: "button", id: "set-keep", onclick: async () => {
    try {
      const res = await api("/api/cardsets", { method: "POST", body: { game: gameSel.value, option: optionSel.value, title: title.value, text: editor.value } });
      status.replaceChildren(el("span.ok", {}, t("set_kept", { title: res.title, cards: res.cards })));
      await loadMine();
      drawList(list, editor, gameSel, optionSel, title, fillOptions, check);
      onKept(res);
    } catch (err) { status.replaceChildren(...problemList(err)); }
  } }, t("set_keep"));
  fillOptions();
  drawList(list, editor, gameSel, optionSel, title, fillOptions, check);
  box.replaceChildren(el("h2", {}, t("card_sets")), el("p.hint", {}, t("card_sets_hint")),
    el("div.set-row", {}, gameSel, optionSel, start, el("label.upload-deck", {}, t("set_file"), file)),
    editor, status, el("div.set-row", {}, title, keep), el("h3", {}, t("your_sets")), list);
}

function drawList(list, editor, gameSel, optionSel, title, fillOptions, check) {
  list.replaceChildren(...(mine.length ? mine.map((s) => el("li.set-entry", { dataset: { set: s.set } },
    el("strong", {}, s.title), ` · ${s.game} / ${s.option} · ${Math.ceil(s.size / 1024)} KB `,
    el("a", { href: `/api/cardsets/${s.set}/file`, download: "" }, t("download")), " ",
    el("button.small", { type: "button", onclick: async () => {
      const full = await api(`/api/cardsets/${s.set}`);
      gameSel.value = full.game; fillOptions(); optionSel.value = full.option;
      editor.value = full.text; title.value = full.title; check();
      editor.focus();
    } }, t("edit")))) : [el("li.none", {}, t("none_yet"))]));
}

async function checked(game, option, text) {
  try {
    const res = await api("/api/cardsets/check", { method: "POST", body: { game, option, text } });
    return [el("span.ok", {}, t("set_ok", { cards: res.cards }))];
  } catch (err) { return problemList(err); }
}

function problemList(err) {
  const problems = err instanceof ApiError && err.body && err.body.error && err.body.error.problems;
  if (!problems) return [el("span.bad", {}, err.message)];
  return [el("span.bad", {}, t("set_problems", { n: problems.length })), el("ul.problems", {}, ...problems.map((p) => el("li", {}, p)))];
}
