"""Names of any length on the hall's paper: the bracket squeezes a long name into its box and
cuts a longer one (the whole name in the box's title); a slip sets a long name smaller, so the
slip keeps its A4 third (the screenshots in the browser test show the page itself)."""

from __future__ import annotations

from pathlib import Path

from event_helpers import CUP_PLAYERS, CUP_SCENARIO
from hypothesis import given
from hypothesis import strategies as st

from knockout.dashboard.web.fitting import (
    MIN_SQUEEZE,
    SVG_CELL_PX,
    fit_svg_name,
    name_cells,
    name_size,
)
from knockout.dashboard.web.pages import Site
from knockout.event.store import create_event, load_event

LONG40 = "Maximilian Alexander Fitzgerald-Hohenzol"
LONG80 = "Bartholomew Maximilian Alexander Christopher Fitzgerald-Hohenzollern Wolfeschleg"


def test_names_measured_in_cells() -> None:
    assert name_cells("Chen Hao") == 8 and name_cells("王立新") == 6 and name_cells("赵 雪") == 5
    assert name_size("王立新") == "" and name_size(LONG40) == " long"
    assert name_size(LONG80) == " longest" and name_size("王" * 13) == " long"


@given(st.text(st.characters(codec="utf-8", categories=["L", "Zs", "Pd"]), max_size=90))
def test_a_name_fits_its_room(name: str) -> None:
    room = 184.0
    shown, squeeze = fit_svg_name(name, room)
    if squeeze is None:
        assert shown == name and name_cells(name) * SVG_CELL_PX <= room
    else:
        assert squeeze == room
        # squeezed no further than MIN_SQUEEZE: a cut name is a prefix of the name and "…"
        assert name_cells(shown) * SVG_CELL_PX * MIN_SQUEEZE <= room + 1e-9
        if shown != name:
            assert shown.endswith("…") and name.startswith(shown[:-1])


def test_the_pages_fit_long_names(tmp_path: Path) -> None:
    lines = CUP_PLAYERS.read_text(encoding="utf-8").splitlines()
    for row, name in ((1, LONG40), (2, LONG80)):
        cells = lines[row].split(",")
        cells[0] = name
        lines[row] = ",".join(cells)
    players = tmp_path / "players.csv"
    players.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = tmp_path / "cup.db"
    create_event(path, CUP_SCENARIO, players_path=players, command="test", seed=11)
    pages = Site(load_event(path), command_file="cup.db").pages()
    svg = pages["bracket.svg"]
    assert f"<title>{LONG80}</title>" in svg and 'lengthAdjust="spacingAndGlyphs"' in svg
    assert f"</title>{LONG80}<" not in svg  # drawn cut: the name, then "…"
    assert "</title>Bartholomew Maximilian Alexander" in svg
    slips = pages["slips.html"]
    assert f'<div class="name longest">{LONG80}</div>' in slips
    assert f'<div class="name long">{LONG40}</div>' in slips
    assert 'class="fill sign"' in slips


def test_the_bracket_says_who_withdrew_as_every_view_does(tmp_path: Path) -> None:
    """A withdrawal mid-match reads the same on the bracket chart as in the views: "X withdrew
    after N games" (it said "withdrawal after N")."""
    from test_event_results import eventful

    from knockout.event.facts import match_facts

    event = load_event(eventful(tmp_path))
    (withdrawn,) = [f for f in match_facts(event) if f.how == "withdrawal"]
    svg = Site(event).pages()["bracket.svg"]
    assert f"{withdrawn.loser} withdrew after 1 game<" in svg
    assert "withdrawal after" not in svg
