// The board of 風帝伝説FIGHTER カードゲーム: each player's area (regions with their points and
// defenders, the party with stats and equipment, the hand as backs and a count), the centre,
// the draw and discard piles, the race to the points threshold, the battle in progress (who
// invades what, the face-down commits as counts, the dice from the log) and the たわけ！
// windows. Everything comes from the view and the events; nothing hidden is inferred.
//
// Clicking: a card in hand plays it (or, with several choices, opens a menu and lights its
// targets: equipment → a character of your party; a hold card → its target); a character
// of your party invades (→ a region) or guards (→ one of your regions); one of your regions
// takes a defender (→ a character) or is left undefended; another player's region, or one
// in the centre, is invaded. The phase's plain choices (end, no support, attack, allow…)
// are buttons on the board.
import { el, names } from "../common.js";
import { argIs, clearSelection, dice, icon, light, menu, replace } from "../board-kit.js";

const GAME = "fuutei";
const STATS = ["phys_atk", "phys_def", "mag_atk", "mag_def"];
const MODS = ["phys_atk", "phys_def", "mag_atk", "mag_def", "initiative", "attack"];
const HAND_VERBS = new Set(["play", "equip", "hold", "support", "tawake", "discard"]);
const BATTLE_VERBS = new Set(["attack", "nosupport", "persuade", "decline", "done"]);
const TURN_VERBS = new Set(["end", "pass"]);

function injectStyles() {
  if (!document.querySelector(`link[data-board="${GAME}"]`)) {
    // (Object.assign(link, {dataset: ...}) throws: `dataset` has only a getter)
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/static/boards/${GAME}.css` });
    link.dataset.board = GAME;
    document.head.append(link);
  }
}

// ----- the events the board has seen (the dice of a battle outlive one state message) ------
const memory = { key: null, events: new Map() };

function remember(state) {
  const key = `${state.match || ""}:${state.game}`;
  if (memory.key !== key) { memory.key = key; memory.events = new Map(); }
  const cursor = state.view.cursor;
  if (state.readOnly || state.step !== undefined) memory.events = new Map();  // a replay frame: only its own events
  for (const e of [...(state.view.log || []), ...(state.events || [])]) {
    if (e && typeof e.seq === "number") memory.events.set(e.seq, e);
  }
  for (const seq of [...memory.events.keys()]) if (typeof cursor === "number" && seq >= cursor) memory.events.delete(seq);  // undone
  const seqs = [...memory.events.keys()].sort((a, b) => a - b);
  for (const seq of seqs.slice(0, Math.max(0, seqs.length - 400))) memory.events.delete(seq);
  return [...memory.events.keys()].sort((a, b) => a - b).map((s) => memory.events.get(s));
}

// ----- choosing a card and then its target ------------------------------------------------------
/** Targets of this board: every card, and every player's name, that an action's argument
 * names, by the argument's declared kind (a player's index never lights the card of that id).
 * A bound node knows its own value (`self`); selecting it lights every node named by the
 * other arguments of its actions — so a character lights regions (invade, guard), a region
 * lights characters, and a hold card its targets, cards or players. */
class Targets {
  constructor(ctx, root) {
    this.ctx = ctx;
    this.nodes = new Map();
    const original = ctx.select.bind(ctx);
    ctx.select = (actions, anchor, opts) => { original(actions, anchor, opts); this.light(actions, anchor); replace(); };
    if (!Targets.roots.has(root)) {
      Targets.roots.add(root);
      // a lit target is clicked as a target, even when it carries actions of its own
      root.addEventListener("click", (ev) => {
        const node = ev.target.closest(".target");
        if (node && root.contains(node) && typeof node.onclick === "function") {
          ev.stopPropagation(); ev.preventDefault(); node.onclick(ev);
        }
      }, true);
    }
  }

  add(node, value, kind = "card") {
    this.ctx.target(node, String(value), kind);
    const key = `${kind}:${value}`;
    if (!this.nodes.has(key)) this.nodes.set(key, []);
    this.nodes.get(key).push(node);
    return node;
  }

  bind(node, actions, self) {
    if (self !== undefined && self !== null) node.dataset.self = String(self);
    return this.ctx.bind(node, actions);
  }

  light(actions, anchor) {
    for (const list of this.nodes.values()) for (const n of list) { n.classList.remove("target"); n.onclick = null; n._asTarget = null; }
    const self = anchor.dataset.self;
    const per = new Map();
    for (const a of actions) {
      const others = new Set();
      a.args.forEach((x, i) => {
        if (self === undefined ? i === 0 : String(x) === self) return;
        for (const kind of ["card", "player"]) if (argIs(a, i, kind)) others.add(`${kind}:${x}`);
      });
      for (const v of others) {
        for (const node of this.nodes.get(v) || []) {
          if (node === anchor) continue;
          if (!per.has(node)) per.set(node, []);
          if (!per.get(node).includes(a)) per.get(node).push(a);
        }
      }
    }
    for (const [node, list] of per) {
      light(node, (ev) => {
        if (ev) ev.stopPropagation();
        if (list.length === 1) this.ctx.act(list[0].notation);
        else menu(node, list, (a) => this.ctx.act(a.notation));
      });
    }
  }
}
Targets.roots = new WeakSet();

// ----- the board ----------------------------------------------------------------------------------
export function render(root, state, ctx) {
  injectStyles();
  document.querySelectorAll(".popover.menu").forEach((n) => n.remove());  // its actions are gone
  const b = new Board(root, state, ctx);
  root.replaceChildren(...b.draw());
  ctx.settle(root);
}

class Board {
  constructor(root, state, ctx) {
    this.state = state;
    this.ctx = ctx;
    this.view = state.view;
    this.pub = state.view.public;
    this.z = state.view.zones;
    this.n = this.pub.points.length;
    this.me = ctx.seat;
    this.guard = new Map(Object.entries(this.pub.guard || {}).map(([r, c]) => [Number(r), c]));
    this.host = new Map(Object.entries(this.pub.host || {}).map(([e, c]) => [Number(e), c]));
    this.temporary = new Set(this.pub.temporary || []);
    this.sealed = new Set(this.pub.sealed || []);
    this.events = remember(state);
    this.targets = new Targets(ctx, root);
    this.winners = new Set((state.outcome && state.outcome.winners) || []);
    this.acting = new Set((state.pending && state.pending.players) || []);
  }

  t(key, args) { return this.ctx.t(`${GAME}.${key}`, args); }
  name(ref) { return names(this.ctx.book.get(ref), this.ctx.lang)[0]; }
  entry(ref) { return this.ctx.book.get(ref) || {}; }
  /** A card with its short facts; cards with stats (characters, the demon kings) drawn wider. */
  fullCard(c, classes = "") {
    return this.ctx.card(c, { extra: this.cardExtra(c), classes: [classes, this.entry(c).stats ? "ft-char-card" : ""].filter(Boolean).join(" ") });
  }

  draw() {
    const parts = [this.header()];
    for (const w of this.pub.windows || []) parts.push(this.windowPanel(w));
    if (this.pub.battle) parts.push(this.battlePanel(this.pub.battle));
    else { const last = this.lastBattle(); if (last) parts.push(last); }
    parts.push(this.centre());
    const order = this.me === null || this.me === undefined
      ? [...Array(this.n).keys()]
      : [...Array(this.n).keys()].map((i) => (this.me + 1 + i) % this.n);  // opponents first, you at the bottom
    parts.push(el("div.ft-areas", {}, ...order.map((p) => this.area(p))));
    const stand = this.ctx.book.catalogue && this.ctx.book.catalogue.stand_in;
    if (stand) {
      const note = this.ctx.book.catalogue[`note_${this.ctx.lang}`] || this.ctx.book.catalogue.note_ja || "";
      parts.push(el("p.ft-note", { title: note }, icon("info"), " ", this.t("stand_in"), " — ", note));
    }
    return parts;
  }

  // ----- the top strip: turn, phase, goal, piles ----------------------------------------------
  header() {
    const pub = this.pub;
    const deck = typeof this.z.deck === "number" ? this.z.deck : (this.z.deck || []).length;
    const discard = this.z.discard || [];
    const top = discard.length ? discard[discard.length - 1] : null;
    const phase = el(`span.ft-phase.ft-phase-${pub.phase}`, {}, this.t(`phase_${pub.phase}`));
    const turnActions = this.ctx.actionsWhere((a) => TURN_VERBS.has(a.verb));
    const left = 40 - (pub.guard_changes || 0);
    return el("section.ft-header", {},
      el("div.ft-turn", {},
        el("span.ft-turn-no", {}, this.t("turn", { n: pub.turn })),
        this.ctx.state.outcome ? null   // over: nobody is to play
          : el("span.ft-turn-player", { dataset: { player: String(pub.turn_player) } }, this.t("turn_of", { who: this.ctx.player(pub.turn_player) })),
        phase,
        el("span.ft-goal", {}, "★ ", this.t("goal", { n: pub.threshold })),
        (pub.phase === "main" || pub.phase === "reassign") && left < 10 && pub.turn_player === this.me
          ? el("span.ft-warn", {}, this.t("guard_changes_left", { n: left })) : null,
        ...turnActions.map((a) => this.targets.bind(el("button.ft-move", { type: "button" }, a.label), [a])),
        this.ctx.settingsControl()),
      el("div.ft-piles", {},
        el("div.ft-pile.ft-deck", { title: this.t("deck") },
          el("div.ft-pile-label", {}, this.t("deck")),
          deck ? this.ctx.card(null, { small: true }) : el("div.ft-empty-pile", {}, "∅"),
          el("span.count", { dataset: { count: String(deck) } }, this.t("count", { n: deck })),
          pub.pile_emptied ? el("span.ft-warn", {}, this.t("pile_emptied")) : null),
        el("div.ft-pile.ft-discard", {},
          el("div.ft-pile-label", {}, this.t("discard")),
          top !== null ? this.ctx.card(top, { classes: "ft-mini" }) : el("div.ft-empty-pile", {}, "∅"),
          el("span.count", { dataset: { count: String(discard.length) } }, this.t("count", { n: discard.length })))));
  }

  // ----- the centre: regions nobody holds, and the cards resolving ------------------------------
  centre() {
    const centre = this.z.center || [];
    const stack = this.z.stack || [];
    return el("section.ft-centre", {},
      el("div.ft-centre-regions", {},
        el("h3.ft-title", {}, this.t("center")),
        el("div.ft-row", {}, ...(centre.length ? centre.map((r) => this.region(r, -1)) : [el("span.ft-none", {}, this.t("center_empty"))]))),
      stack.length ? el("div.ft-stack", {},
        el("h3.ft-title", {}, this.t("stack")),
        el("div.ft-row", {}, ...stack.map((c) => this.fullCard(c)))) : null);
  }

  // ----- a player's area ---------------------------------------------------------------------
  area(p) {
    const pub = this.pub, z = this.z;
    const mine = p === this.me;
    const hand = z.hand[p];
    const handCount = Array.isArray(hand) ? hand.length : hand;
    const pts = pub.points[p];
    const pct = Math.min(100, Math.round((100 * pts) / Math.max(1, pub.threshold)));
    const party = z.party[p] || [];
    const partySize = party.filter((c) => !this.temporary.has(c)).length;
    const isTurn = pub.turn_player === p && pub.phase !== "over";
    const classes = ["section.ft-area", mine ? "mine" : "", isTurn ? "turn" : "", this.acting.has(p) ? "acting" : "", this.winners.has(p) ? "winner" : ""]
      .filter(Boolean).join(".");
    const head = el("header.ft-area-head", {},
      this.targets.add(el("span.ft-who", { dataset: { player: String(p) } }, this.ctx.player(p)), p, "player"),
      isTurn ? el("span.ft-badge", {}, mine ? this.t("your_turn_badge") : this.t("turn_badge")) : null,
      this.winners.has(p) ? el("span.ft-badge.ft-win", {}, "★ " + this.t("winner")) : null,
      el("span.ft-points", { dataset: { points: String(pts) } },
        el("span.ft-bar", { role: "meter", "aria-valuemin": "0", "aria-valuemax": String(pub.threshold), "aria-valuenow": String(pts),
          "aria-label": `${this.ctx.player(p)}: ${this.t("points_of", { n: pts, goal: pub.threshold })}` },
          el("span.ft-bar-fill", { style: { width: `${pct}%` } })),
        el("span.ft-points-text", {}, this.t("points_of", { n: pts, goal: pub.threshold }))),
      el("span.ft-hand-count", { dataset: { count: String(handCount) } },
        ...(mine ? [] : Array.from({ length: Math.min(handCount, 6) }, () => this.ctx.card(null, { small: true }))),
        el("span.count", {}, this.t("hand_count", { n: handCount }))));
    const regions = z.regions[p] || [];
    return el(classes, { dataset: { seat: String(p) } },
      head,
      el("div.ft-area-body", {},
        el("div.ft-regions", {},
          el("h4.ft-subtitle", {}, this.t("regions")),
          el("div.ft-row", {}, ...(regions.length ? regions.map((r) => this.region(r, p)) : [el("span.ft-none", {}, this.t("no_regions"))]))),
        el("div.ft-party", {},
          el("h4.ft-subtitle", {}, this.t("party", { n: partySize })),
          el("div.ft-row", {}, ...(party.length ? party.map((c) => this.character(c, p)) : [el("span.ft-none", {}, this.t("no_party"))])))),
      mine && Array.isArray(hand) ? this.handZone(hand) : null);
  }

  region(r, owner) {
    const e = this.entry(r);
    const d = this.guard.get(r);
    const extra = el("div.ft-region-extra", {},
      el("span.ft-region-points", {}, this.t("points", { n: e.points ?? "?" })),
      owner >= 0 ? el(`span.ft-defender${d === undefined ? ".none" : ""}`, {},
        d === undefined ? this.t("undefended") : this.t("defender", { name: this.name(d) })) : null);
    const node = this.ctx.card(r, { extra, classes: "ft-region" });
    node.dataset.region = String(r);
    let actions;
    if (owner >= 0 && owner === this.me) {
      actions = this.ctx.actionsWhere((a) => (a.verb === "guard" || a.verb === "unguard") && String(a.args[0]) === String(r));
    } else {
      actions = this.ctx.actionsWhere((a) => a.verb === "invade" && String(a.args[1]) === String(r));
    }
    this.targets.bind(node, actions, r);
    return this.targets.add(node, r);
  }

  stats(c, mods = null) {
    const e = this.entry(c);
    if (!e.stats) return null;
    const bonus = [0, 0, 0, 0];
    for (const [eq, h] of this.host) {
      if (h !== c) continue;
      const b = this.entry(eq).bonus || {};
      STATS.forEach((s, i) => { bonus[i] += Number(b[s] || 0); });
    }
    if (mods) {
      STATS.forEach((s, i) => { bonus[i] += mods[i] || 0; });
      bonus[0] += mods[5] || 0; bonus[2] += mods[5] || 0;
    }
    return el("div.ft-stats", {}, ...STATS.map((s, i) => el(`span.ft-stat.ft-${s}`, {},
      el("span.ft-stat-label", {}, this.t(`stat_${s}`)),
      el("span.ft-stat-value", {}, String(e.stats[s])),
      bonus[i] ? el(`span.ft-bonus${bonus[i] < 0 ? ".minus" : ""}`, {}, `${bonus[i] > 0 ? "+" : ""}${bonus[i]}`) : null)));
  }

  character(c, p) {
    const e = this.entry(c);
    const defends = [...this.guard].filter(([, ch]) => ch === c).map(([r]) => r);
    const extra = el("div.ft-char-extra", {},
      this.stats(c),
      el("div.ft-flags", {},
        e.sex ? el("span.ft-sex", { title: e.sex }, icon(e.sex === "female" ? "female" : "male", { label: e.sex })) : null,
        this.temporary.has(c) ? el("span.ft-flag.temp", {}, this.t("temporary")) : null,
        this.sealed.has(c) ? el("span.ft-flag.sealed", {}, this.t("sealed")) : null,
        defends.length ? el("span.ft-flag.guards", {}, this.t("guards", { regions: defends.map((r) => this.name(r)).join(this.t("sep")) })) : null));
    const node = this.ctx.card(c, { extra, classes: "ft-char-card" });
    node.dataset.char = String(c);
    const actions = this.ctx.actionsWhere((a) => (a.verb === "invade" && String(a.args[0]) === String(c))
      || (a.verb === "guard" && String(a.args[1]) === String(c)));
    this.targets.bind(node, actions, c);
    this.targets.add(node, c);
    const gear = [...this.host].filter(([, h]) => h === c).map(([eq]) => eq);
    return el("div.ft-char", { dataset: { owner: String(p) } }, node,
      gear.length ? el("div.ft-gear", {}, ...gear.map((eq) => {
        const g = this.ctx.card(eq, { extra: this.bonusLine(eq), classes: "ft-equip" });
        g.dataset.equipment = String(eq);
        return this.targets.add(g, eq);
      })) : null);
  }

  bonusLine(c) {
    const b = this.entry(c).bonus || {};
    const parts = STATS.filter((s) => Number(b[s] || 0)).map((s) => `${this.t(`stat_${s}`)}${b[s] > 0 ? "+" : ""}${b[s]}`);
    return parts.length ? el("span.ft-bonus-line", {}, parts.join(" ")) : null;
  }

  /** What a card does, shortly, where the catalogue says it in numbers. */
  cardExtra(c) {
    const e = this.entry(c);
    const type = e.type;
    if (type === "character") return el("div.ft-char-extra", {}, this.stats(c));
    if (type === "equipment") return el("div", {}, el("span.ft-type", {}, this.t("type_equipment")), " ", this.bonusLine(c));
    if (type === "region") return el("span.ft-region-points", {}, this.t("points", { n: e.points }));
    const eff = e.effect || {};
    let detail = null;
    if (eff.do === "modify") {
      const bits = [];
      for (const s of [...STATS, "initiative"]) {
        const v = Number(eff[s] || 0);
        if (v) bits.push(`${eff.target === "opponent" ? this.t("opponent") + " " : ""}${this.t(`stat_${s}`)}${v > 0 ? "+" : ""}${v}`);
      }
      if (eff.roll) bits.push(`${this.t(`stat_${eff.roll_to && eff.roll_to !== "attack" ? eff.roll_to : "attack"}`)}+${eff.roll}`);
      detail = bits.join(" ");
    }
    return el("div", {}, el("span.ft-type", {}, this.t(`type_${type}`)), detail ? el("div.ft-effect", {}, detail) : null,
      e.stats ? this.stats(c) : null);
  }

  handZone(hand) {
    return el("div.ft-hand", {},
      el("h4.ft-subtitle", {}, this.t("your_hand")),
      el("div.ft-row", {}, ...hand.map((c) => {
        const node = this.fullCard(c, `ft-hand-card ft-type-${this.entry(c).type || "x"}`);
        node.dataset.hand = String(c);
        this.targets.bind(node, this.ctx.actionsWhere((a) => HAND_VERBS.has(a.verb) && String(a.args[0]) === String(c)), c);
        if (this.entry(c).type === "character") this.targets.add(node, c);  // a guest of the banana sandwich
        return node;
      })));
  }

  // ----- the battle in progress --------------------------------------------------------------
  battleEvents(untilOver = false) {
    let start = -1, turn = -1;
    for (const e of this.events) { if (e.e === "invade") start = e.seq; if (e.e === "turn") turn = e.seq; }
    if (start < 0 && !this.pub.battle) return null;
    if (start < 0) start = turn;  // the invasion is older than what the board has seen
    const out = [];
    for (const e of this.events) {
      if (e.seq < start) continue;
      out.push(e);
      if (untilOver && e.e === "battle_over") break;
    }
    return out;
  }

  battlePanel(b) {
    const [inv, def] = b.players;
    const [ca, cd] = b.chars;
    const events = this.battleEvents() || [];
    const sides = [0, 1].map((side) => this.battleSide(b, side, events));
    const buttons = this.ctx.actionsWhere((a) => BATTLE_VERBS.has(a.verb));
    const stake = el("div.ft-stake", {},
      el("span.ft-stake-label", {}, this.t("at_stake")),
      ...b.regions.map((r) => {
        const e = this.entry(r);
        return el("span.ft-chip", { title: names(e, this.ctx.lang).filter(Boolean).join(" / ") }, `${this.name(r)} · ${this.t("points", { n: e.points ?? "?" })}`);
      }));
    const first = events.find((e) => e.e === "initiative");
    return el("section.ft-battle", { dataset: { invader: String(inv), defender: String(def) } },
      el("h3.ft-title", {}, icon("swords"), " ", this.t("battle"), " — ", this.ctx.player(inv), " → ", def >= 0 ? this.ctx.player(def) : this.t("the_centre")),
      stake,
      el("div.ft-duel", {}, sides[0], el("div.ft-vs", { "aria-hidden": "true" }, icon("swords")), cd >= 0 ? sides[1]
        : el("div.ft-side.ft-undefended", {}, el("div.ft-side-head", {}, this.t("taken_at_once")))),
      first ? el("div.ft-first", {}, this.t("first_strike", { who: this.ctx.player(first.first) })) : null,
      this.attackRows(events),
      b.persuade >= 0 && this.pub.phase === "persuade" ? el("div.ft-persuade", {}, this.t("persuade_target"), ": ", this.ctx.card(b.persuade, { classes: "ft-mini" })) : null,
      buttons.length ? el("div.ft-moves", {}, ...buttons.map((a) => this.targets.bind(el(`button.ft-move.ft-${a.verb}`, { type: "button" }, a.label), [a]))) : null);
  }

  battleSide(b, side, events) {
    const p = b.players[side];
    const c = b.chars[side];
    const mods = (b.mods || [])[side] || [];
    const modChips = MODS.map((m, i) => [m, mods[i] || 0]).filter(([, v]) => v)
      .map(([m, v]) => el("span.ft-chip.ft-mod", {}, `${this.t(`stat_${m}`)} ${v > 0 ? "+" : ""}${v}`));
    const extra = b.extra_dice && b.extra_dice[side] && b.extra_dice[side].length ? dice(b.extra_dice[side]) : null;
    // face-down support: a count of backs for others, your own card for you; who has decided
    const s = (this.z.support || [])[p];
    const down = Array.isArray(s) ? s.length : s || 0;
    const committed = (this.pub.committed || []).includes(p);
    const choosing = this.state.pending && this.state.pending.prompt === "battle_support" ? this.state.pending.players || [] : null;
    let status = null;
    if (choosing) {
      status = el("div.ft-commit", { dataset: { count: String(down) } },
        this.t("face_down"), ": ",
        Array.isArray(s) && s.length ? el("span.ft-backs", {}, ...s.map((x) => this.ctx.card(x, { classes: "ft-mini ft-face-down-mine", extra: el("span.ft-flag", {}, this.t("placed_face_down")) })))
          : down ? el("span.ft-backs", {}, ...Array.from({ length: down }, () => this.ctx.card(null, { small: true })), ` ×${down}`)
            : el("span", {}, committed ? this.t("none_placed") : "—"),
        " · ", committed ? el("span.ft-ok", {}, this.t("decided"))
          : choosing.includes(p) ? el("span.ft-wait", {}, this.t("deciding")) : null);
    }
    const revealed = events.filter((e) => e.e === "support_revealed" && e.player === p)
      .map((e) => this.ctx.card(e.card, { classes: "ft-mini", extra: this.cardExtra(e.card) }));
    const init = events.filter((e) => e.e === "roll" && e.why === "initiative" && e.player === p);
    const supportRolls = events.filter((e) => e.e === "roll" && e.why === "support" && e.player === p);
    const striking = this.pub.phase === "attack" && b.order && b.order[b.strike] === side;
    return el(`div.ft-side${striking ? ".striking" : ""}`, { dataset: { side: String(side) } },
      el("div.ft-side-head", {}, side === 0 ? this.t("invader") : this.t("defender_side"), " · ", this.ctx.player(p),
        striking ? el("span.ft-badge", {}, this.t("striking")) : null),
      c >= 0 ? this.ctx.card(c, { extra: el("div.ft-char-extra", {}, this.stats(c, mods)), classes: "ft-char-card" }) : null,
      modChips.length ? el("div.ft-mods", { title: this.t("modifiers") }, ...modChips) : null,
      extra,
      status,
      revealed.length ? el("div.ft-revealed", {}, ...revealed) : null,
      init.length ? el("div.ft-roll", {}, this.t("initiative"), ": ", ...init.map((e) => el("span", {}, e.faces ? dice(e.faces, { seq: e.seq }) : null, `= ${e.total}`))) : null,
      ...supportRolls.map((e) => el("div.ft-roll", {}, e.card !== undefined ? this.name(e.card) + ": " : "", e.faces ? dice(e.faces, { seq: e.seq }) : null, `= ${e.total}`)));
  }

  attackRows(events) {
    const rows = [];
    let roll = null, guard = null;
    for (const e of events) {
      if (e.e === "roll" && (e.why === "phys_attack" || e.why === "mag_attack")) { roll = e; guard = null; }
      else if (e.e === "roll" && e.why === "defence") guard = e;
      else if (e.e === "attack") {
        const verdict = e.critical ? this.t("critical") : e.defeated ? this.t("hit") : this.t("miss");
        rows.push(el(`div.ft-attack${e.defeated ? ".hit" : ".miss"}`, {},
          el("span.ft-attacker", {}, this.name(e.card), " ", this.t(`attack_${e.attack}`), " "),
          roll && roll.faces ? dice(roll.faces, { seq: roll.seq }) : null,
          el("span.ft-attack-result", {}, this.t("attack_result", { total: e.total, defence: e.defence })),
          guard && guard.faces ? dice(guard.faces, { seq: guard.seq }) : null,
          el("strong.ft-verdict", {}, " → ", verdict)));
        roll = null; guard = null;
      }
    }
    return rows.length ? el("div.ft-attacks", {}, ...rows) : null;
  }

  /** The latest battle, if fought in this turn or the one before: its result stays on the
   * table until the next player's turn has begun (what a bot did to you, you see on your turn). */
  lastBattle() {
    const turns = this.events.filter((e) => e.e === "turn").map((e) => e.seq);
    const since = turns.length >= 2 ? turns[turns.length - 2] : -1;
    const events = this.battleEvents(true);
    if (!events || !events.length || events[0].e !== "invade" || events[0].seq < since) return null;
    const inv = events[0];
    const over = events.find((e) => e.e === "battle_over");
    const gains = events.filter((e) => e.e === "gain_region");
    const owner = inv.owner;
    const result = over ? { 0: "result_invader", 1: "result_defender" }[over.defeated] || "result_none" : null;
    return el("section.ft-battle.ft-last", {},
      el("h3.ft-title", {}, icon("swords"), " ", this.t("last_battle"), " — ", this.ctx.player(inv.player), " → ",
        owner >= 0 ? this.ctx.player(owner) : this.t("the_centre"), " · ", this.name(inv.region)),
      this.attackRows(events),
      result ? el("div.ft-result", {}, this.t(result)) : null,
      gains.length ? el("div.ft-gains", {}, ...gains.map((g) => el("span.ft-chip", {}, `${this.t("gained", { who: this.ctx.player(g.player) })}: ${this.name(g.region)}`))) : null);
  }

  // ----- a たわけ！ window ------------------------------------------------------------------------
  windowPanel(w) {
    const d = w.data || {};
    const asked = w.pos < w.order.length ? w.order[w.pos] : null;
    const allow = this.ctx.actionsWhere((a) => a.verb === "allow");
    return el("section.ft-window", {},
      el("h3.ft-title", {}, icon("warning"), " ", this.t("window")),
      el("div.ft-window-body", {},
        el("div.ft-window-card", {}, el("div.ft-side-head", {}, this.t("used_by", { who: this.ctx.player(d.user) })),
          this.fullCard(d.card)),
        d.targets && d.targets.length ? el("div.ft-window-card", {}, el("div.ft-side-head", {}, this.t("targets")),
          ...d.targets.map((c) => this.ctx.card(c, { classes: "ft-mini" }))) : null,
        d.roll !== undefined && d.roll !== null ? el("div.ft-roll", {}, d.faces ? dice(d.faces) : icon("die5"), " ", this.t("roll", { n: d.roll })) : null,
        el("ol.ft-poll", {}, ...w.order.map((q, i) => el(`li${q === asked ? ".asked" : i < w.pos ? ".passed" : ""}`, {},
          this.ctx.player(q), q === asked ? el("span.ft-badge", {}, this.t("asked")) : null)))),
      allow.length ? el("div.ft-moves", {}, ...allow.map((a) => this.targets.bind(el("button.ft-move.ft-allow", { type: "button" }, a.label), [a]))) : null);
  }
}
