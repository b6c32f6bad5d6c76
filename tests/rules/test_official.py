"""The rule book's six knockout schemes (official-1 ... official-6) and the four rules for who
chooses the 附加赛's colours, checked against closed forms written here from the rules and the
model (MODEL.md), for equal players and a 100-Elo gap; then every walker and organiser mode."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from knockout.engine.match import play_match
from knockout.errors import ScenarioError
from knockout.event.decisions import choice_answer
from knockout.event.state import NextGame, PendingDecision
from knockout.event.store import create_event, load_event, record_decision, record_game
from knockout.exact.solver import solve
from knockout.rules.book.formats import Format
from knockout.rules.book.presets import FORMATS
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Rational
from knockout.rules.model.players import Player
from knockout.rules.scenario.aggregate import parse_scenario
from sims.kernel import MatchTables, simulate

RED_ADVANTAGE = 400 * math.log10(391 / 270)
NU = {"classical": 557 / math.sqrt(391 * 270), "rapid": 1.0, "blitz": 0.8}
RULES = ("lot", "higher-ranked", "last-black", "first-black")

#: (class, Red's effective clock, Black's) of each stage: base + 60 moves x increment / 60.
SLOW = ("classical", 70.0, 70.0)  # 60 + 10 s
KUAI = ("rapid", 20.0, 20.0)  # 快棋 10 + 10 s
CHAO = ("blitz", 8.0, 8.0)  # 超快棋 5 + 3 s
FUJIA = ("blitz", 9.0, 7.0)  # 附加赛 6/4 + 3 s


def game(stage: tuple[str, float, float], a: float, b: float, a_red: bool) -> tuple[float, ...]:
    """(A wins, draw, A loses) of one game: Davidson with Red's edge and the time odds."""
    tc, t_red, t_black = stage
    red, black = (a, b) if a_red else (b, a)
    d = red - black + RED_ADVANTAGE + 120 * math.log2(t_red / t_black)
    g = 10 ** (d / 400)
    z = g + 1 + NU[tc] * math.sqrt(g)
    p_red, p_draw, p_black = g / z, NU[tc] * math.sqrt(g) / z, 1 / z
    return (p_red, p_draw, p_black) if a_red else (p_black, p_draw, p_red)


def fujia(a: float, b: float, a_chooses: bool) -> float:
    """P(A advances) in the 附加赛 (a draw counts for Black): the chooser takes the colour with
    the better chance."""
    w_red, _, _ = game(FUJIA, a, b, True)
    w_black, draw, _ = game(FUJIA, a, b, False)
    as_red, as_black = w_red, w_black + draw  # A's chance with each colour
    if a_chooses:
        return max(as_red, as_black)
    b_red, b_black = 1 - as_black, 1 - as_red  # B's chance when B takes Red / Black
    return 1 - max(b_red, b_black)


def chooser_is_a(rule: str, a: float, b: float, a_red_first: bool, a_black_last: bool) -> float:
    """P(A chooses) under each rule."""
    if rule == "lot":
        return 0.5
    if rule == "higher-ranked":
        return 1.0 if a > b else 0.0 if b > a else 0.5
    if rule == "last-black":
        return 1.0 if a_black_last else 0.0
    return 0.0 if a_red_first else 1.0  # first-black


def decider(rule: str, a: float, b: float, a_red_first: bool, a_black_last: bool) -> float:
    p = chooser_is_a(rule, a, b, a_red_first, a_black_last)
    return p * fujia(a, b, True) + (1 - p) * fujia(a, b, False)


def two_games(
    stage: tuple[str, float, float], a: float, b: float, a_red: bool
) -> tuple[float, ...]:
    """(A ahead, level, B ahead) after two games of ``stage``, A first with Red if ``a_red``."""
    w1, d1, l1 = game(stage, a, b, a_red)
    w2, d2, l2 = game(stage, a, b, not a_red)
    return w1 * w2 + w1 * d2 + d1 * w2, w1 * l2 + l1 * w2 + d1 * d2, l1 * l2 + l1 * d2 + d1 * l2


def scheme_1(rule: str, a: float, b: float) -> float:
    """Slow (A Red if c), 快棋 with colours swapped, 附加赛 (games before it: 2)."""
    total = 0.0
    for c in (True, False):
        w_s, d_s, _ = game(SLOW, a, b, c)
        w_k, d_k, _ = game(KUAI, a, b, not c)
        total += 0.5 * (w_s + d_s * (w_k + d_k * decider(rule, a, b, c, a_black_last=c)))
    return total


def scheme_2(rule: str, a: float, b: float) -> float:
    """Slow (c), 快棋 (not c), 超快棋 (c), 附加赛."""
    total = 0.0
    for c in (True, False):
        w_s, d_s, _ = game(SLOW, a, b, c)
        w_k, d_k, _ = game(KUAI, a, b, not c)
        w_c, d_c, _ = game(CHAO, a, b, c)
        last = decider(rule, a, b, c, a_black_last=not c)
        total += 0.5 * (w_s + d_s * (w_k + d_k * (w_c + d_c * last)))
    return total


def scheme_3(rule: str, a: float, b: float) -> float:
    """Slow (c), 快棋 (not c), two 超快棋 (c, not c), 附加赛."""
    total = 0.0
    for c in (True, False):
        w_s, d_s, _ = game(SLOW, a, b, c)
        w_k, d_k, _ = game(KUAI, a, b, not c)
        ahead, level, _ = two_games(CHAO, a, b, c)
        last = decider(rule, a, b, c, a_black_last=c)
        total += 0.5 * (w_s + d_s * (w_k + d_k * (ahead + level * last)))
    return total


def scheme_4(rule: str, a: float, b: float) -> float:
    """Slow (c), 快棋 (not c), then 超快棋 (c, not c, c, ...) until one is decisive: a
    geometric series over pairs of draws."""
    total = 0.0
    for c in (True, False):
        w_s, d_s, _ = game(SLOW, a, b, c)
        w_k, d_k, _ = game(KUAI, a, b, not c)
        w1, d1, _ = game(CHAO, a, b, c)
        w2, d2, _ = game(CHAO, a, b, not c)
        chao = (w1 + d1 * w2) / (1 - d1 * d2)
        total += 0.5 * (w_s + d_s * (w_k + d_k * chao))
    return total


def scheme_5(rule: str, a: float, b: float) -> float:
    """Two slow (c, not c), two 超快棋 (c, not c), 附加赛."""
    total = 0.0
    for c in (True, False):
        s_ahead, s_level, _ = two_games(SLOW, a, b, c)
        c_ahead, c_level, _ = two_games(CHAO, a, b, c)
        last = decider(rule, a, b, c, a_black_last=c)
        total += 0.5 * (s_ahead + s_level * (c_ahead + c_level * last))
    return total


def scheme_6(rule: str, a: float, b: float, cap: int = 4) -> float:
    """Two slow (c, not c), then up to ``cap`` 超快棋 (c, not c, ...) until one is decisive,
    then the 附加赛."""
    total = 0.0
    for c in (True, False):
        s_ahead, s_level, _ = two_games(SLOW, a, b, c)
        chao, level, colour = 0.0, 1.0, c
        for _ in range(cap):
            w, d, _ = game(CHAO, a, b, colour)
            chao += level * w
            level *= d
            colour = not colour
        last = decider(rule, a, b, c, a_black_last=colour)  # colour: A's in a game after
        total += 0.5 * (s_ahead + s_level * (chao + level * last))
    return total


SCHEMES: dict[str, Callable[[str, float, float], float]] = {
    "official-1": scheme_1,
    "official-2": scheme_2,
    "official-3": scheme_3,
    "official-4": scheme_4,
    "official-5": scheme_5,
    "official-6": scheme_6,
}


def _with_chooser(preset: str, rule: str) -> Format:
    return FORMATS[preset].with_stage("decider", chooser=rule)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("preset", sorted(SCHEMES))
@pytest.mark.parametrize(("a", "b"), [(2500.0, 2500.0), (2550.0, 2450.0), (2450.0, 2550.0)])
def test_the_schemes_reproduce_their_closed_forms(
    preset: str, rule: str, a: float, b: float
) -> None:
    fmt = _with_chooser(preset, rule)
    sol = solve(Pairing.of(fmt, Player("A", a), Player("B", b), strategy=Rational()))
    assert float(sol.win[0, 0]) == pytest.approx(SCHEMES[preset](rule, a, b), abs=1e-13)


def test_equal_players_are_even_in_every_scheme_whatever_the_rule() -> None:
    for scheme in SCHEMES.values():
        for rule in RULES:
            assert scheme(rule, 2500, 2500) == pytest.approx(0.5, abs=1e-14)


def test_the_rules_change_who_chooses() -> None:
    """Between unequal players the chooser's identity moves the odds (a check that the closed
    forms would see a wrong rule): the stronger player choosing is worth more than a lot. In
    official-1 two games precede the 附加赛, so the player with Black in the last one had Red in
    the first: the two colour rules name opposite players (after an odd number of games, as in
    official-2, they name the same one)."""
    by_rule = {rule: scheme_1(rule, 2550, 2450) for rule in RULES}
    assert by_rule["higher-ranked"] > by_rule["lot"]
    assert by_rule["last-black"] != pytest.approx(by_rule["first-black"], abs=1e-6)
    assert scheme_2("last-black", 2550, 2450) == pytest.approx(scheme_2("first-black", 2550, 2450))


def test_the_presets_clocks_and_classes() -> None:
    f = FORMATS["official-2"]
    assert [(s.name, s.games, s.minutes, s.increment_seconds) for s in f.playable] == [
        ("slow", 1, (60.0, 60.0), 10.0),
        ("rapid", 1, (10.0, 10.0), 10.0),
        ("super_rapid", 1, (5.0, 5.0), 3.0),
        ("decider", 1, (6.0, 4.0), 3.0),
    ]
    assert [s.time_class_for(60).value for s in f.playable] == [
        "classical",
        "rapid",
        "blitz",
        "blitz",
    ]
    assert FORMATS["official-4"].max_games is None
    assert FORMATS["official-6"].max_games == 2 + 4 + 1


def _scenario(preset: str, rule: str, a: float = 2550, b: float = 2450) -> dict[str, object]:
    return {
        "format": {"preset": preset, "decider": {"chooser": rule}},
        "players": [{"name": "A", "rating": a}, {"name": "B", "rating": b}],
    }


def test_the_chooser_is_a_format_key_that_round_trips() -> None:
    for rule in RULES:
        sc = parse_scenario(_scenario("official-3", rule))
        assert sc.to_dict()["format"]["decider"]["chooser"] == rule
        assert parse_scenario(sc.to_dict()) == sc


def test_a_rule_that_reads_colours_needs_them() -> None:
    data = {
        "format": {
            "preset": "custom",
            "stages": [
                {"name": "slow", "games": 1, "minutes": 60},
                {"name": "rapid", "games": 1, "minutes": 15, "colours": "lot"},
                {
                    "name": "decider",
                    "games": 1,
                    "minutes": [6, 4],
                    "colours": "choice",
                    "chooser": "first-black",
                    "draw_winner": "black",
                },
            ],
        },
        "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2500}],
    }
    with pytest.raises(ScenarioError) as err:
        parse_scenario(data, source="s.toml")
    assert err.value.lines() == [
        "s.toml: format.decider.chooser: 'first-black' reads the first game's colours off the "
        "previous game's, so every stage between them needs colours = 'alternate'"
    ]
    data["format"]["stages"][1]["colours"] = "alternate"  # type: ignore[index]
    parse_scenario(data)
    only = {
        "format": {
            "preset": "red-handicap",
            "decider": {"colours": "choice", "chooser": "last-black"},
        },
        "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2500}],
    }
    with pytest.raises(ScenarioError) as err:
        parse_scenario(only, source="s.toml")
    assert err.value.lines() == [
        "s.toml: format.decider.chooser: 'last-black' needs a previous game (whose colours name it)"
    ]


def test_a_cap_on_the_blocks_needs_a_repeating_stage() -> None:
    data = _scenario("official-5", "lot")
    data["format"] = {"preset": "official-5", "super_rapid": {"max_blocks": 3}}
    with pytest.raises(ScenarioError) as err:
        parse_scenario(data, source="s.toml")
    assert err.value.lines() == [
        "s.toml: format.super_rapid.max_blocks: a cap on the blocks needs repeat = true"
    ]


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES)
def test_the_walkers_agree_on_each_rule(rule: str) -> None:
    """The Monte Carlo kernel and the SimPy engine against the exact odds, within 4 standard
    errors, where the rule matters (official-2 between unequal players)."""
    fmt = _with_chooser("official-2", rule)
    a, b = Player("A", 2550), Player("B", 2450)
    pairing = Pairing.of(fmt, a, b, strategy=Rational())
    p = float(solve(pairing).win[0, 0])
    n = 400_000
    out = simulate(MatchTables.from_pairing(pairing), n, np.random.default_rng(7))
    assert abs(float(np.mean(out.winner == 0)) - p) <= 4 * math.sqrt(p * (1 - p) / n)
    rng = np.random.default_rng(9)
    m = 1200
    wins = sum(
        play_match(fmt, a, b, strategy=Rational(), rng=rng)[0].winner == "A" for _ in range(m)
    )
    assert abs(wins / m - p) <= 4 * math.sqrt(p * (1 - p) / m)


def test_the_decider_chooser_follows_the_rule_in_the_chain() -> None:
    """From a played path, the kernel's exact stage table and the engine's log name the chooser
    the rule names."""
    fmt = _with_chooser("official-1", "last-black")
    a, b = Player("A", 2500), Player("B", 2500)
    rng = np.random.default_rng(1)
    for _ in range(200):
        record, _log = play_match(fmt, a, b, strategy=Rational(), rng=rng)
        if record.decided_in == "decider":
            rapid = record.games[1]
            assert record.games[2].chooser == rapid.black
            return
    pytest.fail("no match reached the decider")


@pytest.mark.parametrize("rule", ["last-black", "first-black", "higher-ranked"])
def test_organiser_mode_asks_the_player_the_rule_names(rule: str, tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        f'[format]\npreset = "official-1"\n[format.decider]\nchooser = "{rule}"\n'
        '[[players]]\nname = "A"\nrating = 2560\n[[players]]\nname = "B"\nrating = 2500\n',
        encoding="utf-8",
    )
    db = tmp_path / "e.db"
    create_event(db, scenario, command="test", seed=5)
    for _ in range(3):
        ev = load_event(db)
        m = ev.find_match("R1-M1")
        step = ev.next_step(m)
        if isinstance(step, PendingDecision) and step.kind == "choice":
            break
        assert isinstance(step, NextGame)
        record_game(db, "R1-M1", step.number, "1/2")
    assert isinstance(step, PendingDecision) and step.kind == "choice"
    games = m.games
    expected = {
        "last-black": games[-1].black,
        "first-black": games[0].black,
        "higher-ranked": "A",
    }[rule]
    assert step.chooser == expected
    record_decision(db, "R1-M1", choice_answer(colour="black"))
    ev = load_event(db)
    nxt = ev.next_step(ev.find_match("R1-M1"))
    assert isinstance(nxt, NextGame) and nxt.black == expected
