"""``apply_overrides`` copies only what it changes, and never changes what it was given."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

from knockout.io.overrides import apply_overrides, parse_override

FINAL = Path(__file__).resolve().parents[2] / "scenarios" / "final-2600-vs-2550.toml"


def test_the_given_data_is_left_as_it_was_and_untouched_tables_are_shared() -> None:
    data = tomllib.loads(FINAL.read_text(encoding="utf-8"))
    data["model"] = {"draw_nu": {"rapid": 1.0}, "sd": {"draw_nu": {"rapid": 0.1}}}
    before = copy.deepcopy(data)
    name = data["players"][0]["name"]
    texts = [
        "model.draw_nu.rapid=0.5",
        "model.sd.draw_nu.rapid=0.0",
        f"players.{name}.rating=2700",
        "format.sudden_death.accept=[25, 10]",
        "bracket.third_place=true",
    ]
    out, keys, problems = apply_overrides(data, [parse_override(t) for t in texts])
    assert problems == []
    assert data == before  # nothing given was changed
    assert out["model"]["draw_nu"]["rapid"] == 0.5 and out["model"]["sd"]["draw_nu"]["rapid"] == 0
    assert out["players"][0]["rating"] == 2700 and data["players"][0]["rating"] != 2700
    assert out["format"]["sudden_death"]["accept"] == [25, 10]
    assert out["bracket"] == {"third_place": True}
    assert out["players"][1] is data["players"][1]  # not on a path: shared, not copied
    assert set(keys) >= {"players[0].rating", "model.draw_nu.rapid"}
