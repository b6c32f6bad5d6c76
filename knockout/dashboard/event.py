"""Rich views of a real event (organiser mode): what to play next, the dashboard, the journal.

The bracket tree and the ranking are the simulated event's views
(:mod:`knockout.dashboard.bracket`) filled from the event file; :class:`LiveEventFile` redraws the
dashboard whenever another terminal appends to the journal (it polls the file; WAL mode lets it
read while others write).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import assert_never

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.dashboard.bracket import bracket_tree, ranking_view
from knockout.dashboard.event_live import EventFrame
from knockout.dashboard.fit import fitted
from knockout.dashboard.fit import table as fit_table
from knockout.dashboard.match import CLOCK_NOTE, clock_text
from knockout.dashboard.times import duration
from knockout.event.entries import describe, outcome_text, result_text
from knockout.event.errors import EventRefused
from knockout.event.journal import Entry, cascade_of
from knockout.event.state import (
    Event,
    Match,
    PendingDecision,
    RecordedGame,
)
from knockout.game import Colour, Result
from knockout.i18n import N_, _, ngettext
from knockout.i18n.terms import colour_label, round_label, stage_label
from knockout.rules.book.bracket import round_name
from knockout.rules.book.formats import CutChoose, SealedBid
from knockout.rules.decisions.kinds import Bidding, Choice, CutChoice, OtherDecision, SealedBids

__all__ = [
    "LiveEventFile",
    "chooser_warning",
    "decision_line",
    "decision_prompt",
    "entry_preview",
    "event_dashboard",
    "how_decided",
    "journal_view",
    "local_time",
    "next_view",
    "waiting_byes",
]

#: Results listed on the dashboard (the latest first).
RECENT_RESULTS = 12

#: How a next game's colours are settled, as the games table says it.
COLOURS_BY = {
    "lot": N_("by lot"),
    "rule": N_("alternate"),
    "bid": N_("by the bid"),
    "choice": N_("chosen"),
    "sealed": N_("sealed bids"),
    "cut": N_("cut and chosen"),
}


def local_time(at: str) -> str:
    """A journal time (UTC) as local ``YYYY-MM-DD HH:MM:SS``."""
    return datetime.fromisoformat(at).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _games_table(event: Event, title: str) -> Table:
    table = fit_table(title, caption=_(CLOCK_NOTE))
    table.add_column(_("Board"), justify="right", no_wrap=True)
    table.add_column(_("Match"), no_wrap=True)
    table.add_column(_("Game"), justify="right", no_wrap=True)
    table.add_column(_("Stage"), no_wrap=True)
    table.add_column(colour_label("red"), style="red", overflow="fold")
    table.add_column(colour_label("black"), overflow="fold")
    table.add_column(_("Clock"), no_wrap=True)
    table.add_column(_("Colours"), style="dim", overflow="fold")
    for g in event.next_games():
        table.add_row(
            "-" if g.board is None else str(g.board),
            g.match,
            str(g.number),
            stage_label(g.stage),
            g.red,
            g.black,
            clock_text(g.clock, g.increment_seconds),
            _(COLOURS_BY[g.colours]),
        )
    return fitted(table)


def decision_prompt(event: Event, step: PendingDecision) -> Text:
    """What the arbiter asks before a game whose colours its players decide, and the command
    that records the answer: one handler per kind of decision."""
    decision = step.decision
    match decision:
        case Bidding():
            return _bid_prompt(event, step, decision)
        case Choice():
            return _choice_prompt(event, step)
        case SealedBids(sealed=rule):
            return _sealed_prompt(event, step, rule)
        case CutChoice(cut=rule):
            return _cut_prompt(event, step, rule)
        case OtherDecision():
            return _added_prompt(event, step)
        case _:
            assert_never(decision)


def _added_prompt(event: Event, step: PendingDecision) -> Text:
    """What the arbiter asks for a decision of a colour rule added to the rule book's own, in
    the words of its made decision."""
    a, b = step.players
    made = step.made
    text = Text()
    text.append(
        _("{match} ({a} v {b}), game {game}: {what}. ").format(
            match=step.match, a=a, b=b, game=step.number, what=_(made.words)
        ),
        style="bold",
    )
    text.append(_("The players settle {what}.").format(what=_(made.at_words)))
    text.append(
        f"\n  knockout event {made.command} {event.source} {step.match} "
        f"{made.usage_words()}".rstrip(),
        style="cyan",
    )
    return text


def _bid_prompt(event: Event, bid: PendingDecision, rule: Bidding) -> Text:
    """What the arbiter asks at a sudden-death game, and the command that records the answer."""
    a, b = bid.players
    menu = rule.menu
    text = Text()
    text.append(
        _("{match} ({a} v {b}), game {game}: sudden death. ").format(
            match=bid.match, a=a, b=b, game=bid.number
        ),
        style="bold",
    )
    times = _(" v ").join(f"{n} {duration(s, to_the_second=True)}" for n, s in bid.times.items())
    previous = bid.number - 1
    if bid.chooser is not None:
        text.append(
            _("甲 = {chooser} (used less time in game {game}: {times}). ").format(
                chooser=bid.chooser, game=previous, times=times
            )
        )
        who = _("{chooser} announces Red or Black; then {other} accepts or objects").format(
            chooser=bid.chooser, other=bid.other
        )
        chooser_opt = ""
    else:
        why = {
            "tie": _("equal times in game {game} ({times})").format(game=previous, times=times),
            "lot": _("the rule is a lot"),
            "unknown": _("game {game}'s times were not recorded").format(game=previous),
        }.get(bid.why or "", "")
        text.append(_("甲 is drawn by lot ({why}). ").format(why=why), style="yellow")
        who = _("甲 announces Red or Black; then 乙 accepts or objects")
        chooser_opt = _(" --chooser NAME")
    text.append(who + _("."))
    text.append(
        _(
            " Accept: 甲 plays the colour announced, Red {accept_red:g} v Black {accept_black:g} "
            "min; object to Red: 乙 Red {object_red_red:g} v {object_red_black:g}; object to "
            "Black: 甲 Red {object_black_red:g} v {object_black_black:g}."
        ).format(
            accept_red=menu.accept[0],
            accept_black=menu.accept[1],
            object_red_red=menu.object_red[0],
            object_red_black=menu.object_red[1],
            object_black_red=menu.object_black[0],
            object_black_black=menu.object_black[1],
        ),
        style="dim",
    )
    colours, replies = _("red|black"), _("accept|object")
    text.append(
        f"\n  knockout event bid {event.source} {bid.match} --announce {colours} "
        f"--reply {replies}{chooser_opt}",
        style="cyan",
    )
    return text


def _choice_prompt(event: Event, choice: PendingDecision) -> Text:
    """What the arbiter asks at a game whose colours a player chooses, and the command."""
    a, b = choice.players
    text = Text()
    text.append(
        _("{match} ({a} v {b}), game {game}: colour choice. ").format(
            match=choice.match, a=a, b=b, game=choice.number
        ),
        style="bold",
    )
    if choice.chooser is not None:
        text.append(
            _("{chooser} chooses Red or Black (the format names them). ").format(
                chooser=choice.chooser
            )
        )
        chooser_opt = ""
    else:
        text.append(_("A lot decides who chooses; the winner takes Red or Black. "), style="yellow")
        chooser_opt = _(" --chooser NAME")
    clock = choice.clock or (0.0, 0.0)
    colours = _("red|black")
    text.append(
        _("Red {red:g} min v Black {black:g} min ({stage}).").format(
            red=clock[0], black=clock[1], stage=stage_label(choice.stage)
        ),
        style="dim",
    )
    text.append(
        f"\n  knockout event choose {event.source} {choice.match} {colours}{chooser_opt}",
        style="cyan",
    )
    return text


def _sealed_prompt(event: Event, sealed: PendingDecision, rule: SealedBid) -> Text:
    """What the arbiter asks at a sealed-bid Armageddon, and the command."""
    a, b = sealed.players
    text = Text()
    text.append(
        _("{match} ({a} v {b}), game {game}: sealed bids. ").format(
            match=sealed.match, a=a, b=b, game=sealed.number
        ),
        style="bold",
    )
    text.append(
        (
            _(
                "{a} and {b} each write the minutes they would take as Black ({low:g} to "
                "{red:g}); the lower bid plays Black on its own time v Red {red:g} min (first "
                "price). Equal bids: the arbiter's lot gives Black. "
            )
            if rule.price == "first"
            else _(
                "{a} and {b} each write the minutes they would take as Black ({low:g} to "
                "{red:g}); the lower bid plays Black on the higher bid's time v Red {red:g} min "
                "(second price). Equal bids: the arbiter's lot gives Black. "
            )
        ).format(a=a, b=b, low=rule.min_black_minutes, red=rule.red_minutes)
    )
    minutes, name = _("MINUTES"), _("NAME")
    text.append(
        f"\n  knockout event sealed {event.source} {sealed.match} "
        f"--bid {shlex.quote(a + '=' + minutes)} --bid {shlex.quote(b + '=' + minutes)} "
        f"[--lot-black {name}]",
        style="cyan",
    )
    return text


def _cut_prompt(event: Event, cut: PendingDecision, rule: CutChoose) -> Text:
    """What the arbiter asks at a cut-and-choose game, and the command."""
    a, b = cut.players
    text = Text()
    text.append(
        _("{match} ({a} v {b}), game {game}: cut and choose. ").format(
            match=cut.match, a=a, b=b, game=cut.number
        ),
        style="bold",
    )
    low, high, black = rule.min_red_minutes, rule.max_red_minutes, rule.black_minutes
    previous = cut.number - 1
    if cut.chooser is not None:
        times = _(" v ").join(
            f"{n} {duration(s, to_the_second=True)}" for n, s in cut.times.items()
        )
        text.append(
            _(
                "{cutter} cuts (used less time in game {game}: {times}): names Red's minutes "
                "({low:g} to {high:g}) v Black {black:g} min; then {other} picks the colour. "
            ).format(
                cutter=cut.chooser,
                game=previous,
                times=times,
                low=low,
                high=high,
                black=black,
                other=cut.other,
            )
        )
        cutter_opt = ""
    else:
        why = {
            "tie": _("equal times in game {game}").format(game=previous),
            "lot": _("the rule is a lot"),
            "unknown": _("game {game}'s times were not recorded").format(game=previous),
        }.get(cut.why or "", "")
        text.append(_("The cutter is drawn by lot ({why}). ").format(why=why), style="yellow")
        text.append(
            _(
                "The cutter names Red's minutes ({low:g} to {high:g}) v Black {black:g} min; "
                "the other picks the colour. "
            ).format(low=low, high=high, black=black)
        )
        cutter_opt = _(" --cutter NAME")
    colours = _("red|black")
    text.append(
        f"\n  knockout event cut {event.source} {cut.match} --red-minutes M --colour "
        f"{colours}{cutter_opt}",
        style="cyan",
    )
    return text


def decision_line(event: Event, step: PendingDecision) -> str:
    """What comes next in a match whose next game's colours its players decide, in one line
    (after a change): one handler per kind of decision."""
    m, decision = step.match, step.decision
    match decision:
        case Bidding():
            chooser = f"甲 = {step.chooser}" if step.chooser else _("甲 by lot (--chooser)")
            return _(
                "Next in {match}: the sudden-death bid ({chooser}); see knockout event next."
            ).format(match=m, chooser=chooser)
        case Choice():
            chooser = (
                _("{name} chooses").format(name=step.chooser)
                if step.chooser
                else _("the lot's winner chooses")
            )
            return _(
                "Next in {match}: game {game} ({stage}), colours to choose ({chooser}: {command})."
            ).format(
                match=m,
                game=step.number,
                stage=stage_label(step.stage),
                chooser=chooser,
                command=f"knockout event choose {event.source} {m} "
                + _("red|black")
                + ("" if step.chooser else _(" --chooser NAME")),
            )
        case SealedBids():
            name, minutes = _("NAME"), _("MINUTES")
            return _(
                "Next in {match}: game {game} ({stage}), sealed bids to record (each player "
                "bids Black's minutes: {command})."
            ).format(
                match=m,
                game=step.number,
                stage=stage_label(step.stage),
                command=f"knockout event sealed {event.source} {m} "
                f"--bid {name}={minutes} --bid {name}={minutes}",
            )
        case CutChoice():
            cutter = (
                _("{name} cuts").format(name=step.chooser)
                if step.chooser
                else _("the cutter by lot (--cutter NAME)")
            )
            return _(
                "Next in {match}: game {game} ({stage}), the cut to record ({cutter}: {command})."
            ).format(
                match=m,
                game=step.number,
                stage=stage_label(step.stage),
                cutter=cutter,
                command=f"knockout event cut {event.source} {m} --red-minutes M --colour "
                + _("red|black")
                + ("" if step.chooser else _(" --cutter NAME")),
            )
        case OtherDecision():
            made = step.made
            return _(
                "Next in {match}: game {game} ({stage}), the {what} to record ({command})."
            ).format(
                match=m,
                game=step.number,
                stage=stage_label(step.stage),
                what=_(made.words),
                command=f"knockout event {made.command} {event.source} {m} {made.usage_words()}",
            )
        case _:
            assert_never(decision)


def next_view(event: Event) -> RenderableType:
    """The games that can be played now, and the sudden-death choices to ask for."""
    parts: list[RenderableType] = []
    if event.finished:
        parts.append(
            Text(
                _("The event is over: champion {champion}.").format(champion=event.champion),
                style="bold yellow",
            )
        )
        return Group(*parts)
    games = event.next_games()
    if games:
        parts.append(_games_table(event, _("{event}: games to play now").format(event=event.name)))
    parts += [decision_prompt(event, step) for step in event.pending_decisions()]
    if not games and not event.pending_decisions():
        parts.append(Text(_("No game can be played now."), style="dim"))
    byes = waiting_byes(event)
    if byes:
        listed = _(", ").join(
            _("{name} (waits in {match})").format(name=name, match=m) for name, m in byes
        )
        parts.append(
            Text(
                _("Byes, straight to {round}: {players}").format(
                    round=round_label(round_name(2, event.rounds)), players=listed
                ),
                style="dim",
            )
        )
    return Group(*parts)


def waiting_byes(event: Event) -> list[tuple[str, str]]:
    """Players with a first-round bye whose round-2 match does not have both players yet,
    with that match's ID."""
    lines = event.state.bracket.lines
    out = []
    for name in event.state.bracket.byes():
        m = event.by_key((2, lines.index(name) >> 2))
        if m is not None and m.players is None and m.winner is None:
            out.append((name, m.id))
    return out


_SCORE = {Result.RED: "1-0", Result.DRAW: "1/2", Result.BLACK: "0-1"}


def _outcome(event: Event, d: dict[str, object] | object) -> str:
    assert isinstance(d, dict)
    stage = event.scenario.format.stage(str(d["stage"]))
    red, black = str(d["red"]), str(d["black"])
    through = None
    if stage.draw_winner is not None:
        name = red if stage.draw_winner is Colour.RED else black
        through = _("{side} ({name})").format(side=colour_label(stage.draw_winner.value), name=name)
    return outcome_text(red, black, Result(str(d["result"])), stage.name, through)


def entry_preview(entries: tuple[Entry, ...], event: Event, *, dry_run: bool) -> list[str]:
    """The lines printed before a change is written: what each entry records, the winner,
    colours and stage in words (``event``: the event after the change)."""
    by_seq = {e.seq: e for e in event.entries} | {e.seq: e for e in entries}
    out = []
    for e in entries:
        d = dict(e.fields)
        if e.kind == "game":
            stage = stage_label(str(d["stage"]))
            where = (
                _("{stage}, board {board}").format(stage=stage, board=d["board"])
                if d.get("board")
                else stage
            )
            out.append(
                (
                    _("Would record {match} game {game} ({where}): {outcome}{extra}.")
                    if dry_run
                    else _("Recording {match} game {game} ({where}): {outcome}{extra}.")
                ).format(
                    match=e.match,
                    game=e.game,
                    where=where,
                    outcome=_outcome(event, d),
                    extra=_times(d),
                )
            )
        elif e.kind == "correct":
            old = by_seq[int(d["corrects"])]
            g = RecordedGame.from_entry(old)
            was = _("{red} (Red) {result} {black}").format(
                red=g.red, result=result_text(g.result), black=g.black
            )
            out.append(
                (
                    _(
                        "Would correct {match} game {game} ({stage}): #{seq} has {was}; "
                        "now {outcome}{extra}."
                    )
                    if dry_run
                    else _(
                        "Correcting {match} game {game} ({stage}): #{seq} has {was}; "
                        "now {outcome}{extra}."
                    )
                ).format(
                    match=e.match,
                    game=e.game,
                    stage=stage_label(str(d["stage"])),
                    seq=old.seq,
                    was=was,
                    outcome=_outcome(event, d),
                    extra=_times(d),
                )
            )
        elif e.kind == "undo" and by_seq[e.undoes or 0].kind == "undo":
            u = by_seq[e.undoes or 0]
            verb = _("Would restore") if dry_run else _("Restoring")
            what = describe(by_seq[u.undoes or 0], by_seq)
            out.append(
                _("{verb} #{restored} (undoing #{undone}, with the correction): {what}.").format(
                    verb=verb, restored=u.undoes, undone=u.seq, what=what
                )
            )
        elif e.kind == "undo" and e.undoes is not None:
            why = (
                _(" (it no longer fits: {why})").format(why=d["cascade"])
                if d.get("cascade")
                else ""
            )
            out.append(
                (
                    _("Would undo #{seq}{why}: {what}.")
                    if dry_run
                    else _("Undoing #{seq}{why}: {what}.")
                ).format(seq=e.undoes, why=why, what=describe(by_seq[e.undoes], by_seq))
            )
        else:
            out.append(
                (_("Would record: {what}.") if dry_run else _("Recording: {what}.")).format(
                    what=describe(e, by_seq)
                )
            )
    return out


def _times(d: dict[str, object]) -> str:
    used = d.get("time_used")
    text = ""
    if isinstance(used, dict) and used:
        text += _("; time used {times}").format(
            times=_(", ").join(f"{n} {clock(float(t))}" for n, t in used.items())
        )
    if d.get("moves"):
        text += ngettext("; {n} move", "; {n} moves", int(str(d["moves"]))).format(n=d["moves"])
    return text


def clock(seconds: float) -> str:
    """Seconds as a clock shows them: ``41:20``, ``1:01:39`` (fractions kept).

    >>> clock(2480), clock(3699), clock(59.5)
    ('41:20', '1:01:39', '0:59.5')
    """
    whole, fraction = divmod(seconds, 1)
    h, rest = divmod(int(whole), 3600)
    m, s = divmod(rest, 60)
    sec = f"{s:02d}" + (f"{fraction:g}"[1:] if fraction else "")
    return f"{h}:{m:02d}:{sec}" if h else f"{m}:{sec}"


def chooser_warning(entry: Entry, event: Event) -> str | None:
    """The warning when the game just recorded decides 甲 of the sudden death (who used less
    time) and the times of both players are not recorded (None: nothing to warn of)."""
    if entry.kind not in ("game", "correct") or entry.match is None:
        return None
    m = event.find_match(entry.match)
    step = event.next_step(m)
    if (
        not isinstance(step, PendingDecision)
        or not isinstance(step.decision, Bidding)
        or step.why != "unknown"
        or not m.games
    ):
        return None
    g = m.games[-1]
    if g.number != entry.game:
        return None
    missing = [n for n in (g.red, g.black) if n not in g.time_used]
    listed = _(" and ").join(missing)
    adds = " ".join(f"--time-used '{n}=m:ss'" for n in missing)
    return _(
        "{match} game {game} decides 甲 of the sudden death (who used less time), but the "
        "time used of {players} is not recorded: 甲 will be drawn by lot unless you add it: "
        "{command}"
    ).format(
        match=m.id,
        game=g.number,
        players=listed,
        command=f"knockout event correct {event.source} {m.id} {g.number} "
        f"{_SCORE[g.result]} {adds}",
    )


def _score(m: Match) -> str:
    """``1½-½`` from the upper player's side (wins 1, draws ½), over the games so far."""
    if m.players is None:
        return ""
    a = sum(
        {Result.RED: 1.0, Result.DRAW: 0.5, Result.BLACK: 0.0}[g.result]
        if g.red == m.players[0]
        else {Result.RED: 0.0, Result.DRAW: 0.5, Result.BLACK: 1.0}[g.result]
        for g in m.games
    )
    b = len(m.games) - a

    def half(x: float) -> str:
        whole = int(x)
        return f"{whole if whole or x == 0 else ''}{'½' if x - whole else ''}"

    return f"{half(a)}-{half(b)}"


def _live_label(event: Event, m: Match) -> Text | None:
    step = event.next_step(m)
    if step is None or m.players is None:
        return None
    a, b = m.players
    board = "" if m.board is None else _(", board {board}").format(board=m.board)
    if isinstance(step, PendingDecision):
        what = _("game {game}: {what} to record").format(game=step.number, what=_(step.made.words))
    else:
        what = _("next: game {game} ({stage})").format(
            game=step.number, stage=stage_label(step.stage)
        )
    score = f" {_score(m)}" if m.games else ""
    return Text(_("{a} v {b}").format(a=a, b=b) + f"{score}  {what}{board}", style="cyan")


def _results_table(event: Event) -> Table:
    table = fit_table(_("Latest results"))
    table.add_column(_("Match"), no_wrap=True)
    table.add_column(_("Game"), justify="right", no_wrap=True)
    table.add_column(_("Stage"), no_wrap=True)
    table.add_column(colour_label("red"), style="red", overflow="fold")
    table.add_column(_("Result"), no_wrap=True)
    table.add_column(colour_label("black"), overflow="fold")
    table.add_column(_("Recorded"), style="dim", no_wrap=True)
    for g in reversed(event.games[-RECENT_RESULTS:]):
        table.add_row(
            g.match,
            str(g.number),
            stage_label(g.stage),
            g.red,
            result_text(g.result),
            g.black,
            local_time(g.at)[11:],
        )
    return fitted(table)


def event_dashboard(event: Event) -> RenderableType:
    """The dashboard: the state of play, the bracket, games to play, latest results, ranking."""
    from knockout.event.ranking import decided_records, standings  # noqa: PLC0415  (the engine's records)

    last = event.entries[-1]
    games, asks = len(event.next_games()), len(event.pending_decisions())
    status = (
        _("finished, champion {champion}").format(champion=event.champion)
        if event.finished
        else ngettext("{n} game to play", "{n} games to play", games).format(n=games)
        + _(", ")
        + ngettext("{n} decision to ask", "{n} decisions to ask", asks).format(n=asks)
    )
    entries = len(event.entries)
    header = Text.assemble(
        (event.name, "bold"),
        "   "
        + ngettext(
            "{source}: {n} entry, last at {at}", "{source}: {n} entries, last at {at}", entries
        ).format(source=event.source, n=entries, at=local_time(last.at))
        + "   ",
        (status, "yellow" if event.finished else "cyan"),
    )
    results = decided_records(event)
    live = {m.key: label for m in event.matches if (label := _live_label(event, m)) is not None}
    players = len(event.state.bracket.players)
    tree = bracket_tree(
        event.state.bracket,
        results,
        title=_("Bracket"),
        live=live,
        depth=None if players <= 32 else 4,
    )
    parts: list[RenderableType] = [header, tree]
    third = event.third_place
    if third is not None:
        parts.append(_third_line(event, third))
    if event.withdrawn:
        parts.append(
            Text(
                _("Withdrawn: {players}").format(players=_(", ").join(event.withdrawn)),
                style="dim",
            )
        )
    if not event.finished:
        parts.append(next_view(event))
    if event.games:
        parts.append(_results_table(event))
    title = _("Final ranking") if event.finished else _("Ranking so far (decided matches)")
    parts.append(ranking_view(standings(event), title=title))
    return Group(*parts)


def _third_line(event: Event, third: Match) -> Text:
    if third.players is None:
        return Text(_("Third place (3RD): the losing semi-finalists, not known yet"), style="dim")
    a, b = third.players
    head = _("Third place (3RD): ")
    if third.winner is not None:
        return Text.assemble(
            head, (third.winner, "bold green"), _(" ({how})").format(how=how_decided(third))
        )
    label = _live_label(event, third)
    return Text.assemble(head, label or Text(_("{a} v {b}").format(a=a, b=b)))


def how_decided(m: Match) -> str:
    """How a decided match was decided: ``walkover``, ``rapid, 4 games`` (弃权, 快棋，4 局)."""
    n = len(m.games)
    if m.walkover and n and m.players is not None:  # a withdrawal during the match
        loser = next(p for p in m.players if p != m.winner)
        games = ngettext("{n} game", "{n} games", n).format(n=n)
        return _("{loser} withdrew after {games}").format(loser=loser, games=games)
    if m.walkover:
        return _("walkover")
    return ngettext("{stage}, {n} game", "{stage}, {n} games", n).format(
        stage=stage_label(m.decided_in or ""), n=n
    )


def journal_view(event: Event) -> Table:
    """Every journal entry: number, when, what, the command that wrote it, and what ``undo``
    would take back."""
    table = fit_table(
        _("{event}: journal ({source})").format(event=event.name, source=event.source),
        caption=_("undo reverses the entry marked <- undo; undo again to go further back"),
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(_("When (local)"), no_wrap=True, style="dim")
    table.add_column(_("Entry"), overflow="fold")
    table.add_column(_("Command"), style="dim", overflow="fold")
    table.add_column("", no_wrap=True)
    by_seq = {e.seq: e for e in event.entries}
    target = event.last_undoable()
    for e in event.entries:
        note = ""
        style = ""
        if e.seq in event.undone:
            note, style = _("undone by #{seq}").format(seq=event.undone[e.seq]), "strike dim"
        if target is not None and e.seq == target.seq:
            note = _("<- undo")
            cascade = cascade_of(event.entries, target)
            if cascade:
                first, last = cascade[-1].seq, cascade[0].seq
                span = f"#{first}" if first == last else f"#{first}-#{last}"
                note += _(" (with {entries})").format(entries=span)
        table.add_row(
            str(e.seq),
            local_time(e.at),
            Text(describe(e, by_seq), style=style),
            e.command,
            Text(note, style="bold yellow" if note.startswith(_("<- undo")) else "dim"),
        )
    return fitted(table)


@dataclass
class LiveEventFile:
    """The dashboard of an event file, redrawn whenever its journal grows.

    Attributes:
        head: The journal's last entry number (cheap; called every ``interval`` seconds).
        load: Reads the whole event.
        interval: Seconds between polls.
        sleep: Waits between polls (``time.sleep``; tests pass their own).
        max_polls: Stop after this many polls (None: until interrupted).
    """

    head: Callable[[], int]
    load: Callable[[], Event]
    interval: float = 1.0
    sleep: Callable[[float], None] = time.sleep
    max_polls: int | None = None
    screen: bool = True

    def watch(self, console: Console) -> Event:
        """Redraw on ``console`` until interrupted (Ctrl-C) or ``max_polls``; returns the last
        event read.

        The frame (:class:`~knockout.dashboard.event_live.EventFrame`) fits the terminal's
        height: the games to play and the decisions to ask first, then the bracket as far as
        it fits. It is drawn on the alternate screen (``screen``) and laid out again twice a
        second, so a resized terminal gets a frame of its new size with nothing left over.

        While the file cannot be read (a USB stick remounting, a share gone for a moment) the
        last frame stays, with a line saying so, and the view waits for the file to come back.
        """
        from rich.live import Live  # noqa: PLC0415  (only the live view: slow to load)

        event = self.load()
        seen = event.entries[-1].seq
        polls = 0
        frame = EventFrame(event, datetime.now().astimezone())
        away = False
        with Live(
            frame,
            console=console,
            screen=self.screen and console.is_terminal,
            auto_refresh=True,
            refresh_per_second=2,
            transient=False,
            vertical_overflow="crop",
        ) as live:
            try:
                while self.max_polls is None or polls < self.max_polls:
                    self.sleep(self.interval)
                    polls += 1
                    try:
                        if self.head() == seen and not away:
                            continue
                        event = self.load()
                    except EventRefused as exc:  # the file is away: a USB stick remounting
                        if not away:
                            away = True
                            frame = replace(frame, away=_away_note(exc))
                            live.update(frame, refresh=True)
                        continue
                    away = False
                    seen = event.entries[-1].seq
                    frame = EventFrame(event, datetime.now().astimezone())
                    live.update(frame, refresh=True)
            except KeyboardInterrupt:
                pass
        return event


def _away_note(exc: EventRefused) -> str:
    """What the live view says while the event file cannot be read."""
    why = "; ".join(exc.lines())
    return _(
        "The event file cannot be read since {at:%H:%M:%S}: {why}. Showing what was read "
        "before; waiting for the file to come back (checked every second)."
    ).format(at=datetime.now().astimezone(), why=why)
