// What every board gets to draw a game: cards in the viewer's language, and the legal
// actions attached to what the player clicks. A board module exports
//   render(root, state, ctx)   // draw `state` (the server's state object) into `root`
// and uses `ctx` below; it ends its drawing with `ctx.settle(root)` (the moves' animations).
// See static/boards/README.md.
//
// Pop-overs (menus, a card's text) are placed where they cover neither what they belong to
// nor any element lit as a target. On touch (and for a mouse with "confirm moves" set), a
// first tap on a playable element selects it and shows its full text and its actions; a
// second tap, or one of the buttons shown, plays. Everything that offers actions is
// focusable and answers Enter and Space; menus answer the arrow keys and Escape.
import { el, names, text, t } from "./common.js";

// ----- texts of the kit (ui.web.client.KEY), with the words to use until the server has them
const FALLBACK = {
  kit_confirm_moves: { ja: "手を確認してから打つ", en: "Confirm moves" },
  kit_confirm_hint: { ja: "1回目のタップで内容を表示、2回目で実行", en: "First tap shows a card, a second plays it" },
  kit_actions: { ja: "できること", en: "What it can do" },
  kit_close: { ja: "閉じる", en: "Close" },
  kit_copy: { ja: "{n}枚目", en: "copy {n}" },
  kit_dice: { ja: "ダイス: {faces}", en: "dice: {faces}" },
};

/** A text of the interface: the server's, else the kit's own words for it. */
export function tx(key, args = {}) {
  const got = t(key, args);
  if (got !== key || !FALLBACK[key]) return got;
  const lang = (document.documentElement.lang || "en").startsWith("ja") ? "ja" : "en";
  return FALLBACK[key][lang].replace(/\{(\w+)\}/g, (_, name) => (name in args ? String(args[name]) : `{${name}}`));
}

const CONFIRM_KEY = "takujo.confirm";
/** Whether "confirm moves" is set (a click selects and shows first; a second plays). */
/** Whether argument `i` of an action row is of `kind` (rows say each argument's kind:
 * "card", "player", "place", "number", "word"; "any" for a game that declares none). */
export function argIs(action, i, kind) {
  const declared = (action.kinds && action.kinds[i]) || "any";
  return declared === kind || declared === "any";
}

export function confirmMoves() {
  try { return localStorage.getItem(CONFIRM_KEY) === "1"; } catch { return false; }
}
export function setConfirmMoves(on) {
  try { if (on) localStorage.setItem(CONFIRM_KEY, "1"); else localStorage.removeItem(CONFIRM_KEY); } catch { /* private mode */ }
}

// the kind of pointer of the last press (a click event may not tell)
let lastPointer = "mouse";
document.addEventListener("pointerdown", (ev) => { lastPointer = ev.pointerType || "mouse"; }, true);
document.addEventListener("keydown", () => { lastPointer = "keyboard"; }, true);
function touched(ev) {
  if (ev && typeof ev.pointerType === "string" && ev.pointerType) return ev.pointerType === "touch" || ev.pointerType === "pen";
  return lastPointer === "touch" && ev && ev.isTrusted;
}

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
    this.tx = tx;
  }

  get actions() { return this.readOnly ? [] : this.state.actions || []; }
  get players() { return this.state.players || 0; }

  /** The legal actions matching `pred(action)` (action: {notation, label, verb, args}). */
  actionsWhere(pred) { return this.actions.filter(pred); }
  /** The legal actions with this verb (and, if given, this first argument). */
  actionsFor(verb, first) {
    return this.actions.filter((a) => a.verb === verb && (first === undefined || String(a.args[0]) === String(first)));
  }
  /** Legal actions whose arguments mention `value` of `kind` anywhere (a card played, a
   * target chosen). Each action row says the kind of each argument (`kinds`: "card",
   * "player", "place", "number" or "word"), so a player's index never lights a card. */
  actionsMentioning(value, kind = "card") {
    return this.actions.filter((a) => a.args.some((x, i) => String(x) === String(value) && argIs(a, i, kind)));
  }

  act(notation) { if (!this.readOnly) { clearSelection(); this._act(notation); } }

  /** "you" for the viewer's seat, else the seat's display name, else "player N". Always
   * plain text: whoever draws it appends it as text, never as markup. */
  player(p) {
    if (p === null || p === undefined) return "";
    if (p === this.seat) return t("you_player", { n: p });
    const seat = (this.state.seats || []).find((s) => s && s.seat === p);
    const name = seat && typeof seat.name === "string" ? seat.name.trim() : "";
    return name || t("player", { n: p });
  }

  /** A card: its name in the viewer's language, the other name beside it, full text on hover or tap. */
  card(ref, { table = null, faceDown = false, small = false, extra = null, classes = "" } = {}) {
    if (faceDown || ref === null || ref === undefined || ref === "?") {
      return el(`div.card.back${small ? ".small" : ""}`, { title: t("face_down"), role: "img", "aria-label": t("face_down") }, el("span.back-mark", { "aria-hidden": "true" }, "卓"));
    }
    const entry = this.book.get(ref, table);
    const [main, other] = names(entry, this.lang);
    const body = text(entry, this.lang);
    const node = el(`div.card${small ? ".small" : ""}${classes ? "." + classes.split(" ").filter(Boolean).join(".") : ""}`,
      { dataset: { ref: String(ref), type: (entry && entry.type) || "" }, tabindex: "0", title: [main, other, body].filter(Boolean).join("\n") },
      el("div.card-name", {}, main),
      other ? el("div.card-other", { lang: this.lang === "ja" ? "en" : "ja" }, other) : null,
      extra ? el("div.card-extra", {}, extra) : null);
    node._info = { main, other, body, entry };
    node.addEventListener("click", (ev) => {
      if (node.classList.contains("target") && node._asTarget) { node._asTarget(ev); return; }  // chosen as a target
      if (!node.classList.contains("actionable")) { showInfo(node); ev.stopPropagation(); }
    });
    node.addEventListener("keydown", (ev) => {
      if ((ev.key === "Enter" || ev.key === " ") && !node.classList.contains("actionable") && !ev.defaultPrevented) { ev.preventDefault(); node.click(); }
    });
    return node;
  }

  /**
   * Make `node` carry `actions`: a click plays the single one, or (several) asks for a
   * target among the elements registered with `target`, with a menu as well. On touch, or
   * with "confirm moves", the first click only selects and shows.
   */
  bind(node, actions) {
    if (!actions || !actions.length || this.readOnly) return node;
    node.classList.add("actionable");
    const native = node.tagName === "BUTTON" || node.tagName === "A" || node.tagName === "INPUT";
    if (!native) {
      node.setAttribute("role", "button");
      if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
    }
    if (actions.length > 1) node.setAttribute("aria-haspopup", "menu");
    node.dataset.actions = actions.map((a) => a.notation).join("|");
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (node.classList.contains("target") && node._asTarget) { node._asTarget(ev); return; }  // chosen as a target
      const confirm = !native && (touched(ev) || confirmMoves());
      if (confirm && !node.classList.contains("kit-armed")) { this.select(actions, node, { preview: true }); return; }
      if (actions.length === 1) { this.act(actions[0].notation); return; }
      if (confirm) { focusMenu(); return; }      // armed already: its actions are on show
      this.select(actions, node);
    });
    if (!native) {
      node.addEventListener("keydown", (ev) => {
        if ((ev.key === "Enter" || ev.key === " ") && !ev.defaultPrevented) { ev.preventDefault(); node.click(); }
      });
    }
    return node;
  }

  /** Register `node` as the target `value` of `kind` (an argument of an action after the
   * first): a card by default, or "player" for a seat, "place" for a board's place. */
  target(node, value, kind = "card") { this.targets.push([node, String(value), kind]); return node; }

  /** Select `anchor` for `actions`: light their targets and show the menu (or, with
   * `preview`, the anchor's full text and its actions). */
  select(actions, anchor, { preview = false } = {}) {
    clearSelection();
    this.selected = actions;
    anchor.classList.add("selected");
    if (preview) anchor.classList.add("kit-armed");
    const anchorValue = anchor.dataset.ref;
    for (const [node, value, kind] of this.targets) {
      if (node === anchor) continue;
      // a target is any argument of the selected actions, of the node's kind, but the
      // selected thing itself
      const matching = actions.filter((a) => a.args.map(String).some((x, i) => x === value && argIs(a, i, kind)
        && !(i === 0 && x === anchorValue)));
      if (!matching.length) continue;
      light(node, (ev) => {
        if (ev) ev.stopImmediatePropagation();  // the node's own click (its info, its actions) does not run
        if (matching.length === 1) this.act(matching[0].notation);
        else menu(node, matching, (a) => this.act(a.notation));
      });
    }
    if (preview) showInfo(anchor, actions, (a) => this.act(a.notation));
    else menu(anchor, actions, (a) => this.act(a.notation));
  }

  /** The "confirm moves" switch, for the board's own header (nothing in a replay). */
  settingsControl() {
    if (this.readOnly) return null;
    const box = el("input", { type: "checkbox", id: "kit-confirm", checked: confirmMoves() ? true : null,
      onchange: () => setConfirmMoves(box.checked) });
    return el("label.kit-setting", { title: tx("kit_confirm_hint") }, box, el("span", {}, tx("kit_confirm_moves")));
  }

  /** After drawing: animate what moved since the last drawing of `root`. */
  settle(root) { settle(root, this); }
}

// ----- targets, menus and pop-overs ---------------------------------------------------------------
/** Light `node` as a target whose click runs `handler` (focusable while lit). */
export function light(node, handler) {
  node.classList.add("target");
  if (handler) { node._asTarget = handler; node.onclick = handler; }  // onclick: for a node with no click of its own
  if (!node.hasAttribute("tabindex")) { node.setAttribute("tabindex", "0"); node.dataset.kitTab = "1"; }
  return node;
}

export function clearSelection() {
  document.querySelectorAll(".selected, .kit-armed").forEach((n) => n.classList.remove("selected", "kit-armed"));
  document.querySelectorAll(".target").forEach((n) => {
    n.classList.remove("target"); n.onclick = null; n._asTarget = null;
    if (n.dataset.kitTab) { n.removeAttribute("tabindex"); delete n.dataset.kitTab; }
  });
  document.querySelectorAll(".popover").forEach((n) => n.remove());
}
document.addEventListener("click", (ev) => { if (!ev.target.closest(".popover")) clearSelection(); });
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") {
    const pop = document.querySelector(".popover");
    const back = pop && pop._anchor;
    clearSelection();
    if (back && back.isConnected) back.focus({ preventScroll: true });
    return;
  }
  // a lit target that is not a button answers Enter and Space as a click
  const node = ev.target;
  if ((ev.key === "Enter" || ev.key === " ") && !ev.defaultPrevented && node instanceof Element
      && node.classList.contains("target") && node.tagName !== "BUTTON") {
    ev.preventDefault();
    node.click();
  }
});

function pageRect(node) {
  const r = node.getBoundingClientRect();
  return { left: r.left + window.scrollX, top: r.top + window.scrollY, right: r.right + window.scrollX, bottom: r.bottom + window.scrollY };
}

const GAP = 6;
/** Put `pop` in the page where it covers neither `anchor` nor any lit target: beside the
 * anchor if there is room, else the free place nearest to it (in view first). */
export function place(pop, anchor) {
  if (!pop.isConnected) document.body.append(pop);
  pop._anchor = anchor;
  const avoid = [anchor, ...document.querySelectorAll(".target")].filter((n) => n && n.isConnected && n !== pop)
    .map(pageRect).filter((r) => r.right > r.left && r.bottom > r.top);
  const w = pop.offsetWidth, h = pop.offsetHeight;
  const doc = document.documentElement;
  const minX = window.scrollX + 4, maxX = window.scrollX + Math.max(4, doc.clientWidth - w - 4);
  const viewTop = window.scrollY, viewBottom = window.scrollY + window.innerHeight;
  const a = anchor.isConnected ? pageRect(anchor) : { left: minX, top: viewTop, right: minX, bottom: viewTop };
  const clampX = (x) => Math.max(minX, Math.min(x, maxX));
  const free = (x, y) => {
    const r = { left: x - 2, top: y - 2, right: x + w + 2, bottom: y + h + 2 };
    return y >= 0 && !avoid.some((b) => r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top);
  };
  const inView = (y) => y >= viewTop && y + h <= viewBottom;
  const near = [
    [clampX(a.left), a.bottom + GAP], [clampX(a.left), a.top - h - GAP],
    [a.right + GAP, a.top], [a.left - w - GAP, a.top],
    [clampX(a.right - w), a.bottom + GAP], [clampX(a.right - w), a.top - h - GAP],
  ].filter(([x]) => x >= minX - 0.5 && x <= maxX + 0.5);
  let spot = near.find(([x, y]) => inView(y) && free(x, y)) || null;
  if (!spot) {
    // the free places of a grid over the view, then over the whole page, nearest first
    const cx = (a.left + a.right) / 2, cy = (a.top + a.bottom) / 2;
    const grid = (top, bottom) => {
      const out = [];
      for (let y = top; y <= bottom - h; y += 12) for (let x = minX; x <= maxX; x += 16) out.push([x, y]);
      if (maxX > minX) for (let y = top; y <= bottom - h; y += 12) out.push([maxX, y]);
      return out.filter(([x, y]) => free(x, y))
        .sort((p, q) => Math.hypot(p[0] + w / 2 - cx, p[1] + h / 2 - cy) - Math.hypot(q[0] + w / 2 - cx, q[1] + h / 2 - cy));
    };
    spot = grid(viewTop, viewBottom)[0] || near.find(([x, y]) => free(x, y))
      || grid(0, Math.max(doc.scrollHeight, viewBottom))[0] || null;
    if (!spot) {
      // nowhere free on the page: below everything
      const bottom = Math.max(...avoid.map((r) => r.bottom), doc.scrollHeight - h);
      spot = [minX, bottom + GAP];
    }
  }
  pop.style.left = `${Math.round(spot[0])}px`;
  pop.style.top = `${Math.round(spot[1])}px`;
  return pop;
}

/** Place the open pop-overs again (after a board lit more targets). */
export function replace() {
  document.querySelectorAll(".popover").forEach((pop) => { if (pop._anchor) place(pop, pop._anchor); });
}

/** Duplicate labels made distinct: "label (copy 2)", in the order given. */
export function distinct(actions) {
  const count = new Map();
  for (const a of actions) count.set(a.label, (count.get(a.label) || 0) + 1);
  const seen = new Map();
  return actions.map((a) => {
    if (count.get(a.label) < 2) return a;
    const n = (seen.get(a.label) || 0) + 1;
    seen.set(a.label, n);
    return { ...a, label: `${a.label} (${tx("kit_copy", { n })})` };
  });
}

function menuItems(actions, choose) {
  return distinct(actions).map((a) => el("button.menu-item", { type: "button", role: "menuitem", tabindex: "-1", dataset: { notation: a.notation },
    onclick: (ev) => { ev.stopPropagation(); clearSelection(); choose(a); } }, iconText(a.label)));
}

function menuKeys(pop) {
  pop.addEventListener("keydown", (ev) => {
    const items = [...pop.querySelectorAll(".menu-item")];
    const i = items.indexOf(document.activeElement);
    let next = null;
    if (ev.key === "ArrowDown" || ev.key === "ArrowRight") next = items[(i + 1) % items.length];
    else if (ev.key === "ArrowUp" || ev.key === "ArrowLeft") next = items[(i - 1 + items.length) % items.length];
    else if (ev.key === "Home") next = items[0];
    else if (ev.key === "End") next = items[items.length - 1];
    if (next) { ev.preventDefault(); next.focus({ preventScroll: true }); }
  });
}

function focusMenu() {
  const first = document.querySelector(".popover .menu-item");
  if (first) first.focus({ preventScroll: true });
}

/** A menu of `actions` for `anchor`; `choose(action)` plays one. */
export function menu(anchor, actions, choose) {
  document.querySelectorAll(".popover").forEach((n) => n.remove());
  const items = menuItems(actions, choose);
  if (items.length) items[0].tabIndex = 0;
  const pop = el("div.popover.menu", { role: "menu", "aria-label": t("choose") },
    el("div.popover-title", { "aria-hidden": "true" }, t("choose")), ...items);
  menuKeys(pop);
  place(pop, anchor);
  queueMicrotask(() => { if (pop.isConnected) place(pop, anchor); });   // a board may light more targets
  focusMenu();
  return pop;
}

/** The full text of a card (or what `anchor` tells of itself), with its actions if any. */
/** Catalogue fields a card box does not show (names and texts are shown apart; the rest is bookkeeping). */
const HIDDEN_FIELDS = ["id", "key", "name_ja", "name_en", "text_ja", "text_en", "instances", "count", "stand_in",
  "hook", "excluded_by", "set"];
/** A card field's name in the viewer's language ("Type", "種類"), else the field itself. */
function fieldName(key) { const got = t(`fields.${key}`); return got === `fields.${key}` ? key : got; }
/** A field's value in words ("Battle support"), else as it is (numbers, costs). */
export function fieldValue(key, value) {
  for (const id of [`values.${key}.${value}`, `values.${value}`]) { const got = t(id); if (got !== id) return got; }
  return String(value);
}

function showInfo(anchor, actions = null, choose = null) {
  if (!actions) clearSelection();
  else document.querySelectorAll(".popover").forEach((n) => n.remove());
  const info = anchor._info || { main: anchor.getAttribute("aria-label") || anchor.title || anchor.textContent.trim(), other: "", body: "", entry: null };
  const { main, other, body, entry } = info;
  const stats = entry ? Object.entries(entry).filter(([k, v]) => !HIDDEN_FIELDS.includes(k)
    && v !== null && v !== "" && typeof v !== "object").map(([k, v]) => `${fieldName(k)}: ${fieldValue(k, v)}`).join(" · ") : "";
  const detail = !anchor._info && anchor.title && anchor.title !== main ? anchor.title : "";
  let list = null;
  if (actions && actions.length) {
    const items = menuItems(actions, choose || (() => {}));
    items.forEach((b, i) => { b.tabIndex = i === 0 ? 0 : -1; b.classList.add("kit-play"); });
    list = el("div.kit-actions", { role: "menu", "aria-label": tx("kit_actions") }, ...items);
  }
  const pop = el(`div.popover.info${list ? ".kit-preview" : ""}`, { role: "dialog", "aria-label": main || tx("kit_actions") },
    el("div.info-name", {}, iconText(main)), other ? el("div.info-other", {}, iconText(other)) : null,
    stats ? el("div.info-stats", {}, iconText(stats)) : null,
    body ? el("div.info-text", {}, iconText(body)) : detail ? el("div.info-text", {}, iconText(detail)) : null,
    list,
    el("button.kit-close", { type: "button", "aria-label": tx("kit_close"), onclick: (ev) => { ev.stopPropagation(); clearSelection(); anchor.focus({ preventScroll: true }); } },
      icon("close")));
  if (list) menuKeys(list);
  place(pop, anchor);
  queueMicrotask(() => { if (pop.isConnected) place(pop, anchor); });
  if (list && lastPointer === "keyboard") focusMenu();
  return pop;
}

/** A labelled area of a board. */
export function zone(title, ...children) {
  return el("section.zone", {}, el("h3.zone-title", {}, title), el("div.zone-body", {}, ...children));
}

// ----- icons: small inline SVG, never emoji (which show as boxes without an emoji font) --------
const SVG = "http://www.w3.org/2000/svg";
const PIPS = { 1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[7, 7], [12, 12], [17, 17]], 4: [[7, 7], [17, 7], [7, 17], [17, 17]],
  5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]], 6: [[7, 6.5], [17, 6.5], [7, 12], [17, 12], [7, 17.5], [17, 17.5]] };
const PATHS = {
  first: [["path", { d: "M5 5h2.5v14H5zM19 5v14l-10-7z", fill: "currentColor" }]],
  last: [["path", { d: "M16.5 5H19v14h-2.5zM5 5v14l10-7z", fill: "currentColor" }]],
  back: [["path", { d: "M17 5v14L6 12z", fill: "currentColor" }]],
  forward: [["path", { d: "M7 5v14l11-7z", fill: "currentColor" }]],
  swords: [["path", { d: "M4 4l11 11M20 4L9 15M6.5 14.5l3 3M17.5 14.5l-3 3M5 19l2.5-2.5M19 19l-2.5-2.5", fill: "none", stroke: "currentColor", "stroke-width": "2.2", "stroke-linecap": "round" }]],
  warning: [["path", { d: "M12 3.5L2.5 20h19z", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linejoin": "round" }],
    ["path", { d: "M12 9.5v5M12 17v.5", fill: "none", stroke: "currentColor", "stroke-width": "2.2", "stroke-linecap": "round" }]],
  info: [["circle", { cx: "12", cy: "12", r: "9", fill: "none", stroke: "currentColor", "stroke-width": "2" }],
    ["path", { d: "M12 11v6M12 7.5v.5", fill: "none", stroke: "currentColor", "stroke-width": "2.2", "stroke-linecap": "round" }]],
  heart: [["path", { d: "M12 20s-7.5-4.6-7.5-10A4.2 4.2 0 0 1 12 7.4 4.2 4.2 0 0 1 19.5 10c0 5.4-7.5 10-7.5 10z", fill: "currentColor" }]],
  female: [["circle", { cx: "12", cy: "9", r: "5", fill: "none", stroke: "currentColor", "stroke-width": "2" }],
    ["path", { d: "M12 14v7M9 18h6", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }]],
  male: [["circle", { cx: "10", cy: "14", r: "5", fill: "none", stroke: "currentColor", "stroke-width": "2" }],
    ["path", { d: "M13.5 10.5L20 4M15 4h5v5", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }]],
  close: [["path", { d: "M6 6l12 12M18 6L6 18", fill: "none", stroke: "currentColor", "stroke-width": "2.4", "stroke-linecap": "round" }]],
  check: [["path", { d: "M5 12.5l4.5 4.5L19 7.5", fill: "none", stroke: "currentColor", "stroke-width": "2.4", "stroke-linecap": "round" }]],
};

/** An inline SVG icon: decorative (hidden from assistive technology) unless it has a label. */
export function icon(name, { label = null, cls = "" } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `kit-icon kit-icon-${name}${cls ? " " + cls : ""}`);
  svg.setAttribute("focusable", "false");
  if (label) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", label); }
  else svg.setAttribute("aria-hidden", "true");
  const add = (tag, attrs) => {
    const n = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    svg.append(n);
  };
  const m = /^die(\d)$/.exec(name);
  if (m) {
    add("rect", { x: "2.5", y: "2.5", width: "19", height: "19", rx: "4", fill: "currentColor" });
    for (const [cx, cy] of PIPS[m[1]] || []) add("circle", { cx: String(cx), cy: String(cy), r: "2", class: "kit-pip" });
  } else {
    for (const [tag, attrs] of PATHS[name] || []) add(tag, attrs);
  }
  return svg;
}

/** One die face (1–6; any other number as text), for a board's own counters. */
export function dieFace(n, { label = null } = {}) {
  if (Number.isInteger(n) && n >= 0 && n <= 6) return icon(`die${n}`, { label, cls: "kit-die" });
  return el("span.kit-die-n", {}, String(n));
}

// the emoji and pictographs that server texts (labels, events) may carry, and their icons
const PICTOGRAPHS = new Map([["\u{1F3B2}", ["die5", null]], ["\u2640", ["female", "female"]], ["\u2642", ["male", "male"]],
  ["\u2694", ["swords", null]], ["\u26A0", ["warning", null]], ["\u2665", ["heart", null]]]);
const PICTO_RE = /(\u{1F3B2}|\u2640|\u2642|\u2694|\u26A0|\u2665)\uFE0F?/u;

/** Text with the emoji and pictographs of server messages drawn as icons (an array of
 * strings and icons for el(), or the string itself when it has none). */
export function iconText(str) {
  const parts = String(str ?? "").split(PICTO_RE);
  if (parts.length === 1) return parts[0];
  return parts.map((p, i) => {
    if (i % 2 === 0) return p || null;
    const [name, label] = PICTOGRAPHS.get(p);
    return icon(name, { label, cls: "kit-inline-icon" });
  }).filter(Boolean);
}

const rolled = new Set();   // the rolls (by event number) already shown rolling
/** The dice of a roll event, drawn as faces; `seq` (the event's number) lets a new roll roll. */
export function dice(faces, { seq = null } = {}) {
  const fresh = seq !== null && seq !== undefined && !rolled.has(seq);
  if (fresh) rolled.add(seq);
  return el("span.dice", { role: "img", "aria-label": tx("kit_dice", { faces: faces.join(", ") }) },
    ...faces.map((f) => {
      const node = el(`span.die${fresh ? ".kit-roll" : ""}`, { dataset: { face: String(f) } });
      node.append(Number.isInteger(f) && f >= 1 && f <= 6 ? icon(`die${f}`) : document.createTextNode(String(f)));
      return node;
    }));
}

// ----- the moves' animations ----------------------------------------------------------------------
const MOVABLE = "[data-ref]:not(.back), [data-unit], [data-knight], [data-region]";
const OWNED = "[data-owner][data-province], [data-owner][data-square]";
const memory = new WeakMap();   // root -> what the last drawing showed
const TRANSIENT = new Set(["actionable", "selected", "target", "turn", "acting", "mine", "tapped", "striking", "asked", "passed"]);

function placeOf(node) {
  const parts = [];
  let n = node.parentElement;
  for (let k = 0; n && k < 4; k++, n = n.parentElement) {
    if (n.dataset.square !== undefined) { parts.push(`sq${n.dataset.square}`); break; }
    if (n.dataset.seat !== undefined) { parts.push(`seat${n.dataset.seat}`); }
    parts.push(typeof n.className === "string" && n.className
      ? n.className.split(" ").filter((c) => c && !TRANSIENT.has(c) && !c.startsWith("kit-")).join(".") : n.tagName);
  }
  return parts.join("<");
}

/** Mark what moved since the last drawing of `root`: a card (or token) new in its place
 * slides in, a province or square that changed hands flashes. The first drawing marks
 * nothing. (prefers-reduced-motion: board-kit.css turns every animation off.) */
export function settle(root, ctx = null) {
  if (!root) return;
  const key = ctx && ctx.state ? `${ctx.state.match || ""}:${ctx.state.game || ""}:${ctx.seat}` : "";
  const before = memory.get(root);
  const now = { key, places: new Set(), owners: new Map(), states: new Map() };
  for (const node of root.querySelectorAll(MOVABLE)) {
    const id = node.dataset.ref ?? node.dataset.unit ?? node.dataset.knight ?? node.dataset.region;
    const where = `${id}@${placeOf(node)}`;
    now.places.add(where);
    if (node.dataset.state) now.states.set(where, node.dataset.state);
    if (before && before.key === key) {
      if (!before.places.has(where)) node.classList.add("kit-enter");
      else if (node.dataset.state && before.states.get(where) !== node.dataset.state) node.classList.add("kit-turn");
    }
  }
  for (const node of root.querySelectorAll(OWNED)) {
    const id = `${node.dataset.province ?? ""}/${node.dataset.square ?? ""}`;
    now.owners.set(id, node.dataset.owner);
    if (before && before.key === key && before.owners.has(id) && before.owners.get(id) !== node.dataset.owner) node.classList.add("kit-flip");
  }
  memory.set(root, now);
}
