"""The position editor's per-game drafts (rules/edit): legal positions build, every kind
of illegal one gives the rules' own reason, and a draft goes to native text and back."""

from __future__ import annotations

import pytest

from rules import PositionError, game_names, get_game
from rules.edit import Draft, draft_class
from rules.edit.boxing import BoxingDraft
from rules.edit.loaps import LoapsDraft
from rules.edit.pahtum import PahTumDraft
from rules.edit.pillars import ERASE, JOKER, PILLAR, RECTANGLE, PillarsDraft
from rules.edit.pousse import PousseDraft


def draft(name: str) -> Draft:
    return draft_class(get_game(name)).start()


def reason(d: Draft) -> str:
    with pytest.raises(PositionError) as err:
        d.build()
    assert d.problem() == str(err.value)
    return str(err.value)


def round_trip(d: Draft) -> None:
    """edit -> native -> from_native -> the same draft again."""
    game = d.build()
    again = type(d).from_game(type(game).from_native(game.to_native()))
    assert again.build().to_native() == game.to_native()
    assert type(d).from_game(game).build().key() == game.key()


@pytest.mark.parametrize("name", game_names())
def test_every_start_is_legal_and_round_trips(name: str) -> None:
    d = draft(name)
    assert d.problem() is None
    assert len(d.palette()) <= 10 and d.facts()
    round_trip(d)


@pytest.mark.parametrize("name", game_names())
def test_a_draft_edits_a_copy_of_a_game(name: str) -> None:
    game = get_game(name).new(None, 3)
    before = game.to_native()
    d = draft_class(type(game)).from_game(game)
    d.clear()
    assert game.to_native() == before
    assert d.copy().native() == d.native()


def test_pahtum_letters_and_blocks_are_judged_by_the_rules() -> None:
    d = draft("pahtum")
    assert isinstance(d, PahTumDraft)
    d.paint(2, (3, 3))  # X on D4
    assert d.build().to_move == 1 and "O to move" in d.facts()
    d.paint(2, (3, 4))  # a second X, no O
    assert reason(d) == "2 X and 0 O: X must equal O or be one more"
    d.paint(3, (3, 4))  # that one an O: legal, X to move
    assert d.build().to_move == 0
    round_trip(d)
    d.paint(1, (0, 0))  # a sixth block
    assert reason(d) == "6 blocked cells: there must be an odd number from 1 to 25"
    d.fill(1, (5, 5), (5, 0))  # 6 more (F1-F6): 12, still even
    assert reason(d).startswith("12 blocked cells")
    d.clear()
    assert reason(d).startswith("0 blocked cells")


def test_loaps_pieces_points_move_number_and_clocks() -> None:
    d = draft("loaps")
    assert isinstance(d, LoapsDraft)
    # the bonus squares show their landing points while empty, as the game's board does
    assert d.look((3, 3)) == ("+7", "label") and d.look((1, 1)) == ("+3", "label")
    assert d.look((5, 5)) == ("+3", "label") and d.look((3, 2)) == ("·", "empty")
    d.paint(1, (3, 3))  # a ninth red piece
    assert d.look((3, 3)) == ("1", 0)
    assert reason(d) == "player 1 (red) has 9 pieces: at most 8"
    d.paint(0, (3, 3))
    d.paint(0, (0, 1))  # red down to 7 with no blue move made
    assert "player 1 (red) has 7 pieces, but blue has made only 0 moves" in reason(d)
    d.set_value("number", "5")
    assert d.problem() is None
    d.set_value("points1", "99")
    assert reason(d) == "player 1 (red) has 99 points after 4 moves: at most 32 are possible"
    d.set_value("points1", "10")
    d.set_value("number", "51")
    assert reason(d) == "line 1: the move number must be 1 to 50, not 51"
    d.set_value("number", "5")
    d.set_value("seconds2", "lots")
    assert "line 3" in reason(d)
    d.set_value("seconds2", "12.5")
    d.set_value("mover", "2")
    game = d.build()
    assert (game.to_move, game.points, game.seconds_left) == (1, [10, 0], (60.0, 12.5))
    round_trip(d)
    with pytest.raises(PositionError, match="not one of"):
        d.set_value("mover", "3")


def test_pillars_pillars_rectangles_and_jokers() -> None:
    d = draft("pillars")
    assert isinstance(d, PillarsDraft)
    d.paint(RECTANGLE, (1, 3), (0, 5))  # AdBf, corners in any order
    assert d.facts()[0] == "1 rectangle; blue to move"
    d.paint(RECTANGLE, (5, 0), (6, 1))  # FaGb
    assert d.native().endswith("AdBf\nFaGb\n") and "red to move" in d.facts()[0]
    assert d.look((0, 4)) == ("▒", 0) and d.look((5, 0)) == ("▒", 1)
    d.paint(JOKER, (5, 1))  # blue claims with its first move: worth 9
    assert d.native().endswith("!FaGb\n") and "blue joker: move 2, worth 9" in d.facts()
    game = d.build()
    assert game.joker(1) == 9
    round_trip(d)
    d.paint(RECTANGLE, (0, 0), (0, 9))  # across a filled cell and the pillar Aa
    assert reason(d).startswith("line 13: ")
    d.paint(ERASE, (0, 0))  # the pillar under it goes, not the rectangle drawn last
    assert reason(d).startswith("9 pillars: there must be 10")
    d.paint(PILLAR, (0, 0))
    d.paint(ERASE, (0, 9))  # now the rectangle
    assert d.problem() is None
    d.paint(PILLAR, (0, 4))  # an eleventh pillar
    assert reason(d).startswith("11 pillars")
    d.paint(ERASE, (0, 4))
    d.paint(ERASE, (1, 1))
    d.paint(PILLAR, (1, 2))  # B's pillar moved to column c, where C has its own
    assert "a second pillar in column" in reason(d)
    with pytest.raises(PositionError, match="no rectangle here"):
        d.paint(JOKER, (9, 0))


def test_pillars_a_second_joker_is_refused_by_the_rules() -> None:
    d = draft("pillars")
    d.paint(RECTANGLE, (0, 1), (0, 2))
    d.paint(RECTANGLE, (0, 3), (0, 4))
    d.paint(RECTANGLE, (1, 3), (1, 4))
    d.paint(JOKER, (0, 1))
    d.paint(JOKER, (1, 3))
    assert reason(d).startswith("line 13: ") and "joker" in reason(d)


def test_boxing_cells_marks_player_count_and_mover() -> None:
    d = draft("boxing")
    assert isinstance(d, BoxingDraft)
    d.set_value("players", "3")
    assert [p.label for p in d.palette()][-1] == "mark C"
    d.fill(4, (0, 0), (1, 1))  # a 2x2 of C
    d.set_value("mover", "B")
    game = d.build()
    assert (game.players, game.to_move, game.cells[2]) == (3, 1, 4)
    round_trip(d)
    d.set_value("players", "2")  # C's cells stay on the arena
    assert reason(d) == "the arena has the mark 'C', which is not a player's (A, B)"
    assert d.values["mover"] == "B"
    d.set_value("players", "3")
    d.set_value("mover", "C")
    d.set_value("players", "2")  # no C to move now: the first player is
    assert d.values["mover"] == "A"


def test_pousse_size_markers_and_side_to_move() -> None:
    d = draft("pousse")
    assert isinstance(d, PousseDraft)
    assert d.facts()[0] == "0 pushes; X to move"
    d.paint(0, (1, 4))  # L2
    assert d.facts()[0] == "1 push; O to move"
    d.paint(2, (5, 1))  # T2
    d.paint(0, (1, 0))  # L2 again: pushes X on
    game = d.build()
    assert game.history_text() == ["L2", "T2", "L2"] and game.to_move == 1
    assert d.look((1, 1)) == ("X", 0) and d.look((0, 1)) == ("O", 1)
    round_trip(d)
    d.paint(1, (5, 5))  # R6
    d.set_value("size", "4")  # R6 is off a 4x4 board
    assert reason(d) == "line 5: 'R6': the number must be 1 to 4 on this board"
    d.set_value("size", "6")
    d.clear()
    for _ in range(6):  # X fills row 1 while O pushes into row 6: X's straight ends it
        d.paint(0, (0, 0))
        d.paint(0, (5, 0))
    assert reason(d).startswith("line 13: 'L6' comes after the game has ended")
    d.moves.pop()
    assert d.build().outcome is not None
