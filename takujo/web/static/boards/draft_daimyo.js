// ドラフト戦国大名 (Draft Sengoku Daimyo): the table of 3–4 daimyo.
//
// At the top the round, turn and phase and the turn order; then the other daimyo (faction,
// gold, VP, battles won, their draft packet, hand, chosen card and tactics cards as backs with
// counts, their domain face up); in the middle the map of central Japan — sixteen provinces
// laid out roughly as on the real map, joined by their borders, each with its 国力, its
// holder's colour and soldiers, castles and homes — beside the battle in progress (or the last
// one, with its dice), the events turned up, the decks and the honours; at the bottom your own
// domain and, face up, your packet, hand, chosen card and tactics cards.
//
// Everything drawn comes from the view (and the rolls from the events). Actions are bound to
// what they name: a packet card (pick), a hand card (choose), the chosen card (play or
// discard it for 1 gold; then its target, of the kind its action row declares: a province
// — a place — for 城 and 国人衆の懐柔, an enemy warlord — a card — for 調略 and 謀反の兆し,
// a daimyo's name for a card that names a player), a province of yours (march: then the destination
// province; hire, in the province where soldiers are hired), a tactics card, a slot of the
// turn-order track, and buttons on the table for the rest (no basic action, no tactics card).
import { api, CardBook, el, names } from "../common.js";
import { clearSelection, dice, iconText, light, menu, replace } from "../board-kit.js";

const GAME = "draft_daimyo";
if (!document.querySelector(`link[data-board="${GAME}"]`)) {
  // (Object.assign cannot set `dataset`, a getter-only property: it throws in a module.)
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/static/boards/${GAME}.css` });
  link.dataset.board = GAME;
  document.head.append(link);
}

const ROUNDS = 4, TURNS = 4, HAND = 5;   // [public] 4 rounds × 4 turns, a 5-card hand (state.py)
const HIT = 5;                           // a die showing 5 or 6 is a hit (battle.py)
const NEUTRAL = -1, EMPTY = -2;
const PER_PLAYER = ["packets", "hand", "chosen", "domain", "tactics_hand", "tactics_played"];
const BATTLE_EVENTS = new Set(["tactic_placed", "no_tactic", "tactic_revealed", "roll", "exchange", "retreat",
  "repulsed", "captured", "plundered", "withdrew", "castle_razed"]);

// Where each province of map.toml sits: (column, row) on a 6 × 4.5 grid, west to east and
// north to south, roughly as on a map of central Japan. Provinces of another map that are
// not listed here are put on a grid of their own.
const POS = {
  echu: [1.2, 0], echigo: [4.2, 0],
  hida: [1.6, 1.1], shinano_kita: [3.2, 1.0], kozuke: [5.2, 1.0],
  omi: [0, 2.2], mino: [1.2, 2.2], shinano_minami: [2.8, 2.2], kai: [4.2, 2.3], musashi: [6, 2.0],
  owari: [0.8, 3.4], mikawa: [2.0, 3.5], totomi: [3.2, 3.6], suruga: [4.4, 3.6], sagami: [5.6, 3.2],
  izu: [5.5, 4.5],
};
const COLS = 6, ROWS = 4.5;

const tr = (ctx, key, args) => ctx.t(`${GAME}.${key}`, args);

// ----- the catalogue of this match's configuration -------------------------------------------
// The cards are numbered per configuration (with the expansion the ids differ). The page
// brings the match's own catalogue; should the one it has not hold the cards the view counts
// (a default catalogue), the match's catalogue is fetched again, and
// until it comes the cards are named from the actions' labels.
const books = new Map();
let lastDraw = null;

function bookFor(state, ctx) {
  if (fits(ctx.book, state.view)) return ctx.book;
  if (!state.match) return null;  // a replay's page brings the replay's own catalogue
  const key = state.match;
  const got = books.get(key);
  if (got === undefined) {
    books.set(key, "loading");
    api(`/api/matches/${encodeURIComponent(key)}/catalogue`)
      .then((cat) => { const b = new CardBook(cat); books.set(key, fits(b, state.view) ? b : null); })
      .catch(() => books.set(key, null))
      .then(() => { if (lastDraw) render(...lastDraw); });
  }
  return got instanceof CardBook ? got : null;
}

/** Does this catalogue hold exactly the cards the view counts (every card lies in one zone)? */
function fits(book, view) {
  if (!book || !book.catalogue || !Array.isArray(book.catalogue.cards)) return false;
  let total = 0;
  for (const [name, value] of Object.entries(view.zones || {})) {
    if (typeof value === "number") total += value;
    else if (Array.isArray(value)) {
      if (PER_PLAYER.includes(name)) for (const x of value) total += Array.isArray(x) ? x.length : x || 0;
      else total += value.length;
    }
  }
  return total === book.catalogue.cards.length;
}

// ----- what the events told of the last battle (the view keeps only the one in progress) ------
const memo = { match: null, lang: null, seen: new Set(), battle: null };

function noteEvents(state, readOnly) {
  if (readOnly || memo.match !== state.match || memo.lang !== state.lang) {
    memo.match = state.match; memo.lang = state.lang; memo.seen = new Set(); memo.battle = null;
  }
  for (const e of state.events || []) {
    if (e.seq !== undefined && memo.seen.has(e.seq)) continue;
    if (e.seq !== undefined) memo.seen.add(e.seq);
    if (e.e === "battle") memo.battle = { start: e, lines: [], open: true };
    else if (memo.battle && memo.battle.open && BATTLE_EVENTS.has(e.e)) memo.battle.lines.push(e);
    else if (memo.battle && e.e !== "committed") memo.battle.open = false;
  }
}

// ----- clicking a source, then its target -----------------------------------------------------
// A target that is itself bound (a province you hold) would answer its own click. So targets
// here are armed by this module too (a play's target by the kind its action row declares, a
// march's destination as its second argument) and their clicks caught first, on the board, in
// the capture phase.
let armed = new Map();      // element -> the actions it completes
let current = null;         // the ctx of the last draw

function wire(root) {
  if (root.dataset.ddWired) return;
  root.dataset.ddWired = "1";
  root.addEventListener("click", (ev) => {
    let node = ev.target;
    while (node && node !== root && !(armed.has(node) && node.classList.contains("target"))) node = node.parentElement;
    if (!node || node === root) return;
    ev.stopPropagation();
    ev.preventDefault();
    const acts = armed.get(node);
    armed = new Map();
    clearSelection();
    if (acts.length === 1) current.act(acts[0].notation);
    else menuAt(node, acts);
  }, true);
}

function menuAt(anchor, acts) {
  menu(anchor, acts, (a) => current.act(a.notation));
}

// ----- the board ----------------------------------------------------------------------------------
export function render(root, state, ctx) {
  lastDraw = [root, state, ctx];
  current = ctx;
  armed = new Map();
  wire(root);
  noteEvents(state, ctx.readOnly);
  const book = bookFor(state, ctx);
  if (book) ctx.book = book;
  const R = new Table(state, ctx, book);
  root.replaceChildren(R.draw());
  ctx.settle(root);
}

class Table {
  constructor(state, ctx, book) {
    this.state = state;
    this.ctx = ctx;
    this.book = book;
    this.view = state.view;
    this.z = this.view.zones;
    this.pub = this.view.public;
    this.n = this.pub.factions.length;
    this.me = ctx.seat === undefined ? null : ctx.seat;
    this.cat = (book && book.catalogue) || ctx.book.catalogue || {};
    const provinces = this.cat.board || [];
    this.provinces = provinces.length === this.pub.owner.length ? provinces
      : this.pub.owner.map((_, i) => ({ id: i, key: String(i), name_ja: `#${i}`, name_en: `#${i}`, kokuryoku: 0, adjacent: [] }));
    this.factions = this.cat.factions || [];
    this.tactics = /tactics=true/.test(state.game_string || this.view.game || "") || this.z.tactics_deck > 0
      || (this.z.tactics_discard || []).length > 0;
    this.bound = new Set();
    this.provNodes = [];
    this.cardNodes = new Map();      // the cards of the domains, as targets of a played card
    this.seatNodes = new Map();      // the daimyo's names, as targets of a card naming a player
    this.labels = new Map();
    for (const a of ctx.actions) {
      if (["pick", "choose", "play", "tactic"].includes(a.verb) && !this.labels.has(String(a.args[0]))) {
        const text = a.label.slice(a.label.indexOf(":") + 1).trim();
        this.labels.set(String(a.args[0]), { name: text.split(" [")[0], full: text });
      }
    }
  }

  t(key, args) { return tr(this.ctx, key, args); }
  /** A count: `key_one` for one (English singulars), else `key_n`. */
  tn(key, n, args = {}) { return this.t(`${key}_${n === 1 ? "one" : "n"}`, { n, ...args }); }
  mine(zone) { return this.me !== null && Array.isArray(this.z[zone][this.me]) ? this.z[zone][this.me] : null; }
  size(x) { return Array.isArray(x) ? x.length : x || 0; }
  entry(ref) { return this.book ? this.book.get(ref) : null; }

  faction(p) {
    const row = this.factions.find((f) => f.seat === p) || { key: `p${p}`, name_ja: this.pub.factions[p], name_en: this.pub.factions[p] };
    const [main, other] = names(row, this.ctx.lang);
    return { key: row.key, main, other, home: row.home };
  }
  ownerClass(o) { return o >= 0 ? `dd-f-${this.faction(o).key}` : o === NEUTRAL ? "dd-neutral" : "dd-empty"; }
  ownerName(o) { return o >= 0 ? this.faction(o).main : o === NEUTRAL ? this.t("neutral") : this.t("empty"); }
  provName(i) { return names(this.provinces[i], this.ctx.lang)[0]; }

  /** A card: named from the catalogue of this match (or, while it loads, from the action's label). */
  card(ref, opts = {}) {
    if (this.book || opts.faceDown || ref === null || ref === undefined) return this.ctx.card(ref, { ...opts, extra: opts.extra || this.extra(ref) });
    const label = this.labels.get(String(ref));
    return el(`div.card${opts.small ? ".small" : ""}`, { dataset: { ref: String(ref) }, tabindex: "0", title: label ? label.full : "" },
      el("div.card-name", {}, label ? label.name : `#${ref}`));
  }

  /** The cost and type of a card, and a warlord's numbers, under its name. */
  extra(ref) {
    const c = this.entry(ref);
    if (!c) return null;
    const parts = [];
    if (["warlord", "development", "strategy"].includes(c.type)) parts.push(this.t("cost", { n: c.cost }));
    if (c.type) parts.push(this.t(`type_${c.type}`));
    if (c.type === "warlord") {
      parts.push(this.t("warlord_stats", { a: c.attack || 0, d: c.defence || 0, x: c.defection || 0 }));
      if (c.first_strike) parts.push(this.t("first_strike"));
      if (c.loyal) parts.push(this.t("loyal"));
    }
    if (c.type === "tactics" && c.side) parts.push(this.t(`side_${c.side}`));
    return parts.join(" · ");
  }

  bind(node, actions) {
    if (!actions.length) return node;
    this.ctx.bind(node, actions);
    if (!this.ctx.readOnly) for (const a of actions) this.bound.add(a.notation);
    return node;
  }

  /** Bind `actions` to `node`; when it is clicked with several, arm the target of each. */
  bindArmed(node, actions, targetOf) {
    this.bind(node, actions);
    if (actions.length > 1 && !this.ctx.readOnly) {
      node.addEventListener("click", () => {
        armed = new Map();
        for (const a of actions) {
          const target = targetOf(a);
          if (!target) continue;
          if (!armed.has(target)) armed.set(target, []);
          armed.get(target).push(a);
        }
        for (const target of armed.keys()) light(target, null);   // its click is caught by wire()
        replace();   // the menu of every action moves off the targets it would hide
      });
    }
    return node;
  }

  backs(count, cls = "") {
    const shown = Math.min(count, 6);
    return el(`div.dd-backs${cls ? "." + cls : ""}`, { dataset: { count: String(count) }, title: this.tn("cards", count) },
      ...Array.from({ length: shown }, () => this.ctx.card(null, { small: true })),
      el("span.dd-count", {}, `×${count}`));
  }

  block(title, cls, ...children) {
    return el(`section.dd-block.${cls}`, {}, el("h4.dd-block-title", {}, title), el("div.dd-block-body", {}, ...children));
  }

  // ----- draw ----------------------------------------------------------------------------------
  draw() {
    const head = this.header();
    const map = this.map();                           // provinces first: cards target them
    const others = el("div.dd-others", {}, ...this.seatOrder().filter((p) => p !== this.me).map((p) => this.seat(p)));
    const side = this.side();
    const mine = this.me !== null ? this.myArea() : null;
    const left = this.leftovers();
    const middle = el("div.dd-middle", {}, map, side);
    // picking from your packet or hand (or a tactics card): your cards first, in view
    if (mine && this.picking()) return el("div.dd-table.dd-picking", { dataset: { phase: this.pub.phase } }, head, mine, left, middle, others);
    return el("div.dd-table", { dataset: { phase: this.pub.phase } },
      head, others, middle, mine, left);
  }

  /** Whether what you must choose from now is a card of yours (packet, hand, tactics). */
  picking() {
    return this.ctx.actions.some((a) => ["pick", "choose", "tactic", "notactic"].includes(a.verb));
  }

  /** The seats from the viewer's left: the others in turn order after you. */
  seatOrder() {
    const all = Array.from({ length: this.n }, (_, p) => p);
    if (this.me === null) return all;
    return all.map((_, k) => (this.me + 1 + k) % this.n);
  }

  phaseText() {
    const ph = this.pub.phase;
    const word = this.t(`phase_${ph}`);
    if (ph === "draft") return `${word} · ${this.t("pick_no", { n: Math.min(this.pub.pick_no + 1, HAND), of: HAND })}`;
    return word;
  }

  header() {
    const pub = this.pub;
    const when = pub.turn_of_round > 0 && pub.phase !== "over" ? this.t("round_turn", { round: pub.round, rounds: ROUNDS, turn: pub.turn_of_round, turns: TURNS })
        : this.t("round_only", { round: pub.round, rounds: ROUNDS });
    const acting = ["card", "basic", "basic_done", "tactic"].includes(pub.phase) ? pub.turn_player : null;
    const chips = pub.order.map((p, k) => el(`span.dd-order-chip.${this.ownerClass(p)}${p === acting ? ".dd-acting" : ""}`,
      { dataset: { seat: String(p) }, title: `${k + 1}. ${this.faction(p).main} — ${this.ctx.player(p)}` },
      el("span.dd-order-no", {}, String(k + 1)), this.faction(p).main));
    const parts = [el("div.dd-when", {}, el("span.dd-round", {}, when), el("span.dd-phase", {}, this.phaseText())),
      el("div.dd-order", {}, el("span.dd-label", {}, this.t("turn_order")), ...chips)];
    if (pub.phase === "order") parts.push(this.orderTrack());
    parts.push(this.ctx.settingsControl());
    return el("header.dd-head", {}, ...parts);
  }

  /** Choosing turn-order positions (the turn_order_choice variant). */
  orderTrack() {
    const pub = this.pub;
    const slots = Array.from({ length: this.n }, (_, k) => {
      const who = pub.new_order[k];
      const slot = el(`div.dd-slot${who >= 0 ? "." + this.ownerClass(who) : ""}`, { dataset: { position: String(k + 1) } },
        el("span.dd-order-no", {}, this.t("position", { n: k + 1 })),
        who >= 0 ? el("span", {}, this.faction(who).main) : el("span.dd-free", {}, this.t("free")));
      this.bind(slot, this.ctx.actionsFor("order", k + 1));
      return slot;
    });
    const next = pub.choosers[pub.new_order.filter((x) => x >= 0).length];
    return el("div.dd-order-track", {}, el("span.dd-label", {}, this.t("choosing_order", { who: next !== undefined ? this.faction(next).main : "" })), ...slots);
  }

  // ----- the map -------------------------------------------------------------------------------
  position(i) {
    const key = this.provinces[i].key;
    let [c, r] = POS[key] || [(i % 6) * 1.2, Math.floor(i / 6) * 1.5];
    c = Math.min(c, COLS); r = Math.min(r, ROWS);
    return [9 + (c / COLS) * 82, 10 + (r / ROWS) * 80];
  }

  map() {
    const pub = this.pub, ctx = this.ctx;
    const svg = svgEl("svg", { class: "dd-roads", viewBox: "0 0 100 100", preserveAspectRatio: "none", "aria-hidden": "true" });
    const out = (i) => this.n === 3 && this.provinces[i].three_player_out;
    this.provinces.forEach((p, i) => {
      for (const j of p.adjacent || []) {
        if (j <= i || j >= this.provinces.length) continue;
        const [x1, y1] = this.position(i), [x2, y2] = this.position(j);
        svg.append(svgEl("line", { x1, y1, x2, y2, class: out(i) || out(j) ? "dd-road dd-road-out" : "dd-road" }));
      }
    });
    const b = pub.battle;
    if (b) {
      const [x1, y1] = this.position(b.from), [x2, y2] = this.position(b.to);
      svg.append(svgEl("line", { x1, y1, x2, y2, class: "dd-road dd-attack" }));
    }
    const castleAt = new Map(Object.entries(pub.castles || {}).map(([c, pr]) => [pr, c]));
    const homes = new Map(this.factions.map((f) => [f.home, f]));
    const nodes = this.provinces.map((p, i) => {
      const o = pub.owner[i], k = pub.soldiers[i];
      const [x, y] = this.position(i);
      const [main, other] = names(p, ctx.lang);
      const home = homes.get(i);
      const inactive = out(i);
      const facts = [`${main}${other ? ` (${other})` : ""}`, this.t("kokuryoku", { n: p.kokuryoku })];
      if (home) facts.push(this.t("home_of", { faction: names(home, ctx.lang)[0] }));
      if (inactive) facts.push(this.t("unused"));
      else facts.push(o === EMPTY ? this.t("empty") : `${this.ownerName(o)} · ${this.tn("soldiers", k)}`);
      if (castleAt.has(i)) facts.push(this.t("castle"));
      const adj = (p.adjacent || []).filter((j) => j < this.provinces.length).map((j) => this.provName(j));
      if (adj.length) facts.push(this.t("adjacent", { list: adj.join(this.t("list_sep")) }));
      const cls = ["dd-prov", this.ownerClass(o)];
      if (home) cls.push("dd-home");
      if (inactive) cls.push("dd-out");
      if (b && (b.to === i || b.from === i)) cls.push(b.to === i ? "dd-battle-to" : "dd-battle-from");
      const node = el(`div.${cls.join(".")}`, {
        dataset: { province: String(i), key: p.key, owner: String(o), soldiers: String(k) },
        style: { left: `${x}%`, top: `${y}%` }, title: facts.join("\n"), tabindex: "0",
      },
      home ? el(`span.dd-home-flag.dd-f-${home.key}`, { title: this.t("home_of", { faction: names(home, ctx.lang)[0] }) }) : null,
      el("div.dd-prov-name", {}, main),
      other ? el("div.dd-prov-other", {}, other) : null,
      el("div.dd-prov-row", {},
        el("span.dd-koku", { title: this.t("kokuryoku_title") }, String(p.kokuryoku)),
        o === EMPTY || inactive ? null : el(`span.dd-soldiers.${this.ownerClass(o)}`, { title: `${this.ownerName(o)} · ${this.tn("soldiers", k)}` }, String(k)),
        castleAt.has(i) ? el("span.dd-castle", { title: this.t("castle"), role: "img", "aria-label": this.t("castle") }) : null));
      this.provNodes[i] = node;
      return node;
    });
    this.bindProvinces();
    return el("section.dd-map-wrap", {}, el("h3.dd-title", {}, this.t("map")),
      el("div.dd-map", { role: "group", "aria-label": this.t("map") }, svg, ...nodes),
      this.legend());
  }

  /** Marches from a province (then the destination), and hiring where soldiers are hired. */
  bindProvinces() {
    const ctx = this.ctx;
    const hires = ctx.actionsFor("hire");
    const hireAt = this.hireSquare();
    this.provNodes.forEach((node, i) => {
      const acts = [...(i === hireAt ? hires : []), ...ctx.actionsFor("march", i)];
      if (i === hireAt && hires.length) node.classList.add("dd-hire-here");
      this.bindArmed(node, acts, (a) => (a.verb === "march" ? this.provNodes[a.args[1]] : null));
    });
  }

  /** Soldiers are hired in your home, or (lost) where the first castle of yours stands (state.py). */
  hireSquare() {
    if (this.me === null) return null;
    const home = this.faction(this.me).home;
    if (home !== undefined && this.pub.owner[home] === this.me) return home;
    const mine = Object.values(this.pub.castles || {}).filter((pr) => this.pub.owner[pr] === this.me).sort((a, b) => a - b);
    return mine.length ? mine[0] : null;
  }

  legend() {
    const items = Array.from({ length: this.n }, (_, p) => el(`span.dd-legend-item`, {},
      el(`span.dd-swatch.${this.ownerClass(p)}`), this.faction(p).main));
    items.push(el("span.dd-legend-item", {}, el("span.dd-swatch.dd-neutral"), this.t("neutral")));
    items.push(el("span.dd-legend-item", {}, el("span.dd-koku"), this.t("kokuryoku_short")));
    items.push(el("span.dd-legend-item", {}, el("span.dd-castle"), this.t("castle")));
    return el("div.dd-legend", {}, ...items);
  }

  // ----- the players ---------------------------------------------------------------------------
  seat(p) {
    const pub = this.pub, z = this.z;
    const f = this.faction(p);
    const pend = (this.state.pending && this.state.pending.players) || [];
    const committed = pub.committed || [];
    const badges = [];
    if (pend.includes(p)) badges.push(el("span.dd-badge.dd-to-act", {}, this.ctx.t("to_act")));
    if (committed.includes(p)) badges.push(el("span.dd-badge", {}, this.t("committed")));
    const provs = pub.owner.map((o, i) => [o, i]).filter(([o]) => o === p).map(([, i]) => i);
    const koku = provs.reduce((s, i) => s + (this.provinces[i].kokuryoku || 0), 0);
    const stats = el("div.dd-stats", {},
      el("span.dd-stat.dd-gold", { title: this.t("gold") }, this.t("gold_n", { n: pub.gold[p] })),
      el("span.dd-stat.dd-vp", { title: this.t("vp") }, this.t("vp_n", { n: pub.vp[p] })),
      el("span.dd-stat", { title: this.t("provinces_title") }, this.tn("provinces", provs.length, { k: koku })),
      el("span.dd-stat", { title: this.t("battles_won") }, this.tn("battles_won", pub.battles_won[p])));
    const hidden = [];
    if (p !== this.me) {
      const pk = this.size(z.packets[p]), hd = this.size(z.hand[p]), ch = this.size(z.chosen[p]);
      if (pk || pub.phase === "draft") hidden.push(this.block(this.t("packet"), "dd-packet", Array.isArray(z.packets[p]) ? this.cards(z.packets[p]) : this.backs(pk)));
      hidden.push(this.block(this.t("hand"), "dd-hand", Array.isArray(z.hand[p]) ? this.cards(z.hand[p]) : this.backs(hd)));
      if (ch || ["card", "basic", "basic_done", "tactic", "choose"].includes(pub.phase)) hidden.push(this.block(this.t("chosen"), "dd-chosen", Array.isArray(z.chosen[p]) ? this.cards(z.chosen[p]) : this.backs(ch)));
      if (this.tactics) hidden.push(this.block(this.t("tactics_hand"), "dd-tactics", Array.isArray(z.tactics_hand[p]) ? this.cards(z.tactics_hand[p]) : this.backs(this.size(z.tactics_hand[p]))));
    }
    const domain = this.block(this.t("domain"), "dd-domain", this.domain(p));
    const head = el("div.dd-seat-head", { dataset: { player: String(p) } }, el(`span.dd-mon.${this.ownerClass(p)}`),
      el("span.dd-fname", {}, f.main), f.other ? el("span.dd-fother", {}, f.other) : null,
      el("span.dd-who", {}, this.ctx.player(p)), ...badges);
    this.seatNodes.set(String(p), head);
    return el(`section.dd-seat.${this.ownerClass(p)}${p === this.me ? ".dd-me" : ""}`, { dataset: { seat: String(p) } },
      head, stats, el("div.dd-zones", {}, ...hidden, domain));
  }

  cards(list) { return el("div.dd-cards", {}, ...list.map((c) => this.card(c))); }

  domain(p) {
    const list = this.z.domain[p] || [];
    if (!list.length) return el("span.dd-none", {}, this.t("none"));
    const marked = new Set((this.pub.marked || []).map(String));
    const castles = this.pub.castles || {};
    return el("div.dd-cards", {}, ...list.map((c) => {
      const bits = [this.extra(c)];
      if (castles[String(c)] !== undefined) bits.push(this.t("castle_in", { province: this.provName(castles[String(c)]) }));
      const node = this.card(c, { extra: bits.filter(Boolean).join(" · ") || null, classes: marked.has(String(c)) ? "dd-marked" : "" });
      if (marked.has(String(c))) node.append(el("span.dd-mark", { title: this.t("marked") }, this.t("marked")));
      this.cardNodes.set(String(c), node);
      return node;
    }));
  }

  myArea() {
    const me = this.me, ctx = this.ctx, pub = this.pub;
    const blocks = [];
    const packet = this.mine("packets") || [];
    if (packet.length || pub.phase === "draft") {
      blocks.push(this.block(this.t("your_packet"), "dd-packet", el("div.dd-cards", {}, ...packet.map((c) => this.bind(this.card(c), ctx.actionsFor("pick", c)))),
        ctx.actionsFor("pick").length ? el("p.dd-hint", {}, this.t("hint_pick")) : null));
    }
    const hand = this.mine("hand") || [];
    blocks.push(this.block(this.t("your_hand"), "dd-hand", hand.length
      ? el("div.dd-cards", {}, ...hand.map((c) => this.bind(this.card(c), ctx.actionsFor("choose", c))))
      : el("span.dd-none", {}, this.t("none")),
    ctx.actionsFor("choose").length ? el("p.dd-hint", {}, this.t("hint_choose")) : null));
    const chosen = this.mine("chosen") || [];
    if (chosen.length || ["choose", "card", "basic", "basic_done", "tactic"].includes(pub.phase)) {
      blocks.push(this.block(this.t("your_chosen"), "dd-chosen", chosen.length
        ? el("div.dd-cards", {}, ...chosen.map((c) => this.chosenCard(c)))
        : el("span.dd-none", {}, this.t("none")),
      ctx.actionsFor("sell").length ? el("p.dd-hint", {}, this.t("hint_card")) : null));
    }
    if (this.tactics) {
      const th = this.mine("tactics_hand") || [], tp = this.mine("tactics_played") || [];
      blocks.push(this.block(this.t("your_tactics"), "dd-tactics",
        th.length ? el("div.dd-cards", {}, ...th.map((c) => this.bind(this.card(c), ctx.actionsFor("tactic", c)))) : el("span.dd-none", {}, this.t("none")),
        tp.length ? el("div.dd-played", {}, el("span.dd-label", {}, this.t("tactics_played")), this.cards(tp)) : null));
    }
    const buttons = ["rest", "notactic"].flatMap((verb) => ctx.actionsFor(verb)).map((a) => this.button(a));
    if (ctx.actionsFor("march").length || ctx.actionsFor("hire").length) blocks.push(el("p.dd-hint", {}, this.t("hint_basic")));
    const row = el("div.dd-hand-row", {}, ...blocks);
    const bar = buttons.length ? el("div.dd-buttons", {}, ...buttons) : null;
    return el(`section.dd-mine.${this.ownerClass(me)}`, { dataset: { seat: String(me) } },
      ...(this.picking() ? [row, bar, this.seat(me)] : [this.seat(me), row, bar]));
  }

  /** The card chosen this turn: play it (then its target: a province, a card or a daimyo, by
   * the kind its action row declares for it) or discard it for 1 gold. */
  chosenCard(c) {
    const ctx = this.ctx;
    const node = this.card(c);
    const acts = ctx.actionsWhere((a) => (a.verb === "play" || a.verb === "sell") && String(a.args[0]) === String(c));
    const kindOf = (a) => (a.kinds && a.kinds[1]) || "card";
    const targetOf = (a) => {
      if (a.verb !== "play" || a.args.length < 2) return null;
      const kind = kindOf(a), value = String(a.args[1]);
      if (kind === "place") return this.provNodes[a.args[1]] || null;
      if (kind === "player") return this.seatNodes.get(value) || null;
      return this.cardNodes.get(value) || null;
    };
    for (const a of acts) {
      const target = targetOf(a);
      if (target) ctx.target(target, a.args[1], kindOf(a));
    }
    return this.bindArmed(node, acts, targetOf);
  }

  button(a) {
    return this.bind(el("button.dd-button", { type: "button", dataset: { verb: a.verb } }, a.label), [a]);
  }

  /** Any legal action no element above carries gets a button on the table. */
  leftovers() {
    const rest = this.ctx.actions.filter((a) => !this.bound.has(a.notation));
    if (!rest.length) return null;
    return el("div.dd-buttons.dd-leftovers", {}, ...rest.map((a) => this.button(a)));
  }

  // ----- the side: battle, events, decks, honours --------------------------------------------
  side() {
    const z = this.z;
    const parts = [];
    const battle = this.battlePanel();
    if (battle) parts.push(battle);
    const events = [...(z.event_discard || [])].reverse();
    parts.push(this.block(this.t("events"), "dd-events",
      el("div.dd-pile", {}, el("span.dd-label", {}, this.t("event_deck")), this.backs(this.size(z.event_deck))),
      events.length ? el("div.dd-cards", {}, ...events.map((c, k) => this.card(c, { classes: k < 2 ? "dd-new" : "" }))) : el("span.dd-none", {}, this.t("no_events"))));
    const discard = z.draft_discard || [];
    parts.push(this.block(this.t("decks"), "dd-decks",
      el("div.dd-pile", {}, el("span.dd-label", {}, this.t("draft_deck")), this.backs(this.size(z.draft_deck))),
      el("details.dd-discard", {}, el("summary", {}, this.t("draft_discard_n", { n: discard.length })),
        el("div.dd-cards", {}, ...discard.map((c) => this.card(c, { small: false }))))));
    if (this.tactics) {
      const td = z.tactics_discard || [];
      parts.push(this.block(this.t("tactics"), "dd-tactics-pile",
        el("div.dd-pile", {}, el("span.dd-label", {}, this.t("tactics_deck")), this.backs(this.size(z.tactics_deck))),
        td.length ? el("div.dd-cards", {}, ...td.map((c) => this.card(c))) : null));
    }
    const honours = z.honours || [];
    parts.push(this.block(this.t("honours"), "dd-honours",
      el("p.dd-hint", {}, this.t("honours_hint")),
      el("div.dd-cards", {}, ...honours.map((c) => this.card(c, { classes: "dd-honour" })))));
    return el("aside.dd-side", {}, ...parts);
  }

  battlePanel() {
    const b = this.pub.battle;
    const ctx = this.ctx;
    const sideName = (p) => (p >= 0 ? `${this.faction(p).main} (${ctx.player(p)})` : this.t("neutral_forces"));
    const chip = (p) => el(`span.dd-chip.${this.ownerClass(p)}`, {}, sideName(p));
    if (b) {
      const placed = (i, p) => (b.cards && b.cards[i] ? this.ctx.card(null, { small: true }) : el("span.dd-none", {}, this.t("no_card_placed")));
      const mine = this.mine("tactics_played") || [];
      return this.block(this.t("battle"), "dd-battle.dd-live",
        el("div.dd-vs", {}, chip(b.attacker), el("span.dd-arrow", {}, this.t(b.k === 1 ? "attacks_one" : "attacks", { k: b.k, from: this.provName(b.from), to: this.provName(b.to) })), chip(b.defender)),
        this.tactics && b.defender >= 0 ? el("div.dd-vs-cards", {},
          el("span.dd-label", {}, this.t("attacker")), placed(0, b.attacker),
          el("span.dd-label", {}, this.t("defender")), placed(1, b.defender)) : null,
        mine.length ? el("div.dd-played", {}, el("span.dd-label", {}, this.t("tactics_played")), this.cards(mine)) : null);
    }
    const last = memo.battle;
    if (!last) return null;
    const rows = last.lines.map((e) => {
      if (e.e === "roll" && Array.isArray(e.faces)) {
        const d = dice(e.faces, { seq: e.seq });
        [...d.children].forEach((die, k) => { if (e.faces[k] >= HIT) die.classList.add("dd-hit"); });
        const hits = e.faces.filter((f) => f >= HIT).length;
        const who = e.player === null || e.player === undefined ? NEUTRAL : e.player;
        return el("div.dd-roll", { dataset: { why: e.why || "" } }, chip(who), d, el("span.dd-hits", {}, this.tn("hits", hits)));
      }
      return el("div.dd-line", {}, iconText((e.text || "").trim()));
    });
    return this.block(this.t("last_battle"), "dd-battle",
      el("div.dd-line.dd-start", {}, iconText((last.start.text || "").trim())), ...rows);
  }
}

function svgEl(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}
