"""One contract over every walker (exact solver, Monte Carlo, SimPy engine), for matches and
brackets: the same answer type, the same JSON keys, and the same walkover rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import ROOT, run_json

from knockout.answers import BracketOdds, MatchOdds, Simulated
from knockout.engine.event import play_event
from knockout.engine.match import play_scenario_match
from knockout.engine.tally import tally_events, tally_matches
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from sims.bracket import simulate_bracket
from sims.match import simulate_match

Answer = MatchOdds | BracketOdds


def _match(**extra: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "match",
            "players": [
                {"name": "A", "rating": 2600, **extra.get("a", {})},
                {"name": "B", "rating": 2500, **extra.get("b", {})},
            ],
            **{k: v for k, v in extra.items() if k not in ("a", "b")},
        }
    )


def _bracket(
    n: int = 6, withdrawn: tuple[int, ...] = (), players_sd: float = 0.0, **extra: Any
) -> Scenario:
    return parse_scenario(
        {
            "name": "bracket",
            "players": [
                {
                    "name": f"P{i}",
                    "rating": 2600 - 25 * i,
                    "rating_sd": players_sd,
                    "withdrawn": i in withdrawn,
                }
                for i in range(n)
            ],
            **extra,
        }
    )


def _exact(sc: Scenario) -> dict[str, Any]:
    answer: Answer = bracket_odds(sc) if sc.is_bracket else match_odds(sc)
    return answer.to_json()


def _monte_carlo(sc: Scenario) -> dict[str, Any]:
    est: Simulated[Any] | None
    est = (simulate_bracket if sc.is_bracket else simulate_match)(sc, 4096, 1)[0]
    assert est is not None
    return est.to_json()


def _engine(sc: Scenario) -> dict[str, Any]:
    if sc.is_bracket:
        records = [play_event(sc, seed=s)[0] for s in range(3)]
        bracket = records[0].bracket
        rounds = tuple(r.name for r in records[0].rounds)
        tally = tally_events(records, sc)
        players = tuple(p.name for p in sc.players)
        return tally.estimate(bracket.players, players, bracket, rounds, 1).to_json()
    a, b = sc.players
    matches = [play_scenario_match(sc, seed=s)[0] for s in range(20)]
    names = (a.name, b.name)
    return tally_matches(matches, sc).estimate(names, sc.format.stage_names, 1).to_json()


WALKERS: dict[str, Callable[[Scenario], dict[str, Any]]] = {
    "monte-carlo": _monte_carlo,
    "engine": _engine,
}
SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "match": _match,
    "match, sealed bids": lambda: _match(format={"preset": "armageddon-bid"}),
    "match, both withdrawn": lambda: _match(a={"withdrawn": True}, b={"withdrawn": True}),
    "match, uncertain ratings": lambda: _match(a={"rating_sd": 80.0}, b={"rating_sd": 120.0}),
    "bracket": _bracket,
    "bracket, uncertain ratings": lambda: _bracket(4, players_sd=150.0),
    "bracket, third place and a withdrawal": lambda: _bracket(
        8, withdrawn=(3,), bracket={"third_place": True}
    ),
}

# Keys whose values are keyed by data (players, game counts), not by the schema.
_DATA_KEYED = {"win", "games", "reach", "seeds", "decided", "win_if_ratings_exact"}


def _schema(tree: Any, path: str = "") -> set[str]:
    """Key paths of a JSON tree, not descending into data-keyed tables."""
    if not isinstance(tree, dict):
        return set()
    out: set[str] = set()
    for k, v in tree.items():
        p = f"{path}.{k}" if path else k
        out.add(p)
        if k not in _DATA_KEYED:
            out |= _schema(v, p)
    return out


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("walker", WALKERS)
def test_every_walker_gives_the_exact_answers_keys(walker: str, scenario: str) -> None:
    sc = SCENARIOS[scenario]()
    exact = _exact(sc)
    sampled = WALKERS[walker](sc)
    # the odds with ratings taken as exact are a second exact answer that sampling does not
    # estimate (``knockout simulate`` copies it from the exact solver)
    missing = _schema(exact) - _schema(sampled) - {"win_if_ratings_exact"}
    # the draw (bracket) and who walked over are facts, not estimates: every walker states them
    assert not missing, f"{walker} lacks {sorted(missing)}"
    assert {"runs", "seed", "stderr"} <= set(sampled)
    estimated = MatchOdds.ESTIMATED if "match" in exact else BracketOdds.ESTIMATED
    for key in estimated:
        if key in exact:
            assert key in sampled["stderr"], key
            assert _schema(sampled["stderr"][key]) <= _schema(sampled[key])


@pytest.mark.parametrize(
    "scenario", ["final-2600-vs-2550.toml", "open-12-in-progress.toml", "newcomer.toml"]
)
def test_simulate_json_has_every_key_of_odds_json(scenario: str) -> None:
    path = str(ROOT / "scenarios" / scenario)
    odds = run_json("odds", path, "--json")
    sim = run_json("simulate", path, "--runs", "5000", "--seed", "2", "--json")
    assert _schema(odds) <= _schema(sim), sorted(_schema(odds) - _schema(sim))
    assert sim["seed"] == 2 and sim["runs"] == 5000 and "stderr" in sim


def _both_withdrawn_match(seeding: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "name": "both withdrawn",
        "players": [
            {"name": "A", "rating": 2600, "withdrawn": True, "seed": 2},
            {"name": "B", "rating": 2500, "withdrawn": True, "seed": 1},
        ],
        **({} if seeding is None else {"bracket": seeding}),
    }


@pytest.mark.parametrize(
    ("seeding", "winner"),
    [(None, "A"), ({"seeding": "given"}, "B")],
    ids=["unseeded: by rating", "given seeds"],
)
def test_both_withdrawn_lone_match_the_better_seed_advances(
    tmp_path: Any, seeding: dict[str, Any] | None, winner: str
) -> None:
    path = tmp_path / "match.toml"
    path.write_text(_toml(_both_withdrawn_match(seeding)), encoding="utf-8")
    odds = run_json("odds", str(path), "--json")
    assert odds["win"][winner] == 1.0 and odds["match"]["walkover"] == winner
    sim = run_json("simulate", str(path), "--runs", "1000", "--seed", "1", "--json")
    assert sim["win"][winner] == 1.0 and sim["match"]["walkover"] == winner
    play = run_json("play", str(path), "--seed", "1", "--json")
    (match,) = play["matches"]
    assert match["winner"] == winner and match["decided_in"] == "walkover"
    assert match["games"] == []


def test_both_withdrawn_in_a_bracket_the_better_seed_advances(tmp_path: Any) -> None:
    # P0 v P3 and P1 v P2 in round 1; P1 and P2 (seeds 2 and 3) both withdrew: P1 advances,
    # then loses the final by walkover (it withdrew) whoever it meets.
    data = {
        "name": "bracket",
        "players": [
            {"name": f"P{i}", "rating": 2600 - 25 * i, "withdrawn": i in (1, 2)} for i in range(4)
        ],
    }
    path = tmp_path / "bracket.toml"
    path.write_text(_toml(data), encoding="utf-8")
    odds = run_json("odds", str(path), "--json")
    assert odds["reach"]["P1"][:2] == [1.0, 1.0] and odds["reach"]["P2"][1] == 0.0
    sim = run_json("simulate", str(path), "--runs", "4096", "--seed", "1", "--json")
    assert sim["reach"]["P1"][:2] == [1.0, 1.0] and sim["reach"]["P2"][1] == 0.0
    assert sim["win"]["P1"] == 0.0
    play = run_json("play", str(path), "--seed", "1", "--json")
    semi = [m for m in play["matches"] if set(m["players"]) == {"P1", "P2"}]
    assert semi[0]["winner"] == "P1" and semi[0]["decided_in"] == "walkover"
    assert play["champion"] in ("P0", "P3")


def _toml(data: dict[str, Any]) -> str:
    """A tiny TOML writer for these tests' flat scenarios."""
    lines = [f'name = "{data["name"]}"']
    for table in ("bracket",):
        if table in data:
            lines.append(f"[{table}]")
            lines += [f"{k} = {_value(v)}" for k, v in data[table].items()]
    for p in data["players"]:
        lines.append("[[players]]")
        lines += [f"{k} = {_value(v)}" for k, v in p.items()]
    return "\n".join(lines) + "\n"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)
