"""Self-play on every core: the same games with ``--jobs 1`` and ``--jobs 2``.

:func:`selfplay_check` plays one run of a few games at a small node budget with one job, then
the same run with two (each in its own folder, the openings drawn alike), and reports each run's
games a minute after its openings (:attr:`~knockout.selfplay.run.Progress.games_per_minute` at
its last game) and whether the two calibration files are the same (node budgets: a game is a
function of its moves). Nothing here asserts a speed.
"""

from __future__ import annotations

import importlib.util
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from knockout.errors import KnockoutError

__all__ = ["SELFPLAY_NODES", "SelfPlayCheck", "selfplay_check"]

Say = Callable[[str], None]

#: Nodes a move in the timed games (the bundled dataset's smallest budget).
SELFPLAY_NODES = 1000


@dataclass(frozen=True)
class SelfPlayCheck:
    """The same self-play run with one job and with ``jobs``.

    Attributes:
        games: Games in each run.
        nodes: Nodes a move.
        jobs: Games at once in the second run.
        one_per_minute: Games a minute with one job (after the openings).
        many_per_minute: Games a minute with ``jobs``.
        same_files: Whether the two runs wrote the same calibration file.
    """

    games: int
    nodes: int
    jobs: int
    one_per_minute: float
    many_per_minute: float
    same_files: bool

    @property
    def ratio(self) -> float:
        """``many_per_minute / one_per_minute``."""
        return self.many_per_minute / self.one_per_minute


def selfplay_check(
    games: int, jobs: int, say: Say, *, engine: str | None = None, max_plies: int | None = None
) -> SelfPlayCheck | str:
    """The run with one job and with ``jobs`` (``games`` games at :data:`SELFPLAY_NODES` nodes
    with the odds 1:1 and 2:1, as the bundled dataset's, seed 1), or why it was not measured
    (no rules library, no engine). ``engine``: the engine's path (default: Fairy-Stockfish
    where installed); ``max_plies``: the move cap (default: self-play's)."""
    if importlib.util.find_spec("pyffish") is None:
        return "not measured (no rules library: pip install 'knockout[selfplay]')"
    from knockout.selfplay import (  # noqa: PLC0415  (the rules library: only here)
        Adjudication,
        OpeningConfig,
        SelfPlayConfig,
        pairings,
        play,
    )
    from knockout.selfplay.run import Progress  # noqa: PLC0415 (start-up: the self-play row only)
    from knockout.selfplay.uci import find_engine  # noqa: PLC0415 (start-up: the self-play row only)

    try:
        engine = find_engine(engine)
    except KnockoutError:
        return "not measured (no Xiangqi engine: apt-get install fairy-stockfish)"
    rates: list[float] = []
    texts: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for run_jobs in (1, jobs):
            say(f"self-play: {games} games at {SELFPLAY_NODES} nodes, --jobs {run_jobs}")
            config = SelfPlayConfig(
                engine=engine,
                pairings=pairings("nodes", SELFPLAY_NODES, [(1, 1), (2, 1)]),
                games=games,
                seed=1,
                jobs=run_jobs,
                openings=OpeningConfig(nodes=5000),  # drawn before the games: not timed
                adjudication=Adjudication()
                if max_plies is None
                else Adjudication(max_plies=max_plies),
            )
            last: list[Progress] = []

            def seen(p: Progress, last: list[Progress] = last) -> None:
                if p.phase == "games":
                    last[:] = [p]

            out = Path(folder) / f"jobs{run_jobs}.csv"
            play(config, out, progress=seen)
            if not last or last[0].games_per_minute is None:
                return "not measured (no game finished)"
            rates.append(last[0].games_per_minute)
            texts.append(out.read_text(encoding="utf-8"))
    return SelfPlayCheck(games, SELFPLAY_NODES, jobs, rates[0], rates[1], texts[0] == texts[1])
