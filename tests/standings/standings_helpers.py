"""Helpers for the standings tests: cross tables from compact crosstable notation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from knockout.game import Colour
from knockout.standings.records import (
    CLASSICAL,
    CrossTable,
    Entry,
    Kind,
    Outcome,
    PointScale,
    bye_entry,
)

_OUTCOME = {"+": Outcome.WIN, "=": Outcome.DRAW, "-": Outcome.LOSS}


def crosstable(rows: Mapping[str, Sequence[str]], *, scale: PointScale = CLASSICAL) -> CrossTable:
    """A cross table from rows such as ``{"1": ["+W9", "=B13", "+BYE", "-F11", "=BYE", "--"]}``.

    ``+W9`` won with White (Red) against 9; ``=B13`` drew with Black; ``+F11`` / ``-F11`` forfeit
    win / loss against 11; ``+BYE`` pairing-allocated bye, ``=BYE`` half-point bye, ``FBYE``
    full-point bye, ``ZBYE`` zero-point bye, ``--`` not paired.
    """
    entries = []
    for player, cells in rows.items():
        for r, cell in enumerate(cells, start=1):
            entries.append((player, _entry(r, cell, scale)))
    return CrossTable.from_entries(list(rows), entries, draw_points=scale.unplayed_draw)


def _entry(r: int, cell: str, scale: PointScale) -> Entry:
    if cell == "--":
        return bye_entry(r, Kind.ABSENT, scale=scale)
    if cell == "FBYE":
        return bye_entry(r, Kind.FULL_BYE, scale=scale)
    if cell == "ZBYE":
        return bye_entry(r, Kind.ZERO_BYE, scale=scale)
    outcome = _OUTCOME[cell[0]]
    if cell[1:] == "BYE":
        kind = Kind.PAIRING_BYE if outcome is Outcome.WIN else Kind.HALF_BYE
        return bye_entry(r, kind, scale=scale)
    side, opponent = cell[1], cell[2:]
    if side == "F":
        return Entry(
            r, opponent, None, outcome, Kind.FORFEIT, scale.points(Kind.FORFEIT, outcome, None)
        )
    colour = Colour.RED if side == "W" else Colour.BLACK
    return Entry(
        r, opponent, colour, outcome, Kind.PLAYED, scale.points(Kind.PLAYED, outcome, colour)
    )


# FIDE Technical Commission tie-break exercise (tec.fide.com, 18 March 2024), 16 players, 5 rounds.
FIDE_EXERCISE_2024 = {
    "1": ["+W9", "=B13", "=W2", "+B15", "=W4"],
    "2": ["+B10", "+W7", "=B1", "+W16", "=B3"],
    "3": ["=W11", "+B6", "+W8", "=B4", "=W2"],
    "4": ["+B12", "=BYE", "+W13", "=W3", "=B1"],
    "5": ["-W13", "-B15", "+W11", "=B7", "+W10"],
    "6": ["-B14", "-W3", "+BYE", "+W10", "+B8"],
    "7": ["+W15", "-B2", "-B16", "=W5", "-B11"],
    "8": ["=B16", "+W14", "-B3", "+W13", "-W6"],
    "9": ["-B1", "-W10", "=BYE", "-F11", "+BYE"],
    "10": ["-W2", "+B9", "-W15", "-B6", "-B5"],
    "11": ["=B3", "-W16", "-B5", "+F9", "+W7"],
    "12": ["-W4", "+BYE", "+F14", "--", "--"],
    "13": ["+B5", "=W1", "-B4", "-B8", "-W14"],
    "14": ["+W6", "-B8", "-F12", "--", "+B13"],
    "15": ["-B7", "+W5", "+B10", "-W1", "-B16"],
    "16": ["=W8", "+B11", "+W7", "-B2", "+W15"],
}

D = Decimal


def opponents_scoring(scores: Sequence[Decimal]) -> CrossTable:
    """A table where player ``P`` lost round i to ``Oi``, whose final score is ``scores[i - 1]``.

    Each ``Oi`` plays its other rounds against fresh fillers, winning while it still needs a
    point, then drawing a half, then losing. Every score must be at least 1.
    """
    from knockout.game import Result
    from knockout.standings.records import game_entries

    n = len(scores)
    players = ["P"] + [f"O{i}" for i in range(1, n + 1)]
    entries = []
    for i, target in enumerate(scores, start=1):
        opponent = f"O{i}"
        entries.extend(game_entries(i, opponent, "P", Result.RED))
        remaining = target - 1
        for r in range(1, n + 1):
            if r == i:
                continue
            filler = f"F{i}.{r}"
            players.append(filler)
            if remaining >= 1:
                result, remaining = Result.RED, remaining - 1
            elif remaining == Decimal("0.5"):
                result, remaining = Result.DRAW, Decimal(0)
            else:
                result = Result.BLACK
            entries.extend(game_entries(r, opponent, filler, result))
        assert remaining == 0, "score out of reach"
    return CrossTable.from_entries(players, entries)


def scaled(table: CrossTable, factor: Decimal) -> CrossTable:
    """``table`` with every entry's points (and the draw value) multiplied by ``factor``."""
    from dataclasses import replace

    entries = {
        name: tuple(replace(e, points=e.points * factor) for e in rows)
        for name, rows in table.entries.items()
    }
    return CrossTable(table.players, entries, draw_points=table.draw_points * factor)


# --- hypothesis: random Swiss-like events ------------------------------------------------------

from hypothesis import strategies as st  # noqa: E402

from knockout.game import Result  # noqa: E402
from knockout.standings.records import forfeit_entries, game_entries  # noqa: E402

_SURNAMES = list("张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗")
_GIVEN = list("天一川银洪智鑫伟娜芳洋杰静磊敏涛")

names = st.one_of(
    st.builds(
        lambda s, g: s + "".join(g),
        st.sampled_from(_SURNAMES),
        st.lists(st.sampled_from(_GIVEN), min_size=1, max_size=2),
    ),
    st.from_regex(r"[A-Z][a-z]{1,8}(, [A-Z][a-z]{1,6})?", fullmatch=True),
)

_BYES = [Kind.PAIRING_BYE, Kind.FULL_BYE, Kind.HALF_BYE, Kind.ZERO_BYE, Kind.ABSENT]
_GAME = ["red", "draw", "black", "red", "draw", "black", "+-", "-+", "--"]


@st.composite
def events(draw: st.DrawFn, *, max_players: int = 9, max_rounds: int = 5) -> CrossTable:
    """A random event: each round pairs the players at random; the odd one out gets a bye."""
    players = draw(st.lists(names, min_size=2, max_size=max_players, unique=True))
    rounds = draw(st.integers(1, max_rounds))
    entries: list[tuple[str, Entry]] = []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(players))
        if len(order) % 2:
            kind = draw(st.sampled_from(_BYES))
            entries.append((order[-1], bye_entry(r, kind)))
            order = order[:-1]
        for red, black in zip(order[::2], order[1::2], strict=True):
            how = draw(st.sampled_from(_GAME))
            if how in ("red", "draw", "black"):
                entries.extend(game_entries(r, red, black, Result(how)))
            else:
                colour = draw(st.sampled_from([Colour.RED, None]))
                outcome = Outcome.WIN if how == "+-" else Outcome.LOSS
                entries.extend(
                    forfeit_entries(r, red, black, outcome, first_colour=colour, double=how == "--")
                )
    return CrossTable.from_entries(players, entries, rounds=rounds)
