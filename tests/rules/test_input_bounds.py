"""Every input bounded: excerpts in errors, numbers of any length, huge positions and a
legal Pousse game of many thousands of moves (memory per move, the engine's load)."""

from __future__ import annotations

import random
import tracemalloc

import pytest

from rules import MoveError, OptionSpec, PositionError, RulesError, codec_of, get_game
from rules.base import excerpt
from rules.pahtum import PahTum
from rules.pousse import MAX_MOVES, Pousse

HUGE = "9" * 5000  # past Python's 4300-digit limit for int()
MB10 = "L" * 10_000_000


def short_id(value: object) -> str:
    return excerpt(value, 16)


def one_short_line(err: pytest.ExceptionInfo[RulesError]) -> str:
    message = str(err.value)
    assert "\n" not in message and len(message) <= 200 and message.isprintable(), message
    assert "Exceeds the limit" not in message
    return message


def test_excerpt_is_short_printable_and_cheap() -> None:
    assert excerpt("L2") == "'L2'"
    assert excerpt("x" * 10_000_000) == "'" + "x" * 26 + "..."
    assert len(excerpt("\x00" * 100)) == 30 and excerpt("\x00" * 100).isprintable()
    assert excerpt("\ud800\n").isprintable()
    assert excerpt(10**5000) == "<a number of about 5000 digits>"
    assert len(excerpt(list(range(1000)))) == 30
    assert len(excerpt("abc", limit=10)) <= 10 and excerpt("abcdefghijkl", 10) == "'abcdef..."


@pytest.mark.parametrize("text", [
    HUGE + "\n", "-" + HUGE + "\n", "6\nL" + HUGE + "\n", "6\nT-" + HUGE + "\n",
    "6\n" + MB10 + "\n", MB10, "6\nL1\n" + "é" * 1_000_000 + "\n", "١٢\n", "6\nL١\n"], ids=short_id)
def test_pousse_bad_numbers_and_lines_give_one_short_line(text: str) -> None:
    with pytest.raises(PositionError) as err:
        Pousse.from_native(text)
    one_short_line(err)


def test_pousse_move_numbers_of_any_length() -> None:
    game = Pousse.new({"size": 6})
    for text in ("L" + HUGE, "B" + "0" * 5000, "R100", "T07x"):
        with pytest.raises(MoveError) as err:
            game.parse_move(text)
        assert "must be 1 to 6" in one_short_line(err) or "row/column" in str(err.value)
    assert game.parse_move("L" + "0" * 5000 + "3") == ("L", 3)  # leading zeros are harmless


@pytest.mark.parametrize("size", [HUGE, 10**5000, -10**5000, float("inf"), float("nan"), "٦"],
                         ids=short_id)
def test_pousse_size_option_of_any_kind(size: object) -> None:
    with pytest.raises(PositionError) as err:
        Pousse.new({"size": size})
    one_short_line(err)


def test_too_many_moves_are_refused_up_front() -> None:
    text = "6\n" + "L1\n" * (MAX_MOVES + 1)
    with pytest.raises(PositionError, match="too many moves") as err:
        Pousse.from_native(text)
    one_short_line(err)
    with pytest.raises(PositionError, match="too many moves"):
        Pousse.from_native("6\n" + "\r" * 5_000_000)  # splitlines() counts \r as well


@pytest.mark.parametrize("text", [
    "-------\n" * 6 + "-" * 10_000_000 + "\n", "\n" * 10_000_000, MB10,
    "-------\n" * 6 + "--\x00" + "\x85" * 50 + "\n"], ids=short_id)
def test_pahtum_huge_or_odd_input_gives_one_short_line(text: str) -> None:
    with pytest.raises(PositionError) as err:
        PahTum.from_native(text)
    one_short_line(err)


@pytest.mark.parametrize("blocks", [HUGE, 10**5000, "x" * 1000, 4, "٣", None],
                         ids=short_id)
def test_pahtum_blocks_option_of_any_kind(blocks: object) -> None:
    with pytest.raises(PositionError) as err:
        PahTum.new({"blocks": blocks}, seed=1)
    one_short_line(err)


def test_pahtum_move_errors_quote_an_excerpt() -> None:
    with pytest.raises(MoveError) as err:
        PahTum.new(None, seed=1).parse_move("D" * 1_000_000)
    one_short_line(err)


@pytest.mark.parametrize("raw", [HUGE, 10**5000, "--5", "5-", "²", "٣", " ", "1e3", "0x10"],
                         ids=short_id)
def test_option_spec_takes_plain_whole_numbers_only(raw: object) -> None:
    spec = OptionSpec("size", "Size", int, 6, None, low=4, high=20)
    with pytest.raises(PositionError) as err:
        spec.parse(raw)
    one_short_line(err)
    assert spec.parse(" 7 ") == 7 and spec.parse(8) == 8


@pytest.mark.parametrize("name", ["pahtum", "pousse"])
def test_contest_position_quotes_an_argument_briefly(name: str) -> None:
    cls = get_game(name)
    with pytest.raises(PositionError) as err:
        codec_of(cls).position(cls.new(None, seed=0).to_native(), ["a" * 100_000])
    one_short_line(err)


# ----- a long legal Pousse game -------------------------------------------------------


def long_game(moves: int, size: int, seed: int = 7) -> Pousse:
    """A legal game of `moves` moves that never ends: random moves, each one that would
    end the game (a straight, a repetition) taken back and another tried."""
    rng = random.Random(seed)
    game = Pousse.new({"size": size})
    legal = game.legal_moves()
    while len(game.history) < moves:
        for move in rng.sample(legal, len(legal)):
            game.play(move)
            if not game.is_over:
                break
            game.undo()
        else:
            raise AssertionError("every move ends the game")
    return game


def test_a_long_game_loads_in_bounded_memory() -> None:
    game = long_game(20_000, 20)
    assert "." not in game.board  # full: every push from here on drops a marker
    text = game.to_native()
    tracemalloc.start()
    try:
        again = Pousse.from_native(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert again.key() == game.key() and not again.is_over
    # about 110 bytes a move on a 20x20 board (a full board copy per move was 3.3 KB)
    assert peak < 12_000_000, peak
    again.play(again.legal_moves()[0])
    again.undo()
    assert again.key() == game.key()


def test_the_engine_loads_a_long_game_through_a_window() -> None:
    """Past its window the engine's path starts from a board the rules give, and ends
    exactly as a whole replay does; the root moves that repeat are still seen."""
    from ai.pousse.adapter import KernelPosition, PousseAdapter, move_index

    rng = random.Random(9)
    for size in (4, 5):
        game = long_game(300, size, seed=size)
        whole = KernelPosition.load(game, window=10**6)
        for window in (1, 2, 17, 299):
            part = KernelPosition.load(game, window=window)
            assert part.t == window and part.side == whole.side and part.winner == whole.winner
            assert (part.stack[0] == whole.stack[0]).all()  # the board, its hash and counts
            assert part.irr == max(0, whole.irr - (300 - window))
            assert list(part.path_h[:window + 1]) == list(whole.path_h[300 - window:301])
        # a game whose older configurations can come back: every repeating move is refused
        small = Pousse.new({"size": 4})
        pool = [("L", 1), ("R", 1), ("T", 2)]
        while len(small.history) < 60:
            # a few lines only, so configurations come back; any move where they all end it
            for move in [*rng.sample(pool, 3), *rng.sample(small.legal_moves(), 16)]:
                if small.preview(move).outcome is None:
                    small.play(move)
                    break
            else:
                raise AssertionError("every move ends the game")
        pos = PousseAdapter(tt_bits=10, window=3).load(small)
        repeating = [m for m in small.legal_moves() if small.preview(m).repeats]
        assert repeating
        for move in repeating:
            assert pos.codes[move_index(4, move)] == -2
