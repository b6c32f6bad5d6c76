"""The bracket as an SVG chart: one column per round, each match a box with its two players and
their points in the match, lines from each match to the one its winner goes on to, and the
match for third place under the final. Who advanced is bold, who is out grey; a match being
played is highlighted with its next game (or the bid to record) under it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment

from knockout.dashboard.web.fitting import fit_svg_name
from knockout.event.facts import MatchFacts, half_points
from knockout.event.state import THIRD_ID, Event, NextGame, PendingDecision
from knockout.i18n import _, ngettext
from knockout.i18n.terms import round_heading, stage_label
from knockout.rules.book.bracket import round_name

__all__ = ["BOX_H", "BOX_W", "bracket_svg"]

BOX_W = 230
BOX_H = 46
_GAP_X = 46
_UNIT = 64  # height of one first-round slot
_TOP = 34
_LEFT = 10
#: A name's room in its box: the box less its margins (6 px each side) and the score's column.
NAME_ROOM = BOX_W - 12 - 34


@dataclass(frozen=True)
class _Box:
    match: str
    x: float
    y: float
    w: float
    h: float
    lines: tuple[dict[str, str], ...]
    note: str
    live: bool


def _entrant(event: Event, k: int, block: int) -> str | None:
    lines = event.state.bracket.lines
    if k == 1:
        return lines[block]
    if k == 2 and (lines[2 * block] is None or lines[2 * block + 1] is None):
        return lines[2 * block] or lines[2 * block + 1]
    return event.state.winner(k - 1, block)


def _note(event: Event, f: MatchFacts | None) -> tuple[str, bool]:
    """What is written under a match's box, and whether it is being played."""
    if f is None or f.players is None:
        return "", False
    if f.winner is not None:
        short = {
            "walkover": _("walkover"),
            "withdrawal": _("{loser} withdrew after {games}").format(
                loser=f.loser or "?",
                games=ngettext("{n} game", "{n} games", len(f.games)).format(n=len(f.games)),
            ),
            "sudden-death draw": _("sudden-death draw: Black on"),
        }
        how = short.get(f.how or "", stage_label(f.decided_in or "").replace("_", " "))
        return how, False
    step = event.next_step(event.find_match(f.match))
    board = "" if f.board is None else _(", board {board}").format(board=f.board)
    if isinstance(step, PendingDecision) and step.kind == "bid":
        return _("sudden-death bid to record{board}").format(board=board), True
    if step is not None and not isinstance(step, NextGame):
        what = {"choice": _("colour choice"), "sealed-bid": _("sealed bids"), "cut": _("cut")}
        return _("{what} to record{board}").format(
            what=what.get(step.kind, step.kind), board=board
        ), True
    if isinstance(step, NextGame):
        return _("next: game {game} ({stage}){board}").format(
            game=step.number, stage=stage_label(step.stage).replace("_", " "), board=board
        ), True
    return "", True


def _lines(f: MatchFacts | None, names: Sequence[str | None]) -> tuple[dict[str, str], ...]:
    out = []
    for name in names:
        if name is None:
            out.append({"name": "?", "full": "", "fit": "", "score": "", "cls": "unknown"})
            continue
        cls = ""
        score = ""
        if f is not None and f.players is not None:
            if f.winner == name:
                cls = "win"
            elif f.loser == name:
                cls = "out"
            if f.games:
                score = half_points(f.points.get(name, 0.0))
        shown, squeeze = fit_svg_name(name, NAME_ROOM)
        fit = "" if squeeze is None else f"{squeeze:g}"
        out.append({"name": shown, "full": name, "fit": fit, "score": score, "cls": cls})
    return tuple(out)


def _third(note: str) -> str:
    if note:
        return _("third place: {note}").format(note=note)
    return _("third place (the losing semi-finalists)")


def _centre(k: int, m: int) -> float:
    span = _UNIT * (1 << (k - 1))
    return _TOP + (m + 0.5) * span


def bracket_svg(event: Event, facts: Sequence[MatchFacts], env: Environment) -> str:
    """The bracket of ``event`` as an SVG document (see the module)."""
    bracket = event.state.bracket
    rounds = bracket.rounds
    by_id = {f.match: f for f in facts}
    boxes: list[_Box] = []
    links: list[str] = []
    for k in range(1, rounds + 1):
        x = _LEFT + (k - 1) * (BOX_W + _GAP_X)
        for m in range(bracket.size >> k):
            up, down = _entrant(event, k, 2 * m), _entrant(event, k, 2 * m + 1)
            y = _centre(k, m) - BOX_H / 2
            if k == 1 and (up is None or down is None):
                who = up or down
                text = _("{name} (bye)").format(name=who)
                shown, squeeze = fit_svg_name(text, BOX_W - 12)
                fit = "" if squeeze is None else f"{squeeze:g}"
                line = {"name": shown, "full": text, "fit": fit, "score": "", "cls": "win"}
                boxes.append(_Box("", x, y + BOX_H / 4, BOX_W, BOX_H / 2, (line,), "", False))
            else:
                m_event = event.by_key((k, m))
                f = None if m_event is None else by_id.get(m_event.id)
                note, live = _note(event, f)
                label = "" if m_event is None else m_event.id
                lines = _lines(f, (up, down))
                boxes.append(_Box(label, x, y, BOX_W, BOX_H, lines, note, live))
            if k < rounds:
                x1, y1 = x + BOX_W, _centre(k, m)
                x2, y2 = x + BOX_W + _GAP_X, _centre(k + 1, m // 2)
                mid = x1 + _GAP_X / 2
                links.append(f"M{x1:g},{y1:g} H{mid:g} V{y2:g} H{x2:g}")
    height = _TOP + (bracket.size >> 1) * _UNIT + 10
    third = by_id.get(THIRD_ID)
    if third is not None:
        x = _LEFT + (rounds - 1) * (BOX_W + _GAP_X)
        y = _centre(rounds, 0) + BOX_H / 2 + 56
        note, live = _note(event, third)
        names = third.players if third.players is not None else (None, None)
        boxes.append(_Box(THIRD_ID, x, y, BOX_W, BOX_H, _lines(third, names), _third(note), live))
        height = max(height, int(y + BOX_H + 30))
    width = _LEFT + rounds * (BOX_W + _GAP_X)
    heads: list[dict[str, Any]] = [
        {"x": _LEFT + (k - 1) * (BOX_W + _GAP_X), "name": round_heading(round_name(k, rounds))}
        for k in range(1, rounds + 1)
    ]
    return env.get_template("bracket.svg").render(
        event_name=event.name,
        width=width,
        height=height,
        rounds=heads,
        links=links,
        boxes=boxes,
    )
