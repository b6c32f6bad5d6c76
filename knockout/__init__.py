"""knockout: Xiangqi knockout matches with time-bidding sudden death.

The core (model, formats, bidding, match chain, exact solver, SimPy engine) lives here; the
vectorised Monte Carlo layer is the sibling package ``sims``; the command line is ``knockout.cli``.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
