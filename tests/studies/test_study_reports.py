"""What a study's summary says and what its plots show, checked against the numbers (the second
field test: sentences the numbers did not support, plots a committee member could not read)."""

from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from knockout.studies.labels import label
from knockout.studies.report import figure, plan_plots, summary_markdown, sweep_files
from knockout.studies.sweep import PointResult, Sweep, SweepResult, parse_sweep, run_sweep

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ROOT / "scenarios" / "studies"


def sweep(metrics: list[str], grid: dict[str, object], **extra: object) -> Sweep:
    data = {"name": "a study about something else", "scenario": "../final-2600-vs-2550.toml"}
    data |= {"metrics": metrics, "grid": grid, **extra}
    return parse_sweep(data, source="s.toml", folder=STUDIES)


def run(metrics: list[str], grid: dict[str, object], **extra: object) -> SweepResult:
    return run_sweep(sweep(metrics, grid, **extra))


# --- the scenario's own values ----------------------------------------------------------------


def test_own_values_outside_the_grid_are_said_to_lie_outside() -> None:
    text = summary_markdown(run(["odds.win.王天一"], {"model.elo_per_doubling.rapid": [0, 50]}))
    assert "lie outside the grid (model.elo_per_doubling.rapid: 0 to 50)" in text
    assert "nearest the scenario's own values" not in text


def test_own_values_on_or_between_grid_points() -> None:
    on = summary_markdown(run(["odds.win.王天一"], {"model.elo_per_doubling.rapid": [100, 120]}))
    assert "At the scenario's own values (model.elo_per_doubling.rapid = 120):" in on
    between = summary_markdown(
        run(["odds.win.王天一"], {"model.elo_per_doubling.rapid": [100, 130]})
    )
    assert "At the grid point nearest the scenario's own values" in between
    assert "outside" not in between


# --- constant metrics -------------------------------------------------------------------------


def test_a_constant_metric_is_called_constant_with_its_value() -> None:
    """P(甲 advances) - 1/2 for equal players does not depend on the final's ratings: floating
    point noise aside, it is one number over the grid."""
    result = run(
        ["fair.chooser_advantage.seed_menu", "odds.win.王天一"],
        {"players.郑惟桐.rating": [2500, 2550, 2600], "model.draw_nu.classical": [1.5, 1.7]},
    )
    text = summary_markdown(result)
    section = text.split("### `fair.chooser_advantage.seed_menu`", 1)[1].split("###", 1)[0]
    assert "Constant over the 6 points measured (exact): 0.01696" in section
    assert "depends most" not in section and "from " not in section
    plots, _ = plan_plots(result)
    (edge,) = [p for p in plots if p.metric == "fair.chooser_advantage.seed_menu"]
    assert edge.file is None and edge.reason == "constant: 0.01696 at every point"
    assert "no plot of `fair.chooser_advantage.seed_menu`: constant: 0.01696" in text
    # the same words follow the numbers: spread the values and it is no longer constant
    spread = replace(
        result,
        points=tuple(
            replace(
                pr,
                values=pr.values | {"fair.chooser_advantage.seed_menu": (0.01 * i, 0.0, "exact")},
            )
            for i, pr in enumerate(result.points)
        ),
    )
    assert "Constant over" not in summary_markdown(spread).split("### `fair.chooser", 1)[1][:200]


def test_a_path_that_does_not_move_a_metric_is_not_what_it_depends_on_most() -> None:
    text = summary_markdown(
        run(
            ["odds.match.decided.slow"],
            {"model.draw_nu.classical": [1.0, 2.0], "strategy.kind": ["rational", "naive"]},
        )
    )
    assert "strategy.kind: 0 (no change)" in text
    assert "It depends most on strategy.kind" not in text


# --- undefined metrics ------------------------------------------------------------------------


def test_an_all_undefined_metric_prints_no_numpy_warning_and_gets_no_plot(tmp_path: Path) -> None:
    result = run(
        ["fair.armageddon.red", "odds.win.王天一"],
        {"model.elo_per_doubling.rapid": [0], "model.draw_nu.rapid": [0.5, 1.0, 1.5]},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = summary_markdown(result)
        plots, _ = plan_plots(result)
    assert "Undefined at every point measured (3 where the clocks do not change the odds" in text
    (red,) = [p for p in plots if p.metric == "fair.armageddon.red"]
    assert red.file is None and red.reason is not None and red.reason.startswith("undefined")


def test_a_split_above_the_cap_is_said_so_and_the_cap_can_be_raised() -> None:
    grid = {"model.elo_per_doubling.rapid": [75, 120], "model.draw_nu.rapid": [1.6]}
    text = summary_markdown(run(["fair.armageddon.red"], grid))
    assert "Undefined at 1 points: 1 where the fair split lies above the 100-minute cap" in text
    raised = run(["fair.armageddon.red"], grid, max_minutes=200)
    assert all(100 < pr.values["fair.armageddon.red"][0] < 120 for pr in raised.points[:1])
    assert "Undefined" not in summary_markdown(raised)


# --- grids that get no plot -------------------------------------------------------------------


def test_three_paths_and_list_values_say_why_there_is_no_plot() -> None:
    three = run(
        ["odds.win.王天一"],
        {
            "model.draw_nu.rapid": [0.5, 1.0],
            "model.elo_per_doubling.rapid": [60, 120],
            "players.郑惟桐.rating": [2500, 2550],
        },
    )
    assert "No plots: the study sweeps 3 paths and a plot draws one or two" in summary_markdown(
        three
    )
    listed = run(["odds.win.王天一"], {"format.sudden_death.accept": [[30, 10], [25, 10]]})
    assert "No plots: `format.sudden_death.accept` takes lists" in summary_markdown(listed)
    assert sweep_files(listed, {}).plots == []


# --- plots ------------------------------------------------------------------------------------


def _texts(fig: Any) -> str:
    from matplotlib.text import Text

    return "\n".join(t.get_text() for t in fig.findobj(Text))


def test_a_heat_map_is_labelled_in_words_with_the_keys_in_small_print() -> None:
    result = run(
        ["fair.chooser_advantage.seed_menu"],
        {"model.elo_per_doubling.rapid": [60, 120, 180], "model.draw_nu.rapid": [0.5, 1.0, 1.5]},
    )
    fig = figure(result, "fair.chooser_advantage.seed_menu")
    ax, bar = fig.axes
    assert ax.get_ylabel() == "Elo per doubling of thinking time, rapid"
    assert ax.get_xlabel().startswith("draw parameter ν, rapid")
    assert bar.get_ylabel() == "P(甲 advances) - 1/2, equal players, the seed's menu"
    assert ax.get_title().startswith("P(甲 advances) - 1/2")
    assert "a study about something else" not in ax.get_title()
    assert "model.elo_per_doubling.rapid" in _texts(fig)  # the key, in small print
    assert bar.yaxis.get_major_formatter().get_offset() == ""  # no "1e-16+..." offset


def test_plot_titles_say_what_each_plot_shows() -> None:
    """Every plot of a study carries its own metric's title, not the study's name."""
    result = run(
        ["odds.win.王天一", "odds.match.chooser_advances"],
        {"strategy.belief_sd": [0, 150, 300], "strategy.kind": ["rational", "believed"]},
    )
    titles = [figure(result, m).axes[0].get_title() for m in result.sweep.metrics]
    assert titles[0].startswith("P(王天一 advances)")
    assert titles[1].startswith("P(甲 advances | the sudden death is reached)")


def test_whole_number_grids_get_whole_number_ticks() -> None:
    result = run(["odds.win.王天一"], {"format.slow_games": [1, 2, 3, 4]})
    ax = figure(result, "odds.win.王天一").axes[0]
    ticks = [t for t in ax.get_xticks() if 1 <= t <= 4]
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_a_grid_listed_from_the_largest_reads_that_way() -> None:
    """The schemes study lists the weaker player's rating from 2600 down: the gap grows left to
    right."""
    result = run(["odds.win.王天一"], {"players.郑惟桐.rating": [2600, 2500, 2400]})
    ax = figure(result, "odds.win.王天一").axes[0]
    assert ax.xaxis_inverted()
    assert ax.get_xlabel() == "郑惟桐's rating (Elo)"


def test_identical_lines_are_named_together_and_exact_lines_get_no_error_bars() -> None:
    result = run(
        ["odds.match.decided.slow"],
        {"model.draw_nu.classical": [1.0, 1.5, 2.0], "strategy.kind": ["rational", "naive"]},
    )
    ax = figure(result, "odds.match.decided.slow").axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "rational, naive (identical)" in legend
    assert not ax.containers  # no error-bar containers on exact figures


def test_lines_that_nearly_coincide_stay_visible() -> None:
    """A line within 1 % of the plot's height of an earlier one everywhere (the schemes
    study's sealed bids, 9e-5 from the seed's rule) is drawn over it in another dash and
    marker, and named with the gap; lines apart keep their own styles too."""
    from knockout.studies.plots import CLOSE_LINES, line_figure

    x = [0.0, 1.0, 2.0]
    lines = {"a": [0.5, 0.6, 0.7], "b": [0.5, 0.60005, 0.70009], "c": [0.5, 0.55, 0.6]}
    ax = line_figure(x, lines, title="t", xlabel="x", ylabel="y").axes[0]
    drawn = {line.get_label(): line for line in ax.get_lines()}
    b = next(label for label in drawn if label.startswith("b "))
    assert b == "b (within 9e-05 of a, drawn over it)"
    styles = {(line.get_linestyle(), line.get_marker()) for line in drawn.values()}
    assert len(styles) == 3  # no two lines look alike
    assert drawn[b].get_zorder() > drawn["a"].get_zorder()
    assert CLOSE_LINES * 0.2 >= 9e-5  # the gap is within 1 % of the 0.2 the values span
    assert not any(label.startswith("c (") for label in drawn)  # c is far from both


def test_monte_carlo_lines_keep_their_error_bars() -> None:
    result = run(
        ["simulate.win.王天一"], {"model.draw_nu.rapid": [0.5, 1.0, 1.5]}, runs=2000, seed=1
    )
    ax = figure(result, "simulate.win.王天一").axes[0]
    assert ax.containers


def test_plot_file_names_are_ascii_and_distinct() -> None:
    result = run(["odds.win.王天一", "odds.win.郑惟桐"], {"model.draw_nu.rapid": [0.5, 1.0]})
    plots, _ = plan_plots(result)
    names = [p.file for p in plots]
    assert all(n is not None and n.isascii() for n in names) and len(set(names)) == 2


def test_chinese_text_renders_with_a_cjk_font(tmp_path: Path) -> None:
    """No glyph of a Chinese name or of 甲 is missing: a CJK font is found on this machine."""
    from knockout.studies.plots import cjk_font, line_plot

    assert cjk_font() is not None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line_plot(
            tmp_path / "p.png",
            [0, 1],
            {"王天一 v 郑惟桐": [0.5, 0.6]},
            title="P(甲 advances)",
            xlabel="乙",
            ylabel="P",
        )
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert not missing, missing


def test_every_metric_of_the_bundled_studies_has_a_label() -> None:
    from knockout.io.tomlfile import load_toml
    from knockout.studies.sweep import load_sweep

    for path in sorted(STUDIES.glob("*.toml")):
        if "events" in load_toml(path):  # a Swiss, round-robin or league study: no grid
            continue
        s = load_sweep(path)
        for key in (*s.metrics, *s.paths):
            assert label(key) != key, key


def test_points_keep_why_a_metric_is_undefined() -> None:
    result = run(["fair.armageddon.red"], {"model.elo_per_doubling.rapid": [0, 120]})
    first, second = result.points
    assert isinstance(first, PointResult) and first.why == {
        "fair.armageddon.red": "time_worth_nothing"
    }
    assert second.why == {}
    doc = sweep_files(result, {}).document
    assert doc["points"][0]["metrics"]["fair.armageddon.red"]["undefined"] == "time_worth_nothing"


def test_without_a_cjk_font_the_study_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from knockout.program import app
    from knockout.studies import plots

    monkeypatch.setattr(plots, "cjk_font", lambda: None)
    study = tmp_path / "s.toml"
    study.write_text(
        f'scenario = "{(ROOT / "scenarios" / "final-2600-vs-2550.toml").as_posix()}"\n'
        'metrics = ["odds.win.王天一"]\n[grid]\n"model.draw_nu.rapid" = [0.5, 1.0]\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["study", str(study), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    warned = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warned == [
        "warning: no CJK font found: Chinese text in the plots is drawn as boxes (pip install "
        "noto-cjk-sans-otc, which make installs, or apt-get install fonts-noto-cjk)"
    ]


def test_the_scoring_studys_plots_have_readable_axis_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matplotlib.figure import Figure
    from test_scoring_study import small_study

    from knockout.studies.scoring.report import write_plots
    from knockout.studies.scoring.study import run_study

    seen: list[tuple[str, str]] = []
    original = Figure.savefig

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen.extend((ax.get_xlabel(), ax.get_ylabel()) for ax in self.axes)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", spy)
    write_plots(run_study(small_study(20)), tmp_path)
    assert len(seen) == 4
    for xlabel, ylabel in seen:  # words, not "points" (a bar plot's ticks name the systems)
        assert len(ylabel) > 12 and (not xlabel or len(xlabel) > 8), (xlabel, ylabel)


def test_plots_mark_the_line_that_decides_the_verdict() -> None:
    """The tolerance that decides "verified" is drawn on the plots of the verification
    figures, and the strategy-proofness line on the manipulation gain's, each named in the
    legend with its value; other metrics get none."""
    from knockout.studies.equilibrium import VERIFIED
    from knockout.studies.incentives import STRATEGY_PROOF, TOLERANCE
    from knockout.studies.plots import heat_figure, line_figure
    from knockout.studies.report import references

    eq = references("equilibrium.max_deviation_gain")
    assert [v for v, _ in eq] == [VERIFIED["threshold"], VERIFIED["grid"]]
    assert references("incentives.verification.0.deviation_gain.王天一") == [
        (TOLERANCE, f"{TOLERANCE:g}: verified at or below")
    ]
    assert references("incentives.manipulation_gain")[0][0] == STRATEGY_PROOF
    assert references("odds.win.王天一") == []
    ax = line_figure([0.0, 1.0], {"a": [0.0, 2e-5]}, title="t", xlabel="x", ylabel="y",
                     references=eq).axes[0]  # fmt: skip
    drawn = {line.get_label(): line for line in ax.get_lines()}
    for value, words in eq:
        assert list(drawn[words].get_ydata()) == [value, value]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert eq[0][1] in legend and eq[1][1] in legend
    z = [[0.0, 0.0005, 0.002], [0.0, 0.001, 0.003], [0.0005, 0.002, 0.004]]
    heat = heat_figure([0, 1, 2], [0, 1, 2], z, title="t", xlabel="x", ylabel="y", colorbar="c",
                       references=[(STRATEGY_PROOF, "line")]).axes[0]  # fmt: skip
    assert "line" in [t.get_text() for t in heat.get_legend().get_texts()]


# --- results.json: what odds --json carries ---------------------------------------------------


@pytest.mark.slow
def test_a_studys_results_json_carries_the_version_and_the_resolved_scenario(
    tmp_path: Path,
) -> None:
    """results.json has `version` and, at the top level, `scenario`: the base scenario resolved
    as `odds --json` gives it (the README's contract, issue 42)."""
    import json

    from conftest import run_json
    from typer.testing import CliRunner

    from knockout.program import app

    final = ROOT / "scenarios" / "final-2600-vs-2550.toml"
    study = tmp_path / "s.toml"
    study.write_text(
        f'name = "s"\nscenario = "{final.as_posix()}"\nmetrics = ["odds.win.王天一"]\n'
        '[grid]\n"model.draw_nu.rapid" = [0.5, 1.0]\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["study", str(study), "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    odds = run_json("odds", str(final), "--json")
    assert doc["version"] == odds["version"]
    assert doc["scenario"] == odds["scenario"]


def test_the_bundled_outputs_carry_the_version_and_the_scenario() -> None:
    """Every committed results.json of a sweep or a design carries both (design-day's once
    carried neither: the outputs are re-run when the contract grows)."""
    import json

    found = 0
    for path in sorted((ROOT / "docs" / "studies").glob("*/results.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(doc.get("version"), str), path
        if "grid" in doc or "design" in doc:  # the scoring studies read no scenario
            found += 1
            scenario = doc.get("scenario")
            assert isinstance(scenario, dict) and scenario.get("players"), path
    assert found >= 8
