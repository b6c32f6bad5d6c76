"""``knockout games`` commands: the JSON shapes the issue fixes, on the sample and the bundle."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.corpus.bundle import bundled_games
from knockout.corpus.seed000 import SEED_EVENTS, hypergeometric_p
from knockout.corpus.table import COLUMNS
from knockout.program import app

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "ccpd" / "Dataset"


def _json(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def sample_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("games") / "games.csv"
    report = _json("games", "import", str(SAMPLE), "--out", str(out), "--json")
    assert report["games"]["kept"] == 12
    assert out.read_text(encoding="utf-8").splitlines()[8] == ",".join(COLUMNS)
    return out


def test_summary_json(sample_table: Path) -> None:
    out = _json("games", "summary", str(sample_table), "--by", "year", "--json")
    assert set(out) == {"version", "groups"}
    for group in out["groups"]:
        assert set(group) == {
            "key",
            "games",
            "red",
            "draw",
            "black",
            "red_se",
            "draw_se",
            "black_se",
        }
        assert math.isclose(group["red"] + group["draw"] + group["black"], 1.0)
        n, p = group["games"], group["draw"]
        assert math.isclose(group["draw_se"], math.sqrt(p * (1 - p) / n))
    years = [g["key"] for g in out["groups"]]
    assert years == sorted(years, key=lambda k: (k == "unknown", k))


def test_summary_of_the_bundled_table_counts_every_game_with_a_result() -> None:
    rows = bundled_games()
    out = _json("games", "summary", "--json")
    assert sum(g["games"] for g in out["groups"]) == sum(r.result != "*" for r in rows)


def test_compare_seed000_json_and_the_exact_test(sample_table: Path) -> None:
    out = _json("games", "compare-seed000", "--games", str(sample_table), "--json")
    assert [e["event"] for e in out["events"]] == [e.name for e in SEED_EVENTS]
    first = out["events"][0]
    assert first["seed"]["games"] == 500 and first["seed"]["red"] == 156
    assert {"hypergeometric_p", "chi_square", "chi_square_p"} <= set(first)
    assert out["by_source"][-1]["key"] == "all"
    # The exact test by brute force: enumerate every split of 6 games drawn from (3, 2, 1).
    from itertools import combinations

    balls = ["r"] * 3 + ["d"] * 2 + ["b"]
    draws = list(combinations(range(6), 3))
    count = {}
    for d in draws:
        split = tuple(sum(balls[i] == c for i in d) for c in "rdb")
        count[split] = count.get(split, 0) + 1
    observed = count[(0, 2, 1)] / len(draws)
    brute = sum(c for c in count.values() if c / len(draws) <= observed + 1e-12) / len(draws)
    assert math.isclose(hypergeometric_p([3, 2, 1], [0, 2, 1]), brute)


def test_draws_json(sample_table: Path) -> None:
    out = _json("games", "draws", "--games", str(sample_table), "--json")
    bands = {b["band"]: b["draws"] for b in out["draws"]["bands"]}
    # The sample's draws: 李來群 v 許銀川 (11 moves), 呂欽 v 胡榮華 (23), 卜鳳波 v 電腦 is an
    # engine game; 王嘉良 v 胡榮華 B, 劉星 v 徐天紅 C, 呂欽 v 苗永鵬 D; 尚威 v 胡榮華 broke.
    assert bands == {"1-30": 2, "31-60": 0, "A": 0, "B": 1, "C": 1, "D": 1}
    assert out["draws"]["draws_unscored"] == 1
    assert out["round_robins"] == []
