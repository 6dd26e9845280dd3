"""A scripted contest program for the jury's tests: `bot.py GAME MODE [ARGS...]`.

It speaks GAME's protocol exactly as RULES.md gives it and plays a random legal move
(MODE `random`), or misbehaves in one way: `illegal` (a well-formed move that is not
legal), `malformed` (a line that is no move), `crash` (killed by SIGSEGV), `hang`
(never answers, with a child that hangs too), `exit` (exit code 3 after a legal
answer), `extra` (a legal answer, then more output), `flood` and `flooderr` (write
to stdout or stderr without end), `daemon` (leaves a child in a session of its own,
then answers: a `setsid` daemon), `crlf` (a legal answer with CRLF line ends),
`spaces` (a legal answer with a trailing space on its first line), `case` (a legal
answer in the other letter case). `sleep:S` waits S seconds first. A whole-game
program misbehaves on its second move (the first is legal).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import Protocol, codec_of, get_game  # noqa: E402


def misbehave(mode: str, legal: str, bad: str) -> str:
    """What to print instead of `legal` (a legal answer); may not return."""
    if mode.startswith("sleep:"):
        time.sleep(float(mode.split(":")[1]))
        return legal
    if mode == "illegal":
        return bad
    if mode == "malformed":
        return "hello world\n"
    if mode == "crash":
        sys.stdout.write(legal[:3])
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        sys.stdout.write(legal[:2])
        sys.stdout.flush()
        time.sleep(60)
    if mode == "exit":
        sys.stdout.write(legal)
        sys.stdout.flush()
        sys.exit(3)
    if mode == "extra":
        return legal + legal
    if mode in ("flood", "flooderr"):
        stream = sys.stdout if mode == "flood" else sys.stderr
        chunk = "x" * 65536
        while True:
            stream.write(chunk)
    if mode == "daemon":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)  # arena-daemon"],
                         start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return legal
    if mode == "crlf":
        return legal.replace("\n", "\r\n")
    if mode == "spaces":
        first, sep, rest = legal.partition("\n")
        return first + " " + sep + rest
    if mode == "case":
        return legal.swapcase()
    return legal


def illegal_answer(game, rng: random.Random) -> str:  # noqa: ANN001
    """A well-formed answer that is not legal: the position with a move played twice
    (one-move games that print positions), else a move that is legal elsewhere only."""
    cls = type(game)
    if cls.name == "pousse":  # every insertion on the board is legal: one off it
        return f"L{game.size + 1}\n"
    probe = cls.new({}, 1) if codec_of(cls).protocol is not Protocol.STDIN else None
    for move in (probe or game).legal_moves():
        if not game.is_legal(move):
            return game.move_text(move) + "\n"
    # every move of a fresh game is legal here too: answer the position unchanged
    return game.to_native()


def one_move(name: str, mode: str, args: list[str], rng: random.Random) -> None:
    codec = codec_of(get_game(name))
    if codec.protocol is Protocol.FILE:
        text = Path(args[0]).read_text()
        args = args[1:]
    else:
        text = sys.stdin.read()
    game = codec.position(text, args)
    move = rng.choice(game.legal_moves())
    bad = illegal_answer(game.copy(), rng)
    legal = codec.reply(game.copy(), move)
    sys.stdout.write(misbehave(mode, legal, bad))


def session(name: str, mode: str, rng: random.Random) -> None:
    codec = codec_of(get_game(name))
    lines = [sys.stdin.readline().rstrip("\n") for _ in range(codec.header_lines)]
    game = codec.from_header(lines)
    made = 0
    for line in sys.stdin:
        text = line.strip()
        if text == "Quit":
            return
        if text != "Start":
            game.play_text(text)
        if game.is_over:
            continue
        move = rng.choice(game.legal_moves())
        legal = game.move_text(move) + "\n"
        out = legal if made == 0 else misbehave(mode, legal, "AaJj\n")
        game.play(move)
        made += 1
        sys.stdout.write(out)
        sys.stdout.flush()


def main() -> None:
    name, mode, *args = sys.argv[1:]
    rng = random.Random(os.getpid())
    if codec_of(get_game(name)).protocol is Protocol.SESSION:
        session(name, mode, rng)
    else:
        one_move(name, mode, args, rng)


if __name__ == "__main__":
    main()
