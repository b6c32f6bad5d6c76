"""The benchmark's self-play figure: the same run with one job and with two (a stand-in engine:
nothing timed is asserted), and what it says without an engine."""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip("pyffish", reason="pip install 'knockout[selfplay]' for the rules library")

from knockout.bench import selfplay
from knockout.bench.selfplay import SelfPlayCheck, selfplay_check
from knockout.selfplay.uci import EngineError


@pytest.mark.system
def test_the_same_games_with_one_job_and_two(fake_engine: Callable[..., str]) -> None:
    said: list[str] = []
    check = selfplay_check(6, 2, said.append, engine=fake_engine(), max_plies=24)
    assert isinstance(check, SelfPlayCheck)
    assert (check.games, check.jobs, check.nodes) == (6, 2, selfplay.SELFPLAY_NODES)
    assert check.same_files
    assert check.one_per_minute > 0 and check.many_per_minute > 0
    assert check.ratio == check.many_per_minute / check.one_per_minute
    assert ["--jobs 1" in said[0], "--jobs 2" in said[1]] == [True, True]


def test_without_an_engine_it_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(path: str | None) -> str:
        raise EngineError("not installed")

    monkeypatch.setattr("knockout.selfplay.uci.find_engine", missing)
    said = selfplay_check(4, 2, lambda _: None)
    assert isinstance(said, str) and said.startswith("not measured (no Xiangqi engine")
