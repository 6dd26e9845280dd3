"""Fuzzing every game's native format: `from_native` and the codec's `position` give a valid
game or the project's own one-line error, never another exception, never an impossible
position.

Inputs come from hypothesis (text built from real positions' lines, move texts, numbers
and junk) and from a seeded mutation fuzzer (real native texts with bytes flipped, lines
inserted, deleted or duplicated, numbers made huge or negative, truncation, junk, very
long lines). ARENA_FUZZ sets the inputs per game for each of the two (default 150; the
issue's bar is ARENA_FUZZ=10000, see the README).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Sequence

from conftest import play_out, random_position
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Game, RulesError, codec_of, get_game

FUZZ = max(1, int(os.environ.get("ARENA_FUZZ", "150")))
MAX_MESSAGE = 200
ECHO = 40  # an error may quote the input, but never this many characters of it in a row
SETTINGS = settings(max_examples=FUZZ, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def real_texts(name: str) -> list[str]:
    """Native texts of real positions: starts, random middles, finished games."""
    cls = get_game(name)
    texts = []
    for seed in range(12):
        texts.append(random_position(name, seed).to_native())
        texts.append(cls.new(None, seed=seed).to_native())
        rng = random.Random(seed)
        texts.append(play_out(random_position(name, seed, plies=0), rng, limit=300).to_native())
    return texts


def move_texts(name: str) -> list[str]:
    """Move texts of legal moves in a few positions (what a native text is made of)."""
    found: set[str] = set()
    for seed in range(4):
        game = random_position(name, seed)
        found.update(game.move_text(m) for m in game.legal_moves())
    return sorted(found)


_CACHE: dict[str, tuple[list[str], list[str]]] = {}


def material(name: str) -> tuple[list[str], list[str]]:
    if name not in _CACHE:
        _CACHE[name] = (real_texts(name), move_texts(name))
    return _CACHE[name]


# ----- the contract ----------------------------------------------------------------------


def check_message(err: RulesError, text: str) -> None:
    """One short printable line, quoting no long stretch of the input."""
    message = str(err)
    assert message, "an empty error message"
    assert "\n" not in message and "\r" not in message, f"not one line: {message[:300]!r}"
    assert len(message) <= MAX_MESSAGE, f"{len(message)} characters: {message[:300]!r}"
    assert message.isprintable(), f"unprintable: {message!r}"
    echoed = [message[i:i + ECHO] for i in range(len(message) - ECHO + 1)
              if message[i:i + ECHO] in text]
    assert not echoed, f"echoes the input: {message!r}"


def check_valid(game: Game) -> None:
    """A valid game: it re-serialises, its moves' texts parse back, and it is what its
    start and history give under the rules (so it is a reachable position)."""
    cls = type(game)
    again = cls.from_native(game.to_native())
    assert again.key() == game.key()
    assert again.to_native() == game.to_native()
    moves = game.legal_moves()
    assert (not moves) == game.is_over
    for move in moves:
        assert game.parse_move(game.move_text(move)) == move
        assert game.is_legal(move)
    start = cls.from_start(game.options, game.start_native())
    start.replay(game.history_text())
    assert start.key() == game.key()
    assert start.outcome == game.outcome
    assert start.to_native() == game.to_native()
    assert len(game.scores()) == game.players and 0 <= game.to_move < game.players


def check_contract(cls: type[Game], text: str, args: Sequence[str] = ()) -> bool:
    """Both entry points on one input; True when it was accepted."""
    accepted = False
    codec = codec_of(cls)
    for parse in (lambda: cls.from_native(text), lambda: codec.position(text, args)):
        try:
            game = parse()
        except RulesError as err:
            check_message(err, text + "".join(args))
            continue
        check_valid(game)
        accepted = True
    return accepted


# ----- hypothesis ------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(-10**30, 10**30).map(str),
    st.sampled_from(["0", "-1", "00", "9" * 5000, "-" + "9" * 5000, "1" * 40, "1e400", "0x10",
                     "１", "٣", "²", "½"]),
)
JUNK = st.text(max_size=30) | st.sampled_from(
    ["", " ", "\t", "\r", "\x00", "\x1c", "\u2028", "\ud800", "\x85", "#", "+", "-", "."])


@st.composite
def native_like(draw: st.DrawFn, name: str) -> str:
    """Text made of a real position's lines, legal move texts, numbers and junk."""
    texts, moves = material(name)
    real_lines = sorted({line for text in texts for line in text.splitlines()})
    token = st.one_of(st.sampled_from(real_lines), st.sampled_from(moves), NUMBERS, JUNK,
                      st.tuples(st.sampled_from(moves), NUMBERS).map("".join))
    if draw(st.booleans()):  # a real text, a few of its lines replaced
        lines = draw(st.sampled_from(texts)).splitlines()
        for _ in range(draw(st.integers(0, 3))):
            if lines:
                lines[draw(st.integers(0, len(lines) - 1))] = draw(token)
    else:
        lines = draw(st.lists(token, max_size=30))
    end = draw(st.sampled_from(["\n", "", "\r\n", "\n\n"]))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + end


ARGS = st.lists(st.text(max_size=40) | st.just("x" * 5000), max_size=2)


def test_hypothesis_native_texts(game_name: str) -> None:
    cls = get_game(game_name)

    @SETTINGS
    @given(text=native_like(game_name), args=ARGS)
    def run(text: str, args: list[str]) -> None:
        check_contract(cls, text, args)

    run()


def test_hypothesis_any_text(game_name: str) -> None:
    cls = get_game(game_name)

    @SETTINGS
    @given(text=st.text(max_size=200))
    def run(text: str) -> None:
        check_contract(cls, text)

    run()


# ----- the seeded mutation fuzzer ---------------------------------------------------------

PALETTE = "\x00\t\r\n \x7f\x85\u00e9\u2028\ud800\U0001f600-+.#0123456789LRTBXOABCDEFG"


def _number(rng: random.Random) -> str:
    return rng.choice(["9" * rng.choice([20, 4301, 5000]), "-1", "-" + "9" * 5000, "0",
                       str(rng.randrange(-10**6, 10**6)), "0" * 5000 + "1"])


def mutate(rng: random.Random, text: str, pool: list[str]) -> str:
    """One to four random edits of a real native text."""
    for _ in range(rng.randint(1, 4)):
        lines = text.split("\n")
        kind = rng.randrange(12)
        pos = rng.randrange(len(text) + 1)
        line = rng.randrange(len(lines))
        if kind == 0 and text:  # flip a character
            text = text[:pos - 1] + rng.choice(PALETTE) + text[pos:] if pos else text
        elif kind == 1:  # insert a line from another real text
            lines.insert(line, rng.choice(rng.choice(pool).split("\n")))
            text = "\n".join(lines)
        elif kind == 2 and len(lines) > 1:  # delete a line
            del lines[line]
            text = "\n".join(lines)
        elif kind == 3:  # duplicate a line, up to many times
            lines[line:line] = [lines[line]] * rng.choice([1, 2, 7, 100])
            text = "\n".join(lines)
        elif kind == 4:  # numbers made huge, negative or zero
            text = re.sub(r"\d+", lambda m: _number(rng) if rng.random() < 0.5 else m[0], text)
        elif kind == 5:  # truncation
            text = text[:pos]
        elif kind == 6:  # junk
            junk = "".join(rng.choice(PALETTE) for _ in range(rng.randint(1, 20)))
            text = text[:pos] + junk + text[pos:]
        elif kind == 7:  # a very long line
            text = text[:pos] + rng.choice(PALETTE) * rng.choice([300, 10_000, 200_000]) + \
                text[pos:]
        elif kind == 8:  # swap two lines
            other = rng.randrange(len(lines))
            lines[line], lines[other] = lines[other], lines[line]
            text = "\n".join(lines)
        elif kind == 9:  # another position's tail
            text += rng.choice(pool)[rng.randrange(8):]
        elif kind == 10:  # CRLF, or no final newline
            text = text.replace("\n", "\r\n") if rng.random() < 0.5 else text.rstrip("\n")
        else:  # a number appended to a line
            lines[line] += _number(rng)
            text = "\n".join(lines)
    return text


def test_mutation_fuzzer(game_name: str) -> None:
    cls = get_game(game_name)
    texts, _ = material(game_name)
    rng = random.Random(f"fuzz-{game_name}")
    accepted = 0
    for _ in range(FUZZ):
        text = mutate(rng, rng.choice(texts), texts)
        args = rng.choice([(), (), ("x",), ("y" * 5000,)])
        try:
            accepted += check_contract(cls, text, args)
        except AssertionError as err:
            raise AssertionError(f"{err} (input {text[:200]!r}, args {args!r:.60})") from None
    # some mutations leave a valid position (a dropped trailing move, a duplicated blank)
    assert FUZZ < 100 or accepted > 0


def test_real_texts_are_accepted(game_name: str) -> None:
    """The seed corpus itself: every real position passes the valid-game checks."""
    cls = get_game(game_name)
    for text in material(game_name)[0]:
        assert check_contract(cls, text)
