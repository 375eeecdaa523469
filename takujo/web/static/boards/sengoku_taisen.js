// 戦国大戦 双 TCG: the table of two players. The opponent sits at the top (their castle
// walls, deck, discard pile, okugi and hand in the back row, then their kokuryoku, then
// their camp facing yours), the battle in progress in the middle, you at the bottom with
// your hand under your camp. A spectator sees player 1 at the top and player 0 below.
//
// Everything drawn comes from the view: hands, face-down kokuryoku and the okugi of the
// other player are backs with counts; walls are a face-down stack for everybody.
// Actions are bound to what they name: a hand card (kokuryoku, deploy, stratagem, discard;
// then its target), a unit (attack, then the castle or an exhausted enemy; ability, then its
// target; intercept), the okugi, the counter-stratagem waiting for a target, and buttons on
// the table for keep / mulligan / skip / end / pass / do not intercept. A target lights by
// the kind each action row gives its arguments: a unit is a card, the castle and the
// kokuryoku's faces are words, a player (an effect aimed at one) is the name on their side.
import { el, names, text } from "../common.js";
import { tx } from "../board-kit.js";

const GAME = "sengoku_taisen";
// (Object.assign cannot set `dataset`, a getter-only property: the attribute is set apart.)
if (!document.querySelector(`link[data-board="${GAME}"]`)) {
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/static/boards/${GAME}.css` });
  link.dataset.board = GAME;
  document.head.append(link);
}

const T = (ctx, key, args) => ctx.t(`${GAME}.${key}`, args);
const COLOURS = { "蒼": "ao", "紅": "aka", "翠": "midori", "黄": "ki", "黒": "kuro", "無": "mu" };
const KEYWORDS = { "奇襲": "kishu", "貫通": "kantsu", "長槍": "nagayari" };
const TOKEN_BASE = 10000;

const openPiles = new Set();   // the seats whose discard pile is shown whole

export function render(root, state, ctx) {
  ctx.targets = [];
  root.replaceChildren(new Table(state, ctx).draw());
  ctx.settle(root);
}

/** Actions as the board binds them: the real notation and label, and `args` (with their
 * `kinds`) cut to the arguments at `keep`: [what is clicked first, what it is aimed at], so
 * that only real targets light up; `lead` stands first instead, when given (the okugi). */
const proxy = (a, keep, lead) => {
  const kinds = a.kinds || [];
  const args = keep.map((i) => a.args[i]), argKinds = keep.map((i) => kinds[i] || "any");
  return lead === undefined ? { notation: a.notation, label: a.label, verb: a.verb, args, kinds: argKinds }
    : { notation: a.notation, label: a.label, verb: a.verb, args: [lead, ...args], kinds: ["any", ...argKinds] };
};
/** The indices of an action's arguments from `start` on. */
const after = (a, start) => a.args.map((_, i) => i).slice(start);

class Table {
  constructor(state, ctx) {
    this.state = state;
    this.ctx = ctx;
    this.view = state.view;
    this.z = this.view.zones;
    this.pub = this.view.public;
    this.seat = ctx.seat;
    this.bound = new Set();
    this.exhausted = new Set((this.pub.exhausted || []).map(String));
    this.units = new Map();   // unit id -> its element
    this.decks = deckNames(state.game_string || "");
  }

  entry(ref) { return this.ctx.book.get(ref); }

  bind(node, actions) {
    if (!actions.length) return node;
    actions.forEach((a) => this.bound.add(a.notation));
    return this.ctx.bind(node, actions);
  }

  button(actions, cls = "") {
    if (!actions.length) return null;
    const b = el(`button.sgt-button${cls}`, { type: "button" }, actions.length === 1 ? actions[0].label : actions[0].label.split(":")[0]);
    return this.bind(b, actions);
  }

  verb(v) { return this.ctx.actions.filter((a) => a.verb === v); }

  draw() {
    const ctx = this.ctx;
    const bottom = this.seat === null || this.seat === undefined ? 0 : this.seat;
    const top = 1 - bottom;
    const parts = [
      this.banner(),
      this.side(top, false),
      this.middle(),
      this.side(bottom, true),
      this.seat === null || this.seat === undefined ? null : this.hand(bottom),
    ];
    const rest = ctx.actions.filter((a) => !this.bound.has(a.notation));
    if (rest.length) {
      const box = el("div.sgt-others", {}, ...rest.map((a) => this.bind(el("button.sgt-button", { type: "button" }, a.label), [a])));
      parts.push(box);
    }
    return el(`div.sgt-table${this.seat === null ? ".spectator" : ""}`, {}, ...parts);
  }

  // ----- the turn ------------------------------------------------------------------------
  banner() {
    const ctx = this.ctx, pub = this.pub;
    const phase = T(ctx, `phase_${pub.phase}`);
    const bits = [
      pub.turn ? el("span.sgt-turn", {}, T(ctx, "turn", { n: pub.turn })) : null,
      pub.phase !== "over" ? el("span.sgt-turn-player", {}, T(ctx, "turn_of", { who: ctx.player(pub.turn_player) })) : null,
      el("span.sgt-phase", { dataset: { phase: pub.phase } }, phase),
      el("span.sgt-first", {}, T(ctx, "first", { who: ctx.player(pub.first_player) })),
    ];
    const buttons = el("span.sgt-banner-buttons", {},
      this.button(this.verb("end"), ".sgt-end"), ctx.settingsControl());
    return el("div.sgt-banner", {}, ...bits, buttons);
  }

  // ----- the battle in the middle ----------------------------------------------------------
  middle() {
    const ctx = this.ctx, pub = this.pub, b = pub.battle;
    const rows = [];
    if (b) {
      const who = (u) => u === "castle" ? T(ctx, "castle") : this.unitName(u);
      const line = el("div.sgt-battle-line", {},
        el("span.sgt-battle-tag", {}, T(ctx, "battle")),
        el("span.sgt-attacker-name", {}, who(b.attacker)), el("span.sgt-arrow", {}, "→"),
        el("span.sgt-target-name", {}, who(b.target)),
        b.interceptor >= 0 ? el("span.sgt-intercepted", {}, T(ctx, "intercepted", { who: who(b.interceptor) }))
          : pub.phase === "intercept" ? el("span.sgt-intercepting", {}, T(ctx, "phase_intercept")) : null);
      rows.push(line);
    }
    for (const w of pub.windows || []) {
      if (w.passes >= w.order.length) continue;
      rows.push(el("div.sgt-window", {}, el("span.sgt-window-tag", {}, T(ctx, "window")),
        el("span.sgt-passes", {}, T(ctx, "passes", { n: w.passes, of: w.order.length }))));
    }
    for (const [owner, card] of pub.counters || []) {
      const node = this.ctx.card(card, { small: false, classes: "sgt-counter-card" });
      const acts = this.ctx.actionsWhere((a) => a.verb === "counter" && String(a.args[0]) === String(card));
      this.bind(node, acts);
      rows.push(el("div.sgt-counter", {}, el("span.sgt-window-tag", {}, T(ctx, "counter")),
        el("span", {}, ctx.player(owner)), node));
    }
    const buttons = [this.button(this.verb("nointercept")), this.button(this.verb("pass"))].filter(Boolean);
    if (buttons.length) rows.push(el("div.sgt-responses", {}, ...buttons));
    return el(`section.sgt-middle${rows.length ? "" : ".quiet"}`, {}, ...rows);
  }

  unitName(u) {
    if (Number(u) >= TOKEN_BASE) return T(this.ctx, "token_n", { n: tokenNumber(u) });
    return names(this.entry(u), this.ctx.lang)[0];
  }

  // ----- one player's side ----------------------------------------------------------------
  side(p, near) {
    const ctx = this.ctx, z = this.z;
    const mine = p === this.seat;
    const deck = this.decks[p];
    const who = targetable(ctx, el("span.sgt-who", { dataset: { seat: String(p) } }, ctx.player(p)), p, "player");
    const head = el("div.sgt-side-head", {},
      who,
      COLOURS[deck] ? el("span.sgt-deck-name", {}, T(ctx, "deck_name", { name: T(ctx, `colour_${COLOURS[deck]}`) })) : null,
      this.pub.turn_player === p && this.pub.phase !== "over" ? el("span.sgt-to-act", {}, T(ctx, "their_turn")) : null);
    // the back row as on the table: the castle walls, deck, okugi, discard pile (and the
    // other player's hand); before it the kokuryoku; the camp faces the other side
    const rear = el("div.sgt-rear", {}, this.walls(p), this.deck(p), this.okugi(p), this.discard(p),
      mine ? null : this.handBacks(p), this.exile(p));
    const rows = [this.camp(p), this.koku(p), rear];
    if (!near) rows.reverse();
    return el(`section.sgt-side${near ? ".near" : ".far"}${mine ? ".mine" : ""}${this.pub.turn_player === p ? ".turn" : ""}`,
      { dataset: { seat: String(p) } }, head, el("div.sgt-side-body", {}, ...rows));
  }

  /** A pile on the table: its name, its top (or back), and how many cards it holds (a
   * number) or a note. */
  pile(cls, title, body, count) {
    const tail = typeof count === "number" ? el("span.sgt-n", { "aria-label": `${title}: ${count}` }, String(count)) : count;
    const node = el(`div.sgt-pile.${cls}`, {}, el("div.sgt-pile-title", {}, title), body,
      tail !== undefined && tail !== null ? el("div.sgt-pile-count", {}, tail) : null);
    if (typeof count === "number") node.dataset.count = String(count);
    return node;
  }

  walls(p) {
    const n = this.z.walls[p];
    const stack = el("div.sgt-stack", { style: { "--n": String(Math.min(n, 12)) } },
      ...Array.from({ length: Math.min(n, 12) }, (_, i) => el("div.sgt-wall", { style: { "--i": String(i) } })),
      el("span.sgt-stack-n", {}, String(n)));
    const pile = this.pile("sgt-walls", T(this.ctx, "walls"), stack, null);
    pile.dataset.count = String(n);
    pile.setAttribute("aria-label", `${T(this.ctx, "walls")}: ${n}`);
    if (p !== this.seat) targetable(this.ctx, pile, "castle", "word");
    return pile;
  }

  deck(p) {
    const n = this.z.deck[p];
    return this.pile("sgt-deck", T(this.ctx, "deck"), n ? this.ctx.card(null, { small: true }) : el("div.sgt-empty"), n);
  }

  discard(p) {
    const list = this.z.discard[p] || [];
    const top = list.length ? this.ctx.card(list[list.length - 1], { classes: "sgt-small" }) : el("div.sgt-empty");
    const pile = this.pile("sgt-discard", T(this.ctx, "discard"), top, list.length);
    if (list.length > 1) {
      // the whole pile, newest first; left open across redraws if the player opened it
      const details = el("details.sgt-pile-list", { open: openPiles.has(p) ? true : null }, el("summary", {}, T(this.ctx, "show_all")),
        el("div.sgt-list-cards", {}, ...list.slice().reverse().map((c) => this.ctx.card(c, { classes: "sgt-small" }))));
      details.addEventListener("toggle", () => { if (details.open) openPiles.add(p); else openPiles.delete(p); });
      pile.append(details);
    }
    return pile;
  }

  exile(p) {
    const list = this.z.exile[p] || [];
    if (!list.length) return null;
    return this.pile("sgt-exile", T(this.ctx, "exile"), el("div.sgt-list-cards", {}, ...list.map((c) => this.ctx.card(c, { classes: "sgt-small" }))),
      list.length);
  }

  okugi(p) {
    const ctx = this.ctx, down = this.z.ougi[p], up = this.z.ougi_up[p] || [];
    let body;
    let note;
    if (up.length) {
      body = ctx.card(up[0], { classes: "sgt-small sgt-okugi-up" });
      note = T(ctx, "okugi_used");
    } else if (Array.isArray(down) && down.length) {
      const entry = this.entry(down[0]);
      body = ctx.card(down[0], { classes: "sgt-small sgt-known-down" });
      note = entry && entry.threshold ? T(ctx, "okugi_threshold", { n: entry.threshold }) : T(ctx, "okugi_hidden");
      const acts = this.verb("ougi");
      this.bind(body, acts.map((a) => proxy(a, after(a, 0), "ougi")));
    } else if ((typeof down === "number" && down > 0)) {
      body = ctx.card(null, { small: true });
      note = T(ctx, "okugi_hidden");
    } else {
      body = el("div.sgt-empty");
      note = T(ctx, "none");
    }
    return this.pile("sgt-okugi", T(ctx, "okugi"), body, note);
  }

  handBacks(p) {
    const n = this.handCount(p);
    const fan = el("div.sgt-fan", {}, ...Array.from({ length: Math.min(n, 10) }, () => this.ctx.card(null, { small: true })));
    return this.pile("sgt-hand-backs", T(this.ctx, "hand"), fan, n);
  }

  handCount(p) { const h = this.z.hand[p]; return Array.isArray(h) ? h.length : h; }

  // ----- kokuryoku -------------------------------------------------------------------------
  koku(p) {
    const ctx = this.ctx, up = this.z.koku_up[p] || [], down = this.z.koku_down[p];
    const nDown = Array.isArray(down) ? down.length : down;
    const tired = (this.pub.koku_down_exhausted || [0, 0])[p] || 0;
    const groups = new Map();
    for (const c of up) {
      const colour = (this.entry(c) || {}).color || "無";
      if (!groups.has(colour)) groups.set(colour, []);
      groups.get(colour).push(c);
    }
    const ready = up.filter((c) => !this.exhausted.has(String(c))).length;
    const upBox = el("div.sgt-koku-up", {},
      ...[...groups].map(([colour, cards]) => el(`div.sgt-colour.c-${COLOURS[colour] || "mu"}`, {},
        el("div.sgt-colour-head", { title: `${this.colourName(colour)} ×${cards.length}` }, el("span.sgt-pip", {}, colour), `×${cards.length}`),
        el("div.sgt-colour-cards", {}, ...cards.map((c) => this.kokuCard(c, this.exhausted.has(String(c))))))));
    if (!up.length) upBox.append(el("div.sgt-none", {}, T(ctx, "none")));
    const downCards = Array.isArray(down)
      ? down.map((c, i) => this.slot(ctx.card(c, { classes: "sgt-koku-card sgt-known-down" }), i < tired))
      : Array.from({ length: nDown }, (_, i) => this.slot(el("div.card.back.sgt-koku-card", { title: ctx.t("face_down") }, el("span.back-mark", {}, "卓")), i < tired));
    const downBox = el("div.sgt-koku-down", {}, ...downCards);
    if (!nDown) downBox.append(el("div.sgt-none", {}, T(ctx, "none")));
    const upZone = el("div.sgt-koku-part.up", {}, el("div.sgt-part-title", {}, T(ctx, "koku_up"),
      el("span.sgt-sub", {}, T(ctx, "koku_ready", { n: ready, of: up.length }))), upBox);
    const downZone = el("div.sgt-koku-part.down", {}, el("div.sgt-part-title", {}, T(ctx, "koku_down"),
      el("span.sgt-sub", {}, T(ctx, "koku_tired", { n: tired, of: nDown }))), downBox);
    if (p === this.seat) { targetable(ctx, upZone, "up", "word"); targetable(ctx, downZone, "down", "word"); }
    const skip = p === this.seat ? this.button(this.verb("skip")) : null;
    return el("div.sgt-koku", { dataset: { count: String(up.length + nDown) } },
      el("div.sgt-row-title", {}, T(ctx, "koku"), el("span.sgt-koku-total", {}, T(ctx, "koku_total", { n: up.length + nDown })),
        el("span.sgt-sub", {}, this.colourSummary(groups, nDown)), skip),
      el("div.sgt-koku-parts", {}, upZone, downZone));
  }

  colourName(colour) { return COLOURS[colour] ? T(this.ctx, `colour_${COLOURS[colour]}`) : colour; }

  colourSummary(groups, nDown) {
    const parts = [...groups].map(([c, cards]) => `${this.colourName(c)} ${cards.length}`);
    if (nDown) parts.push(`${T(this.ctx, "koku_down")} ${nDown}`);
    return parts.join(" · ");
  }

  kokuCard(c, tired) {
    const node = this.ctx.card(c, { classes: `sgt-koku-card c-${COLOURS[(this.entry(c) || {}).color] || "mu"}` });
    return this.slot(node, tired);
  }

  /** A card in its place; an exhausted one leans a little, dimmed, with a badge (its text
   * stays upright and readable). */
  slot(node, tired, cls = "") {
    node.dataset.state = tired ? "exhausted" : "ready";
    if (tired) {
      const label = T(this.ctx, "exhausted");
      node.append(el("span.sgt-tired-badge", {}, label));
      if (node.title) node.title = `${node.title}\n${label}`;
    }
    return el(`div.sgt-slot${cls}${tired ? ".tapped" : ""}`, {}, node);
  }

  // ----- the camp ------------------------------------------------------------------------
  camp(p) {
    const ctx = this.ctx;
    const units = [...(this.z.camp[p] || []), ...(this.z.summons[p] || [])];
    const body = el("div.sgt-units", {}, ...units.map((u) => this.unit(u, p)));
    if (!units.length) body.append(el("div.sgt-none", {}, T(ctx, "no_units")));
    const field = this.z.field[p] || [];
    const perm = field.length ? el("div.sgt-field", {}, el("div.sgt-part-title", {}, T(ctx, "field")),
      el("div.sgt-list-cards", {}, ...field.map((c) => ctx.card(c, { classes: "sgt-small sgt-permanent" })))) : null;
    return el("div.sgt-camp", {}, el("div.sgt-row-title", {}, T(ctx, "camp")), el("div.sgt-camp-body", {}, body, perm));
  }

  unit(u, p) {
    const ctx = this.ctx, pub = this.pub, key = String(u);
    const isToken = u >= TOKEN_BASE;
    const token = isToken ? (pub.tokens || {})[key] || {} : null;
    const entry = isToken ? null : this.entry(u);
    const printed = isToken ? token.strength : entry && entry.strength;
    const now = pub.strength[key] !== undefined ? pub.strength[key] : printed;
    const siege = pub.siege[key] !== undefined ? pub.siege[key] : (entry && entry.siege) || 0;
    const tired = this.exhausted.has(key);
    const troop = isToken ? token.unit : entry && entry.unit;
    const badges = [];
    if (pub.placed[key] === pub.turn && pub.phase !== "over") badges.push(el("span.sgt-badge.placed", {}, T(ctx, "placed_now")));
    if (pub.attacks[key]) badges.push(el("span.sgt-badge.attacked", {}, T(ctx, "attacked", { n: pub.attacks[key] })));
    if ((pub.extra_used || []).map(String).includes(key)) badges.push(el("span.sgt-badge.muso", {}, T(ctx, "muso_used")));
    if (pub.damage[key]) badges.push(el("span.sgt-badge.damage", {}, T(ctx, "damage", { n: pub.damage[key] })));
    const delta = printed !== undefined && printed !== null ? now - printed : 0;
    const stats = el("div.sgt-stats", {},
      el(`span.sgt-strength${delta > 0 ? ".up" : delta < 0 ? ".down" : ""}`, { title: T(ctx, "strength") },
        el("span.sgt-stat-label", {}, T(ctx, "strength")), el("b", {}, String(now)),
        delta ? el("span.sgt-printed", {}, T(ctx, "printed", { n: printed })) : null),
      el("span.sgt-siege", { title: T(ctx, "siege") }, el("span.sgt-stat-label", {}, T(ctx, "siege")), el("b", {}, String(siege))));
    const kws = (entry && entry.keywords || []).map((k) => el("span.sgt-kw", {}, KEYWORDS[k] ? T(ctx, `kw_${KEYWORDS[k]}`) : k));
    const rules = entry ? text(entry, ctx.lang) : "";
    const extra = el("div.sgt-unit-extra", {},
      el("div.sgt-troop", {}, troop ? T(ctx, `troop_${troop}`) : "", el("span.sgt-state", {}, tired ? T(ctx, "exhausted") : T(ctx, "ready"))),
      stats, kws.length ? el("div.sgt-kws", {}, ...kws) : null,
      rules && rules.replace(/【[^】]*】/g, "").trim() ? el("div.sgt-rules", {}, rules) : null,
      badges.length ? el("div.sgt-badges", {}, ...badges) : null);
    let node;
    if (isToken) {
      const name = T(ctx, "token_n", { n: tokenNumber(u) });
      node = el("div.card.sgt-unit.sgt-token", { dataset: { ref: key, type: "summon" }, tabindex: "0",
        title: [name, troop ? T(ctx, `troop_${troop}`) : "", `${T(ctx, "strength")} ${now}`, `${T(ctx, "siege")} ${siege}`].join("\n") },
      el("div.card-name", {}, name), el("div.card-other", {}, T(ctx, "token")), el("div.card-extra", {}, extra));
    } else {
      node = ctx.card(u, { extra, classes: `sgt-unit c-${COLOURS[entry && entry.color] || "mu"}` });
    }
    node.dataset.unit = key;
    node.dataset.strength = String(now);
    const b = pub.battle;
    if (b) {
      for (const [role, who] of [["attacker", b.attacker], ["target", b.target], ["interceptor", b.interceptor]]) {
        if (String(who) === key) {
          node.classList.add(`sgt-${role}`);
          extra.prepend(el(`div.sgt-role.${role}`, {}, T(ctx, `role_${role}`)));
        }
      }
    }
    const acts = ctx.actionsWhere((a) => ["attack", "ability", "intercept"].includes(a.verb) && String(a.args[0]) === key)
      .map((a) => proxy(a, a.verb === "attack" ? [0, 1] : a.verb === "ability" ? [0, ...after(a, 2)] : [0]));
    this.bind(node, acts);
    targetable(ctx, node, key);
    this.units.set(key, node);
    return this.slot(node, tired, ".sgt-unit-slot");
  }

  /** A cost as the card prints it: a pip per colour symbol, then the generic number. */
  cost(cost) {
    const ctx = this.ctx, s = String(cost === undefined || cost === null ? "" : cost);
    const pips = [];
    for (const ch of s.replace(/[0-9]+$/, "")) {
      pips.push(el(`span.sgt-cost-pip.c-${COLOURS[ch] || "mu"}`, { title: this.colourName(ch) }, ch));
    }
    const generic = (s.match(/[0-9]+$/) || [""])[0];
    if (generic && (generic !== "0" || !pips.length)) pips.push(el("span.sgt-cost-pip.generic", {}, generic));
    return el("span.sgt-cost", { title: T(ctx, "cost"), "aria-label": `${T(ctx, "cost")} ${s}` }, ...pips);
  }

  // ----- your hand --------------------------------------------------------------------------
  hand(p) {
    const ctx = this.ctx;
    const h = this.z.hand[p];
    if (!Array.isArray(h)) return null;
    const copies = new Map();   // card id -> the instances of it in hand, in hand order
    for (const c of h) {
      const id = String((this.entry(c) || {}).id ?? c);
      if (!copies.has(id)) copies.set(id, []);
      copies.get(id).push(c);
    }
    const cards = h.map((c) => {
      const entry = this.entry(c) || {};
      const same = copies.get(String(entry.id ?? c));
      const copy = same.length > 1 ? same.indexOf(c) + 1 : 0;   // which copy of a card held twice
      const bits = [this.cost(entry.cost)];
      if (entry.type === "warlord") {
        bits.push(el("span.sgt-mini", {}, entry.unit ? T(ctx, `troop_${entry.unit}`) : ""),
          el("span.sgt-mini", {}, `${T(ctx, "strength")} ${entry.strength}`),
          el("span.sgt-mini", {}, `${T(ctx, "siege")} ${entry.siege || 0}`));
      } else if (entry.type) {
        bits.push(el("span.sgt-mini", {}, T(ctx, `type_${entry.type}`)));
        if (entry.timing) bits.push(el("span.sgt-mini", {}, T(ctx, `timing_${entry.timing}`)));
        if (entry.permanent) bits.push(el("span.sgt-mini", {}, T(ctx, "permanent")));
      }
      const rules = text(entry, ctx.lang);
      if (copy) bits.push(el("span.sgt-copy", {}, tx("kit_copy", { n: copy })));
      const extra = el("div.sgt-hand-extra", {}, el("div.sgt-hand-stats", {}, ...bits), rules ? el("div.sgt-rules", {}, rules) : null);
      const node = ctx.card(c, { extra, classes: `sgt-hand-card c-${COLOURS[entry.color] || "mu"}` });
      const acts = ctx.actionsWhere((a) => ["koku", "deploy", "stratagem", "discard"].includes(a.verb) && String(a.args[0]) === String(c));
      if (copy) node.dataset.copy = String(copy);
      // the copies of one card carry labels that tell them apart (the notations differ)
      this.bind(node, copy ? acts.map((a) => ({ ...a, label: `${a.label} (${tx("kit_copy", { n: copy })})` })) : acts);
      return node;
    });
    const buttons = [this.button(this.verb("keep")), this.button(this.verb("mulligan"))].filter(Boolean);
    return el("section.sgt-hand.mine", { dataset: { seat: String(p), count: String(h.length) } },
      el("div.sgt-row-title", {}, T(ctx, "your_hand"), el("span.sgt-n", {}, String(h.length)), ...buttons),
      el("div.sgt-hand-cards", {}, ...cards));
  }
}

/**
 * `ctx.target` (the target `value` of `kind`: "card", "word", "player"), and a click on the
 * node while it is a target goes to its target handler first. (A card that is not itself
 * actionable answers a click with its info popover, which clears the selection, so
 * board-kit's target handler would never run on it.)
 */
function targetable(ctx, node, value, kind = "card") {
  ctx.target(node, value, kind);
  node.addEventListener("click", (ev) => {
    const handler = node._asTarget || node.onclick;
    if (node.classList.contains("target") && typeof handler === "function") {
      ev.stopImmediatePropagation();
      handler.call(node, ev);
    }
  }, true);
  return node;
}

/** A summoned soldier's number as people count them: 1 for the first one of the match (the
 * view's token ids start at TOKEN_BASE). */
function tokenNumber(u) { return Number(u) - TOKEN_BASE + 1; }

/** The starter deck of each seat, as the game string names it (deck1 is player 0's); an
 * uploaded deck (a deck code) has no name to show. */
function deckNames(gameString) {
  const out = {};
  for (const [, i, name] of gameString.matchAll(/deck([12])=([^,)]+)/g)) out[Number(i) - 1] = name;
  return out;
}
