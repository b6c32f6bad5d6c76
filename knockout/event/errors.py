"""The one error of event mode: something refused, with the event left as it was."""

from __future__ import annotations

from knockout.errors import InputError, Problem

__all__ = ["EventRefused", "refused"]


class EventRefused(InputError):
    """An entry, a command or a file that the event refuses; nothing was written."""


def refused(source: str, key: str, message: str) -> EventRefused:
    """A refusal with one problem: ``source: key: message``."""
    return EventRefused([Problem(source, key, message)])
