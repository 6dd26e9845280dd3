"""Analysis without a clock: the best few root moves of a position, deepened until stopped,
and one bounded evaluation per position of a whole game (the evaluation graph).

`analyse` runs the engine's own adapter depth by depth, as `Engine.search` does, but
asks every depth for the exact value of every root move (the `all_scores` search
`Engine.score_moves` uses): the top moves, each with its score, its line and whether
it is proven, reach `on_lines` after each finished depth. It holds the engine's lock
for the whole analysis (the adapter's position carries what a depth learnt to the
next), so a game's AI waits for it: a screen stops it before anything else searches.

`evaluate_line` searches each position of a game for a few tenths of a second on a
scratch engine (the same kernels, small tables of its own), so it runs beside an
analysis; scores there are for the player who moved first.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from ai.engine import Budget, Engine, StopFlag
from rules import Game, MoveError

__all__ = ["Analysis", "Evaluation", "Line", "analyse", "evaluate_line", "graph_engine",
           "outcome_for"]

TOP = 5  # root moves reported each depth (screens show the first three or more)
# The nominal budget an analysis gives the adapter: its choices that depend on the time
# (how soon an exact solve starts, how large a region is solved) as for a long think. It
# is no deadline: an analysis runs until stopped or until the adapter deepens no more.
ANALYSIS_BUDGET = Budget(seconds=600.0)
GRAPH_SECONDS = 0.1  # each position's search for the evaluation graph


@dataclass(frozen=True)
class Line:
    """One root move as the last finished depth values it, from the mover's view.

    `score` is in the unit of `SearchResult.score`; `result` is "win", "loss" or "draw"
    once proven (else None); `plies` counts the moves of `pv` when playing them ends the
    game (a proven win "in N" counts the mover's moves among them)."""

    move: Hashable
    move_text: str
    score: float
    depth: int
    pv: list[str]
    result: str | None = None
    plies: int | None = None
    wins_in: int | None = None  # the mover's moves to the proven win its line shows

    @property
    def proven(self) -> bool:
        return self.result is not None

    def verdict(self) -> str:
        """The score in words: "proven win in 3", "proven loss", "proven draw" or "+12"."""
        if self.result is None:
            return f"{round(self.score):+d}"
        if self.result == "win" and self.wins_in is not None:
            return f"proven win in {self.wins_in}"
        return f"proven {self.result}"


@dataclass
class Analysis:
    """What one finished depth says about a position."""

    depth: int
    lines: list[Line]  # the best first, at most TOP
    scores: dict[Hashable, float] = field(default_factory=dict)  # every scored root move
    nodes: int = 0
    seconds: float = 0.0
    finished: bool = False  # no deeper depth follows (solved, or the adapter's last)


@dataclass(frozen=True)
class Evaluation:
    """One position of the graph, for the player who moved first: `score` in the unit of
    `SearchResult.score` (None where it cannot be said: more than two players and another
    one to move), `proven` when the end of the game is seen."""

    score: float | None
    proven: bool = False


LinesCallback = Callable[[Analysis], None]


def _result(score: float) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def _ends(game: Game, moves: Sequence[Hashable]) -> int | None:
    """How many of `moves` are played when the game ends along them (None if it does
    not, or a move is not legal there)."""
    probe = game.copy()
    for i, move in enumerate(moves, 1):
        try:
            probe.play(move)
        except MoveError:
            return None
        if probe.is_over:
            return i
    return None


def _line(engine: Engine, game: Game, pos: object, code: int, score: float, depth: int,
          stop: StopFlag, lines_known: bool, searched: list[bool]) -> Line:
    """The line of one root move: its principal variation, as the game writes moves."""
    adapter = engine.adapter
    codes = adapter.pv(pos, code, depth) or [code]
    if codes[0] != code:
        codes = [code]
    moves = [adapter.to_move(pos, c) for c in codes]
    if len(moves) == 1 and lines_known and depth > 1:
        searched.append(True)
        moves += _reply_line(engine, game, moves[0], depth - 1, stop)
    texts: list[str] = []
    probe = game.copy()
    for move in moves:  # the text of each move in the position it is played in
        try:
            texts.append(probe.move_text(move))
            probe.play(move)
        except MoveError:
            break
    moves = moves[:len(texts)]
    proven = adapter.proven(pos, depth, score)
    result = _result(score) if proven else None
    plies = _ends(game, moves)
    wins_in = None
    if result == "win" and plies is not None:
        mover = game.to_move
        probe = game.copy()
        count = 0
        for move in moves[:plies]:
            count += probe.to_move == mover
            probe.play(move)
        outcome = probe.outcome
        if outcome is not None and mover in outcome.winners:
            wins_in = count
    return Line(moves[0], texts[0] if texts else game.move_text(moves[0]), score, depth,
                texts, result, plies, wins_in)


def _reply_line(engine: Engine, game: Game, move: Hashable, depth: int,
                stop: StopFlag) -> list[Hashable]:
    """The best line after `move`, for an adapter whose principal variation follows only
    its best root move: a search of the position after it, one depth shallower (its
    table already holds it: a moment's work)."""
    child = game.copy()
    child.play(move)
    if child.is_over:
        return []
    adapter = engine.adapter
    pos = adapter.load(child)
    if adapter.next_depth(pos, 0, ANALYSIS_BUDGET) is None:
        return []
    found = adapter.search_depth(pos, depth, stop.array, False)
    if not found.completed:
        return []
    codes = adapter.pv(pos, found.move, depth) or [found.move]
    return [adapter.to_move(pos, c) for c in codes]


def analyse(engine: Engine, game: Game, stop: StopFlag, on_lines: LinesCallback,
            top: int = TOP) -> Analysis | None:
    """Deepen on `game` until `stop` is set or the adapter goes no deeper; after each
    finished depth `on_lines` gets its top `top` root moves, the best first. The last
    finished depth is returned (None if none finished). MoveError if the game is over,
    RulesError if it is another game."""
    engine._check(game, "analyse")
    if game.is_over:
        raise MoveError("the game is over")
    start = time.perf_counter()
    adapter = engine.adapter
    last: Analysis | None = None
    nodes = depth = 0
    with engine._lock:
        pos = adapter.load(game)
        while not stop.is_set:
            nxt = adapter.next_depth(pos, depth, ANALYSIS_BUDGET)
            if nxt is None:  # the adapter's last depth: nothing more to learn
                if last is not None:
                    last.finished = True
                    on_lines(last)
                break
            found = adapter.search_depth(pos, nxt, stop.array, True)
            nodes += found.nodes
            if not found.completed:
                break
            depth = nxt
            scored = dict(found.scores) or {found.move: float(found.score)}
            # the best first; among equal scores the search's own choice first
            order = sorted(scored, key=lambda c: (-scored[c], c != found.move))[:top]
            lines_known = adapter.has_lines  # else each line is its move alone
            searched: list[bool] = []
            lines = [_line(engine, game, pos, code, scored[code], depth, stop, lines_known,
                           searched) for code in order]
            if stop.is_set:
                break  # a reply line was cut short: a depth is reported whole or not at all
            if searched:
                pos = adapter.load(game)  # the reply searches loaded other positions (the
                # root's move ordering is lost; the tables keep what the depth learnt)
            moves = {adapter.to_move(pos, c): v for c, v in scored.items()}
            solved = all(adapter.proven(pos, depth, v) for v in scored.values())
            last = Analysis(depth, lines, moves, nodes, time.perf_counter() - start,
                            finished=solved)
            on_lines(last)
            if solved:
                break
    return last


# ----- the evaluation graph ---------------------------------------------------------------

_graph_engines: dict[str, Engine] = {}
_graph_lock = threading.Lock()


def graph_engine(engine: Engine) -> Engine:
    """A scratch engine beside `engine` (its kernels, small tables of its own), made once
    a game: the graph's searches never wait for an analysis on the main engine."""
    with _graph_lock:
        if engine.game_name not in _graph_engines:
            _graph_engines[engine.game_name] = Engine(engine.adapter.scratch())
        return _graph_engines[engine.game_name]


def outcome_for(game: Game, first: int) -> Evaluation:
    """The finished game's result for `first`, as the graph shows it (the position's own
    end: a forfeit is not an evaluation of the board)."""
    outcome = game.outcome
    assert outcome is not None
    if not outcome.winners:
        return Evaluation(0.0, True)
    won = first in outcome.winners
    return Evaluation(1.0 if won else -1.0, True)


def evaluate_line(engine: Engine, start: Game, moves: Sequence[Hashable], stop: StopFlag,
                  on_eval: Callable[[int, Evaluation], None], begin: int = 0,
                  seconds: float = GRAPH_SECONDS) -> None:
    """Evaluate the positions after 0, 1, ... len(moves) of `moves` from `start` (from
    `begin` on), each searched for `seconds`, for the player to move at `start`; each
    goes to `on_eval(index, evaluation)` as it is found. Stops when `stop` is set. A
    finished position's score is its result (+1 win, -1 loss, 0 draw, proven)."""
    game = start.copy()
    game.ended = None
    first = game.to_move
    two = game.players == 2
    budget = Budget(seconds=seconds)
    for index in range(len(moves) + 1):
        if stop.is_set:
            return
        if index >= begin:
            if game.is_over:
                value = outcome_for(game, first)
            elif not two and game.to_move != first:
                value = Evaluation(None)
            else:
                found = engine.search(game, budget, stop)
                if stop.is_set:
                    return  # cut short: not an evaluation of its budget
                sign = 1 if game.to_move == first else -1
                value = Evaluation(sign * found.score, found.exact)
            on_eval(index, value)
        if index < len(moves):
            try:
                game.play(moves[index])
            except MoveError:
                return
