// The board of a game without its own: every zone of the view, per player and shared, with
// its cards (or their backs and counts), and the public facts as a table.
import { el } from "../common.js";
import { zone } from "../board-kit.js";

function isPerPlayer(value, players) {
  return Array.isArray(value) && value.length === players && value.every((v) => Array.isArray(v) || typeof v === "number");
}

function cards(ctx, list) {
  if (typeof list === "number") {
    return el("div.cards", {}, ...Array.from({ length: Math.min(list, 12) }, () => ctx.card(null, { small: true })),
      el("span.count", {}, `×${list}`));
  }
  return el("div.cards", {}, ...list.map((ref) => {
    const node = ctx.card(ref);
    ctx.bind(node, ctx.actionsWhere((a) => String(a.args[0]) === String(ref)));
    ctx.target(node, ref);
    return node;
  }));
}

export function render(root, state, ctx) {
  const view = state.view;
  const players = state.players || (view.public && view.public.points ? view.public.points.length : 0) ||
    Math.max(0, ...Object.values(view.zones || {}).filter(Array.isArray).map((z) => z.length));
  const shared = [], perPlayer = [];
  for (const [name, value] of Object.entries(view.zones || {})) {
    (isPerPlayer(value, players) ? perPlayer : shared).push([name, value]);
  }
  const centre = el("div.board-centre", {}, ...shared.map(([name, value]) => zone(ctx.t(`zone_${name}`) === `zone_${name}` ? name : ctx.t(`zone_${name}`), cards(ctx, value))));
  const seats = el("div.board-seats", {}, ...Array.from({ length: players }, (_, p) => {
    const panel = el(`section.seat-panel${p === ctx.seat ? ".mine" : ""}`, { dataset: { seat: String(p) } },
      el("h3", {}, ctx.player(p)),
      ...perPlayer.map(([name, value]) => zone(name, cards(ctx, value[p]))));
    ctx.target(panel, p);
    return panel;
  }));
  const facts = el("table.facts", {}, ...Object.entries(view.public || {}).filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v)))));
  const settings = ctx.settingsControl();
  root.replaceChildren(...[settings ? el("div.board-settings", {}, settings) : null, seats, centre, facts].filter(Boolean));
  ctx.settle(root);
}
