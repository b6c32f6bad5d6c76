"""A stand-in UCI engine for the tests: plays a legal move chosen by pyffish (the first in sorted
order, or the one after ``FAKE_SHIFT`` if set), so a whole run can be played without
Fairy-Stockfish. ``FAKE_CRASH_AFTER=N`` exits with code 3 at the N-th ``go``; ``FAKE_HANG=1``
never answers ``go``; ``FAKE_SCORE=N`` reports that score (centipawns, for the mover)."""

from __future__ import annotations

import os
import sys
import time

import pyffish

VARIANT = "xiangqi"


def main() -> None:  # noqa: C901 (one branch a UCI command)
    fen = pyffish.start_fen(VARIANT)
    moves: list[str] = []
    searches = 0
    crash = int(os.environ.get("FAKE_CRASH_AFTER", "0"))
    shift = int(os.environ.get("FAKE_SHIFT", "0"))
    score = int(os.environ.get("FAKE_SCORE", "0"))
    multipv = 1
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name Fake Engine 1.0\noption name MultiPV type spin default 1\nuciok")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "setoption" and "MultiPV" in words:
            multipv = int(words[-1])
        elif words[0] == "position":
            moves = words[words.index("moves") + 1 :] if "moves" in words else []
        elif words[0] == "go":
            searches += 1
            if crash and searches >= crash:
                sys.exit(3)
            if os.environ.get("FAKE_HANG"):
                time.sleep(3600)
            legal = sorted(pyffish.legal_moves(VARIANT, fen, moves))
            if not legal:
                print("info depth 1 score mate 0\nbestmove (none)")
                continue
            k = (shift + len(moves)) % len(legal)
            ordered = legal[k:] + legal[:k]
            for i, move in enumerate(ordered[:multipv]):
                print(f"info depth 1 multipv {i + 1} score cp {score - 10 * i} nodes 1 pv {move}")
            print(f"bestmove {ordered[0]}")
        elif words[0] == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
