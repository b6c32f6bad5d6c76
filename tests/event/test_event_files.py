"""The entry list (CSV) and the TOML writer behind the scenario export."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from event_helpers import CUP_PLAYERS, ROOT
from hypothesis import given
from hypothesis import strategies as st

from knockout.errors import InputError
from knockout.event.players import parse_players, read_players
from knockout.event.toml import dumps
from knockout.io.scenario import load_scenario


def test_bundled_entry_list() -> None:
    players = read_players(CUP_PLAYERS)
    assert len(players) == 16 and players[0].name == "王立新"
    assert players[0].rating_rapid == 2570 and players[0].federation == "Beijing"
    assert players[2].name == "赵雪"  # the space between Chinese characters is dropped
    assert players[1].rating_rapid is None and players[1].seed is None


def test_bom_and_gb18030(tmp_path: Path) -> None:
    text = "name,rating,seed\n程鸣,2600,2\n王天一,2650,1\n"
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert [p.name for p in read_players(bom)] == ["程鸣", "王天一"]
    gb = tmp_path / "gb.csv"
    gb.write_bytes(text.encode("gb18030"))
    with pytest.raises(InputError, match="gb18030"):
        read_players(gb)
    assert [p.seed for p in read_players(gb, encoding="gb18030")] == [2, 1]


def test_one_problem_per_bad_line() -> None:
    text = (
        "name,rating,rating_blitz,seed\n"
        "A,2500,,1\n"
        ",2400,,\n"
        "B,high,,\n"
        "C,2300,-5,x\n"
        "A,2200,,\n"
        "D,2100\n"
    )
    with pytest.raises(InputError) as info:
        parse_players(text, source="p.csv")
    assert info.value.lines() == [
        "p.csv: line 3, name: expected a name, found nothing",
        "p.csv: line 4, rating: expected a rating from 0 to 4000, found 'high'",
        "p.csv: line 5, rating_blitz: expected a rating from 0 to 4000, found '-5'",
        "p.csv: line 5, seed: expected a whole number >= 1, found 'x'",
        "p.csv: line 6, name: expected a name not already listed, found 'A' again (first on "
        "line 2)",
        "p.csv: line 7: expected 4 cells (name, rating, rating_blitz, seed), got 2",
    ]


def test_header_problems() -> None:
    with pytest.raises(InputError, match="missing column 'rating'"):
        parse_players("name,elo\nA,1\n", source="p.csv")
    with pytest.raises(InputError, match="expected at least two players"):
        parse_players("name,rating\nA,1\n", source="p.csv")


@pytest.mark.parametrize(
    "name", ["example.toml", "open-12-in-progress.toml", "official-playoff.toml"]
)
def test_scenarios_round_trip_through_toml(name: str) -> None:
    data = load_scenario(ROOT / "scenarios" / name).to_dict()
    assert tomllib.loads(dumps(data, header=["a comment"])) == data


keys = st.text(min_size=1, max_size=8)
scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=10),
)
values = st.one_of(scalars, st.lists(scalars, max_size=3))
tables = st.dictionaries(keys, values, max_size=4)


@given(
    st.dictionaries(
        keys,
        st.one_of(values, tables, st.lists(st.dictionaries(keys, values, max_size=3), max_size=3)),
        max_size=5,
    )
)
def test_toml_round_trip(data: dict[str, Any]) -> None:
    assert tomllib.loads(dumps(data)) == data
