"""Scenario files: every problem reported, defaults filled in, round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knockout.errors import ScenarioError
from knockout.game import Colour
from knockout.io.scenario import load_scenario
from knockout.rules.book.formats import ColourRule
from knockout.rules.model.strength import DEFAULT_RED_ADVANTAGE, TimeClass
from knockout.rules.scenario.aggregate import parse_scenario

#: The match scenarios (team-match files for ``knockout league-odds``, with [[home]], are not).
BUNDLED = sorted(
    p
    for p in (Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml")
    if "\n[[home]]" not in p.read_text(encoding="utf-8")
)

TWO = [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2400}]


def problems(data: dict[str, object]) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(data, source="s.toml")
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_scenarios_load_and_round_trip(path: Path) -> None:
    sc = load_scenario(path)
    again = parse_scenario(json.loads(json.dumps(sc.to_dict())))
    assert again == sc
    assert again.to_dict() == sc.to_dict()


def test_at_least_three_realistic_bundled_scenarios() -> None:
    assert len(BUNDLED) >= 3


def test_defaults_filled_in() -> None:
    sc = parse_scenario({"players": TWO})
    d = sc.to_dict()
    assert d["format"]["preset"] == "xq-bidding"
    assert d["format"]["slow_games"] == 2 and d["format"]["rapid_minutes"] == 15
    assert d["format"]["sudden_death"]["accept"] == [30, 10]
    assert d["format"]["sudden_death"]["draw_winner"] == "black"
    assert d["model"]["red_advantage"]["blitz"] == DEFAULT_RED_ADVANTAGE
    assert d["strategy"] == {"kind": "rational", "belief_sd": 100.0}
    # Model version 2: the rapid and blitz ratings and the stages' time classes are written
    # only where the input gave them, so the resolved scenario still follows the rules when
    # edited (--set players.A.rating=2600 moves the rapid and blitz ratings with it).
    assert d["players"][0] == {
        "name": "A",
        "rating": 2500,
        "speed": {"mean": 0.75, "sd": 0.1},
        "rating_sd": 0.0,
        "withdrawn": False,
    }
    assert all("time_class" not in d["format"][s] for s in ("slow", "rapid", "sudden_death"))
    assert d["model"]["moves"] == 60 and d["model"]["elo_per_doubling"]["classical"] == 120
    assert d["bracket"] == {"seeding": "rating", "draw_seed": 1, "third_place": False}
    assert d["schedule"]["boards"] == 8 and d["ranking"]["tiebreaks"] == ["WON", "BWG"]
    assert d["played"] == []


def test_overrides_reach_the_format() -> None:
    sc = parse_scenario(
        {
            "format": {
                "preset": "xq-bidding",
                "slow_games": 4,
                "slow_minutes": 90,
                "rapid_games": 2,
                "increment_seconds": 30,
                "sudden_death": {
                    "accept": [25, 10],
                    "object_red": [10, 25],
                    "object_black": [40, 5],
                    "priority": "lot",
                    "draw_winner": "red",
                },
                "rapid": {"colours": "alternate", "time_class": "blitz"},
            },
            "players": TWO,
        }
    )
    fmt = sc.format
    slow, rapid, sd = fmt.playable
    assert (slow.games, slow.minutes, slow.increment_seconds) == (4, (90.0, 90.0), 30.0)
    assert (rapid.games, rapid.colours, rapid.time_class) == (
        2,
        ColourRule.ALTERNATE,
        TimeClass.BLITZ,
    )
    assert sd.bidding is not None
    assert (sd.bidding.accept, sd.bidding.object_black, sd.bidding.priority) == (
        (25.0, 10.0),
        (40.0, 5.0),
        "lot",
    )
    assert sd.draw_winner is Colour.RED


def test_single_slow_has_no_rapid_stage() -> None:
    sc = parse_scenario({"format": {"preset": "single-slow"}, "players": TWO})
    assert sc.format.stage_names == ("slow", "sudden_death")
    assert sc.to_dict()["format"]["rapid_games"] == 0


def test_custom_format() -> None:
    sc = parse_scenario(
        {
            "format": {
                "preset": "custom",
                "stages": [
                    {"name": "slow", "games": 2, "time_class": "classical", "minutes": 90},
                    {
                        "name": "armageddon",
                        "games": 1,
                        "time_class": "blitz",
                        "minutes": [6, 5],
                        "draw_winner": "black",
                    },
                ],
            },
            "players": TWO,
        }
    )
    assert sc.format.stage_names == ("slow", "armageddon")
    assert parse_scenario(sc.to_dict()) == sc


def test_every_problem_listed_one_per_line() -> None:
    lines = problems(
        {
            "name": "x",
            "colour": "red",
            "format": {"preset": "xq-bidding", "slow_minutes": -5, "rapid_gmes": 1},
            "model": {"draw_nu": {"blitz": float("nan")}},
            "strategy": {"kind": "clever", "belief_sd": -1},
            "players": [
                {"name": "A", "rating": "abc"},
                {"name": "A", "rating": float("inf"), "speed": {"mean": 0.7, "sd": -0.1}},
            ],
        }
    )
    text = "\n".join(lines)
    expected = [
        "s.toml: colour: unknown key",
        "s.toml: format.slow_minutes: expected a number > 0, got -5",
        "s.toml: format.rapid_gmes: unknown key (did you mean 'rapid_games'?)",
        "s.toml: model.draw_nu.blitz: expected a finite number, got nan",
        "s.toml: strategy.kind: expected one of 'rational', 'naive', 'believed', 'bayesian' or "
        "'equilibrium', got 'clever'",
        "s.toml: strategy.belief_sd: expected a number >= 0, got -1",
        "s.toml: players[0].rating: expected a number, got 'abc'",
        "s.toml: players[1].rating: expected a finite number, got inf",
        "s.toml: players[1].speed.sd: expected a number >= 0, got -0.1",
    ]
    for e in expected:
        assert any(line.startswith(e) for line in lines), f"{e!r} not in\n{text}"


def test_duplicate_names_and_too_few_players() -> None:
    assert problems({"players": [{"name": "A", "rating": 1}, {"name": " A ", "rating": 2}]}) == [
        "s.toml: players[1].name: duplicate name 'A' (also players[0])"
    ]
    assert problems({"players": [{"name": "A", "rating": 1}]}) == [
        "s.toml: players: expected at least two players, got 1"
    ]
    assert problems({}) == ["s.toml: players: required key is missing"]


def test_impossible_formats() -> None:
    lines = problems({"format": {"slow_games": 0, "rapid_games": 0}, "players": TWO})
    assert lines == [
        "s.toml: format.sudden_death: the bidding stage needs a previous game (to find 甲)"
    ]
    lines = problems({"format": {"sudden_death": {"draw_winner": "none"}}, "players": TWO})
    assert any("needs a draw winner" in line for line in lines)
    lines = problems({"format": {"slow_games": 2, "slow": {"games": 3}}, "players": TWO})
    assert lines == [
        "s.toml: format.slow_games: disagrees with format.slow.games (2 vs 3): give it once"
    ]
    lines = problems({"format": {"preset": "nope"}, "players": TWO})
    assert lines[0].startswith("s.toml: format.preset: expected one of xq-bidding")


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read the file: No such file or directory"):
        load_scenario(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    assert err.value.lines() == [f"{bad}: line 1, column 8: not valid TOML: Invalid value"]


@pytest.mark.parametrize("codec", ["gb18030", "utf-16", "utf-16-le"])
def test_any_encoding_with_encoding_option_and_a_hint_without(tmp_path: Path, codec: str) -> None:
    text = (
        '[[players]]\nname = "王天一"\nrating = 2600\n[[players]]\nname = "郑惟桐"\nrating = 2550\n'
    )
    f = tmp_path / "cn.toml"
    f.write_bytes(text.encode(codec))
    assert load_scenario(f, encoding=codec).players[0].name == "王天一"
    if codec == "utf-16":  # has a byte-order mark: recognised without --encoding
        assert load_scenario(f).players[1].name == "郑惟桐"
        return
    with pytest.raises(ScenarioError) as err:
        load_scenario(f)
    (line,) = err.value.lines()
    assert line.startswith(f"{f}: line ") and "--encoding gb18030" in line
    assert "--encoding utf-16" in line


def test_players_written_as_a_table_suggests_the_array_of_tables(tmp_path: Path) -> None:
    f = tmp_path / "one.toml"
    f.write_text('[players]\nname = "A"\nrating = 2500\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(f)
    assert err.value.lines() == [
        f"{f}: players: expected an array of tables, got a single table: write [[players]] "
        "for each entry, not [players]"
    ]


def test_chinese_names_and_bom(tmp_path: Path) -> None:
    f = tmp_path / "cn.toml"
    text = (
        '[[players]]\nname = "王天一"\nrating = 2600\n[[players]]\nname = "郑惟桐"\nrating = 2550\n'
    )
    f.write_text("\ufeff" + text, encoding="utf-8")
    sc = load_scenario(f)
    assert [p.name for p in sc.players] == ["王天一", "郑惟桐"]


def test_model_version_2_time_classes_follow_the_clocks() -> None:
    sc = parse_scenario({"players": TWO})
    pairing_classes = [s.time_class_for(sc.model.moves).value for s in sc.format.playable]
    assert pairing_classes == ["classical", "rapid", "rapid"]  # the sudden death is rapid now
    slower = parse_scenario({"players": TWO, "format": {"sudden_death": {"accept": [60, 40]}}})
    assert slower.format.stage("sudden_death").time_class_for(60).value == "classical"
    fixed = parse_scenario({"players": TWO, "format": {"sudden_death": {"time_class": "blitz"}}})
    assert fixed.to_dict()["format"]["sudden_death"]["time_class"] == "blitz"
    assert parse_scenario(fixed.to_dict()) == fixed


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (
            {"model": {"elo_per_doubling": {"rapid": -1}}},
            "model.elo_per_doubling.rapid: expected a number >= 0, got -1",
        ),
        (
            {"model": {"draw_nu": {"blitz": -0.5}}},
            "model.draw_nu.blitz: expected a number >= 0, got -0.5",
        ),
        ({"model": {"moves": 0}}, "model.moves: expected a number >= 1, got 0"),
        (
            {"players": [{"name": "A", "rating": 1, "speed": {"mean": 0}}, TWO[1]]},
            "players[0].speed.mean: expected a number > 0, got 0",
        ),
        (
            {"players": [{"name": "A", "rating": 1, "speed": {"mean": 1.2}}, TWO[1]]},
            "players[0].speed.mean: expected a number <= 1, got 1.2",
        ),
        (
            {"players": [{"name": "A", "rating": 1, "speed": {"sd": 0.6}}, TWO[1]]},
            "players[0].speed.sd: expected a number <= 0.5, got 0.6",
        ),
    ],
)
def test_values_no_player_could_have_are_refused(data: dict[str, object], line: str) -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario({"players": TWO, **data}, source="s.toml")
    assert err.value.lines() == [f"s.toml: {line}"]


# A match replayed to its sudden-death game: A used less time in the rapid game, so A is 甲.
TO_SUDDEN_DEATH: list[dict[str, object]] = [
    {"red": "A", "black": "B", "stage": "slow", "result": "red"},
    {"red": "B", "black": "A", "stage": "slow", "result": "red"},
    {
        "red": "A",
        "black": "B",
        "stage": "rapid",
        "result": "draw",
        "time_used": {"A": 700, "B": 800},
    },
]
BID: dict[str, object] = {
    "stage": "sudden_death",
    "chooser": "A",
    "announce": "red",
    "reply": "object",
}
THREE = [*TWO, {"name": "C", "rating": 2300}]


def test_a_bid_entry_gets_its_colours_from_the_rule_and_round_trips() -> None:
    sc = parse_scenario({"players": TWO, "played": [*TO_SUDDEN_DEATH, BID]})
    bid = sc.played[-1]
    # 甲 A announces Red, 乙 B objects: B has Red (on object_red's clocks)
    assert bid.made is not None
    assert (bid.red, bid.black, bid.result, bid.made.decider) == ("B", "A", None, "A")
    assert sc.to_dict()["played"][-1] == BID  # no red, black or result: they follow from it
    assert parse_scenario(json.loads(json.dumps(sc.to_dict()))) == sc
    # red and black may be given if they agree; a played sudden-death game may carry its bid
    given = parse_scenario(
        {"players": TWO, "played": [*TO_SUDDEN_DEATH, {**BID, "red": "B", "black": "A"}]}
    )
    assert given == sc
    played = {**BID, "red": "B", "black": "A", "result": "draw"}
    done = parse_scenario({"players": TWO, "played": [*TO_SUDDEN_DEATH, played]})
    assert done.to_dict()["played"][-1] == played
    assert parse_scenario(done.to_dict()) == done


def bid_problems(played: list[dict[str, object]], players: object = TWO) -> list[str]:
    with pytest.raises(ScenarioError) as err:
        parse_scenario({"players": players, "played": played}, source="s.toml")
    return err.value.lines()


@pytest.mark.parametrize(
    ("played", "line"),
    [
        (  # not the last entry of its match
            [
                *TO_SUDDEN_DEATH,
                BID,
                {"red": "B", "black": "A", "stage": "sudden_death", "result": "red"},
            ],
            "played[3].result: a bid without a result must be the last entry of its match "
            "(A v B), got a sudden_death entry after it",
        ),
        (  # before the match reaches the bidding stage
            [TO_SUDDEN_DEATH[0], BID],
            "played[1].stage: expected a slow game here: the match A v B has not reached the "
            "sudden_death stage, so its bid cannot be recorded yet",
        ),
        (  # 甲 not a player of the scenario
            [*TO_SUDDEN_DEATH, {**BID, "chooser": "Z"}],
            "played[3].chooser: unknown player 'Z'",
        ),
        (  # 甲 not the player the rapid game's times name
            [*TO_SUDDEN_DEATH, {**BID, "chooser": "B"}],
            "played[3].chooser: expected 'A' as 甲 (used less time in the previous game: "
            "A 700 s, B 800 s), got 'B'",
        ),
        (  # a result-less entry at a stage without a bid
            [TO_SUDDEN_DEATH[0], {"red": "B", "black": "A", "stage": "slow"}],
            "played[1].result: expected red, draw or black (only the sudden_death game's bid, "
            "with chooser, announce and reply, can be given without its result), got nothing",
        ),
        (  # a bid at a stage that has none
            [*TO_SUDDEN_DEATH[:2], {**BID, "stage": "rapid"}],
            "played[2].stage: expected 'sudden_death' (only the sudden-death game has a bid: "
            "chooser, announce, reply), got 'rapid'",
        ),
        (  # half a bid
            [*TO_SUDDEN_DEATH, {"stage": "sudden_death", "chooser": "A", "announce": "red"}],
            "played[3].reply: expected 'accept' or 'object' (a bid gives chooser, announce and "
            "reply), got nothing",
        ),
        (  # colours that are not the bid's
            [*TO_SUDDEN_DEATH, {**BID, "red": "A", "black": "B", "result": "red"}],
            "played[3].red: expected 'B': the bid gives Red to B (甲 A announces red, 乙 B "
            "objects), got 'A'",
        ),
        (
            [*TO_SUDDEN_DEATH, {**BID, "announce": "Red"}],
            "played[3].announce: expected one of 'red' or 'black', got 'Red'",
        ),
    ],
)
def test_bad_bid_entries_are_one_line_each(played: list[dict[str, object]], line: str) -> None:
    assert bid_problems(played) == [f"s.toml: {line}"]


def test_a_bid_in_a_bracket_belongs_to_the_choosers_match() -> None:
    four = [*THREE, {"name": "D", "rating": 2200}]
    # A v D in round 1 (2 v 3 is B v C): A's last game names the match
    games = [
        {**g, "red": str(g["red"]).replace("B", "D"), "black": str(g["black"]).replace("B", "D")}
        for g in TO_SUDDEN_DEATH
    ]
    for g in games:
        if isinstance(g.get("time_used"), dict):
            g["time_used"] = {"A": 700, "D": 800}
    sc = parse_scenario({"players": four, "played": [*games, BID]})
    assert (sc.played[-1].red, sc.played[-1].black) == ("D", "A")
    progress = sc.event_state().progress[(1, 0)]
    assert progress.replayed is not None and progress.replayed.bid is not None
    # a chooser with no game listed before the bid: its match is not known
    assert bid_problems([{**BID, "chooser": "C"}, *games], four) == [
        "s.toml: played[0].chooser: expected a game of C's listed before this bid (the games "
        "of its match come first), got none"
    ]
    # red and black given: the chooser must be a player of that match
    wrong = {**BID, "chooser": "B", "red": "D", "black": "A"}
    assert bid_problems([*games, wrong], four) == [
        "s.toml: played[3].chooser: expected 'A' or 'D' (the players of this match), got 'B'"
    ]
