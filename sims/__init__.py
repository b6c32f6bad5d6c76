"""Vectorised Monte Carlo layer on top of the knockout core."""
