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


# ``RING_FROM[n]``: the twelve numbered squares in order from square wrap(n) (IBR-RANDOM-03).
RING_FROM = tuple(tuple(wrap(n + k) for k in range(12)) for n in range(13))


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


SQUARES = tuple(sorted(ADJ))
BIT = tuple(1 << s for s in SQUARES)       # a set of squares is a bitmask: bit s for square s
FAR = len(SQUARES) - 1                     # no square is further than this from another


def _near() -> tuple[tuple[int, ...], ...]:
    """``NEAR[s][k]``: the bitmask of the squares 1..k moves from square s, for k = 0..FAR."""
    return tuple(tuple(sum(BIT[t] for t, d in distances(s).items() if 0 < d <= k) for k in range(FAR + 1))
                 for s in SQUARES)


NEAR = _near()
ADJ_MASK = tuple(sum(BIT[t] for t in ADJ[s]) for s in SQUARES)   # neighbours of s, as a bitmask
#: Entries a game keeps in its reachable-squares cache (about 150 bytes each): enough for a
#: hit on some 95% of calls over hundreds of games, and a bound on the memory.
REACH_CACHED = 1 << 13


def reachable(start: int, steps: int, blocked: int, cache: dict[int, tuple[int, ...]] | None = None) -> tuple[int, ...]:
    """Squares reachable in at most `steps` moves, passing only through unblocked squares;
    a blocked square may be the destination (you stop there). `blocked` is a bitmask.
    Sorted. With `cache` (a game's own dict), answers are kept there on the blocked squares
    the move could pass through, up to `REACH_CACHED` of them."""
    if steps > FAR:
        steps = FAR
    passed = blocked & NEAR[start][steps - 1] if steps > 0 else 0
    if cache is None:
        return _search(start, steps, passed)
    key = (passed << 10) | (steps << 5) | start   # start < 32, steps < 32
    found = cache.get(key)
    if found is None:
        if len(cache) >= REACH_CACHED:
            cache.clear()
        found = cache[key] = _search(start, steps, passed)
    return found


def _search(start: int, steps: int, blocked: int) -> tuple[int, ...]:
    """Breadth first over bitmasks, one move at a time; you stop on a blocked square."""
    adj = ADJ_MASK
    reached = frontier = BIT[start]
    for _ in range(steps):
        expand = 0
        while frontier:
            low = frontier & -frontier
            expand |= adj[low.bit_length() - 1]
            frontier ^= low
        new = expand & ~reached
        if not new:
            break
        reached |= new
        frontier = new & ~blocked
    reached &= ~BIT[start]
    out = []
    while reached:
        low = reached & -reached
        out.append(low.bit_length() - 1)
        reached ^= low
    return tuple(out)


DIAGRAM = r"""
          12    1*    2        (門 13 lies beyond square 1)
      11                  3
   10*        [城 0]         4*     (城 connects to 3, 6, 9 and 12)
       9                  5
          8     7*    6
"""
