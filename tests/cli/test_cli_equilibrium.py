"""knockout equilibrium through the CLI: the issue's JSON keys, the verdicts computed from the
numbers, the view, and one line per bad input."""

from __future__ import annotations

import pytest
from conftest import SCENARIOS, run_json
from typer.testing import CliRunner

from knockout.program import app
from knockout.rules.decisions.strategies import STRATEGIES
from knockout.studies.equilibrium import VERIFIED

FINAL = str(SCENARIOS / "final-2600-vs-2550.toml")
A, B = "王天一", "郑惟桐"
runner = CliRunner()


@pytest.mark.parametrize(
    ("preset", "sd"),
    [("xq-bidding", 150), ("armageddon-vickrey", 0), ("cut-choose", 0), ("xq-bidding", 0)],
)
def test_the_json_has_the_issue_keys(preset: str, sd: int) -> None:
    out = run_json(
        "equilibrium",
        FINAL,
        "--json",
        "--set",
        f"format.preset={preset}",
        "--set",
        f"strategy.belief_sd={sd}",
    )
    assert set(out) == {
        "version",
        "scenario",
        "rule",
        "equilibria",
        "exploitability",
        "max_deviation_gain",
        "tolerance",
        "verified",
        "win_by_kind",
        "notes",
    }
    # the verification tolerance the text prints, and the verdict it gives
    tolerance = VERIFIED["grid" if preset in ("armageddon-vickrey", "cut-choose") else "threshold"]
    assert out["tolerance"] == tolerance
    assert out["verified"] == (out["max_deviation_gain"] <= tolerance)
    assert any(f"more than {tolerance:g} of the match" in n for n in out["notes"])  # type: ignore[union-attr]
    # the odds under each kind, as odds computes them for that kind
    assert set(out["win_by_kind"]) == set(STRATEGIES)  # type: ignore[arg-type]
    for kind in ("rational", "naive"):
        odds = run_json("odds", FINAL, "--json", "--set", f"format.preset={preset}",
                        "--set", f"strategy.kind={kind}")  # fmt: skip
        assert out["win_by_kind"][kind] == pytest.approx(odds["win"], abs=1e-12)  # type: ignore[index]
    equilibria = out["equilibria"]
    assert isinstance(equilibria, list) and equilibria
    for eq in equilibria:
        assert set(eq) == {"strategies", "win", "chooser_advances"}
        assert set(eq["win"]) == {A, B}
        assert sum(eq["win"].values()) == pytest.approx(1.0, abs=1e-9)
    exploit = out["exploitability"]
    assert isinstance(exploit, dict) and set(exploit) == set(STRATEGIES)
    for gain in exploit.values():
        assert set(gain) == {"gain", "by"}
        assert gain["gain"] >= 0
        assert (gain["by"] is None) == (gain["gain"] == 0)
    # the equilibrium's own exploitability is the verification figure, a fraction of the match
    assert out["max_deviation_gain"] == exploit["equilibrium"]["gain"]
    assert out["max_deviation_gain"] <= VERIFIED["threshold"]
    if sd == 0:  # without noise the rational rule is the equilibrium: nobody gains against it
        assert exploit["rational"]["gain"] <= VERIFIED["threshold"]
        assert equilibria[0]["win"] == pytest.approx(
            run_json("odds", FINAL, "--json", "--set", f"format.preset={preset}")["win"],
            abs=1e-12,
        )


def test_the_view_says_verified_from_the_numbers() -> None:
    result = runner.invoke(app, ["equilibrium", FINAL, "--set", "strategy.belief_sd=150"])
    assert result.exit_code == 0, result.output
    assert "verified: no role gains more than" in result.output
    assert "each way of playing" in result.output


def test_a_bracket_or_a_format_nobody_decides_is_one_line() -> None:
    result = runner.invoke(app, ["equilibrium", str(SCENARIOS / "national-64.toml")])
    assert result.exit_code == 2
    assert "equilibrium needs a match of two players" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["equilibrium", FINAL, "--set", "format.preset=armageddon-lot"])
    assert result.exit_code == 2
    assert "whose last stage the players decide" in result.output


def test_uncertain_constants_are_carried_not_dropped() -> None:
    """With [model.sd] the odds under each kind carry their spread over the constants, the
    same figures odds gives for that kind (here every kind is solved on the same 512 draws);
    a note says what stays at the central constants. Without it, no spread and no note."""
    how_sure = str(SCENARIOS / "final-how-sure.toml")
    out = run_json("equilibrium", how_sure, "--json", "--set", "strategy.belief_sd=0")
    u = out["model_uncertainty"]
    assert isinstance(u, dict)
    odds = run_json("odds", how_sure, "--json")
    assert u["draws"] == odds["model_uncertainty"]["draws"]  # type: ignore[index]
    for name in (A, B):
        assert u["figures"][f"win_by_kind.rational.{name}"] == pytest.approx(
            odds["model_uncertainty"]["figures"][f"win.{name}"],
            abs=1e-12,  # type: ignore[index]
        )
        assert f"equilibria.0.win.{name}" in u["figures"]
    assert any("are at the central constants" in n for n in out["notes"])  # type: ignore[union-attr]
    plain = run_json("equilibrium", FINAL, "--json", "--set", "strategy.belief_sd=0")
    assert "model_uncertainty" not in plain
    assert not any("central constants" in n for n in plain["notes"])  # type: ignore[union-attr]
