"""The castle board (a stand-in design): a ring of twelve numbered squares around the keep,
four corner squares for exploration, and the gate.

Squares are ints: 1..12 the numbered ring, 0 the keep (城), 13 the gate (門).
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

KEEP, GATE = 0, 13
NUMBERED = tuple(range(1, 13))
CORNERS = (1, 4, 7, 10)              # exploration squares [designed]
KEEP_LINKS = (3, 6, 9, 12)           # the keep opens onto these [designed]
GATE_LINK = 1                        # the gate lies beyond square 1 [designed]


def _edges() -> dict[int, tuple[int, ...]]:
    adj: dict[int, set[int]] = {s: set() for s in (KEEP, *NUMBERED, GATE)}
    for s in NUMBERED:
        t = s % 12 + 1
        adj[s].add(t)
        adj[t].add(s)
    for s in KEEP_LINKS:
        adj[KEEP].add(s)
        adj[s].add(KEEP)
    adj[GATE].add(GATE_LINK)
    adj[GATE_LINK].add(GATE)
    return {s: tuple(sorted(n)) for s, n in adj.items()}


ADJ = _edges()
NAMES = {KEEP: "城", GATE: "門", **{s: str(s) for s in NUMBERED}}


def wrap(n: int) -> int:
    """IBR-RANDOM-03: square numbers wrap around, 12 then 1."""
    return (n - 1) % 12 + 1


@lru_cache(maxsize=None)
def distances(start: int) -> dict[int, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for t in ADJ[s]:
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


@lru_cache(maxsize=1 << 16)
def reachable(start: int, steps: int, blocked: frozenset[int]) -> tuple[int, ...]:
    """Squares reachable in at most `steps` moves, passing only through unblocked squares;
    a blocked square may be the destination (you stop there). Sorted; cached (the board is
    fixed and few knights block)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if dist[s] == steps or (s != start and s in blocked):
            continue
        for t in ADJ[s]:
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    del dist[start]
    return tuple(sorted(dist))


DIAGRAM = r"""
          12    1*    2        (門 13 lies beyond square 1)
      11                  3
   10*        [城 0]         4*     (城 connects to 3, 6, 9 and 12)
       9                  5
          8     7*    6
"""
