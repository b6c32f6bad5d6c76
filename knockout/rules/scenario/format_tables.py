"""A scenario's ``[format]`` table: a preset with its shortcuts and per-stage tables, or a custom
list of stages, read into a :class:`~knockout.rules.book.formats.Format`; and a format written
back as the table that reads into it (:func:`format_to_dict`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from knockout.errors import Problem
from knockout.game import Colour
from knockout.rules.book.formats import (
    BiddingMenu,
    ColourRule,
    CutChoose,
    Format,
    SealedBid,
    Stage,
    colour_rule,
)
from knockout.rules.book.presets import FORMATS
from knockout.rules.model.strength import TimeClass
from knockout.rules.scenario.schema import validated_table
from knockout.schema import unknown_key

if TYPE_CHECKING:
    from knockout.rules.scenario.models import _StageIn

__all__ = [
    "format_to_dict",
]


def _minutes_value(m: tuple[float, float]) -> float | list[float]:
    return m[0] if m[0] == m[1] else [m[0], m[1]]


def _stage_fields(s: Stage) -> dict[str, Any]:
    out: dict[str, Any] = {} if s.time_class is None else {"time_class": s.time_class.value}
    out |= {
        "colours": str(s.colours),
        "draw_winner": "none" if s.draw_winner is None else s.draw_winner.value,
        "repeat": s.repeat,
        "increment_seconds": s.increment_seconds,
    }
    if s.repeat:
        out["max_blocks"] = s.max_blocks
    if s.bidding is not None:
        out.update(s.bidding.to_dict())
    if s.sealed_bid is not None:
        out.update(s.sealed_bid.to_dict())
    if s.cut is not None:
        out.update(s.cut.to_dict())
    if s.is_choice:
        out["chooser"] = s.chooser
    return out


def format_to_dict(fmt: Format) -> dict[str, Any]:
    """The ``[format]`` table of a resolved scenario."""
    if fmt.preset == "custom":
        return {
            "preset": "custom",
            "increment_seconds": fmt.increment_seconds,
            "stages": [
                {"name": s.name, "games": s.games, "minutes": _minutes_value(s.minutes)}
                | _stage_fields(s)
                for s in fmt.stages
            ],
        }
    out: dict[str, Any] = {"preset": fmt.preset, "increment_seconds": fmt.increment_seconds}
    for s in fmt.stages:
        if not s.is_decision:
            out[f"{s.name}_games"] = s.games
            out[f"{s.name}_minutes"] = _minutes_value(s.minutes)
    for s in fmt.stages:
        out[s.name] = _stage_fields(s)
    return out


#: Formats already parsed from the same table, by its JSON text: a study parses the same
#: ``[format]`` at each of thousands of points. Only good formats are kept (problems name the
#: file), and a Format is frozen, so sharing one is safe.
_FORMATS_SEEN: dict[str, Format] = {}


_FORMATS_KEPT = 64


def format_of(raw: Mapping[str, Any], source: str) -> tuple[Format | None, list[Problem]]:
    """:func:`_parse_format`, remembered for a table parsed before without problems."""
    try:
        key = json.dumps(raw, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):  # not plain data: parse it, and let the parse say why
        return _parse_format(raw, source)
    seen = _FORMATS_SEEN.get(key)
    if seen is not None:
        return seen, []
    fmt, problems = _parse_format(raw, source)
    if fmt is not None and not problems:
        if len(_FORMATS_SEEN) >= _FORMATS_KEPT:
            _FORMATS_SEEN.clear()
        _FORMATS_SEEN[key] = fmt
    return fmt, problems


def _parse_format(raw: Mapping[str, Any], source: str) -> tuple[Format | None, list[Problem]]:
    problems: list[Problem] = []

    def problem(key: str, message: str) -> None:
        problems.append(Problem(source, f"format.{key}" if key else "format", message))

    preset = raw.get("preset", "xq-bidding")
    known = [*FORMATS, "custom"]
    if preset not in known:
        problem("preset", f"expected one of {', '.join(known)}, got {preset!r}")
        return None, problems
    increment = raw.get("increment_seconds")
    head, head_problems = validated_table(
        "format_head", {"increment_seconds": increment}, source, "format"
    )
    if head is None:
        problems.extend(head_problems)
        increment = None
    if preset == "custom":
        fmt = _custom_format(raw, increment, source, problems)
    else:
        fmt = _preset_format(FORMATS[preset], raw, increment, source, problems)
    if fmt is None:
        return None, problems
    for key, message in fmt.problems():
        problem(key, message)
    return (None if problems else fmt), problems


def _custom_format(
    raw: Mapping[str, Any], increment: Any, source: str, problems: list[Problem]
) -> Format | None:
    for key in raw:
        if key not in ("preset", "increment_seconds", "stages"):
            problems.append(
                Problem(
                    source,
                    f"format.{key}",
                    unknown_key(key, ["preset", "increment_seconds", "stages"]),
                )
            )
    stages_raw = raw.get("stages")
    if not isinstance(stages_raw, list) or not stages_raw:
        problems.append(
            Problem(source, "format.stages", "a custom format needs a list of [[format.stages]]")
        )
        return None
    default_increment = 10.0 if increment is None else float(increment)
    stages: list[Stage] = []
    for i, item in enumerate(stages_raw):
        st, stage_problems = validated_table("custom_stage", item, source, f"format.stages[{i}]")
        if st is None:
            problems.extend(stage_problems)
            continue
        tc = None if st.time_class is None else TimeClass(st.time_class)
        base = Stage(st.name, st.games, tc, increment_seconds=default_increment)
        stages.append(_apply_stage(base, st))
    if len(stages) != len(stages_raw):
        return None
    return Format("custom", tuple(stages), default_increment)


def _preset_keys(preset: Format) -> list[str]:
    """The keys a preset's ``[format]`` table may have."""
    allowed = ["preset", "increment_seconds"]
    for s in preset.stages:
        if not s.is_decision:
            allowed += [f"{s.name}_games", f"{s.name}_minutes"]
    return allowed + [s.name for s in preset.stages]


def _shortcuts(
    stage: Stage, raw: Mapping[str, Any], table: _StageIn, source: str, problems: list[Problem]
) -> dict[str, Any] | None:
    """``<stage>_games`` / ``<stage>_minutes`` of a preset's table (None if one is bad)."""
    found: dict[str, Any] = {}
    ok = True
    for field_name in ("games", "minutes"):
        key = f"{stage.name}_{field_name}"
        if key not in raw:
            continue
        checked, field_problems = validated_table("stage", {field_name: raw[key]}, source)
        if checked is None:
            problems += [Problem(source, f"format.{key}", p.message) for p in field_problems]
            ok = False
            continue
        value = getattr(checked, field_name)
        given = getattr(table, field_name)
        if given is not None and given != value:
            problems.append(
                Problem(
                    source,
                    f"format.{key}",
                    f"disagrees with format.{stage.name}.{field_name} "
                    f"({raw[key]!r} vs {given!r}): give it once",
                )
            )
            ok = False
        found[field_name] = value
    return found if ok else None


def _preset_format(
    preset: Format, raw: Mapping[str, Any], increment: Any, source: str, problems: list[Problem]
) -> Format | None:
    allowed = _preset_keys(preset)
    for key in raw:
        if key not in allowed:
            problems.append(Problem(source, f"format.{key}", unknown_key(key, allowed)))
    stages: list[Stage] = []
    for s in preset.stages:
        stage = s if increment is None else replace(s, increment_seconds=float(increment))
        table, stage_problems = validated_table(
            "stage", raw.get(s.name, {}), source, f"format.{s.name}"
        )
        if table is None:
            problems.extend(stage_problems)
            continue
        shortcut = _shortcuts(s, raw, table, source, problems)
        if shortcut is not None:
            merged = table.model_copy(update={k: v for k, v in shortcut.items() if v is not None})
            stages.append(_apply_stage(stage, merged))
    if len(stages) != len(preset.stages):
        return None
    return Format(
        preset.preset,
        tuple(stages),
        preset.increment_seconds if increment is None else float(increment),
    )


def _apply_stage(stage: Stage, table: _StageIn) -> Stage:
    """``stage`` with every field its table gives replaced."""
    changes: dict[str, Any] = {}
    if table.games is not None:
        changes["games"] = table.games
    if table.minutes is not None:
        m = table.minutes
        changes["minutes"] = (float(m), float(m)) if isinstance(m, float | int) else (m[0], m[1])
    if table.increment_seconds is not None:
        changes["increment_seconds"] = table.increment_seconds
    if table.time_class is not None:
        changes["time_class"] = TimeClass(table.time_class)
    if table.colours is not None:
        changes["colours"] = colour_rule(table.colours)
    if table.draw_winner is not None:
        changes["draw_winner"] = None if table.draw_winner == "none" else Colour(table.draw_winner)
    if table.repeat is not None:
        changes["repeat"] = table.repeat
    if table.max_blocks is not None:
        changes["max_blocks"] = table.max_blocks
    if table.chooser is not None:
        changes["chooser"] = table.chooser.strip()
    changes.update(_decision_fields(stage, table, changes.get("colours", stage.colours)))
    return replace(stage, **changes)


def _decision_fields(stage: Stage, table: _StageIn, colours: ColourRule | str) -> dict[str, Any]:
    """The bidding menu, sealed-bid and cut-and-choose clocks the table gives the stage."""
    found = {
        "bidding": _menu(stage, table, colours),
        "sealed_bid": _sealed_bid(stage, table, colours),
        "cut": _cut(stage, table, colours),
    }
    return {k: v for k, v in found.items() if v is not None}


def _menu(stage: Stage, table: _StageIn, colours: ColourRule | str) -> BiddingMenu | None:
    """The bidding menu with the table's clocks and priority (None: the stage has none)."""
    keys = ("accept", "object_red", "object_black")
    unused = colours is not ColourRule.BIDDING and all(getattr(table, k) is None for k in keys)
    if unused and (table.priority is None or colours is ColourRule.CUT_CHOOSE):
        return None
    changes: dict[str, Any] = {
        k: (float(getattr(table, k)[0]), float(getattr(table, k)[1]))
        for k in keys
        if getattr(table, k) is not None
    }
    if table.priority is not None:
        changes["priority"] = table.priority
    return replace(stage.bidding or BiddingMenu(), **changes)


def _sealed_bid(stage: Stage, table: _StageIn, colours: ColourRule | str) -> SealedBid | None:
    """The sealed-bid clocks with the table's values (None: the stage has none)."""
    keys = ("red_minutes", "min_black_minutes")
    if colours is not ColourRule.SEALED_BID and all(
        getattr(table, k) is None for k in (*keys, "price")
    ):
        return None
    changes: dict[str, Any] = {
        k: float(getattr(table, k)) for k in keys if getattr(table, k) is not None
    }
    if table.price is not None:
        changes["price"] = table.price
    return replace(stage.sealed_bid or SealedBid(), **changes)


def _cut(stage: Stage, table: _StageIn, colours: ColourRule | str) -> CutChoose | None:
    """The cut-and-choose clocks with the table's values (None: the stage has none)."""
    keys = ("black_minutes", "min_red_minutes", "max_red_minutes")
    if colours is not ColourRule.CUT_CHOOSE and all(getattr(table, k) is None for k in keys):
        return None
    changes: dict[str, Any] = {
        k: float(getattr(table, k)) for k in keys if getattr(table, k) is not None
    }
    if table.priority is not None and colours is ColourRule.CUT_CHOOSE:
        changes["priority"] = table.priority
    return replace(stage.cut or CutChoose(), **changes)
