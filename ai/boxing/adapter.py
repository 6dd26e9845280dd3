"""Boxing's adapter: play-outs at the root, exact Grundy endgames, the symmetry strategy.

Depth 1 looks for a proven win that needs no search: a box that fills the rest, or the
symmetry strategy (two players): when the vacant cells are the same under a half turn
of the arena and its four centre cells are vacant, a box on the centre leaves a position
where every box has a disjoint mirror image, so the mover answers each box with its
mirror and makes the last move; when the vacant cells are that, plus one box, that box
is the win. Then it shares play-outs among the root's moves by UCB1.

Depth 2 (two players) values every move exactly where it can: the position after a
move is a sum of regions, each solved by `grundy` when it has at most the budget's
`cap` cells; a move to 0 is a proven win, one to a non-zero value a proven loss. A win
plays the winning box with the most cells (more of our marks, our score); a lost
position plays the move that leaves the fewest winning replies. When some moves stay
unknown the play-outs choose among them (a proven loss is never played while another
move is left). Depth 3 (two players) also calls a move a proven loss when its position,
though too large to solve, lets the other player cut it into a solved position of value
0 (the moment a game becomes solvable decides it: the first side to move there with a
win wins). Later depths double the play-outs, and from depth 4 (two players) a play-out
that reaches a position whose regions the table values ends there, with the exact winner
(`playouts.settled`): the play-outs then measure who wins that first solvable position,
not who wins a random endgame (max with it won 16 of 20 against max without). Their
movers also play for the last move (`playouts.parity_size`), so the other side answers as
a player would where the count of moves decides the game.

Depths 2 and 3 take the moves in the play-outs' order of preference, so the move about
to be played is the first one proven or refuted, each within the whole node limit (with
a shared one, the moves checked last were left unknown and played as safe), and depth 3
starts even after the engine's usual last start: the moves where the solve is slow are
those where the game is being decided (hard with these against hard without: 51 of 80).

Every player count avoids handing the next player the rest in one box when it can.
With more than two players the play-outs choose, each counting the games it wins, and
what can be settled is: with P players a box of side k is one move for k^2 cells, so
once no box with k^2 - 1 not a multiple of P fits (with three: no 3x3 box) the vacant
cells name who moves last (`playouts.settles`). A box that leaves that and a multiple of
P cells is a proven win (depth 1); depth 2 calls a move lost when it settles the winner
on another or lets the next player settle it on itself, and from `multi_cap` vacant
cells it chooses by the endgame table instead (`multi`: every player takes its best
move, ties shared). Play-out movers settle the winner on themselves where they can.
Depth 2 also holds the count: when the vacant cells put the last move on the mover, it
plays only boxes that keep it there and leave the fewest boxes that could change it.
A search allowed past hard's depth also takes the count, and with three players brings
it to the seat before the mover where no box takes it (`_take_the_count`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

from ai.adapter import Adapter, Depth, touch
from ai.boxing import grundy as G
from ai.boxing import kernels as K
from ai.boxing import multi as M
from ai.boxing import playouts as P
from ai.engine import Budget
from rules import Game
from rules.boxing import CELLS, HEIGHT, MARKS, WIDTH, Boxing

TT_BITS = 22  # 4 Mi shapes: 32 MiB of keys, 8 MiB of values
PROVEN = 1000  # a proven win; play-out scores are 1000 * p - 500
PER_MOVE = 2  # depth 1's play-outs per candidate
MAX_POOL = 400  # candidates for the play-outs: the largest boxes when there are more
TAKE_DEPTH = 5  # more than two players: a search allowed this deep also takes the count
EXPLORE = 0.5
NODES_PER_SECOND = 100_000  # new regions `grundy` solves a second (measured: 5x5 square
# 261,010 in 1.6 s)
SOLVE_SHARE = 0.5  # of the budget for depth 2's exact solves (and the node limit of each)
EXACT_PLAYOUT_LEFT = 200  # vacant cells from which depth 4's play-outs look at the table
DEEPEN_SHARE = 0.3  # of the budget for depth 3's look at the other's replies
# Regions solved exactly up to this many cells, by budget seconds: a compact 25-cell
# region takes about 250,000 new regions, a 16-cell one about 1,000.
CAPS = ((1.0, 26), (0.25, 24), (0.1, 22), (0.0, 18))
# Vacant cells from which more than two players' endgame is tabled (`multi`), by budget
# seconds: 20 cells take about 0.09 s (a million subsets), each cell fewer halves it.
MULTI_CAPS = ((1.0, 20), (0.25, 18), (0.1, 16), (0.0, 14))
MULTI_FLOATS = 1 << 22  # the table's size at most (16 MiB): 2^cells rows of `players`
CENTRE = ((HEIGHT // 2 - 1, WIDTH // 2 - 1), (HEIGHT // 2 - 1, WIDTH // 2),
          (HEIGHT // 2, WIDTH // 2 - 1), (HEIGHT // 2, WIDTH // 2))


def exact_left(pos: Position, depth: int) -> int:
    """From how many vacant cells a play-out ends on the table's values: two players, from
    depth 4 (0: never). Those play-outs also play for the count (`playouts.parity_size`)."""
    return EXACT_PLAYOUT_LEFT if pos.players == 2 and depth >= 4 else 0


def solve_limits(budget: Budget) -> tuple[int, int]:
    """The largest region a budget solves and the new regions one move's solve may take."""
    return cap_for(budget.seconds), max(1000, int(NODES_PER_SECOND * SOLVE_SHARE
                                                  * budget.seconds))


def cap_for(seconds: float) -> int:
    for limit, cells in CAPS:
        if seconds >= limit:
            return cells
    return CAPS[-1][1]


def multi_cap(seconds: float, players: int) -> int:
    """The most vacant cells whose endgame a budget tables for `players` (> 2)."""
    cells = next((c for limit, c in MULTI_CAPS if seconds >= limit), MULTI_CAPS[-1][1])
    return min(cells, M.MAX_CELLS, (MULTI_FLOATS // players).bit_length() - 1)


def mirror(rows: list[int]) -> list[int]:
    """The row masks turned half a turn about the arena's centre."""
    return [int(f"{rows[HEIGHT - 1 - r]:032b}"[::-1], 2) for r in range(HEIGHT)]


def symmetry_win(rows: list[int]) -> tuple[int, int, int] | None:
    """A box that wins by the symmetry strategy (two players), or None: a centre box when
    the vacant cells are symmetric with the four centre cells vacant (the largest such
    box), or the one box whose removal leaves them symmetric with a centre cell used."""
    turned = mirror(rows)
    extra = [a & ~b for a, b in zip(rows, turned, strict=True)]
    if not any(extra):
        if not all(rows[r] >> c & 1 for r, c in CENTRE):
            return None
        best = None
        for k in range(2, K.MAX_BOX + 1, 2):
            r, c = HEIGHT // 2 - k // 2, WIDTH // 2 - k // 2
            mask = ((1 << k) - 1) << c
            if all(rows[i] & mask == mask for i in range(r, r + k)):
                best = (r, c, k)
            else:
                break
        return best
    used = [r for r in range(HEIGHT) if extra[r]]
    top, k = used[0], len(used)
    bits = extra[top]
    if used[-1] - top + 1 != k or any(extra[r] != bits for r in used) or bits.bit_count() != k:
        return None
    col = (bits & -bits).bit_length() - 1
    if bits >> col != (1 << k) - 1:
        return None
    rest = [a & b for a, b in zip(rows, turned, strict=True)]
    if all(rest[r] >> c & 1 for r, c in CENTRE):
        return None  # the other would take the centre
    return top, col, k


@dataclass
class Position:
    game: Boxing
    players: int
    codes: np.ndarray  # every legal move
    kids: np.ndarray  # the position after each
    left: np.ndarray  # its vacant cells
    pool: np.ndarray  # indices of the candidates: no box that hands over a finish (unless
    # every box does), the MAX_POOL largest
    visits: np.ndarray  # UCB1's play-outs and our wins per pool entry
    wins: np.ndarray
    budget: Budget = field(default_factory=lambda: Budget(1.0))
    win: int = -1  # index (in codes) of a proven win
    lost: bool = False  # proven: every move loses against perfect play
    losing: np.ndarray | None = None  # per pool entry: a proven loss
    values: np.ndarray | None = None  # per code: depth 2's value of the position after it
    deepened: bool = False  # depth 3 has looked for the other's winning replies
    tabled: bool = False  # more than two players: the endgame table chose (nothing deeper)
    best: int = -1  # index (in codes) of the last depth's choice
    seed: int = 0

    @property
    def n(self) -> int:
        return len(self.pool)


class BoxingAdapter(Adapter):
    game_class = Boxing
    has_lines = False  # `pv` is the root move alone (play-outs keep no line)
    # Per move; the contest gives 1 s a move.
    levels = {
        # play-outs only (no solve), any move within 30 points of win share of the best: a
        # beginner (62.5% against random moves); at noise 150 medium won only 70% against it
        "easy": Budget(seconds=0.05, max_depth=1, noise=300),
        # More time alone bought little (max at 1 s against the same search at 0.25 s won
        # 58%; max at 1 s against itself at 0.5 s, 52.5%), so each level adds depth:
        # medium solves (depth 2); hard also looks at the other's replies (3) and ends its
        # play-outs on the Grundy table (4); max searches deeper still in eight times
        # hard's time. Two players (`--clock none`): medium beat easy 80-85% (seeds 11, 12),
        # hard beat medium 82.5% (40); max beat hard 60.8% of 120 at 1 s (four times
        # hard's time), at 2 s 79.2% (95 of 120, seeds 11-13). Under a clock (the contest's
        # 1 s a move) max takes what the clock allows.
        "medium": Budget(seconds=0.1, max_depth=2),
        "hard": Budget(seconds=0.25, max_depth=4),
        "max": Budget(seconds=2.0),
    }
    bench_budget = Budget(seconds=3600.0, max_depth=6)

    def __init__(self, tt_bits: int = TT_BITS) -> None:
        self.tables = G.new_tables(tt_bits)
        touch(self.tables[0])  # its pages now (see TOUCH_TABLES)
        self.regions = np.zeros((512, HEIGHT), np.uint64)
        self.codes = np.zeros(K.MAX_MOVES, np.int64)
        self.rng = random.Random(1)
        self.multi: np.ndarray | None = None  # `multi`'s table, made on first use
        self.boxes = np.zeros(M.MAX_CELLS * M.MAX_CELLS, np.int64)
        self.index = np.zeros((HEIGHT, WIDTH), np.int64)

    # ----- search -------------------------------------------------------------
    def load(self, game: Game) -> Position:
        assert isinstance(game, Boxing)
        rows = K.row_masks(game.rows)
        n = K.box_codes(rows, self.codes)
        codes = self.codes[:n].copy()
        kids = np.zeros((n, HEIGHT), np.uint64)
        left = np.zeros(n, np.int64)
        K.children(rows, codes, n, kids, left)
        gives = np.array([P.rest_is_one_box(kids[i], left[i]) for i in range(n)], bool)
        pool = np.flatnonzero(~gives)
        if pool.size == 0:
            pool = np.arange(n)
        if pool.size > MAX_POOL:  # box_codes lists by size: the largest are last
            pool = pool[-MAX_POOL:]
        pool = pool[::-1].copy()  # the largest first
        pos = Position(game, game.players, codes, kids, left, pool,
                       np.zeros(pool.size, np.int64), np.zeros(pool.size, np.float64),
                       seed=hash(tuple(game.rows)) & 0xFFFFFFFF)
        full = np.flatnonzero(left == 0)
        if full.size:
            pos.win = int(full[0])
        elif game.players == 2 and (box := symmetry_win(list(game.rows))) is not None:
            pos.win = int(np.flatnonzero(codes == K.encode(*box))[0])
        elif game.players > 2 and (code := P.settle_move(rows, game.players)) >= 0:
            pos.win = int(np.flatnonzero(codes == code)[0])
        return pos

    def root_moves(self, pos: Position) -> list[int]:
        order = [int(pos.codes[i]) for i in pos.pool]
        if pos.best >= 0:
            first = int(pos.codes[pos.best])
            if first in order:
                order.remove(first)
            order.insert(0, first)
        return order

    def candidates(self, pos: Position) -> list[int]:
        if pos.win >= 0:
            return [int(pos.codes[pos.win])]
        if pos.losing is not None and not pos.losing.all():
            return [int(pos.codes[i]) for i, bad in zip(pos.pool, pos.losing, strict=True)
                    if not bad]
        return [int(pos.codes[i]) for i in pos.pool]

    def next_depth(self, pos: Position, depth: int, budget: Budget) -> int | None:
        pos.budget = budget
        if depth >= 1 and (pos.win >= 0 or pos.lost or pos.n == 1 or pos.tabled):
            return None
        return depth + 1 if depth < min(budget.max_depth, 30) else None

    def search_depth(self, pos: Position, depth: int, stop: np.ndarray,
                     all_scores: bool) -> Depth:
        if pos.win >= 0:
            return self._done(pos, pos.win, PROVEN, 1, all_scores)
        if depth == 2 and pos.players == 2 and pos.losing is None:
            return self._solve(pos, stop, all_scores)
        if depth == 3 and pos.players == 2 and pos.losing is not None and not pos.deepened:
            return self._deepen(pos, stop, all_scores)
        if depth == 2 and pos.players > 2:
            if pos.game.vacant <= multi_cap(pos.budget.seconds, pos.players):
                return self._table(pos, all_scores)
            return self._settle_replies(pos, stop, all_scores)
        if pos.n == 1:
            return self._done(pos, int(pos.pool[0]), 0, 1, all_scores)
        if all_scores:
            scores = self._fixed_scores(pos, depth, stop)
            if scores is None:
                return Depth(-1, 0, completed=False)
            best = int(np.argmax(scores))
            return self._done(pos, int(pos.pool[best]), int(scores[best]), pos.n, True,
                              scores)
        count = PER_MOVE * pos.n << max(0, depth - 2)
        done = P.ucb_playouts(pos.kids[pos.pool], pos.n, pos.players, pos.visits, pos.wins,
                              count, np.uint64(self.rng.getrandbits(63)), EXPLORE,
                              self.tables[0], self.tables[1], exact_left(pos, depth), stop)
        if done < count:
            return Depth(-1, 0, completed=False, nodes=done)
        return self._done(pos, *self._most_played(pos), done, False, self._ucb_scores(pos))

    def _ucb_scores(self, pos: Position) -> np.ndarray:
        scores = np.round(1000 * pos.wins / np.maximum(pos.visits, 1)) - 500
        if pos.losing is not None:
            scores[pos.losing] = -PROVEN
        return scores

    @staticmethod
    def _rank(pos: Position) -> np.ndarray:
        """The play-outs' preference per candidate: the most played, then the best share."""
        return pos.visits * 1e6 + pos.wins / np.maximum(pos.visits, 1)

    def _preferred(self, pos: Position) -> np.ndarray:
        """The candidates' indices in the play-outs' order of preference (the move about to
        be played first): depths 2 and 3 prove or refute them in that order."""
        return np.argsort(-self._rank(pos), kind="stable")

    def _most_played(self, pos: Position) -> tuple[int, int]:
        """The candidate with the most play-outs (a proven loss only when all are), its
        index in codes and score."""
        rank = self._rank(pos)
        if pos.losing is not None and not pos.losing.all():
            rank = np.where(pos.losing, -1.0, rank)
        best = int(np.argmax(rank))
        return int(pos.pool[best]), int(self._ucb_scores(pos)[best])

    def _fixed_scores(self, pos: Position, depth: int, stop: np.ndarray) -> np.ndarray | None:
        """Every candidate's score from the same number of play-outs each, seeded by the
        position and the depth."""
        each = PER_MOVE << max(0, depth - 1)
        wins = np.zeros(pos.n, np.float64)
        if not P.fixed_playouts(pos.kids[pos.pool], pos.n, pos.players, each,
                                np.uint64(pos.seed + depth), wins, self.tables[0],
                                self.tables[1], exact_left(pos, depth), stop):
            return None
        scores = np.round(1000 * wins / each) - 500
        if pos.losing is not None:
            scores[pos.losing] = -PROVEN
        return scores

    def _solve(self, pos: Position, stop: np.ndarray, all_scores: bool) -> Depth:
        """Depth 2 (two players): the exact value of every move whose position fits the
        cap; a proven win or loss when they settle it. The candidates are solved in the
        play-outs' order of preference, then the other moves, each within the node limit,
        for at most SOLVE_SHARE of the budget; those left unsolved stay unknown."""
        keys, vals, frames, codes, nn, ii, seen, fkeys, stats = self.tables
        stats[:] = 0
        cap, limit = solve_limits(pos.budget)
        values = np.full(len(pos.codes), G.UNKNOWN, np.int64)
        first = pos.pool[self._preferred(pos)]
        order = np.concatenate([first, np.setdiff1d(np.arange(len(pos.codes)), first)])
        deadline = time.perf_counter() + SOLVE_SHARE * pos.budget.seconds
        for i in order:
            if time.perf_counter() > deadline:
                break
            values[i] = G.position_xor(pos.kids[i], cap, keys, vals, frames, codes, nn, ii,
                                       seen, fkeys, stats, stop, limit, self.regions)
            if stop[0]:
                return Depth(-1, 0, completed=False, nodes=int(stats[0]))
        nodes = int(stats[0])
        pos.values = values
        pos.losing = values[pos.pool] > 0
        wins = np.flatnonzero(values == 0)
        if wins.size:  # the most cells: box_codes lists by size
            pos.win = int(wins[-1])
            return self._done(pos, pos.win, PROVEN, nodes, all_scores)
        if (values != G.UNKNOWN).all():
            pos.lost = True
            return self._done(pos, self._hardest(pos, stop), -PROVEN, nodes, all_scores)
        return self._unsettled(pos, 2, nodes, stop, all_scores)

    def _table(self, pos: Position, all_scores: bool) -> Depth:
        """Depth 2 (more than two players, few vacant cells): every candidate's chance
        from the endgame table (`multi`: each player takes its best move, ties shared);
        the best chance, the largest box among equals. Nothing deeper is searched."""
        players = pos.players
        if self.multi is None or self.multi.shape[1] != players:
            self.multi = M.new_table(players, multi_cap(float("inf"), players))
        n = M.chances(K.row_masks(pos.game.rows), players, self.multi, self.boxes, self.index)
        odds = np.zeros(pos.n, np.float64)
        M.move_chances(pos.kids[pos.pool], pos.n, players, self.multi, self.index, odds)
        pos.tabled = True
        scores = np.round(1000 * odds) - 500
        # the first of equals: the pool is largest first
        best = int(np.flatnonzero(odds >= odds.max() - M.TIE)[0])
        return self._done(pos, int(pos.pool[best]), int(scores[best]), 1 << n, all_scores,
                          scores)

    def _settle_replies(self, pos: Position, stop: np.ndarray, all_scores: bool) -> Depth:
        """Depth 2 (more than two players): a move is a loss when it settles the winner
        on another player, or lets the next player settle it on itself
        (`playouts.settle_win`: it will, as it would fill the rest in one box); the
        play-outs choose among the others."""
        replies = np.zeros(pos.n, np.int64)
        P.settle_wins(pos.kids[pos.pool], pos.left[pos.pool], pos.n, pos.players, replies)
        pos.losing = replies > 0
        if pos.losing.all():
            pos.lost = True
        elif pos.budget.max_depth >= TAKE_DEPTH:
            self._take_the_count(pos)
        elif (pos.game.vacant - 1) % pos.players == 0:
            self._hold_the_count(pos)
        return self._unsettled(pos, 2, pos.n, stop, all_scores)

    def _hold_the_count(self, pos: Position) -> None:
        """More than two players, the count on the mover (were no box to change who moves
        last, it would): keep the count, and take away as many as a box can of the boxes
        that would change it (`playouts.turning_boxes`). The play-outs choose among those
        moves only: left to them, the holder mostly played single cells that broke up no
        such box, and another took the count from it (medium won 25 of 72 three-player
        games against two easy (seed 21), with this 39)."""
        assert pos.losing is not None
        sides = pos.codes[pos.pool] >> 16
        keep = ~pos.losing & (sides * sides % pos.players == 1)
        if not keep.any():
            return
        left = np.zeros(pos.n, np.int64)
        P.turning_boxes(pos.kids[pos.pool], pos.n, pos.players, left)
        keep &= left == left[keep].min()
        pos.pool, pos.visits, pos.wins = pos.pool[keep], pos.visits[keep], pos.wins[keep]
        pos.losing = pos.losing[keep]

    def _take_the_count(self, pos: Position) -> None:
        """More than two players, a search allowed past hard's depth (max, the contest
        program): the mover keeps the count when it is on it, and takes it when a box
        can put it there (a box of side k with k^2 = the vacant cells modulo the players:
        3x3 with three players when the count is on the player before), among every
        legal move, not only the pool of the largest (the box that breaks up the last
        turning boxes is often a single cell); of those that do not let the next player
        settle the winner, only the ones leaving the fewest turning boxes, and the
        play-outs choose among them. Against two hards, which only hold the count, max
        won 47 of 72 three-player games (seeds 11-13) with this and 39 without; with
        hard taking it too, 5 of 24 (seed 11): the rule pays against players that let
        the count go, and between players that all take it the game is a race that none
        controls.

        With three players, where no box can take the count (it is on the next player),
        the mover brings it to the seat before its own (a 3x3 box), so that it can take
        it on its next turn: the play-outs choose among those boxes. With this max won
        99 of 120 against two hards (seeds 11-13, 21 and 22; 75 without); keeping the
        most turning boxes alive instead (for the take to come) won 13 of 24 on seed 11
        (19 without that filter). With four players (two seats on, a 2x2 box) max won 3
        of 24 against three hards (seed 31; 6 without), the seat before it 15: three
        players move before max's turn comes again, and their even boxes, most of the
        largest, move the count on by chance."""
        players = pos.players
        sides = pos.codes >> 16
        # the seat the count is on after each move, counted on from the mover's (were no
        # box to move it again, that player would move last): it is on seat vacant - 1,
        # and a box of side k, one move for k^2 cells, moves it on by 1 - k^2 seats
        ahead = (pos.game.vacant - sides * sides) % players
        mine = np.flatnonzero(ahead == 0)
        approach = mine.size == 0 and players == 3  # with four it lost: see above
        if approach:
            mine = np.flatnonzero(ahead == players - 1)
        if mine.size == 0:
            return
        losing = np.zeros(mine.size, np.int64)
        P.settle_wins(pos.kids[mine], pos.left[mine], mine.size, players, losing)
        mine = mine[losing == 0]
        if mine.size == 0:
            return
        if not approach:
            left = np.zeros(mine.size, np.int64)
            P.turning_boxes(pos.kids[mine], mine.size, players, left)
            mine = mine[left == left.min()]
        fewest = mine[::-1][:MAX_POOL]  # the largest first, as the pool
        visits = np.zeros(fewest.size, np.int64)
        wins = np.zeros(fewest.size, np.float64)
        for j, i in enumerate(fewest):  # what depth 1's play-outs gave a pooled move
            at = np.flatnonzero(pos.pool == i)
            if at.size:
                visits[j], wins[j] = pos.visits[at[0]], pos.wins[at[0]]
        pos.pool, pos.visits, pos.wins = fewest, visits, wins
        pos.losing = np.zeros(fewest.size, bool)

    def _unsettled(self, pos: Position, depth: int, nodes: int, stop: np.ndarray,
                   all_scores: bool) -> Depth:
        """The choice when the solve left some moves unknown: by the play-outs, never a
        proven loss while another move is left."""
        if all_scores:
            scores = self._fixed_scores(pos, depth, stop)
            if scores is None:
                return Depth(-1, 0, completed=False, nodes=nodes)
            best = int(np.argmax(scores))
            return self._done(pos, int(pos.pool[best]), int(scores[best]), nodes, True, scores)
        best, score = self._most_played(pos)
        return self._done(pos, best, score, nodes, False, self._ucb_scores(pos))

    def last_start(self, pos: Position, depth: int) -> float:
        # depth 3 keeps to its own deadline (DEEPEN_SHARE): start it even late, for the
        # moves where the solve was slow are those where the game is being decided
        if depth == 2 and pos.losing is not None and not pos.deepened:
            return 1.0 - DEEPEN_SHARE
        return super().last_start(pos, depth)

    def _deepen(self, pos: Position, stop: np.ndarray, all_scores: bool) -> Depth:
        """Depth 3 (two players): a move whose position is not solved is still a proven
        loss when the other player has a box there that leaves a solved position of value
        0 (`grundy.reply_wins`). The moves are checked in the play-outs' order of preference
        (the move about to be played first) for at most DEEPEN_SHARE of the budget; those
        left unchecked stay unknown."""
        assert pos.values is not None and pos.losing is not None
        keys, vals, frames, codes, nn, ii, seen, fkeys, stats = self.tables
        stats[:] = 0
        cap, limit = solve_limits(pos.budget)
        deadline = time.perf_counter() + DEEPEN_SHARE * pos.budget.seconds
        for j in self._preferred(pos):
            if stop[0] or time.perf_counter() > deadline:
                break
            i = pos.pool[j]
            if pos.losing[j] or pos.values[i] != G.UNKNOWN:
                continue
            # each move's check gets the whole node limit: a move left unknown because the
            # moves checked before it used the limit would be played as safe
            if G.reply_wins(pos.kids[i], cap, keys, vals, frames, codes, nn, ii, seen, fkeys,
                            stats, stop, limit, self.regions) == 1:
                pos.losing[j] = True
        pos.deepened = True
        nodes = max(1, int(stats[0]))
        if pos.losing.all():
            pos.lost = True
            return self._done(pos, self._hardest(pos, stop), -PROVEN, nodes, all_scores)
        return self._unsettled(pos, 3, nodes, stop, all_scores)

    def _hardest(self, pos: Position, stop: np.ndarray) -> int:
        """In a lost position, the move whose position leaves the fewest winning replies
        (as a share of the replies); the larger box on ties. The best so far at the
        deadline."""
        keys, vals = self.tables[0], self.tables[1]
        best, best_rank = int(pos.pool[0]), (2.0, 0)
        for i in pos.pool:
            if stop[0]:
                break
            found, moves = G.replies_to_zero(pos.kids[i], keys, vals, self.regions, self.codes)
            share = found / moves if found >= 0 and moves else 1.0
            rank = (share, -(int(pos.codes[i]) >> 16))
            if rank < best_rank:
                best, best_rank = int(i), rank
        return best

    def _done(self, pos: Position, best: int, score: int, nodes: int, all_scores: bool,
              scores: np.ndarray | None = None) -> Depth:
        if not all_scores:
            pos.best = best
        code = int(pos.codes[best])
        values = {}
        if scores is not None:
            values = {int(pos.codes[i]): float(s) for i, s in zip(pos.pool, scores, strict=True)}
        values[code] = float(score)
        return Depth(code, score, completed=True, exact=abs(score) >= PROVEN,
                     nodes=max(nodes, 1), scores=values)

    def proven(self, pos: Position, depth: int, score: float) -> bool:
        return abs(score) >= PROVEN

    def pv(self, pos: Position, move: int, depth: int) -> list[int]:
        return [move]

    def to_move(self, pos: Position, code: int) -> tuple[int, int, int]:
        return K.decode(code)

    # ----- tools --------------------------------------------------------------
    def perft(self, game: Game, depth: int, joker: bool = False) -> list[int]:
        assert isinstance(game, Boxing)
        counts = K.perft(K.row_masks(game.rows), depth)
        return [int(c) for c in counts[:depth]]

    def scratch(self) -> BoxingAdapter:
        return BoxingAdapter(tt_bits=12)

    def warm_up_searches(self) -> list[tuple[Game, Budget]]:
        game = Boxing.new({"arena": "partial"})
        small = game.copy()
        rng = random.Random(1)
        while small.vacant > 60:
            small.play(max(small.legal_moves(), key=lambda m: (m[2], rng.random())))
        three = Boxing.new({"arena": "sample", "players": 3})
        # a lost endgame (two mirrored single cells): the search picks the hardest move
        lost = Boxing(start="-" + "o" * (CELLS - 2) + "-")
        # a 30-cell line (over every cap, though a line's value is known) and a 2x2 square
        # (value 2): no move wins at depth 2, so depth 3 looks at the replies and depth 4's
        # play-outs end on the table
        cells = ["o"] * CELLS
        for i in (*range(30), 2 * WIDTH, 2 * WIDTH + 1, 3 * WIDTH, 3 * WIDTH + 1):
            cells[i] = "-"
        replies = Boxing(start="".join(cells))
        # three players, two 3x3 squares apart: the endgame table (depth 2)
        cells = ["o"] * CELLS
        for i in (r * WIDTH + c + left for r in range(3) for c in range(3) for left in (0, 5)):
            cells[i] = "-"
        three_end = Boxing(start="".join(cells), seat_marks=MARKS[:3])
        # three players, three 3x3 squares apart and six lone cells (the count on the
        # player before the mover): max takes the count (`turning_boxes`); without it the
        # native module lacked that kernel and contest moves fell back to the quick search
        cells = ["o"] * CELLS
        for i in (*(r * WIDTH + c + left for r in range(3) for c in range(3)
                    for left in (0, 10, 20)), *(14 * WIDTH + 2 * i for i in range(6))):
            cells[i] = "-"
        take = Boxing(start="".join(cells), seat_marks=MARKS[:3])
        return [(game, Budget(seconds=60.0, max_depth=1)),
                (lost, Budget(seconds=60.0, max_depth=2)),
                (replies, Budget(seconds=60.0, max_depth=4)),
                (game, Budget(seconds=60.0, max_depth=1, noise=50)),
                (small, Budget(seconds=60.0, max_depth=3)),
                (three, Budget(seconds=60.0, max_depth=2)),
                (three_end, Budget(seconds=60.0, max_depth=2)),
                (take, Budget(seconds=60.0, max_depth=TAKE_DEPTH))]

    def bench_positions(self) -> list[Game]:
        """The seed's partial game, its sample arena, and two seeded random arenas after
        4 and 8 greedy moves."""
        games: list[Game] = [Boxing.new({"arena": "partial"}), Boxing.new({"arena": "sample"})]
        for seed, plies in ((1, 4), (2, 8)):
            game = Boxing.new(seed=seed)
            rng = random.Random(seed)
            for _ in range(plies):
                game.play(rng.choice(game.greedy_moves()))
            games.append(game)
        return games

    def bench_endgames(self) -> tuple[list[Game], float]:
        """10 seeded random arenas played greedily down to 70 vacant cells or fewer, each to
        be solved within the `hard` budget."""
        games: list[Game] = []
        for seed in range(10):
            game = Boxing.new(seed=seed)
            rng = random.Random(seed)
            while game.vacant > 70:
                game.play(rng.choice(game.greedy_moves()))
            if not game.is_over:
                games.append(game)
        return games, self.levels["hard"].seconds
