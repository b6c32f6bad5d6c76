"""A damaged byte is found: the checksum of every row and the schema of every journal entry.

SQLite's own checks (``PRAGMA quick_check``, ``integrity_check``) look at the file's pages, not
inside a row: a byte changed in an entry's JSON (``"result"`` become ``"xesult"``, a ``{`` become
``[``, a clock or a stage changed) passes them. So every row written since schema 5 carries a
checksum of its columns (:func:`row_checksum`), and every row is read against its schema
(:func:`entry_damage`): its data is a JSON object with the keys its kind writes, each of the
type and in the range the event's format allows (a stage the format has, the clock the stage
gives, a result that is a result). A row written before schema 5 has no checksum and is checked
against its schema only.

A damaged row is a :class:`Damage`: where (the entry's number and match, or the event row) and
what is wrong, in a few words, so a reading command refuses the file in one line and
``event check`` lists every one.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from knockout.event.journal import ENTRY_KINDS, LEGACY_DECISION_KINDS
from knockout.game import Result
from knockout.i18n import _
from knockout.rules.book.formats import Format, Stage

__all__ = ["Damage", "entry_damage", "header_damage", "row_checksum"]

#: A match ID as the journal writes it.
_MATCH_ID = re.compile(r"^(R[1-9][0-9]*-M[1-9][0-9]*|3RD)$")
#: ``at``: UTC ISO 8601.
_AT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$")
#: The longest clock a journal entry can give, in minutes (a day).
MAX_CLOCK_MINUTES = 24 * 60.0
#: The colour rules that keep the stage's own clocks (the others, and colour rules added to the
#: rule book, let the players' decision set them: any clock within bounds).
_FIXED_CLOCKS = ("lot", "alternate", "choice")


def row_checksum(values: Sequence[Any]) -> str:
    """The checksum of a row's columns, as stored (16 hex digits of SHA-256).

    >>> row_checksum([1, "2026-01-01T00:00:00.000Z", "new"])
    'b0f40fec3f0b18c4'
    """
    text = json.dumps(list(values), ensure_ascii=False, separators=(",", ":"), default=_shown)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _shown(value: Any) -> str:
    """A value JSON cannot hold (the bytes of a damaged page), as text: never a match."""
    return f"<{type(value).__name__} {bytes(value).hex() if isinstance(value, bytes) else value}>"


@dataclass(frozen=True)
class Damage:
    """A row that is not as it was written.

    Attributes:
        seq: The journal entry's number (None: the event row).
        match: The entry's match, as stored (None: none, or the event row).
        what: What is wrong, in a few words.
        kind: The entry's kind, as stored (for the message).
    """

    seq: int | None
    match: str | None
    what: str
    kind: str | None = None

    @property
    def where(self) -> str:
        """``journal entry #19 (R2-M1)``, or ``the event row``."""
        if self.seq is None and self.kind and self.kind.startswith("players:"):
            return _("player #{n} of the entry list").format(n=self.kind.split(":")[1])
        if self.seq is None:
            return _("the event row (name, scenario, seed)")
        about = self.match if self.match else self.kind
        entry = _("journal entry #{seq}").format(seq=self.seq)
        return f"{entry} ({about})" if about else entry

    def line(self) -> str:
        """Where and what, in one line."""
        return _("{where} is damaged: {what}").format(where=self.where, what=self.what)


def header_damage(row: Sequence[Any], checksum: str | None) -> Damage | None:
    """What is wrong with the event row ``(name, scenario, seed, created, version)`` (None:
    nothing); ``checksum``: the one stored (None: written before schema 5)."""
    try:
        scenario = json.loads(row[1])
    except (TypeError, ValueError) as exc:
        return Damage(None, None, _("its scenario is not JSON ({error})").format(error=exc))
    if not isinstance(scenario, dict):
        return Damage(None, None, _("its scenario is not JSON keys and values"))
    if not isinstance(row[2], int) or isinstance(row[2], bool):
        return Damage(None, None, _("its seed is not a whole number"))
    if checksum is not None and row_checksum(row) != checksum:
        return Damage(None, None, _changed())
    return None


def _changed() -> str:
    return _("its checksum is wrong: a byte of it changed after it was written")


def entry_damage(
    row: Sequence[Any], checksum: str | None, fmt: Format | None
) -> tuple[Damage | None, Mapping[str, Any] | None]:
    """What is wrong with the journal row ``(seq, at, kind, match, game, player, data, command,
    undoes)`` (None: nothing), and its data (None: not JSON keys and values).

    ``checksum``: the one stored (None: written before schema 5, checked against the schema
    only); ``fmt``: the event's match format (None: not known, its stages and clocks are not
    checked).
    """
    seq, kind, match = row[0], row[2], row[3]
    shown_match = match if isinstance(match, str) else None

    def damage(what: str) -> Damage:
        return Damage(seq, shown_match, what, kind if isinstance(kind, str) else None)

    try:
        data = json.loads(row[6])
    except (TypeError, ValueError) as exc:
        return damage(_("its data is not JSON ({error})").format(error=exc)), None
    if not isinstance(data, dict):
        return damage(_("its data is not JSON keys and values")), None
    problem = _row_problem(row, data, fmt)
    if problem is None and checksum is not None and row_checksum(row) != checksum:
        problem = _changed()
    return (None if problem is None else damage(problem)), data


def _row_problem(row: Sequence[Any], data: Mapping[str, Any], fmt: Format | None) -> str | None:
    """What is wrong with the row's columns and its data (JSON keys and values)."""
    seq, _at, kind, match, _game, player, _data, _command, undoes = row[:9]
    problem = _column_problem(row)
    if problem is not None:
        return problem
    if kind == "new":
        return None if seq == 1 else _expected(_("the creation as entry #1"), seq, key="seq")
    if kind == "undo":
        if not isinstance(undoes, int) or not 1 <= undoes < seq:
            return _expected(_("an earlier entry's number"), undoes, key="undoes")
        return None
    if kind in ("game", "correct", "decision", "withdraw", *LEGACY_DECISION_KINDS) and (
        match is None
    ):
        return _expected(_("a match ID (R1-M1, 3RD)"), match, key="match")
    if kind in ("withdraw", "amend", "replace") and not isinstance(player, str):
        return _expected(_("a player's name"), player, key="player")
    if kind in ("game", "correct"):
        return _game_problem(data, fmt, correct=kind == "correct")
    if kind in ("decision", *LEGACY_DECISION_KINDS):
        return _decision_problem(kind, data, fmt)
    if kind == "replace" and not _name(data.get("name")):
        return _expected(_("a player's name"), data.get("name"), key="name")
    return None


def _column_problem(row: Sequence[Any]) -> str | None:
    """What is wrong with the columns every entry has."""
    _seq, at, kind, match, game, _player, _data, command = row[:8]
    if kind not in ENTRY_KINDS and kind not in LEGACY_DECISION_KINDS:
        return _expected(_("a kind of entry ({kinds})").format(kinds=", ".join(ENTRY_KINDS)), kind)
    if not isinstance(at, str) or not _AT.match(at):
        return _expected(_("the time it was written (UTC)"), at, key="at")
    if not isinstance(command, str):
        return _expected(_("the command that wrote it"), command, key="command")
    if match is not None and (not isinstance(match, str) or not _MATCH_ID.match(match)):
        return _expected(_("a match ID (R1-M1, 3RD)"), match, key="match")
    if game is not None and (not isinstance(game, int) or game < 1):
        return _expected(_("a game number from 1"), game, key="game")
    return None


def _expected(what: str, found: Any, *, key: str | None = None) -> str:
    shown = json.dumps(found, ensure_ascii=False) if not isinstance(found, str) else repr(found)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    text = _("expected {what}, found {found}").format(what=what, found=shown)
    return text if key is None else f"{key}: {text}"


def _name(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _missing(data: Mapping[str, Any], keys: Sequence[str]) -> str | None:
    """The first of ``keys`` not in ``data``, said with what is there instead."""
    for key in keys:
        if key not in data:
            others = [k for k in data if k not in keys]
            near = difflib.get_close_matches(key, others, n=1, cutoff=0.6)
            if near:
                found = f'"{near[0]}"'
                return _('expected the key "{key}", found {found}').format(key=key, found=found)
            return _('expected the key "{key}", found none in its place').format(key=key)
    return None


def _stage(fmt: Format | None, name: Any) -> tuple[Stage | None, str | None]:
    """The format's stage called ``name``, or what is wrong."""
    if not isinstance(name, str):
        return None, _expected(_("a stage"), name, key="stage")
    if fmt is None:
        return None, None
    stage = next((s for s in fmt.stages if s.name == name), None)
    if stage is None:
        names = ", ".join(s.name for s in fmt.stages)
        return None, _expected(
            _("a stage of the format ({names})").format(names=names), name, key="stage"
        )
    return stage, None


def _clock_problem(clock: Any, stage: Stage | None, *, fixed: bool) -> str | None:
    """A clock ``[Red, Black]`` in minutes: two numbers above 0 and at most a day; the stage's
    own clocks when the format fixes them (``fixed``)."""
    if (
        not isinstance(clock, list)
        or len(clock) != 2
        or not all(_number(c) and 0 < c <= MAX_CLOCK_MINUTES for c in clock)
    ):
        what = _("[Red, Black] minutes, each above 0 and at most {most:g}").format(
            most=MAX_CLOCK_MINUTES
        )
        return _expected(what, clock, key="clock")
    if fixed and stage is not None and str(stage.colours) in _FIXED_CLOCKS:
        own = [float(stage.minutes[0]), float(stage.minutes[1])]
        if sorted(float(c) for c in clock) != sorted(own):
            what = _("the clocks of the {stage} stage ({red:g} and {black:g} min)").format(
                stage=stage.name, red=own[0], black=own[1]
            )
            return _expected(what, clock, key="clock")
    return None


def _game_problem(data: Mapping[str, Any], fmt: Format | None, *, correct: bool) -> str | None:
    keys = ["red", "black", "stage", "result", "increment_seconds"]
    missing = _missing(data, [*keys, "corrects"] if correct else keys)
    if missing is not None:
        return missing
    for side in ("red", "black"):
        if not _name(data[side]):
            return _expected(_("a player's name"), data[side], key=side)
    if data["result"] not in [r.value for r in Result]:
        return _expected("red, draw, black", data["result"], key="result")
    stage, problem = _stage(fmt, data["stage"])
    if problem is not None:
        return problem
    if data.get("clock") is not None:
        problem = _clock_problem(data["clock"], stage, fixed=True)
        if problem is not None:
            return problem
    inc = data["increment_seconds"]
    if not _number(inc) or inc < 0 or (stage is not None and float(inc) != stage.increment_seconds):
        want = _("the stage's increment") if stage is not None else _("seconds from 0")
        return _expected(want, inc, key="increment_seconds")
    times = data.get("time_used")
    if times is not None and (
        not isinstance(times, dict) or not all(_number(v) and v >= 0 for v in times.values())
    ):
        return _expected(_("seconds used by name"), times, key="time_used")
    moves = data.get("moves")
    if moves is not None and (not isinstance(moves, int) or isinstance(moves, bool) or moves < 1):
        return _expected(_("a number of moves from 1"), moves, key="moves")
    if correct and (not isinstance(data["corrects"], int) or data["corrects"] < 1):
        return _expected(_("an earlier entry's number"), data["corrects"], key="corrects")
    return None


def _decision_problem(kind: str, data: Mapping[str, Any], fmt: Format | None) -> str | None:
    from knockout.rules.decisions.made import MADE, made_of_fields  # noqa: PLC0415  (reading)

    made_kind = data.get("kind") if kind == "decision" else kind
    if made_kind not in MADE:
        kinds = ", ".join(MADE)
        return _expected(
            _("a kind of decision ({kinds})").format(kinds=kinds), made_kind, key="kind"
        )
    missing = _missing(data, ["red", "black", "clock"])
    if missing is not None:
        return missing
    try:
        made = made_of_fields(str(made_kind), data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return _("its decision cannot be read ({error})").format(error=_exception(exc))
    for side in ("red", "black"):
        if not _name(data[side]):
            return _expected(_("a player's name"), data[side], key=side)
    stage = None
    if "stage" in data:
        stage, problem = _stage(fmt, data["stage"])
        if problem is not None:
            return problem
    elif fmt is not None:
        stage = next(iter(type(made).stages(fmt)), None)
    problem = _clock_problem(data["clock"], stage, fixed=True)
    if problem is not None or stage is None:
        return problem
    try:  # the clock the decision gives at its stage
        given = [float(c) for c in made.clock(stage)]
    except (AssertionError, KeyError, TypeError, ValueError, AttributeError):
        given = None
    if given is not None and [float(c) for c in data["clock"]] != given:
        what = _("the clocks the decision gives ({red:g} and {black:g} min)").format(
            red=given[0], black=given[1]
        )
        return _expected(what, data["clock"], key="clock")
    return None


def _exception(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return _('no key "{key}"').format(key=exc.args[0] if exc.args else "")
    return str(exc)
