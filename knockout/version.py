"""The package version (one place: the build reads it, every output carries it)."""

__version__ = "0.1.0"
