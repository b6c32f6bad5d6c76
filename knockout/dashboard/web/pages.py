"""The pages of an event, rendered from its state with Jinja2 templates.

:class:`Site` builds every page of one moment of the event: the hall screen (``index.html``:
the games to play now, the decisions to ask, the latest results, Red's score first), one page
per round (pairings and results: board, match, players, colours, clocks, stage, result, who
advanced and how), the bracket as an SVG chart (:mod:`~knockout.dashboard.web.svg`), the
ranking so far, and two pages to print on A4: a result slip per board and the sudden-death bid
form for 甲 and 乙. Every name is escaped by the templates (autoescape), and the pages load
nothing from another site, so they work on a hall's closed network or from a USB stick.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from knockout.dashboard.match import clock_text
from knockout.dashboard.times import duration
from knockout.dashboard.web.fitting import name_size
from knockout.dashboard.web.svg import bracket_svg
from knockout.event.facts import Decision, MatchFacts, decisions, match_facts, next_games
from knockout.event.facts import score_text as score
from knockout.event.ranking import standings
from knockout.event.state import Event, NextGame, RecordedGame
from knockout.i18n import _, language, ngettext, pgettext
from knockout.i18n.terms import reached_label, round_heading, round_label, stage_label
from knockout.rules.book.bracket import round_name
from knockout.rules.decisions.made import MadeBid
from knockout.version import __version__

__all__ = ["HTML_LANG", "PAGES", "RECENT", "Site", "environment", "round_page"]

#: Results listed on the hall screen (the latest first).
RECENT = 16
#: Seconds between reloads of a served page when the browser runs no JavaScript.
REFRESH_SECONDS = 5
#: Milliseconds between the served pages' checks for a new entry (with JavaScript).
POLL_MS = 1500

#: What a served page's links add to each address (``?lang=zh``: see
#: :meth:`Site.render`), for the page being rendered.
_QUERY: contextvars.ContextVar[str] = contextvars.ContextVar("knockout_page_query", default="")

#: The pages every site has (the round pages come on top: ``round-1.html``, ...).
PAGES = (
    "index.html",
    "bracket.html",
    "bracket.svg",
    "ranking.html",
    "slips.html",
    "bid-forms.html",
)


#: The ``lang`` of a page, per language spoken. An English page says ``zh-Hans`` too: its
#: players' names are Chinese, and the browser picks the simplified Chinese glyphs for them.
HTML_LANG = {"en": "zh-Hans", "zh_CN": "zh-Hans", "zh_TW": "zh-Hant"}


def environment() -> Environment:
    """The templates, escaping every value in HTML and SVG. A template's words are marked
    ``_("...")`` (``ngettext``, ``pgettext``): the language in force when a page is rendered
    (:func:`knockout.i18n.speaking`) says them; ``make catalogues`` extracts them."""
    env = Environment(
        loader=PackageLoader("knockout.dashboard.web", "templates"),
        autoescape=select_autoescape(["html", "svg"], default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(_=_, ngettext=ngettext, pgettext=pgettext)
    env.filters["name_size"] = name_size
    return env


def round_page(k: int) -> str:
    """The file name of round ``k``'s page."""
    return f"round-{k}.html"


def _blank_title() -> str:
    """A blank form's title."""
    return _("match ______ game ___ (a blank form: no match is at its sudden death now)")


def _local(at: str) -> str:
    return datetime.fromisoformat(at).astimezone().strftime("%H:%M:%S")


def _clock(g: RecordedGame | NextGame) -> str:
    if g.clock is None:
        return _("not recorded")
    return clock_text(g.clock, g.increment_seconds)


@dataclass
class Site:
    """Every page of the event as it stands.

    Attributes:
        event: The event.
        command_file: The event file as the arbiter types it in commands (on slips and forms).
        live: Served live: the pages check for new entries and update themselves.
        now: When the pages were made (local time, shown on each page).
    """

    event: Event
    command_file: str = "EVENT.db"
    live: bool = False
    now: datetime = field(default_factory=lambda: datetime.now().astimezone())

    @cached_property
    def env(self) -> Environment:
        """The template environment."""
        return environment()

    @cached_property
    def facts(self) -> tuple[MatchFacts, ...]:
        """Every match's facts."""
        return match_facts(self.event)

    @property
    def head(self) -> int:
        """The journal's last entry: the pages' version."""
        return self.event.entries[-1].seq

    def names(self) -> tuple[str, ...]:
        """Every page's file name."""
        return (*PAGES, *(round_page(k) for k in range(1, self.event.rounds + 1)))

    def render(self, name: str, *, query: str = "") -> str | None:
        """The page called ``name`` (None: no such page), in the language in force; ``query``
        (``?lang=zh``) is added to its links to the other pages."""
        token = _QUERY.set(query)
        try:
            return self._render(name)
        finally:
            _QUERY.reset(token)

    def _render(self, name: str) -> str | None:
        if name == "bracket.svg":
            return self._bracket_svg()
        if name.startswith("round-") and name.endswith(".html"):
            number = name.removeprefix("round-").removesuffix(".html")
            if number.isdigit() and 1 <= int(number) <= self.event.rounds:
                return self._round(int(number))
            return None
        builders = {
            "index.html": self._index,
            "bracket.html": self._bracket,
            "ranking.html": self._ranking,
            "slips.html": self._slips,
            "bid-forms.html": self._bid_forms,
        }
        build = builders.get(name)
        return None if build is None else build()

    def pages(self) -> dict[str, str]:
        """Every page, by file name."""
        out = {}
        for name in self.names():
            page = self.render(name)
            assert page is not None
            out[name] = page
        return out

    # --- shared --------------------------------------------------------------------------

    def _status(self) -> str:
        ev = self.event
        if ev.finished:
            return _("finished: champion {name}").format(name=ev.champion)
        games, asks, done = len(ev.next_games()), len(decisions(ev)), len(ev.games)
        return _("{games}, {decisions}, {results}").format(
            games=ngettext("{n:,} game to play", "{n:,} games to play", games).format(n=games),
            decisions=ngettext("{n:,} decision to ask", "{n:,} decisions to ask", asks).format(
                n=asks
            ),
            results=ngettext("{n:,} result recorded", "{n:,} results recorded", done).format(
                n=done
            ),
        )

    def _nav(self) -> list[dict[str, str]]:
        links = [{"href": "index.html", "text": _("Now")}]
        links += [
            {"href": round_page(k), "text": self._round_title(k)}
            for k in range(1, self.event.rounds + 1)
        ]
        links += [
            {"href": "bracket.html", "text": _("Bracket")},
            {"href": "ranking.html", "text": _("Ranking")},
            {"href": "slips.html", "text": _("Result slips (print)")},
            {"href": "bid-forms.html", "text": _("Bid forms (print)")},
        ]
        if self.live:
            links[0]["href"] = "./"
        query = _QUERY.get()
        for link in links:
            link["href"] += query
        return links

    def _round_title(self, k: int) -> str:
        """Round ``k`` as a heading: ``Semi-final``, ``Round 1`` (半决赛, 第 1 轮)."""
        return round_heading(round_name(k, self.event.rounds))

    def _page(self, template: str, title: str, **context: Any) -> str:
        return self.env.get_template(template).render(**self._context(title), **context)

    def _game_row(self, g: NextGame) -> dict[str, Any]:
        return {
            "board": g.board,
            "match": g.match,
            "game": g.number,
            "stage": stage_label(g.stage),
            "red": g.red,
            "black": g.black,
            "clock": _clock(g),
        }

    def _decision_view(self, d: Decision) -> dict[str, Any]:
        a, b = d.players
        if d.kind == "choice":
            who = d.chooser or _("the winner of the arbiter's lot (recorded with --chooser)")
            return {
                "match": d.match,
                "board": d.board,
                "game": d.game,
                "kind": d.kind,
                "what": _("colour choice, {a} v {b}").format(a=a, b=b),
                "ask": _("{who} chooses Red or Black.").format(who=who),
                "options": "",
            }
        if d.kind in ("sealed-bid", "cut"):
            return self._armageddon_view(d)
        menu = self.event.scenario.format.playable[-1].bidding
        if d.chooser is not None:
            ask = _(
                "甲 {chooser} announces Red or Black; then 乙 {other} accepts or objects."
            ).format(chooser=d.chooser, other=d.other)
        else:
            ask = _(
                "甲 is drawn by lot (the arbiter records it with --chooser); 甲 announces Red "
                "or Black, then 乙 accepts or objects."
            )
        options = ""
        if menu is not None:
            options = _(
                "Accept: 甲 plays the colour announced, Red {accept_red:g} v Black "
                "{accept_black:g} min. Object to Red: 乙 Red {object_red_red:g} v "
                "{object_red_black:g}. Object to Black: 甲 Red {object_black_red:g} v "
                "{object_black_black:g}."
            ).format(
                accept_red=menu.accept[0],
                accept_black=menu.accept[1],
                object_red_red=menu.object_red[0],
                object_red_black=menu.object_red[1],
                object_black_red=menu.object_black[0],
                object_black_black=menu.object_black[1],
            )
        return {
            "match": d.match,
            "board": d.board,
            "game": d.game,
            "kind": d.kind,
            "what": _("sudden-death bid, {a} v {b}").format(a=a, b=b),
            "ask": ask,
            "options": options,
        }

    def _armageddon_view(self, d: Decision) -> dict[str, Any]:
        """Sealed bids (both players bid Black's minutes) or a cut (the cutter names Red's
        minutes, the other picks the colour)."""
        a, b = d.players
        stage = self.event.scenario.format.playable[-1]
        view = {"match": d.match, "board": d.board, "game": d.game, "kind": d.kind}
        if d.kind == "sealed-bid" and stage.sealed_bid is not None:
            rule = stage.sealed_bid
            options = (
                _(
                    "Bids {low:g} to {high:g} min; the lower bid plays Black on its own time v "
                    "Red {red:g} min; equal bids: the arbiter's lot gives Black."
                )
                if rule.price == "first"
                else _(
                    "Bids {low:g} to {high:g} min; the lower bid plays Black on the higher "
                    "bid's time v Red {red:g} min; equal bids: the arbiter's lot gives Black."
                )
            )
            return view | {
                "what": _("sealed bids, {a} v {b}").format(a=a, b=b),
                "ask": _("{a} and {b} each write the minutes they would take as Black.").format(
                    a=a, b=b
                ),
                "options": options.format(
                    low=rule.min_black_minutes, high=rule.red_minutes, red=rule.red_minutes
                ),
            }
        cut = stage.cut
        who = d.chooser or _("the cutter (drawn by the arbiter's lot, recorded with --cutter)")
        return view | {
            "what": _("cut and choose, {a} v {b}").format(a=a, b=b),
            "ask": _("{who} names Red's minutes; then the other player picks Red or Black.").format(
                who=who
            ),
            "options": ""
            if cut is None
            else _("Red {low:g} to {high:g} min v Black {black:g} min.").format(
                low=cut.min_red_minutes, high=cut.max_red_minutes, black=cut.black_minutes
            ),
        }

    # --- pages ---------------------------------------------------------------------------

    def _index(self) -> str:
        ev = self.event
        results = [
            {
                "match": g.match,
                "game": g.number,
                "stage": stage_label(g.stage),
                "red": g.red,
                "black": g.black,
                "score": score(g.result),
                "at": _local(g.at),
            }
            for g in reversed(ev.games[-RECENT:])
        ]
        decided = [
            {"match": f.match, "how": f.how_text()}
            for f in sorted(
                (f for f in self.facts if f.winner is not None),
                key=lambda f: -max([g.seq for g in f.games] + [0]),
            )
        ]
        return self._page(
            "index.html",
            _("the hall screen") if self.live else _("now"),
            champion=ev.champion if ev.finished else None,
            games=[self._game_row(g) for g in next_games(ev)],
            decisions=[self._decision_view(d) for d in decisions(ev)],
            results=results,
            decided=decided,
            withdrawn=list(ev.withdrawn),
        )

    def _round(self, k: int) -> str:
        ev = self.event
        matches = []
        for f in self.facts:
            if f.round != k:
                continue
            m = ev.find_match(f.match)
            step = ev.next_step(m)
            names = (
                _(" v ").join(f"{n} ({f.seeds[n]})" for n in f.players)
                if f.players is not None
                else _("players not known yet")
            )
            waiting = ""
            if f.players is None:
                waiting = _("waiting for the matches before it")
            elif not isinstance(step, NextGame) and f.winner is None:
                waiting = _("sudden-death bid to record first")
            matches.append(
                {
                    "match": f.match,
                    "label": round_label(f.label),
                    "players": names,
                    "score": f.score if f.games else "",
                    "how": f.how_text(),
                    "games": [
                        {
                            "board": g.board,
                            "game": g.number,
                            "stage": stage_label(g.stage),
                            "red": g.red,
                            "black": g.black,
                            "score": score(g.result),
                            "clock": _clock(g),
                        }
                        for g in f.games
                    ],
                    "next": self._game_row(step) if isinstance(step, NextGame) else None,
                    "waiting": waiting,
                }
            )
        sudden = ev.scenario.format.bidding_stage
        draw_note = (
            _("In the {stage} a draw sends Black on.").format(
                stage=stage_label(sudden.name).replace("_", " ")
            )
            if sudden is not None
            else ""
        )
        title = self._round_title(k)
        if k == ev.rounds and ev.third_place is not None:
            title = _("{final} and third place").format(final=title)
        return self._page(
            "round.html", title, round=k, round_title=title, matches=matches, draw_note=draw_note
        )

    def _context(self, title: str) -> dict[str, Any]:
        ev = self.event
        when = self.now.strftime("%Y-%m-%d %H:%M:%S")
        return {
            "html_lang": HTML_LANG[language()],
            "event_name": ev.name,
            "title": title,
            "status": self._status(),
            "nav": self._nav(),
            "live": self.live,
            "head": self.head,
            "version": __version__,
            "refresh_seconds": REFRESH_SECONDS,
            "poll_ms": POLL_MS,
            "as_of": _("As of {when} (journal entry #{head}).").format(when=when, head=self.head),
        }

    def _bracket_svg(self) -> str:
        return bracket_svg(self.event, self.facts, self.env)

    def _bracket(self) -> str:
        return self._page("bracket.html", _("bracket"), svg=Markup(self._bracket_svg()))

    def _ranking(self) -> str:
        ev = self.event
        ranking = standings(ev)
        codes = list(ranking[0].tiebreaks) if ranking else []
        rows = [
            {
                "rank": s.rank,
                "name": s.name,
                "reached": reached_label(s.reached),
                "points": f"{s.points.normalize():f}",
                "tiebreaks": [
                    "-" if v is None else f"{v.normalize():f}" for v in s.tiebreaks.values()
                ],
            }
            for s in ranking
        ]
        title = _("Final ranking") if ev.finished else _("Ranking so far")
        named = _(", ").join(codes) if codes else _("(none)")
        note = (
            _(
                "By how far each player came, then per-game points and the tie-breaks {codes} "
                "over the whole event."
            )
            if ev.finished
            else _(
                "By how far each player came, then per-game points and the tie-breaks {codes} "
                "over the decided matches."
            )
        ).format(codes=named)
        return self._page(
            "ranking.html",
            _("final ranking") if ev.finished else _("ranking so far"),
            ranking_title=title,
            ranking=rows,
            codes=codes,
            ranking_note=note,
        )

    def _slips(self) -> str:
        ev = self.event
        slips = []
        for g in next_games(ev):
            if g.board is None:  # waiting for a board: its slip comes when it has one
                continue
            stage = ev.scenario.format.stage(g.stage)
            draw_note = ""
            if stage.draw_winner is not None:
                black = stage.draw_winner.value == "black"
                draw_note = (
                    _("A draw sends Black on ({name}).")
                    if black
                    else _("A draw sends Red on ({name}).")
                ).format(name=g.black if black else g.red)
            m = ev.find_match(g.match)
            slips.append(
                {
                    **self._game_row(g),
                    "label": round_heading(m.label),
                    "draw_note": draw_note,
                    "command": f"knockout event record {self.command_file} {g.match} {g.number} "
                    f"RESULT --time-used NAME=SECONDS",
                }
            )
        return self._page("slips.html", _("result slips"), slips=slips)

    def _bid_forms(self) -> str:
        ev = self.event
        stage = ev.scenario.format.playable[-1]
        menu = stage.bidding
        forms = []
        for d in decisions(ev):
            if d.kind == "bid":
                forms.append(self._form(d, menu))
            elif d.kind == "sealed-bid":
                forms += self._sealed_forms(d)
            elif d.kind == "cut":
                forms.append(self._cut_form(d))
        if not forms:  # a blank form of the format's own sudden-death rule
            if stage.sealed_bid is not None:
                forms += self._sealed_forms(None)
            elif stage.cut is not None:
                forms.append(self._cut_form(None))
            else:
                forms.append(self._form(None, menu))
        return self._page("bid-forms.html", _("sudden-death bid forms"), forms=forms)

    def _where(self, d: Decision | None) -> tuple[str, str, int | None]:
        """A form's title, match and board (a blank form when ``d`` is None)."""
        if d is None:
            return _blank_title(), "", None
        a, b = d.players
        title = _("{match}, game {game}: {a} v {b}").format(match=d.match, game=d.game, a=a, b=b)
        return title, d.match, d.board

    def _sealed_forms(self, d: Decision | None) -> list[dict[str, Any]]:
        """One sealed slip per player: each writes, unseen, the minutes they would take as
        Black."""
        stage = self.event.scenario.format.playable[-1]
        rule = stage.sealed_bid
        assert rule is not None
        title, match, board = self._where(d)
        note = (
            _(
                "The lower bid plays Black on its own time v Red {red:g} min; equal bids: the "
                "arbiter's lot gives Black. Each move adds {increment:g} s. A draw sends Black on."
            )
            if rule.price == "first"
            else _(
                "The lower bid plays Black on the higher bid's time v Red {red:g} min; equal "
                "bids: the arbiter's lot gives Black. Each move adds {increment:g} s. A draw "
                "sends Black on."
            )
        ).format(red=rule.red_minutes, increment=stage.increment_seconds)
        names = ("", "") if d is None else d.players
        bids = " ".join(f"--bid {n or 'NAME'}=MINUTES" for n in names)
        command = f"knockout event sealed {self.command_file} {match or 'MATCH'} {bids}"
        return [
            {
                "kind": "sealed-bid",
                "match": match,
                "title": title,
                "board": board,
                "player": name,
                "range": _("{low:g} to {high:g}").format(
                    low=rule.min_black_minutes, high=rule.red_minutes
                ),
                "rule_note": note,
                "command": _("Recorded with: {command}").format(command=command),
            }
            for name in names
        ]

    def _cut_form(self, d: Decision | None) -> dict[str, Any]:
        """You cut, I choose: the cutter names Red's minutes, the other picks the colour."""
        stage = self.event.scenario.format.playable[-1]
        cut = stage.cut
        assert cut is not None
        title, match, board = self._where(d)
        cutter = None if d is None else d.chooser
        chooser = None
        if d is not None and cutter is not None:
            chooser = d.players[1] if cutter == d.players[0] else d.players[0]
        option = "" if d is not None and d.chooser is not None else " --cutter NAME"
        command = (
            f"knockout event cut {self.command_file} {match or 'MATCH'} --red-minutes M "
            f"--colour red|black{option}"
        )
        return {
            "kind": "cut",
            "match": match,
            "title": title,
            "board": board,
            "cutter": cutter,
            "chooser": chooser,
            "why": "" if d is None or cutter is not None else _("by the arbiter's lot"),
            "range": _("{low:g} to {high:g}").format(
                low=cut.min_red_minutes, high=cut.max_red_minutes
            ),
            "black_minutes": f"{cut.black_minutes:g}",
            "rule_note": _("Each move adds {increment:g} s. A draw sends Black on.").format(
                increment=stage.increment_seconds
            ),
            "command": _("Recorded with: {command}").format(command=command),
        }

    def _form(self, d: Decision | None, menu: Any) -> dict[str, Any]:
        why = ""
        if d is not None:
            prev = d.game - 1
            times = _(", ").join(
                f"{n} {duration(s, to_the_second=True)}" for n, s in d.times.items()
            )
            why = {
                "less-time": _("used less time in game {game} ({times})"),
                "tie": _("equal times in game {game} ({times}): 甲 by lot"),
                "lot": _("by lot"),
                "unknown": _("game {game}'s times were not recorded: 甲 by lot"),
            }.get(d.why, "").format(game=prev, times=times)
        chooser = None if d is None else d.chooser
        bidder = None if d is None else d.other
        a = chooser or "甲"
        b = bidder or "乙"
        options = []
        if menu is not None:
            options = [
                {
                    "choice": _("乙 accepts 接受"),
                    "red": _("the colour 甲 announced: {a} if Red, else {b}").format(a=a, b=b),
                    "black": _("{b} if 甲 announced Red, else {a}").format(a=a, b=b),
                    "red_minutes": f"{menu.accept[0]:g}",
                    "black_minutes": f"{menu.accept[1]:g}",
                },
                {
                    "choice": _("乙 objects to Red 反对红"),
                    "red": b,
                    "black": a,
                    "red_minutes": f"{menu.object_red[0]:g}",
                    "black_minutes": f"{menu.object_red[1]:g}",
                },
                {
                    "choice": _("乙 objects to Black 反对黑"),
                    "red": a,
                    "black": b,
                    "red_minutes": f"{menu.object_black[0]:g}",
                    "black_minutes": f"{menu.object_black[1]:g}",
                },
            ]
        stage = self.event.scenario.format.bidding_stage
        rule_note = (
            _("A draw in the sudden-death game sends Black on.")
            if stage is None
            else _(
                "A draw in the sudden-death game sends Black on. Each move adds {increment:g} s."
            ).format(increment=stage.increment_seconds)
        )
        if d is None:
            title = _blank_title()
            command = f"knockout event bid {self.command_file} MATCH {MadeBid.usage_words()}"
            board = None
            match = ""
        else:
            a_, b_ = d.players
            title = _("{match}, game {game}: {a} v {b}").format(
                match=d.match, game=d.game, a=a_, b=b_
            )
            chooser_opt = "" if d.chooser is not None else " --chooser NAME"
            command = (  # the typed values in the page's language: the command reads both
                f"knockout event bid {self.command_file} {d.match} {MadeBid.usage_words()}"
                f"{chooser_opt}"
            )
            board = d.board
            match = d.match
        return {
            "kind": "bid",
            "match": match,
            "title": title,
            "board": board,
            "chooser": chooser,
            "bidder": bidder,
            "why": why,
            "options": options,
            "rule_note": rule_note,
            "command": _("Recorded with: {command}").format(command=command),
        }
