"""Results files other programs read: PGN (one game per game played) and TRF-16.

* **PGN**: one game per game played, with the tags a Xiangqi PGN reader expects (``Game
  "Chinese Chess"``, ``Event``, ``Site``, ``Date``, ``Round``, ``Red``, ``Black``, ``Result``,
  ``TimeControl``) and the event's own (``Stage``, ``Match``, ``MatchGame``, ``Board``). No
  moves are recorded, so the movetext is the result alone, after a comment. A game's
  ``Result`` is the result as played over the board; the game that decided a match also names
  the match's winner (``MatchWinner``), so a sudden-death draw reads ``1/2-1/2`` with the player
  who went through beside it (a draw sends Black on). Clocks are ``seconds+increment``; when Red
  and Black start with different clocks (the sudden death), ``TimeControl`` is ``?`` (PGN has
  one time control per game) and ``RedTimeControl`` and ``BlackTimeControl`` give each.
* **TRF-16**: every game as a round of its own (the knockout's game slots, as the event's
  ranking counts them), results as played (``1``, ``=``, ``0``), a walkover (or the rest of a
  match after a withdrawal) as a forfeit, written as TRF-16 pairs one: the opponent, a colour
  (``w`` for the winner, ``b`` for the player who withdrew: the game was never played, so the
  colour only completes the pairing) and ``+``/``-``; points are the classical 1, ½, 0 that
  ``knockout standings`` reads with, and the rank column is the event's ranking so far.

**Names in Latin letters.** Both formats expect Latin letters where a name goes: a Chinese name
is written in Hanyu Pinyin (:func:`~knockout.i18n.names.latin_name`: 王天一 is ``Wang Tianyi``)
in PGN's ``Red``, ``Black`` and ``MatchWinner`` tags and in TRF-16's name field, and the original
beside it: PGN's ``RedOriginal`` and ``BlackOriginal`` tags (and the game's comment), a TRF-16
comment line ``### <starting rank> <Latin>: <original>`` per such player. Two players whose
names read alike (王伟 and 汪伟 are both ``Wang Wei``) are told apart by `` (2)`` after the
second. A PGN game's comment is in the language in force (the event's own, else ``--lang``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal

from knockout.event.errors import refused
from knockout.event.facts import MatchFacts, match_facts
from knockout.event.ranking import standings
from knockout.event.state import Event, RecordedGame
from knockout.game import Colour, Result
from knockout.i18n import _
from knockout.i18n.names import has_han, latin_name
from knockout.i18n.terms import round_heading, stage_label
from knockout.standings.records import CLASSICAL, CrossTable, Entry, Kind, Outcome
from knockout.standings.trf import NAME_WIDTH, to_trf

__all__ = ["game_slots", "latin_names", "to_pgn", "to_trf_text"]

_PGN_RESULT = {Result.RED: "1-0", Result.DRAW: "1/2-1/2", Result.BLACK: "0-1"}


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def latin_names(names: Iterable[str]) -> dict[str, str]:
    """Each name as a results file writes it: in Latin letters
    (:func:`~knockout.i18n.names.latin_name`), one name per player: a second name that reads
    as one already taken gets `` (2)``, a third `` (3)``, ... A name without a Chinese
    character is kept as it is.

    >>> latin_names(["王伟", "汪伟", "Li Ming", "黎明"])
    {'王伟': 'Wang Wei', '汪伟': 'Wang Wei (2)', 'Li Ming': 'Li Ming', '黎明': 'Li Ming (2)'}
    """
    names = list(names)
    taken = {n for n in names if not has_han(n)}
    out: dict[str, str] = {}
    for name in names:
        if not has_han(name):
            out[name] = name
            continue
        base = latin = latin_name(name)
        k = 2
        while latin in taken:
            latin, k = f"{base} ({k})", k + 1
        taken.add(latin)
        out[name] = latin
    return out


def _pgn_date(at: str) -> str:
    """A journal time as a PGN date (``2026.11.30``), local time."""
    return datetime.fromisoformat(at).astimezone().strftime("%Y.%m.%d")


def _clock(minutes: float, increment: float) -> str:
    return f"{round(minutes * 60):d}+{round(increment):d}"


def _pgn_game(
    event: Event, f: MatchFacts, g: RecordedGame, board: int | None, latin: dict[str, str]
) -> str:
    tags = [
        _tag("Game", "Chinese Chess"),
        _tag("Event", event.name),
        _tag("Site", "?"),
        _tag("Date", _pgn_date(g.at)),
        _tag("Round", f.round),
        _tag("Red", latin[g.red]),
        _tag("Black", latin[g.black]),
        _tag("Result", _PGN_RESULT[g.result]),
    ]
    tags += [_tag(f"{side}Original", name) for side, name in (("Red", g.red), ("Black", g.black))
             if latin[name] != name]  # fmt: skip
    if g.clock is None:
        tags.append(_tag("TimeControl", "?"))
        clocks = _("clocks not recorded")
    else:
        red, black = (_clock(c, g.increment_seconds) for c in g.clock)
        tags.append(_tag("TimeControl", red if red == black else "?"))
        if red != black:
            tags += [_tag("RedTimeControl", red), _tag("BlackTimeControl", black)]
        clocks = _("Red {red:g} min, Black {black:g} min, +{increment:g} s").format(
            red=g.clock[0], black=g.clock[1], increment=g.increment_seconds
        )
    tags += [
        _tag("Stage", g.stage),
        _tag("Match", f.match),
        _tag("MatchGame", g.number),
    ]
    if board is not None:
        tags.append(_tag("Board", board))
    stage = event.scenario.format.stage(g.stage)
    note = _("{round}, {match} game {game} ({stage}; {clocks})").format(
        round=round_heading(f.label),
        match=f.match,
        game=g.number,
        stage=stage_label(g.stage),
        clocks=clocks,
    )
    deciding = f.how in ("games", "sudden-death draw") and g is f.games[-1]
    if stage.draw_winner is not None and not (deciding and f.how == "sudden-death draw"):
        note += (
            _("; a draw sends Black on")
            if stage.draw_winner is Colour.BLACK
            else _("; a draw sends Red on")
        )
    if deciding:
        assert f.winner is not None
        tags.append(_tag("MatchWinner", latin[f.winner]))
        note = _("{note}. {how}").format(note=note, how=f.how_text())
    comment = note.replace("{", "(").replace("}", ")")
    return "\n".join(tags) + f"\n\n{{{comment}}} {_PGN_RESULT[g.result]}\n"


def to_pgn(event: Event) -> str:
    """Every game played, in match order, as PGN (see the module)."""
    out = []
    latin = latin_names(p.name for p in event.base.players)
    for f in match_facts(event):
        for g in f.games:
            out.append(_pgn_game(event, f, g, g.board, latin))
    return "\n".join(out)


def game_slots(event: Event) -> dict[str, int]:
    """The first TRF round of each match: the rounds of the knockout one after another, each as
    wide as its longest match (a walkover after games takes one slot more)."""
    facts = [f for f in match_facts(event) if f.players is not None]
    first: dict[str, int] = {}
    offset = 0
    for k in range(1, event.rounds + 1):
        in_round = [f for f in facts if f.round == k]
        width = max([len(f.games) + (f.how == "withdrawal") for f in in_round] + [1])
        for f in in_round:
            first[f.match] = offset + 1
        offset += width
    return first


def _crosstable(event: Event, latin: dict[str, str]) -> CrossTable:
    """Every game (and forfeit) as a cross-table of the players' Latin names."""
    entries: list[tuple[str, Entry]] = []
    slots = game_slots(event)
    for f in match_facts(event):
        if f.players is None:
            continue
        start = slots[f.match]
        for slot, g in enumerate(f.games, start=start):
            sides = ((g.red, g.black, Colour.RED), (g.black, g.red, Colour.BLACK))
            for name, other, colour in sides:
                outcome = Outcome.from_result(g.result, colour)
                points = CLASSICAL.points(Kind.PLAYED, outcome, colour)
                entry = Entry(slot, latin[other], colour, outcome, Kind.PLAYED, points)
                entries.append((latin[name], entry))
        if f.how in ("walkover", "withdrawal"):
            assert f.winner is not None and f.loser is not None
            slot = start + len(f.games)
            for name, other, outcome, colour in (
                (f.winner, f.loser, Outcome.WIN, Colour.RED),
                (f.loser, f.winner, Outcome.LOSS, Colour.BLACK),
            ):
                points = CLASSICAL.points(Kind.FORFEIT, outcome, None)
                entry = Entry(slot, latin[other], colour, outcome, Kind.FORFEIT, points)
                entries.append((latin[name], entry))
    rounds = max([e.round for _, e in entries] + [1])
    names = [latin[p.name] for p in event.base.players]
    return CrossTable.from_entries(
        names,
        entries,
        rounds=rounds,
        title=event.name,
        draw_points=Decimal("0.5"),
        start_date=datetime.fromisoformat(event.header.created).astimezone().date(),
        tournament_type="Individual: Knockout",
    )


def to_trf_text(event: Event) -> str:
    """Every game played as a TRF-16 file (see the module).

    Raises:
        EventRefused: A name longer than TRF-16's 33 characters.
    """
    latin = latin_names(p.name for p in event.base.players)
    long = [latin[p.name] for p in event.base.players if len(latin[p.name]) > NAME_WIDTH]
    if long:
        raise refused(
            event.source,
            "trf",
            f"TRF-16 names have at most {NAME_WIDTH} characters, found {long[0]!r} "
            f"({len(long[0])}); export json or csv instead",
        )
    ranks = {latin[s.name]: s.rank for s in standings(event)}
    text = to_trf(_crosstable(event, latin), ranks=ranks)
    originals = [
        f"### {number:>4} {latin[p.name]}: {p.name}"
        for number, p in enumerate(event.base.players, start=1)
        if latin[p.name] != p.name
    ]
    return text + "".join(line + "\n" for line in originals)
