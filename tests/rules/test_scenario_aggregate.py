"""One Scenario, valid by construction: built in Python it checks what the loader checks, the
strategy is stored once, and ``from_dict`` is the inverse of ``to_dict``."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from knockout.errors import ScenarioError
from knockout.game import Result
from knockout.rules.book.presets import FORMATS
from knockout.rules.chain.replay import PlayedGame
from knockout.rules.decisions.strategies import STRATEGIES, Naive, Rational, get_strategy
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.strength import DEFAULT_MODEL
from knockout.rules.scenario.aggregate import Scenario


def _two(**kw: object) -> Scenario:
    args: dict[str, object] = {
        "name": "t",
        "format": FORMATS["xq-bidding"],
        "model": DEFAULT_MODEL,
        "strategy": Rational(),
        "players": (Player("A", 2500), Player("B", 2450)),
    }
    args.update(kw)
    return Scenario(**args)  # type: ignore[arg-type]


def _lines(exc: pytest.ExceptionInfo[ScenarioError]) -> list[str]:
    return [f"{p.key}: {p.message}" for p in exc.value.problems]


def test_two_players_with_one_name_are_refused_in_one_line() -> None:
    with pytest.raises(ScenarioError) as exc:
        _two(players=(Player("A", 2500), Player("A", 2400)))
    assert _lines(exc) == ["players[1].name: duplicate name 'A' (also players[0])"]


def test_every_problem_is_listed() -> None:
    with pytest.raises(ScenarioError) as exc:
        _two(
            players=(Player("A", 2500, rating_sd=-5), Player("B", -1, speed=Speed(1.5, 0.1))),
            strategy=Rational(belief_sd=-1),
        )
    keys = [p.key for p in exc.value.problems]
    assert keys == [
        "players[0].rating_sd",
        "players[1].rating",
        "players[1].speed.mean",
        "strategy.belief_sd",
    ]
    assert isinstance(exc.value, ValueError)


def test_replace_validates_too() -> None:
    sc = _two()
    with pytest.raises(ScenarioError, match="rating_sd"):
        replace(sc, players=(Player("A", 2500, rating_sd=-5), Player("B", 2400)))
    with pytest.raises(ScenarioError, match="at least 2 players"):
        replace(sc, players=(Player("A", 2500),))


def test_played_games_are_checked_when_built() -> None:
    bad = PlayedGame("A", "C", "slow", Result.RED)
    with pytest.raises(ScenarioError, match=r"played\[0\]"):
        _two(played=(bad,))
    one = PlayedGame("A", "B", "slow", Result.RED)
    sc = _two(played=(one,))
    assert sc.position.games == 1


def test_the_strategy_is_stored_once() -> None:
    sc = _two(strategy=Naive())
    assert sc.strategy_kind == "naive"
    assert sc.to_dict()["strategy"] == {"kind": "naive", "belief_sd": 100.0}
    assert Scenario.from_dict(sc.to_dict()) == sc


@pytest.mark.parametrize("preset", sorted(FORMATS))
@pytest.mark.parametrize("kind", sorted(STRATEGIES))
def test_from_dict_inverts_to_dict(preset: str, kind: str) -> None:
    sc = _two(format=FORMATS[preset], strategy=get_strategy(kind, belief_sd=75.0))
    data = json.loads(json.dumps(sc.to_dict()))  # as any output carries it
    back = Scenario.from_dict(data)
    assert back == sc
    assert back.to_dict() == sc.to_dict()
