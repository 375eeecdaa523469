"""Figures of the research adapters, for docs/research.md: per configuration the action
layout (verbs, sizes), the observation's features, and random-play speed through `Seat`
against the engine's own loop.

    python3 -m takujo.adapters.report                 # layouts and observations
    python3 -m takujo.adapters.report --speed 20      # and speed over 20 games a configuration
"""
from __future__ import annotations

import argparse
import time
from collections import OrderedDict

from ..core.rng import Rng
from ..core.registry import load
from .driver import Table

#: each game's default configuration, and the one with its options on (the largest layout)
CONFIGS = OrderedDict([
    ("fuutei", ["fuutei", "fuutei(players=6)"]),
    ("sengoku_taisen", ["sengoku_taisen", "sengoku_taisen(deck1=黒,deck2=黒)"]),
    ("ibara", ["ibara", "ibara(multi_card_combat=true,gaiblitz_buff=true)"]),
    ("draft_daimyo", ["draft_daimyo", "draft_daimyo(expansion=true,tactics=true,turn_order_choice=true)"]),
])


def layout_table(t: Table) -> list[str]:
    lines = ["| verb | offset | size | arguments |", "|---|---:|---:|---|"]
    for verb, offset, size, desc in t.index.layout():
        lines.append(f"| {verb} | {offset} | {size} | {desc.replace('|', '/')} |")
    return lines


def obs_table(t: Table) -> list[str]:
    """Observation rows, nested public features folded to their top key."""
    rows: OrderedDict[str, int] = OrderedDict()
    for name, size in t.encoder.rows():
        if name.startswith("public."):
            parts = name.split(".")
            key = ".".join(parts[:2]).split(" ")[0].split("[")[0]
        else:
            key = name
        rows[key] = rows.get(key, 0) + size
    lines = ["| feature | size |", "|---|---:|"]
    lines += [f"| {k.replace('|', '/')} | {v} |" for k, v in rows.items() if v]
    lines.append(f"| **total** | **{t.obs_size}** |")
    return lines


def engine_speed(spec: str, games: int) -> tuple[int, float]:
    game = load(spec)
    steps, t0 = 0, time.perf_counter()
    for seed in range(games):
        s = game.new_state(seed)
        rng = Rng(seed)
        while True:
            pend, legal = s.first_choice()
            if pend is None:
                break
            s.apply_unchecked(legal[rng.below(len(legal))], pend)
            steps += 1
    return steps, time.perf_counter() - t0


def seat_speed(spec: str, games: int, observe: bool, reference: bool = False) -> tuple[int, float]:
    """Steps and seconds of random play through `Seat`; with `observe`, the acting player's
    observation (through `Seat.observe_reference` when `reference`) and mask each step."""
    t = Table(spec)
    steps, t0 = 0, time.perf_counter()
    for seed in range(games):
        seat = t.new(seed)
        rng = Rng(seed)
        look = seat.observe_reference if reference else seat.observe
        while True:
            legal = seat.legal()
            if not legal:
                break
            if observe:
                look(seat.current_player())  # type: ignore[arg-type]
                seat.mask()
            seat.step(legal[rng.below(len(legal))])
            steps += 1
    return steps, time.perf_counter() - t0


def generated() -> str:
    """The figures docs/research.md quotes between its ``generated`` markers (a test checks
    they are current)."""
    out = ["| configuration | actions N | observation |", "|---|---:|---:|"]
    for specs in CONFIGS.values():
        for spec in specs:
            t = Table(spec)
            out.append(f"| {t.spec} | {t.num_actions} | {t.obs_size} |")
    for name, specs in CONFIGS.items():
        out.append(f"\n### {name}")
        shown: list[list[str]] = []
        for spec in specs:
            t = Table(spec)
            lines = layout_table(t)
            if lines in shown:
                out.append(f"\n{t.spec}: the same layout, N = {t.num_actions}.")
                continue
            shown.append(lines)
            out.append(f"\nActions of {t.spec}: N = {t.num_actions}\n")
            out.extend(lines)
        t = Table(specs[0])
        out.append(f"\nObservation of {t.spec}: {t.obs_size} floats\n")
        out.extend(obs_table(t))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--speed", type=int, default=0, help="games per configuration for the speed table")
    args = ap.parse_args(argv)
    print(generated(), end="")
    if args.speed:
        print("\n| configuration | engine steps/s | Seat steps/s | Seat + observe + mask steps/s "
              "| the same, reference observation |")
        print("|---|---:|---:|---:|---:|")
        for specs in CONFIGS.values():
            for spec in specs:
                e = engine_speed(spec, args.speed)
                s = seat_speed(spec, args.speed, False)
                o = seat_speed(spec, args.speed, True)
                r = seat_speed(spec, args.speed, True, reference=True)
                print(f"| {Table(spec).spec} | {e[0] / e[1]:,.0f} | {s[0] / s[1]:,.0f} | {o[0] / o[1]:,.0f} "
                      f"| {r[0] / r[1]:,.0f} |")


if __name__ == "__main__":
    main()
