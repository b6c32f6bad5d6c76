"""``knockout rescore`` and ``knockout league``: scoring systems applied to real results."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from knockout.cli.app import (
    EncodingOpt,
    SetOpt,
    app,
    check_seed,
    emit_json,
    out_console,
    say_line,
    show_study,
    step_line,
    user_errors,
)
from knockout.cli.standings import RULES_HELP, conventions_options
from knockout.errors import InputError
from knockout.i18n import _

if TYPE_CHECKING:  # imported where a command needs it: a fast start
    from knockout.points import ScoringSystem
    from knockout.standings.tiebreaks import TieBreak

if TYPE_CHECKING:  # numpy and the scoring modules are imported where a command needs them
    import numpy as np

__all__ = ["league", "league_odds", "rescore_command", "scoring_study"]

_ENCODING = typer.Option(
    "--encoding",
    help="Text encoding of the CSV file, e.g. gb18030 (default UTF-8, with or without a BOM).",
    show_default=False,
)
_JSON = typer.Option("--json", help="Write JSON to stdout instead of tables.")


_RESCORE_HELP = (
    "Re-score an event's results: totals, progressive scores and ranks under any scoring system."
    "\n\n"
    "RESULTS is a CSV file with one row per player and game, from that player's side: "
    "round,player,opponent,colour,result with colour red or black and result win, draw or loss; "
    "optional columns moves, attack_red and attack_black are needed by --scoring round-robin. "
    "The opponent's row may be absent; if present it must agree. The games layout that "
    "knockout standings reads, round,red,black,result (result red, draw or black), is read too: "
    "each game as Red's row and Black's."
    "\n\n"
    "Players with rows are ranked by points, then by the tie-breaks (default PS: the progressive "
    "score 累进分, the sum of the running totals after each round); players tied on everything "
    "share a rank. Tie-breaks come from the tie-break registry and are computed in the chosen "
    "scoring system, under FIDE's rules in force (--rules, --date) and the conventions of a "
    "Swiss or round-robin event (--tournament), as knockout standings does; those that need "
    "opponents' totals (BH, SB, ...) are refused unless every opponent has rows."
    "\n\n"
    "[bold]Example[/bold] (seed 000's 2010 championship, difference method against the "
    "traditional 2/1/0):"
    "\n\n"
    "knockout rescore scenarios/data/2010-national-individual-men.csv "
    "--scoring difference --compare traditional"
)
_LEAGUE_HELP = (
    "Team league of seed 001: board points, match points and the league table."
    "\n\n"
    "RESULTS is a CSV file with one row per board: round,home,away,board,home_colour,result. "
    "Board 1 is the captains'. home_colour is the home player's colour (red or black) and result "
    "the home player's result (win, draw or loss); nothing else is accepted. If the home captain "
    "has Red, the home side's boards 2-4 have Black, and vice versa."
    "\n\n"
    "Board points: captains' board win 5, draw Black 3 / Red 2; other boards win 3, draw Black "
    "1.5 / Red 1. More board points take 3 match points, or 1 against 0.5 when the captains drew "
    "and the other boards went three draws or one win, one draw and one loss. Ranking: match "
    "points; head-to-head; board points; Black wins; Red wins; Black draws; Red draws."
    "\n\n"
    "[bold]Example[/bold]: knockout league scenarios/data/league-example.csv"
)


def _rng(seed: int | None) -> np.random.Generator | None:
    import numpy as np

    return None if seed is None else np.random.default_rng(seed)


def _rescore_tiebreaks(
    text: str | None, system: ScoringSystem, seed: int | None
) -> tuple[TieBreak, ...]:
    """``--tiebreaks`` (default: seed 001's chain for its round-robin scoring, else PS).

    Raises:
        InputError: For an unknown or repeated code, or lots without ``--seed``.
    """
    from knockout.standings.tiebreaks import parse_tiebreaks

    if text is None:
        text = "DE,BWG,RWG,BDG,RDG" if system.name == "round-robin" else "PS"
    try:
        codes = parse_tiebreaks(text)
    except ValueError as exc:
        raise InputError.single("--tiebreaks", "", str(exc)) from None
    if any(tb.needs_rng for tb in codes) and seed is None:
        raise InputError.single("--tiebreaks", "", "the drawing of lots needs --seed")
    return codes


def _system(name: str, customs: dict[str, ScoringSystem], option: str) -> ScoringSystem:
    from knockout.points import SCORING

    known = {**SCORING, **customs}
    if name not in known:
        raise InputError.single(
            option, "", f"unknown scoring system: {name!r} (known: {', '.join(known)})"
        )
    return known[name]


@app.command(name="rescore", help=_RESCORE_HELP)
def rescore_command(
    results: Annotated[
        Path,
        typer.Argument(
            help="Results CSV, one row per player and game, with the header "
            "round,player,opponent,colour,result and optionally moves, attack_red, attack_black.",
            show_default=False,
        ),
    ],
    scoring: Annotated[
        str,
        typer.Option(
            "--scoring",
            "-s",
            help="Scoring system: traditional, difference, ratio, ratio-computed, 3-1-0, "
            "knockout, round-robin, league-board, ... or a name from --scoring-file.",
        ),
    ] = "traditional",
    tiebreaks: Annotated[
        str | None,
        typer.Option(
            "--tiebreaks",
            "-t",
            help="Comma-separated tie-breaks after points, in order: PS (progressive score), "
            "DE, WIN, WON, BWG, RWG, BDG, RDG, BPG, BH, BH-C1, BH-M1, SB, SB-C1, PS-Ck, lots, ... "
            "Default: PS; with --scoring round-robin, seed 001's chain DE,BWG,RWG,BDG,RDG "
            "(head-to-head, Black wins, Red wins, Black draws, Red draws).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            callback=check_seed,
            help="Seed for the drawing of lots (tie-break lots).",
            show_default=False,
        ),
    ] = None,
    compare: Annotated[
        str | None,
        typer.Option(
            "--compare",
            "-c",
            help="Also rank under this system and show how each player's rank moves.",
            show_default=False,
        ),
    ] = None,
    scoring_file: Annotated[
        Path | None,
        typer.Option(
            "--scoring-file",
            help="TOML file declaring custom systems as \\[scoring.NAME] tables with red_win, "
            "black_win, red_draw, black_draw and loss.",
            show_default=False,
        ),
    ] = None,
    rounds: Annotated[
        bool,
        typer.Option("--rounds", help="Also show each player's rounds, as seed 000 prints them."),
    ] = False,
    rules: Annotated[
        str | None, typer.Option("--rules", help=RULES_HELP, show_default=False)
    ] = None,
    on: Annotated[
        str | None,
        typer.Option(
            "--date",
            help="The event's start date, YYYY-MM-DD (chooses the rules in force).",
            show_default=False,
        ),
    ] = None,
    tournament: Annotated[
        str | None,
        typer.Option(
            "--tournament",
            help="swiss or round-robin: the conventions of the tie-breaks (not the scoring "
            "system: --scoring round-robin is seed 001's points). Default: round-robin when "
            "every two players met equally often (once or twice).",
            show_default=False,
        ),
    ] = None,
    encoding: Annotated[str | None, _ENCODING] = None,
    json: Annotated[bool, _JSON] = False,
) -> None:
    """Rank an event's results under a scoring system (``knockout rescore``)."""
    from knockout.dashboard.scoring import (
        compare_table,
        player_rounds,
        score_table,
        scoring_line,
    )
    from knockout.scoring.files import read_scoring_file
    from knockout.scoring.rescore import (
        event_conventions,
        rescore,
    )
    from knockout.scoring.rescore import to_json as rescore_json
    from knockout.scoring.results import read_results

    with user_errors():
        customs = read_scoring_file(scoring_file) if scoring_file is not None else {}
        system = _system(scoring, customs, "--scoring")
        baseline_system = None if compare is None else _system(compare, customs, "--compare")
        codes = _rescore_tiebreaks(tiebreaks, system, seed)
        chosen_rules, chosen_date, chosen_kind = conventions_options(rules, on, tournament)
        data = read_results(results, encoding=encoding)
        conventions = event_conventions(
            data, system, rules=chosen_rules, tournament=chosen_kind, on=chosen_date
        )
        table = rescore(data, system, tiebreaks=codes, rng=_rng(seed), conventions=conventions)
        baseline = None
        if baseline_system is not None:
            baseline = rescore(
                data, baseline_system, tiebreaks=codes, rng=_rng(seed), conventions=conventions
            )
    if json:
        emit_json(rescore_json(table, baseline=baseline, seed=seed))
        return
    out_console.print(scoring_line(system), style="dim")
    out_console.print(score_table(table))
    if rounds:
        for standing in table.standings:
            out_console.print(player_rounds(table, standing))
    if data.opponents_without_rows:
        out_console.print(
            f"{len(data.opponents_without_rows)} opponents have no rows and are not ranked.",
            style="dim",
        )
    if baseline is not None:
        out_console.print(compare_table(table, baseline))


@app.command(help=_LEAGUE_HELP)
def league(
    results: Annotated[
        Path,
        typer.Argument(
            help="League CSV, one row per board: round,home,away,board,home_colour,result "
            "(board 1 is the captains'; colour and result are the home player's); or a league "
            "file (.toml: teams, captains, captain changes, fixtures, the results CSV).",
            show_default=False,
        ),
    ],
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            help="Seed of the lot for boards 2-4 (a league file; default: the file's seed).",
            show_default=False,
            callback=check_seed,
        ),
    ] = None,
    round_: Annotated[
        int | None,
        typer.Option(
            "--round",
            min=1,
            help="Draw the lot for this round only (a league file).",
            show_default=False,
        ),
    ] = None,
    encoding: Annotated[str | None, _ENCODING] = None,
    json: Annotated[bool, _JSON] = False,
) -> None:
    """League table of a team league (``knockout league``)."""
    from knockout.dashboard.scoring import league_season_view, league_view
    from knockout.scoring.league import read_league
    from knockout.scoring.league import to_json as league_json

    if results.suffix.lower() == ".toml":
        from knockout.scoring.league_file import read_league_file, season_json

        with user_errors():
            season = read_league_file(results, encoding=encoding)
        if json:
            doc = league_json(season.table) if season.table is not None else {}
            emit_json({**doc, **season_json(season, seed=seed, round=round_)})
            return
        out_console.print(league_season_view(season, seed=seed, round=round_))
        return
    with user_errors():
        if seed is not None or round_ is not None:
            option = "--seed" if seed is not None else "--round"
            raise InputError.single(
                option, "", "the lot needs a league file (.toml) with the teams and captains"
            )
        table = read_league(results, encoding=encoding)
    if json:
        emit_json(league_json(table))
        return
    out_console.print(league_view(table))


_LEAGUE_ODDS_HELP = (
    "Exact odds of one match of seed 001's team league, for each colour of the home captain."
    "\n\n"
    "TEAMS is a TOML file: captain_colour (red, black or best: the home side picks the colour "
    "with more expected match points), four [\\[home]] and four [\\[away]] players (name, rating; "
    "rating_rapid and rating_blitz optional), board 1 (the captain) first; optional \\[clocks] "
    "(minutes per board, default 60, 40, 40, 40; increment_seconds, default 10), \\[model] as in a "
    "scenario, home_team and away_team. Each board's time class follows from its clock (60+10 "
    "classical, 40+10 rapid). The 81 outcomes of the four boards are enumerated, nothing is "
    "sampled; see docs/scoring.md."
    "\n\n"
    "Prints each board's odds, each side's chance of 3 : 0, 1 : 0.5, 0.5 : 1 and 0 : 3, expected "
    "match and board points, and the colour the home side should pick."
    "\n\n"
    "[bold]Example[/bold]: knockout league-odds scenarios/league-teams.toml --set "
    "model.red_advantage.rapid=0"
)


@app.command(name="league-odds", help=_LEAGUE_ODDS_HELP)
def league_odds(
    teams_file: Annotated[
        Path,
        typer.Argument(
            help="Team-match file (TOML, or a league-odds --json output).",
            show_default=False,
            metavar="TEAMS",
        ),
    ],
    json: Annotated[bool, _JSON] = False,
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Exact odds of a team match (``knockout league-odds``)."""
    from knockout.io.envelope import envelope
    from knockout.io.teams import load_team_match
    from knockout.studies.scoring.team_match import odds_json, team_match_odds

    with user_errors():
        teams = load_team_match(teams_file, encoding=encoding, overrides=sets or ())
    odds = team_match_odds(teams)
    if json:
        emit_json(envelope(odds_json(odds), scenario=teams.to_dict()))
        return
    from knockout.dashboard.scoring import league_odds_view

    out_console.print(league_odds_view(odds))


_STUDY_HELP = (
    "Simulate Swiss and round-robin events under several scoring systems and test seed 000's "
    "claims (does an extra Red still pay, how often are there ties at the top, how far is the "
    'final order from true strength); or, for a file whose events all have format = "league", '
    "seasons of seed 001's team league (is the team whose captain has Red favoured?)."
    "\n\n"
    "STUDY is a TOML study file (systems, events, model, sensitivity grid); see "
    "docs/scoring-study.md. Writes results.csv (tidy: one row per event, system and metric, with "
    "standard errors), PNG plots and summary.md (which claims hold) into --out, and prints the "
    'summary. Swiss events with pairing_system = "dutch" are paired by FIDE\'s Dutch system '
    "(over a minute of one CPU per event of 100 players and 11 rounds; progress lines on stderr "
    "say how long is left), shared among --workers processes."
    "\n\n"
    "[bold]Example[/bold]: knockout scoring-study scenarios/studies/scoring-reform.toml "
    "--out out/scoring-reform"
)


@app.command(name="scoring-study", help=_STUDY_HELP)
def scoring_study(
    study_file: Annotated[
        Path, typer.Argument(help="Study file (TOML).", show_default=False, metavar="STUDY")
    ],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Directory for the CSV, plots and summary.")
    ] = Path("out/scoring-study"),
    simulations: Annotated[
        int | None,
        typer.Option(
            "--simulations",
            "-n",
            min=2,
            help="Simulated events per event kind (overrides the study file).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            callback=check_seed,
            help="Seed (overrides the study file).",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        str,
        typer.Option(
            help="Most processes to share the Dutch pairing among, or auto (every CPU).",
        ),
    ] = "auto",
    yes: Annotated[
        bool,
        typer.Option(
            "--yes",
            help="Run a study estimated at more than 10 minutes (timed on a short pilot of "
            "each event kind first; refused without it).",
        ),
    ] = False,
    json: Annotated[bool, _JSON] = False,
    encoding: EncodingOpt = None,
) -> None:
    """Run a scoring-reform study (``knockout scoring-study``)."""
    from knockout.studies.load import RunOptions, load_study
    from sims.runner import parse_workers

    def timing(done: int, total: int) -> None:
        say_line(
            _("{name}: timing a pilot: {done}/{total} event kinds").format(
                name=found.name, done=done, total=total
            )
        )

    with user_errors():
        found = load_study(study_file, encoding=encoding)
        options = RunOptions(
            seed, parse_workers(str(workers)), simulations=simulations, yes=yes, say=say_line,
            steps=step_line, pilot=timing,
        )  # fmt: skip
        run = found.run(out, options)
    show_study(run, json)
