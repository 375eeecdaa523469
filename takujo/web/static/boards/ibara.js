// いばらの姫と4人の騎士 (ibara): the castle — a ring of twelve squares around the keep, the
// gate beyond square 1 — with the knights, the princess and the event marker on it; the
// princess's face-up whim and her irritation; every knight's seat (hand, item chips, whims
// won); the combat in progress with its face-down commits; and your hand, whose cards are
// played by clicking them (then, for a move, the destination square).
import { el, names, text } from "../common.js";
import { dieFace, icon } from "../board-kit.js";

const GAME = "ibara";
if (!document.querySelector(`link[data-board="${GAME}"]`)) {
  // (Object.assign(link, {dataset: ...}) throws: an element's dataset has only a getter)
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/static/boards/${GAME}.css` });
  link.dataset.board = GAME;
  document.head.append(link);
}

const KEEP = 0, GATE = 13;
const W = 100, H = 106, CX = 50, CY = 57, R = 37;     // the map's own coordinates (1 unit = 1 % of its width)
const SUIT_CLASS = { "剣": "sword", "巻物": "scroll", "拳": "fist", "盾": "shield" };
// Verbs whose first argument is a card of one's own (in hand, or laid in the combat).
const CARD_VERBS = new Set(["move", "sp", "explore", "discard", "nofight", "drop"]);
const COMBO_VERBS = new Set(["fight", "ring"]);          // their arguments are all cards

const tr = (ctx, key, args) => ctx.t(`${GAME}.${key}`, args);

/** Where a square sits on the map: its centre and size, in map units. */
function layout(id, extras) {
  if (id === KEEP) return { x: CX, y: CY, w: 25, h: 19 };
  if (id === GATE) return { x: CX, y: 6.8, w: 20, h: 12.4 };
  if (id >= 1 && id <= 12) {
    const a = (-90 + (id - 1) * 30) * Math.PI / 180;
    return { x: CX + R * Math.cos(a), y: CY + R * Math.sin(a), w: 15.5, h: 13 };
  }
  const i = extras.indexOf(id);                       // a square of another board: along the foot
  return { x: 8 + (i % 6) * 16.8, y: H - 5, w: 14, h: 9 };
}

function squareName(ctx, sq) {
  const entry = ctx.book.get(sq, "board");
  return entry ? names(entry, ctx.lang) : [String(sq), ""];
}

function countOf(zone) { return Array.isArray(zone) ? zone.length : (zone || 0); }

function backs(ctx, n, max = 10, counted = true) {
  return el("div.ibr-backs", {},
    ...Array.from({ length: Math.min(n, max) }, () => ctx.card(null, { small: true })),
    counted ? el("span.ibr-count", {}, tr(ctx, "count", { n })) : null);
}

function knightToken(ctx, view, p, extraClass = "") {
  const k = view.public.knights[p];
  const entry = ctx.book.get(k, "knights");
  const [main, other] = names(entry, ctx.lang);
  const who = ctx.player(p);
  return el(`span.ibr-knight.seat-${p % 6}${p === ctx.seat ? ".mine" : ""}${extraClass}`,
    { dataset: { seat: String(p), knight: String(k) }, title: `${who}: ${main}${other ? ` (${other})` : ""}` },
    Array.from(main)[0] || "?", el("sub", {}, String(p)));
}

/** An action card (or SP card) with its suit, number and move value. */
function actionCard(ctx, id, opts = {}) {
  const entry = ctx.book.get(id);
  if (!entry) return ctx.card(id, opts);
  const sp = entry.type === "sp" || !entry.suit;
  const extra = el("span.ibr-card-foot", {},
    sp ? el("span.ibr-sp", {}, tr(ctx, "sp_card"))
      : el("span.ibr-move", {}, tr(ctx, "move", { n: entry.move })));
  const node = ctx.card(id, { ...opts, extra, classes: `ibr-action ibr-${sp ? "spcard" : SUIT_CLASS[entry.suit] || "other"}` });
  if (!sp && entry.number !== undefined) node.prepend(el("span.ibr-num", { "aria-hidden": "true" }, String(entry.number)));
  return node;
}

function chip(ctx, id) {
  const node = ctx.card(id, { table: "items", classes: "ibr-chip" });
  const entry = ctx.book.get(id, "items");
  if (entry) node.dataset.item = entry.key;
  return node;
}

function whimCard(ctx, id, { small = false } = {}) {
  const entry = ctx.book.get(id, "whims");
  const extra = entry && !small ? el("span.ibr-whim-foot", {},
    el("span.ibr-need", {}, text(entry, ctx.lang)),
    el("span.ibr-limit", {}, tr(ctx, "limit", { n: entry.limit }))) : null;
  const node = ctx.card(id, { table: "whims", extra, classes: `ibr-whim${small ? " ibr-whim-small" : ""}` });
  if (entry) node.dataset.whim = entry.key;
  return node;
}

/** The same card, as far as play goes: two copies of 剣3 share one set of moves. */
function sameCard(a, b) {
  return a && b && a.name_ja === b.name_ja && a.suit === b.suit && a.number === b.number && a.type === b.type;
}

export function render(root, state, ctx) {
  // A menu still open from the last state offers that state's actions and would cover the
  // new board: close it.
  document.querySelectorAll(".popover.menu").forEach((node) => node.remove());
  const view = state.view;
  const pub = view.public, z = view.zones;
  const n = pub.pos.length;
  const me = ctx.seat;
  const bound = new Set();
  const bind = (node, actions) => {
    if (actions && actions.length) { ctx.bind(node, actions); actions.forEach((a) => bound.add(a.notation)); }
    return node;
  };
  const combatPhase = pub.phase.startsWith("combat_");
  const myTurnToAct = ctx.actions.length > 0;

  // ----- the actions a card of mine carries ------------------------------------------------
  const myHand = me !== null && Array.isArray(z.hand[me]) ? [...z.hand[me]].sort((a, b) => a - b) : null;
  function cardActions(id) {
    let acts = ctx.actionsWhere((a) => (CARD_VERBS.has(a.verb) && String(a.args[0]) === String(id))
      || (COMBO_VERBS.has(a.verb) && a.args.some((x) => String(x) === String(id))));
    if (myHand && !acts.some((a) => a.verb === "move")) {
      // only one of identical cards is offered the moves: its twin plays them just as well
      const entry = ctx.book.get(id);
      const twin = myHand.find((c) => c !== id && sameCard(ctx.book.get(c), entry)
        && ctx.actionsFor("move", c).length);
      // (their arguments name this card, so that a square is lit as the target, not the twin)
      if (twin !== undefined) acts = ctx.actionsFor("move", twin).map((a) => ({ ...a, args: [id, ...a.args.slice(1)] })).concat(acts);
    }
    return acts;
  }
  function myCard(id) {
    const node = actionCard(ctx, id);
    bind(node, cardActions(id));
    ctx.target(node, id);                       // a further card of a multi-card play, a card an SP card names
    return node;
  }

  // ----- the status line -------------------------------------------------------------------
  const turnKnight = names(ctx.book.get(pub.knights[pub.turn_player], "knights"), ctx.lang)[0];
  const status = el("div.ibr-status", {},
    el("span.ibr-round", {}, tr(ctx, "round_turn", { round: pub.round, turn: pub.turn })),
    ctx.state.outcome ? null   // over: nobody is to play
      : el("span.ibr-turn", {}, knightToken(ctx, view, pub.turn_player),
        tr(ctx, "turn_of", { player: ctx.player(pub.turn_player), knight: turnKnight })),
    el("span.ibr-phase", { dataset: { phase: pub.phase } }, tr(ctx, `phase_${pub.phase}`)),
    ctx.settingsControl(),
    view.pending && !myTurnToAct && pub.phase !== "over" && (view.pending.players || []).length
      ? el("span.ibr-waiting", {}, ctx.t("waiting_for", { who: view.pending.players.map((p) => ctx.player(p)).join(", ") }))
      : null);

  // ----- the map ---------------------------------------------------------------------------
  const squares = (ctx.book.catalogue.board || []).map((s) => s.id);
  if (!squares.length) squares.push(...Array.from({ length: 14 }, (_, i) => i));
  const extras = squares.filter((s) => s < 0 || s > 13);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "ibr-links");
  svg.setAttribute("aria-hidden", "true");
  for (const s of ctx.book.catalogue.board || []) {
    for (const t of s.links || []) {
      if (t < s.id) continue;
      const a = layout(s.id, extras), b = layout(t, extras);
      const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
      Object.entries({ x1: a.x, y1: a.y, x2: b.x, y2: b.y }).forEach(([k, v]) => line.setAttribute(k, v.toFixed(2)));
      line.setAttribute("class", s.id === KEEP || t === KEEP ? "keep-link" : t === GATE || s.id === GATE ? "gate-link" : "ring-link");
      svg.append(line);
    }
  }
  const map = el("div.ibr-map", { role: "group", "aria-label": tr(ctx, "castle") }, svg);
  const squareNodes = new Map();
  for (const sq of squares) {
    const entry = ctx.book.get(sq, "board");
    const [main, other] = squareName(ctx, sq);
    const at = layout(sq, extras);
    const corner = entry ? entry.explore : false;
    const tokens = el("div.ibr-tokens");
    for (let p = 0; p < n; p++) {
      if (pub.pos[p] === sq) tokens.append(knightToken(ctx, view, p, pub.escort === p ? ".escort" : ""));
    }
    if (pub.princess === sq) {
      tokens.append(el("span.ibr-princess", { title: tr(ctx, pub.escort >= 0 ? "princess_with" : "princess_alone", { player: ctx.player(pub.escort) }) }, "♛"));
    }
    if (pub.event_marker === sq) tokens.append(el("span.ibr-marker", { title: tr(ctx, "event_marker") }, "!"));
    const label = sq === KEEP || sq === GATE || !/^\d+$/.test(String(sq)) || sq > 13 ? main : String(sq);
    const hints = [main, other, corner ? tr(ctx, "explore_here") : "", sq === GATE ? tr(ctx, "gate_rule", { n: pub.whims_needed }) : ""].filter(Boolean);
    const node = el(`div.ibr-square${sq === KEEP ? ".keep" : sq === GATE ? ".gate" : ""}${corner ? ".corner" : ""}${pub.pos[me] === sq && me !== null ? ".here" : ""}`,
      { dataset: { square: String(sq) }, title: hints.join("\n"), "aria-label": hints.join(" — "),
        style: { left: `${at.x - at.w / 2}%`, top: `${((at.y - at.h / 2) / H) * 100}%`, width: `${at.w}%`, height: `${(at.h / H) * 100}%` } },
      el("span.ibr-sq-label", {}, label, corner ? el("span.ibr-corner-mark", { "aria-hidden": "true" }, "✦") : null),
      sq === KEEP || sq === GATE ? el("span.ibr-sq-other", {}, other) : null,
      tokens);
    if (!combatPhase) ctx.target(node, sq, "place");   // the destination of a move, a square an SP card names
    squareNodes.set(sq, node);
    map.append(node);
  }

  // ----- the princess: her whim and her irritation -----------------------------------------
  const upId = z.whim_up && z.whim_up.length ? z.whim_up[0] : null;
  const upEntry = upId !== null ? ctx.book.get(upId, "whims") : null;
  const limit = upEntry ? upEntry.limit : 0;
  const meter = el("div.ibr-irritation", { title: tr(ctx, "irritation", { n: pub.irritation, limit: limit || "—" }) },
    el("span.ibr-irr-label", {}, tr(ctx, "irritation", { n: pub.irritation, limit: limit || "—" })),
    el("span.ibr-die", { "aria-hidden": "true" }, dieFace(pub.irritation)),
    el("span.ibr-pips", {}, ...Array.from({ length: limit }, (_, i) => el(`span.ibr-pip${i < pub.irritation ? ".on" : ""}${i === limit - 1 ? ".last" : ""}`))));
  let whimNode;
  if (upId !== null) {
    whimNode = whimCard(ctx, upId);
    bind(whimNode, ctx.actionsFor("satisfy"));
  } else {
    whimNode = el("div.ibr-no-whim", {}, tr(ctx, "no_whim"));
  }
  const escortText = pub.escort >= 0 ? tr(ctx, "princess_with", { player: ctx.player(pub.escort) }) : tr(ctx, "princess_alone", {});
  const princess = el("section.zone.ibr-princess-zone", {},
    el("h3.zone-title", {}, "♛ ", tr(ctx, "whim_title")),
    el("div.ibr-princess-where", {}, `${squareName(ctx, pub.princess)[0]} · ${escortText}`),
    el("div.ibr-whim-row", {}, whimNode, upId !== null ? meter : null));

  // ----- the combat in progress ------------------------------------------------------------
  let combatZone = null;
  const b = pub.combat;
  if (b) {
    const sides = b.players.map((p, side) => {
      const played = z.played[p];
      const shown = z.shown[p] || [];
      const revealed = (b.plays[side] && b.plays[side].length) ? b.plays[side] : shown;
      const committed = (pub.committed || []).includes(p);
      const asked = (pub.commit_players || []).includes(p);
      const facedown = Array.isArray(played)
        ? played.map((c) => { const nd = myCard(c); nd.classList.add("ibr-facedown-mine"); nd.title = `${tr(ctx, "your_facedown")}\n${nd.title}`; return nd; })
        : Array.from({ length: played || 0 }, () => ctx.card(null, { small: false }));
      const state = revealed.length ? null
        : committed ? tr(ctx, "committed")
        : asked ? tr(ctx, "choosing") : null;
      return el(`div.ibr-side.side-${side}`, { dataset: { seat: String(p) } },
        el("div.ibr-side-title", {}, el("span.ibr-role", {}, tr(ctx, side === 0 ? "attacker" : "defender")), " ",
          knightToken(ctx, view, p), " ", ctx.player(p)),
        b.size[side] === 0 ? el("div.ibr-side-size", {}, tr(ctx, "no_card"))
          : b.declared > side ? el("div.ibr-side-size", {}, tr(ctx, "declared", { n: b.size[side] })) : null,
        el("div.ibr-side-cards", {},
          ...facedown,
          ...revealed.map((c) => Array.isArray(played) && played.includes(c) ? null : (p === me ? myCard(c) : actionCard(ctx, c))),
          !facedown.length && !revealed.length && b.size[side] !== 0 && b.plays.some((x) => x.length) ? el("span.ibr-nocard", {}, tr(ctx, "no_card")) : null),
        state ? el("div.ibr-side-state", {}, state) : null,
        b.chosen[side] ? el("div.ibr-side-suit", {}, tr(ctx, "chosen", { suit: tr(ctx, `suit_${SUIT_CLASS[b.chosen[side]] || "sword"}`) })) : null,
        b.ring[side] ? el("div.ibr-side-ring", {}, tr(ctx, "ring_used")) : null);
    });
    combatZone = el("section.zone.ibr-combat", {},
      el("h3.zone-title", {}, icon("swords"), " ", tr(ctx, "combat"), " · ", squareName(ctx, pub.pos[b.players[1]])[0]),
      el("div.ibr-combat-sides", {}, sides[0], el("span.ibr-vs", { "aria-hidden": "true" }, icon("swords")), sides[1]));
  }

  // ----- the piles -------------------------------------------------------------------------
  const lastDiscard = z.discard && z.discard.length ? z.discard[z.discard.length - 1] : null;
  const lastEvent = z.event_discard && z.event_discard.length ? z.event_discard[z.event_discard.length - 1] : null;
  const pile = (title, ...children) => el("div.ibr-pile", {}, el("div.ibr-pile-title", {}, title), ...children);
  const piles = el("section.zone.ibr-piles", {},
    el("h3.zone-title", {}, tr(ctx, "piles")),
    el("div.ibr-pile-row", {},
      pile(tr(ctx, "deck"), backs(ctx, countOf(z.deck), 1)),
      pile(tr(ctx, "discard"), lastDiscard !== null ? actionCard(ctx, lastDiscard, { small: false }) : el("span.ibr-none", {}, tr(ctx, "none")),
        el("span.ibr-count", {}, tr(ctx, "count", { n: countOf(z.discard) }))),
      pile(tr(ctx, "event_deck"), backs(ctx, countOf(z.event_deck), 1)),
      pile(tr(ctx, "last_event"), lastEvent !== null ? ctx.card(lastEvent, { table: "events", classes: "ibr-event" }) : el("span.ibr-none", {}, tr(ctx, "none"))),
      pile(tr(ctx, "whim_deck"), backs(ctx, countOf(z.whim_deck), 1),
        el("span.ibr-count", {}, tr(ctx, "whim_discard", { n: countOf(z.whim_discard) }))),
      pile(tr(ctx, "item_pool"), el("span.ibr-chip-back", { title: tr(ctx, "item_pool") }, tr(ctx, "count", { n: countOf(z.item_pool) })),
        countOf(z.item_discard) ? el("span.ibr-count", {}, tr(ctx, "item_discard", { n: countOf(z.item_discard) })) : null)));

  // ----- the seats -------------------------------------------------------------------------
  const wanted = upEntry ? upEntry.items || [] : [];
  function seatPanel(p) {
    const mine = p === me;
    const k = pub.knights[p];
    const kEntry = ctx.book.get(k, "knights");
    const knight = ctx.card(k, { table: "knights", classes: "ibr-knight-card",
      extra: kEntry ? el("span.ibr-ability", {}, kEntry.kind ? el("b", {}, tr(ctx, `kind_${kEntry.kind}`), " ") : null, text(kEntry, ctx.lang)) : null });
    const head = el("h3.ibr-seat-head", {}, knightToken(ctx, view, p), " ", ctx.player(p),
      pub.turn_player === p ? el("span.ibr-badge.turn", {}, tr(ctx, "their_turn")) : null,
      pub.escort === p ? el("span.ibr-badge.escort", {}, "♛ ", tr(ctx, "escorting")) : null);
    bind(head, ctx.actionsFor("gaiblitz", p));   // ゲイブリッツ's ability (IBR-GABE): its target player
    ctx.target(head, p, "player");               // the player a card's effect names
    const hand = z.hand[p];
    const handBox = Array.isArray(hand)
      ? el("div.ibr-hand-cards", {}, ...(mine ? myHand : [...hand].sort((a, b2) => a - b2)).map((c) => mine ? myCard(c) : actionCard(ctx, c)),
        hand.length || mine ? null : el("span.ibr-none", {}, tr(ctx, "none")))
      : backs(ctx, hand || 0, 10, false);
    const items = (z.items[p] || []);
    const whims = (z.whims[p] || []);
    const whimNodes = whims.map((w) => {
      const nd = whimCard(ctx, w, { small: true });
      const key = (ctx.book.get(w, "whims") || {}).key;
      if (mine) bind(nd, ctx.actionsWhere((a) => a.verb === "lose" && (String(a.args[0]) === String(w) || (ctx.book.get(a.args[0], "whims") || {}).key === key)));
      return nd;
    });
    const chipNodes = items.map((i) => {
      const nd = chip(ctx, i);
      if (wanted.includes(nd.dataset.item) && pub.escort === p) nd.classList.add("wanted");
      if (mine && nd.dataset.item === "akuun_no_yubiwa") bind(nd, ctx.actionsWhere((a) => a.verb === "ring" || a.verb === "noring"));
      return nd;
    });
    return el(`section.ibr-seat${mine ? ".mine" : ""}${pub.turn_player === p ? ".turn" : ""}`, { dataset: { seat: String(p) } },
      head,
      el("div.ibr-seat-where", {}, tr(ctx, "at", { square: squareName(ctx, pub.pos[p])[0] })),
      el("div.ibr-seat-body", {},
        knight,
        el("div.ibr-seat-row.ibr-hand", { dataset: { count: String(countOf(hand)) } },
          el("span.ibr-row-title", {}, mine ? tr(ctx, "your_hand", { n: countOf(hand) }) : tr(ctx, "hand", { n: countOf(hand) })), handBox),
        el("div.ibr-seat-row.ibr-items", {}, el("span.ibr-row-title", {}, tr(ctx, "items", { n: items.length })),
          ...chipNodes),
        el("div.ibr-seat-row.ibr-whims", {}, el("span.ibr-row-title", {}, tr(ctx, "whims_won", { n: whims.length, needed: pub.whims_needed })),
          el("span.ibr-score", { "aria-hidden": "true" }, ...Array.from({ length: Math.max(pub.whims_needed, whims.length) }, (_, i) => el(`span.ibr-heart${i < whims.length ? ".on" : ""}`, {}, icon("heart")))),
          ...whimNodes)));
  }
  const order = pub.order && pub.order.length === n ? pub.order : Array.from({ length: n }, (_, i) => i);
  const mineFirst = me !== null && me < n;
  const others = el("div.ibr-others", {}, ...order.filter((p) => p !== me).map(seatPanel));
  const myPanel = mineFirst ? seatPanel(me) : null;

  // ----- what the board has no natural place for: a bar of buttons -----------------------
  const bar = el("div.ibr-bar");
  if (myTurnToAct) {
    const rest = ctx.actions.filter((a) => !bound.has(a.notation));
    if (pub.phase === "act" && ctx.actionsWhere((a) => a.verb === "move" || (a.verb === "sp" && a.args.length > 1)).length) {
      bar.append(el("span.ibr-hint", {}, tr(ctx, "hint_move")));
    }
    for (const a of rest) bar.append(bind(el(`button.ibr-button.verb-${a.verb}`, { type: "button", dataset: { notation: a.notation } }, a.label), [a]));
  }

  const note = ctx.book.catalogue[`note_${ctx.lang}`];
  const myArea = myPanel || bar.childNodes.length
    ? el("div.ibr-my-area", {}, bar.childNodes.length ? bar : null, myPanel) : null;
  root.replaceChildren(el("div.ibara", { dataset: { phase: pub.phase } },
    status,
    el("div.ibr-table", {},
      el("div.ibr-map-wrap", {}, map),
      el("div.ibr-centre", {}, princess, combatZone, myArea)),
    others,
    piles,
    note ? el("p.ibr-note", {}, note) : null));
  ctx.settle(root);
}
