"""The exact walker: dynamic programming over the match chain, and over a bracket."""
