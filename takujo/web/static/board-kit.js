// What every board gets to draw a game: cards in the viewer's language, and the legal
// actions attached to what the player clicks. A board module exports
//   render(root, state, ctx)   // draw `state` (the server's state object) into `root`
// and uses `ctx` below. See static/boards/README.md.
import { el, names, text, t } from "./common.js";

export class BoardContext {
  constructor({ lang, book, state, act, readOnly = false }) {
    this.lang = lang;
    this.book = book;
    this.state = state;
    this.view = state.view;
    this.seat = state.seat;
    this.readOnly = readOnly;
    this._act = act;
    this.selected = null;       // actions waiting for a target
    this.targets = [];          // [element, value]
    this.t = t;
  }

  get actions() { return this.readOnly ? [] : this.state.actions || []; }
  get players() { return this.state.players || 0; }

  /** The legal actions matching `pred(action)` (action: {notation, label, verb, args}). */
  actionsWhere(pred) { return this.actions.filter(pred); }
  /** The legal actions with this verb (and, if given, this first argument). */
  actionsFor(verb, first) {
    return this.actions.filter((a) => a.verb === verb && (first === undefined || String(a.args[0]) === String(first)));
  }
  /** Legal actions whose arguments mention `value` anywhere (a card played, a target chosen). */
  actionsMentioning(value) { return this.actions.filter((a) => a.args.some((x) => String(x) === String(value))); }

  act(notation) { if (!this.readOnly) this._act(notation); }

  /** "you" or "player N" in the viewer's language. */
  player(p) {
    if (p === null || p === undefined) return "";
    return p === this.seat ? t("you_player", { n: p }) : t("player", { n: p });
  }

  /** A card: its name in the viewer's language, the other name beside it, full text on hover or tap. */
  card(ref, { table = null, faceDown = false, small = false, extra = null, classes = "" } = {}) {
    if (faceDown || ref === null || ref === undefined || ref === "?") {
      return el(`div.card.back${small ? ".small" : ""}`, { title: t("face_down"), "aria-label": t("face_down") }, el("span.back-mark", {}, "卓"));
    }
    const entry = this.book.get(ref, table);
    const [main, other] = names(entry, this.lang);
    const body = text(entry, this.lang);
    const node = el(`div.card${small ? ".small" : ""}${classes ? "." + classes.split(" ").join(".") : ""}`,
      { dataset: { ref: String(ref), type: (entry && entry.type) || "" }, tabindex: "0", title: [main, other, body].filter(Boolean).join("\n") },
      el("div.card-name", {}, main),
      other ? el("div.card-other", {}, other) : null,
      extra ? el("div.card-extra", {}, extra) : null);
    node.addEventListener("click", (ev) => {
      if (node.classList.contains("target") && node._asTarget) { node._asTarget(ev); return; }  // chosen as a target
      if (!node.classList.contains("actionable")) { showInfo(node, main, other, body, entry); ev.stopPropagation(); }
    });
    return node;
  }

  /**
   * Make `node` carry `actions`: a click plays the single one, or (several) asks for a
   * target among the elements registered with `target`, with a menu as well.
   */
  bind(node, actions) {
    if (!actions || !actions.length || this.readOnly) return node;
    node.classList.add("actionable");
    node.setAttribute("role", "button");
    node.dataset.actions = actions.map((a) => a.notation).join("|");
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (node.classList.contains("target") && node._asTarget) { node._asTarget(ev); return; }  // chosen as a target
      if (actions.length === 1) { this.act(actions[0].notation); return; }
      this.select(actions, node);
    });
    node.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); node.click(); } });
    return node;
  }

  /** Register `node` as the target `value` (an argument of an action after the first). */
  target(node, value) { this.targets.push([node, String(value)]); return node; }

  select(actions, anchor) {
    clearSelection();
    this.selected = actions;
    anchor.classList.add("selected");
    const anchorValue = anchor.dataset.ref;
    for (const [node, value] of this.targets) {
      if (node === anchor) continue;
      // a target is any argument of the selected actions but the selected thing itself
      const matching = actions.filter((a) => a.args.map(String).some((x, i) => x === value && !(i === 0 && x === anchorValue)));
      if (!matching.length) continue;
      node.classList.add("target");
      node._asTarget = (ev) => {
        ev.stopImmediatePropagation();  // the node's own click (its info, its actions) does not run
        if (matching.length === 1) { clearSelection(); this.act(matching[0].notation); }
        else menu(node, matching, (a) => this.act(a.notation));
      };
      node.onclick = node._asTarget;  // for a node with no click of its own
    }
    menu(anchor, actions, (a) => this.act(a.notation));
  }
}

function clearSelection() {
  document.querySelectorAll(".selected").forEach((n) => n.classList.remove("selected"));
  document.querySelectorAll(".target").forEach((n) => { n.classList.remove("target"); n.onclick = null; n._asTarget = null; });
  document.querySelectorAll(".popover").forEach((n) => n.remove());
}
document.addEventListener("click", (ev) => { if (!ev.target.closest(".popover")) clearSelection(); });
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") clearSelection(); });

function place(pop, anchor) {
  document.body.append(pop);
  const r = anchor.getBoundingClientRect();
  const w = pop.offsetWidth;
  pop.style.left = `${Math.max(4, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - w - 4))}px`;
  pop.style.top = `${window.scrollY + r.bottom + 4}px`;
}

function menu(anchor, actions, choose) {
  document.querySelectorAll(".popover").forEach((n) => n.remove());
  const pop = el("div.popover.menu", { role: "menu" },
    el("div.popover-title", {}, t("choose")),
    ...actions.map((a) => el("button.menu-item", { type: "button", role: "menuitem", dataset: { notation: a.notation },
      onclick: (ev) => { ev.stopPropagation(); clearSelection(); choose(a); } }, a.label)));
  place(pop, anchor);
}

function showInfo(anchor, main, other, body, entry) {
  clearSelection();
  const stats = entry ? Object.entries(entry).filter(([k, v]) => !["id", "key", "name_ja", "name_en", "text_ja", "text_en", "instances", "count", "stand_in"].includes(k)
    && v !== null && v !== "" && typeof v !== "object").map(([k, v]) => `${k}: ${v}`).join(" · ") : "";
  const pop = el("div.popover.info", { role: "dialog" },
    el("div.info-name", {}, main), other ? el("div.info-other", {}, other) : null,
    stats ? el("div.info-stats", {}, stats) : null,
    body ? el("div.info-text", {}, body) : null);
  place(pop, anchor);
}

/** A labelled area of a board. */
export function zone(title, ...children) {
  return el("section.zone", {}, el("h3.zone-title", {}, title), el("div.zone-body", {}, ...children));
}

/** The dice of a roll event, drawn as faces. */
export function dice(faces) {
  const pips = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  return el("span.dice", { "aria-label": faces.join(", ") }, ...faces.map((f) => el("span.die", {}, pips[f] || String(f))));
}
