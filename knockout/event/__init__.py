"""Organiser mode: a real knockout event kept in one SQLite file, with nothing ever lost.

The file holds the event's resolved scenario, its players and an append-only journal of entries
(games, sudden-death bids, withdrawals, undos). Where the event stands is the journal replayed
through the same rules that compute the odds (:mod:`knockout.event.state`). Layers:
:mod:`~knockout.event.database` (the file: schema, versions, transactions),
:mod:`~knockout.event.journal` (entries), :mod:`~knockout.event.state` (the replay),
:mod:`~knockout.event.entries` (checking what the arbiter typed),
:mod:`~knockout.event.store` (the operations), :mod:`~knockout.event.ranking` and
:mod:`~knockout.event.export` (outputs).

This package never prints, never exits, and imports neither typer nor rich nor ``sims``.
"""
