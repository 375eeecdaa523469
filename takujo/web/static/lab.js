// The Lab page: start a paired experiment (two values of an option, or card set A against
// card set B), watch its progress, read its report. Only the server's operator may start one.
import { api, botName, currentLang, el, langSwitch, loadTexts, t, toast } from "./common.js";
import { keptSets, loadMine } from "./cardsets.js";

let lang = currentLang();
let games = [];
const $ = (id) => document.getElementById(id);

async function start() {
  await loadTexts(lang);
  games = (await api(`/api/games?lang=${lang}`)).filter((g) => g.name);
  await loadMine();
  draw();
  refresh();
  setInterval(refresh, 2000);
}

function draw() {
  document.title = `takujo — ${t("lab_title")}`;
  $("title").textContent = t("lab_title");
  $("new-title").textContent = t("lab_new");
  $("list-title").textContent = t("lab_list");
  $("lang").replaceChildren(langSwitch(lang, async (l) => { lang = l; await loadTexts(l); games = await api(`/api/games?lang=${l}`); draw(); refresh(); }));
  const form = $("lab-form");
  const game = el("select", { id: "lab-game", name: "game" }, ...games.map((g) => el("option", { value: g.name }, g.title)));
  const kind = el("select", { id: "lab-kind", name: "kind" }, el("option", { value: "option" }, t("lab_kind_option")),
    el("option", { value: "cards" }, t("lab_kind_cards")));
  const variants = el("div", { id: "lab-variants" });
  const drawVariants = () => {
    const g = games.find((x) => x.name === game.value);
    if (kind.value === "option") {
      const keys = Object.entries(g.options).filter(([k, s]) => k !== "players" && (s.enum || s.type === "boolean"));
      const key = el("select", { id: "lab-key", name: "key" }, ...keys.map(([k, s]) => el("option", { value: k }, s.label || k)));
      const values = () => {
        const s = g.options[key.value] || {};
        const all = s.type === "boolean" ? ["false", "true"] : (s.enum || []).map(String).filter((v) => v !== "");
        const label = (v) => (s.value_labels || {})[v] || v;
        return [0, 1].map((i) => el("select", { id: `lab-value${i}`, name: `value${i}` },
          ...all.map((v, j) => el("option", { value: v, selected: j === i ? true : null }, label(v)))));
      };
      const box = el("span.lab-values");
      const fill = () => box.replaceChildren(...values());
      key.addEventListener("change", fill);
      fill();
      variants.replaceChildren(field(t("lab_option"), key), field(t("lab_values"), box));
    } else {
      const option = el("select", { id: "lab-key", name: "key" }, ...(g.set_options || []).map((o) => el("option", { value: o }, o)));
      const sets = () => [0, 1].map((i) => el("select", { id: `lab-value${i}`, name: `value${i}` },
        el("option", { value: "" }, t("builtin_set")),
        ...keptSets(g.name, option.value).map((k, j) => el("option", { value: k.set, selected: i === 1 && j === 0 ? true : null }, k.title))));
      const box = el("span.lab-values");
      const fill = () => box.replaceChildren(...sets());
      option.addEventListener("change", fill);
      fill();
      variants.replaceChildren(field(t("set_option"), option), field(t("lab_sets"), box));
    }
  };
  game.addEventListener("change", drawVariants);
  kind.addEventListener("change", drawVariants);
  const g0 = games[0];
  const bots = el("select", { id: "lab-bots", name: "bots" }, ...(g0 ? g0.bots : ["heuristic"]).map((b) =>
    el("option", { value: b, selected: b === "heuristic" ? true : null }, botName(b))));
  form.replaceChildren(field(t("game"), game), field(t("lab_kind"), kind), variants, field(t("lab_bots"), bots),
    field(t("lab_games"), el("input", { type: "number", id: "lab-games", name: "games", min: 10, max: 2000, value: 100 })),
    el("label.check", {}, el("input", { type: "checkbox", id: "lab-until", name: "until" }), " ", t("lab_until")),
    el("button.primary", { type: "submit", id: "lab-start" }, t("lab_start")));
  drawVariants();
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const body = { game: game.value, kind: kind.value, key: $("lab-key").value, values: [$("lab-value0").value, $("lab-value1").value],
      bots: bots.value, games: Number($("lab-games").value), until_decided: $("lab-until").checked };
    try { await api("/api/lab/experiments", { method: "POST", body }); refresh(); } catch (err) { toast(err.message); }
  };
}

function field(label, input) { return el("label.field", {}, el("span", {}, label), input); }

async function refresh() {
  let data;
  try { data = await api("/api/lab/experiments"); } catch { return; }
  $("who").textContent = data.operator ? t("lab_operator") : t("lab_not_operator");
  $("lab-start").disabled = !data.operator;
  $("experiments").replaceChildren(...(data.experiments.length ? data.experiments.map((e) => el(`li.match-row.exp-${e.status}`, { dataset: { experiment: e.id, status: e.status } },
    el("strong", {}, `${e.spec.game}: ${e.spec.key} = ${e.spec.values.map((v) => v ? (v.startsWith("set:") ? v.slice(4, 12) : v) : t("builtin_set")).join(" / ")}`), " ",
    el("span", {}, t(`lab_status_${e.status}`)), " ",
    el("progress", { max: e.games_planned, value: Math.min(e.games_done, e.games_planned), "aria-label": t("lab_progress") }), " ",
    el("span", {}, t("lab_games_done", { n: e.games_done, of: e.games_planned })), " ",
    e.report_url ? el("a.button.small.report", { href: e.report_url, target: "_blank", rel: "noopener" }, t("lab_report")) : null,
    e.log ? el("pre.lab-log", {}, e.log.join("\n")) : null)) : [el("li.none", {}, t("none_yet"))]));
}

start().catch((err) => toast(String(err.message || err)));
