"""Scoring reform: results files, re-scoring under any system, the team league.

The scoring systems themselves (points per game) are shared vocabulary in :mod:`knockout.points`."""
