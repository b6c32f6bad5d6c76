"""What an exported event carries beside its rules: the scenario's ``[event]`` table.

``knockout event export --format scenario`` (and ``check --salvage``) write it, and
``knockout event new --scenario`` reads it back, so that the new file carries the event on
exactly as the old one would have gone: the event's seed draws the same colours for the games
to come, the federations and the language are the same, and each withdrawal is entered where it
came in the journal (``after``: how many ``[[played]]`` entries came before it), so the boards
and every view are the same. The walkers ignore the table (the rules do not depend on it).

The scenario's own check has already checked the table's types; here its names are checked
against the scenario's players, every problem at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from knockout.errors import InputError, Problem
from knockout.event.checks import clean_name
from knockout.i18n import _, parse_language
from knockout.rules.scenario.aggregate import Scenario

__all__ = ["Carried", "carried_facts"]


@dataclass(frozen=True)
class Carried:
    """The ``[event]`` table of a scenario, checked.

    Attributes:
        seed: The event's seed (None: not given).
        language: The event's own language (None: not given).
        federations: Federation by player's name.
        after: For each withdrawal given, how many ``[[played]]`` entries came before it.
    """

    seed: int | None = None
    language: str | None = None
    federations: Mapping[str, str] = field(default_factory=dict)
    after: Mapping[str, int] = field(default_factory=dict)


def carried_facts(
    data: Mapping[str, Any], scenario: Scenario, source: str, *, entry_list: bool = False
) -> Carried:
    """The ``[event]`` table of the scenario mapping ``data`` (already checked by
    :func:`~knockout.rules.scenario.aggregate.parse_scenario`), its names checked against
    ``scenario``'s players; ``entry_list``: the players come from an entry list instead (the
    federations then come from it too).

    Raises:
        InputError: A name that is not a player, a withdrawal of a player not marked withdrawn
            or given twice, or one after more entries than ``[[played]]`` has.
    """
    table = data.get("event")
    if not isinstance(table, Mapping):
        return Carried()
    names = {p.name for p in scenario.players}
    problems: list[Problem] = []
    federations: dict[str, str] = {}
    if not entry_list:
        for name, fed in dict(table.get("federations") or {}).items():
            if clean_name(name) not in names:
                key = f"event.federations.{name}"
                found = _("expected a player, found {name}").format(name=repr(name))
                problems.append(Problem(source, key, found))
            else:
                federations[clean_name(name)] = clean_name(str(fed))
    after = _withdrawals(table.get("withdrawals") or [], scenario, source, problems)
    language = table.get("language")
    if language is not None:
        try:
            language = parse_language(str(language))
        except ValueError as exc:
            problems.append(Problem(source, "event.language", str(exc)))
    if problems:
        raise InputError(problems)
    seed = table.get("seed")
    return Carried(None if seed is None else int(seed), language, federations, after)


def _withdrawals(
    given: list[Any], scenario: Scenario, source: str, problems: list[Problem]
) -> dict[str, int]:
    """``[[event.withdrawals]]`` checked: each a player marked withdrawn, once, after no more
    entries than ``[[played]]`` has (``problems`` gets what is wrong)."""
    names = {p.name for p in scenario.players}
    withdrawn = {p.name for p in scenario.players if p.withdrawn}
    after: dict[str, int] = {}
    for i, w in enumerate(given):
        name, n = clean_name(str(w["name"])), int(w["after"])
        key = f"event.withdrawals[{i}]"
        if name not in withdrawn:
            what = (
                _("expected a player, found {name}")
                if name not in names
                else _("expected a player with withdrawn = true, found {name}")
            )
            problems.append(Problem(source, f"{key}.name", what.format(name=repr(name))))
        elif name in after:
            twice = _("expected {name} once, found twice").format(name=name)
            problems.append(Problem(source, f"{key}.name", twice))
        elif n > len(scenario.played):
            more = _("expected at most {n} (the [[played]] entries), found {found}").format(
                n=len(scenario.played), found=n
            )
            problems.append(Problem(source, f"{key}.after", more))
        else:
            after[name] = n
    return after
