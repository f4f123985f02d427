"""A Minesweeper logic solver: which covered cells are certainly safe or certainly mines.

The solver reads only what the player sees: the revealed numbers, revealed mines and the
total mine count (flags are the player's guesses and are ignored). Every revealed number
is a constraint "this many mines among my covered neighbours". Covered cells next to a
number (the frontier) are split into independent components; each component's mine
assignments are enumerated by backtracking with pruning, keeping, per number of mines
used, how many assignments there are and how often each cell is a mine in them. The
components and the unconstrained interior cells are then combined under the total mine
count, weighting each combination by the number of ways to place the remaining mines in
the interior. A cell is certainly safe (mined) when it is safe (mined) in every consistent
configuration, and its mine probability is exact.

A component whose enumeration exceeds ``node_budget`` search nodes is not enumerated;
the solver then treats its mine count as unknown (any value from 0 to its size) and only
applies the single-number rules to it. That keeps every answer sound ("safe" is never a
mine) at the cost of fewer deductions on huge, dense frontiers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from math import comb

from langgraph_games.games.minesweeper.rules import COVERED, FLAG, MINE, neighbours

__all__ = ["Analysis", "analyse"]

_HIDDEN = (COVERED, FLAG)


@dataclass(frozen=True)
class Analysis:
    """What the numbers on a board prove.

    Attributes:
        safe: Covered (or flagged) cells that hold no mine in any consistent configuration.
        mines: Covered (or flagged) cells that hold a mine in every consistent configuration.
        probability: Mine probability of every covered cell (exact when ``exact``).
        exact: Whether every frontier component was fully enumerated.
        consistent: ``False`` when no mine layout fits the view (e.g. a wrong mine count).
    """

    safe: frozenset[int]
    mines: frozenset[int]
    probability: dict[int, float] = field(default_factory=dict)
    exact: bool = True
    consistent: bool = True


@dataclass
class _Component:
    cells: list[int]
    constraints: list[tuple[tuple[int, ...], int]]  # (local variable indices, mines needed)
    # mines used -> (number of assignments, per-variable mine counts)
    table: dict[int, tuple[int, list[int]]] = field(default_factory=dict)
    solved: bool = True


def analyse(
    view: str, rows: int, cols: int, total_mines: int, *, node_budget: int = 100_000
) -> Analysis:
    """Find the certainly safe and certainly mined cells of a board view.

    Args:
        view: One character per cell: ``?`` covered, ``F`` flagged, ``X`` revealed mine,
            ``0``-``8`` revealed number.
        rows: Board height.
        cols: Board width.
        total_mines: Mines on the board (known to the player).
        node_budget: Search nodes allowed per frontier component before falling back to
            the single-number rules for it.

    Returns:
        The analysis (cells as flat indices ``row * cols + col``).

    Example:
        >>> a = analyse("1?" "??", 2, 2, 1)  # a 1 in the corner: one of 3 cells is a mine
        >>> sorted(a.safe), sorted(a.mines), round(a.probability[1], 3)
        ([], [], 0.333)
        >>> b = analyse("01?" "12?" "???", 3, 3, 2)  # one mine each side: (2,2) is safe
        >>> sorted(b.safe), sorted(b.mines)
        ([8], [])
    """
    around = neighbours(rows, cols)
    hidden = [i for i, ch in enumerate(view) if ch in _HIDDEN]
    remaining = total_mines - view.count(MINE)
    constraints: dict[tuple[int, ...], int] = {}
    for i, ch in enumerate(view):
        if not ch.isdigit():
            continue
        cells = tuple(n for n in around[i] if view[n] in _HIDDEN)
        need = int(ch) - sum(1 for n in around[i] if view[n] == MINE)
        if need < 0 or need > len(cells):
            return _inconsistent(hidden)
        if cells:
            if constraints.get(cells, need) != need:
                return _inconsistent(hidden)
            constraints[cells] = need
    components = _components(constraints)
    frontier = {c for comp in components for c in comp.cells}
    interior = [i for i in hidden if i not in frontier]
    for comp in components:
        _enumerate(comp, node_budget)
    return _combine(components, interior, remaining, hidden)


def _inconsistent(hidden: Iterable[int]) -> Analysis:
    return Analysis(frozenset(), frozenset(), {i: 0.0 for i in hidden}, True, False)


def _components(constraints: dict[tuple[int, ...], int]) -> list[_Component]:
    """Split the frontier into groups of cells linked by shared numbers."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for cells in constraints:
        root = find(cells[0])
        for c in cells[1:]:
            parent[find(c)] = root
    groups: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for cells, need in constraints.items():
        groups.setdefault(find(cells[0]), []).append((cells, need))
    result = []
    for _, group in sorted(groups.items()):
        order = _variable_order(group)
        index = {cell: k for k, cell in enumerate(order)}
        local = [(tuple(index[c] for c in cells), need) for cells, need in group]
        result.append(_Component(cells=order, constraints=local))
    return result


def _variable_order(group: list[tuple[tuple[int, ...], int]]) -> list[int]:
    """Order cells so each number's cells come close together (constraints close early)."""
    by_cell: dict[int, list[int]] = {}
    for k, (cells, _) in enumerate(group):
        for c in cells:
            by_cell.setdefault(c, []).append(k)
    order: list[int] = []
    seen_cells: set[int] = set()
    seen_constraints: set[int] = set()
    queue = [0]
    while queue:
        k = queue.pop(0)
        if k in seen_constraints:
            continue
        seen_constraints.add(k)
        for c in sorted(group[k][0]):
            if c not in seen_cells:
                seen_cells.add(c)
                order.append(c)
                queue.extend(j for j in by_cell[c] if j not in seen_constraints)
    return order


def _enumerate(comp: _Component, budget: int) -> None:
    """Count the component's mine assignments per number of mines, with per-cell counts."""
    n = len(comp.cells)
    need = [value for _, value in comp.constraints]
    left = [len(cells) for cells, _ in comp.constraints]
    placed = [0] * len(comp.constraints)
    of_var: list[list[int]] = [[] for _ in range(n)]
    for k, (cells, _) in enumerate(comp.constraints):
        for v in cells:
            of_var[v].append(k)
    assignment = [0] * n
    table: dict[int, tuple[int, list[int]]] = {}
    nodes = 0

    def search(v: int, mines: int) -> bool:
        # A variable's constraints were satisfiable before it was assigned, so a 0 can
        # only break a lower bound (too few cells left) and a 1 only an upper bound.
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if v == n:
            count, per_cell = table.get(mines, (0, [0] * n))
            table[mines] = (count + 1, [a + b for a, b in zip(per_cell, assignment, strict=True)])
            return True
        cons = of_var[v]
        for k in cons:
            left[k] -= 1
        if all(placed[k] + left[k] >= need[k] for k in cons) and not search(v + 1, mines):
            return False
        if all(placed[k] < need[k] for k in cons):
            for k in cons:
                placed[k] += 1
            assignment[v] = 1
            done = search(v + 1, mines + 1)
            assignment[v] = 0
            for k in cons:
                placed[k] -= 1
            if not done:
                return False
        for k in cons:
            left[k] += 1
        return True

    comp.solved = search(0, 0)
    comp.table = table if comp.solved else {}


def _local_rules(comp: _Component) -> tuple[set[int], set[int]]:
    """Sound single-number deductions, repeated until nothing changes (fallback only)."""
    safe: set[int] = set()
    mines: set[int] = set()
    changed = True
    while changed:
        changed = False
        for cells, need in comp.constraints:
            open_cells = [v for v in cells if v not in safe and v not in mines]
            still = need - sum(1 for v in cells if v in mines)
            if open_cells and still == 0:
                safe.update(open_cells)
                changed = True
            elif open_cells and still == len(open_cells):
                mines.update(open_cells)
                changed = True
    return safe, mines


def _poly_product(polys: list[dict[int, int]]) -> dict[int, int]:
    result = {0: 1}
    for poly in polys:
        nxt: dict[int, int] = {}
        for a, wa in result.items():
            for b, wb in poly.items():
                nxt[a + b] = nxt.get(a + b, 0) + wa * wb
        result = nxt
    return result


def _combine(
    components: list[_Component], interior: list[int], remaining: int, hidden: list[int]
) -> Analysis:
    """Weigh component assignments and interior placements under the total mine count."""
    size = len(interior)
    polys = []
    for comp in components:
        if comp.solved:
            polys.append({k: count for k, (count, _) in comp.table.items()})
        else:  # unknown: any count is possible (a superset keeps deductions sound)
            polys.append(dict.fromkeys(range(len(comp.cells) + 1), 1))

    def interior_ways(sum_frontier: int) -> int:
        m = remaining - sum_frontier
        return comb(size, m) if 0 <= m <= size else 0

    everything = _poly_product(polys)
    total = sum(w * interior_ways(s) for s, w in everything.items())
    if total == 0:
        return _inconsistent(hidden)
    safe: set[int] = set()
    mines: set[int] = set()
    probability: dict[int, float] = {}
    exact = all(comp.solved for comp in components)
    for j, comp in enumerate(components):
        if not comp.solved:
            local_safe, local_mines = _local_rules(comp)
            for v, cell in enumerate(comp.cells):
                probability[cell] = 0.0 if v in local_safe else 1.0 if v in local_mines else 0.5
            safe.update(comp.cells[v] for v in local_safe)
            mines.update(comp.cells[v] for v in local_mines)
            continue
        others = _poly_product(polys[:j] + polys[j + 1 :])
        expected = [0] * len(comp.cells)
        feasible: list[tuple[int, list[int]]] = []
        for k, (count, per_cell) in comp.table.items():
            ways = sum(w * interior_ways(k + s) for s, w in others.items())
            if ways == 0:
                continue
            feasible.append((count, per_cell))
            for v in range(len(comp.cells)):
                expected[v] += per_cell[v] * ways
        for v, cell in enumerate(comp.cells):
            probability[cell] = expected[v] / total
            if all(per_cell[v] == 0 for _, per_cell in feasible):
                safe.add(cell)
            elif all(per_cell[v] == count for count, per_cell in feasible):
                mines.add(cell)
    if size:
        feasible_m = [remaining - s for s, w in everything.items() if w and interior_ways(s)]
        weighted = sum(w * interior_ways(s) * (remaining - s) for s, w in everything.items())
        for cell in interior:
            probability[cell] = weighted / total / size
        if all(m == 0 for m in feasible_m):
            safe.update(interior)
        elif all(m == size for m in feasible_m):
            mines.update(interior)
    return Analysis(frozenset(safe), frozenset(mines), probability, exact, True)
