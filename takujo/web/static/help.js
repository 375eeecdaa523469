// "How to play" and the card reference of the match page: the rules in words (setup, a turn,
// winning, ...), the options chosen for this match, and every card of its game, searchable.
import { fieldValue } from "./board-kit.js";
import { api, el, names, text, t } from "./common.js";

/** A button that opens the help of a match (`book()`: its card book, `lang()`: the language). */
export function helpButton(matchId, book, lang) {
  return el("button.small.help-button", { type: "button", id: "help-open", "aria-haspopup": "dialog",
    onclick: () => openHelp(matchId, book(), lang()) }, t("how_to_play"));
}

async function openHelp(matchId, book, lang) {
  let dialog = document.getElementById("help");
  if (!dialog) {
    dialog = el("dialog.help", { id: "help", "aria-labelledby": "help-title" });
    document.body.append(dialog);
  }
  let rules;
  try { rules = await api(`/api/matches/${encodeURIComponent(matchId)}/howto?lang=${lang}`); }
  catch (err) { rules = { title: t("how_to_play"), sections: [], options: [], error: err.message }; }
  const rulesTab = el("button.tab", { type: "button", role: "tab", id: "help-tab-rules", "aria-selected": "true",
    onclick: () => show("rules") }, t("how_to_play"));
  const cardsTab = el("button.tab", { type: "button", role: "tab", id: "help-tab-cards", "aria-selected": "false",
    onclick: () => show("cards") }, t("cards"));
  const rulesPane = el("div.help-pane", { id: "help-rules", role: "tabpanel", "aria-labelledby": "help-tab-rules" },
    ...rulesPanel(rules));
  const cardsPane = el("div.help-pane", { id: "help-cards", role: "tabpanel", "aria-labelledby": "help-tab-cards", hidden: true },
    ...cardsPanel(book, lang));
  function show(which) {
    rulesPane.hidden = which !== "rules";
    cardsPane.hidden = which !== "cards";
    rulesTab.setAttribute("aria-selected", String(which === "rules"));
    cardsTab.setAttribute("aria-selected", String(which === "cards"));
    if (which === "cards") cardsPane.querySelector("input")?.focus();
  }
  dialog.replaceChildren(
    el("header.help-head", {}, el("h2", { id: "help-title" }, rules.title || t("how_to_play")),
      el("button.small", { type: "button", id: "help-close", onclick: () => dialog.close() }, t("close"))),
    el("div.tabs", { role: "tablist" }, rulesTab, cardsTab), rulesPane, cardsPane);
  dialog.showModal();
}

function rulesPanel(rules) {
  const out = [];
  if (rules.error) out.push(el("p.error", {}, rules.error));
  for (const section of rules.sections || []) {
    out.push(el("section.help-section", { dataset: { section: section.id } }, el("h3", {}, section.heading),
      ...section.paragraphs.map((p) => el("p", {}, p)),
      section.rules && section.rules.length ? el("p.rule-ids", {}, t("rule_ids", { ids: section.rules.join(", ") })) : null));
  }
  if ((rules.options || []).length) {
    out.push(el("section.help-section.help-options", { dataset: { section: "options" } }, el("h3", {}, t("match_options")),
      el("dl", {}, ...rules.options.flatMap((o) => [
        el("dt", {}, o.label, " — ", el("strong", {}, o.value_label),
          o.changed ? el("span.changed", {}, " ", t("changed_from", { v: o.default_label })) : null),
        el("dd", {}, o.description)]))));
  }
  return out;
}

function cardsPanel(book, lang) {
  const cards = (book && book.catalogue && book.catalogue.cards) || [];
  const list = el("ul.card-reference", { "aria-live": "polite" });
  const search = el("input", { type: "search", id: "card-search", "aria-label": t("search_cards"), placeholder: t("search_cards") });
  const entries = cards.map((c) => {
    const [main, other] = names(c, lang);
    const body = text(c, lang);
    const type = c.type ? fieldValue("type", c.type) : null;     // in words ("Battle support"), as the card box says
    const haystack = [c.name_ja, c.name_en, c.text_ja, c.text_en, c.type, type].filter(Boolean).join("\n").toLowerCase();
    return { haystack, node: el("li.card-entry", { dataset: { card: String(c.id) } },
      el("strong", {}, main), other ? el("span.card-other", {}, ` · ${other}`) : null,
      type ? el("span.card-type", {}, ` [${type}]`) : null, body ? el("p", {}, body) : null) };
  });
  const none = el("li.none", {}, t("no_cards_found"));
  function filter() {
    const q = search.value.trim().toLowerCase();
    const shown = entries.filter((e) => !q || e.haystack.includes(q)).map((e) => e.node);
    list.replaceChildren(...(shown.length ? shown : [none]));
  }
  search.addEventListener("input", filter);
  filter();
  return [search, list];
}
