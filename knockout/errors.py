"""One exception hierarchy for the whole package.

Every error a user can cause by bad input is a :class:`KnockoutError`. Input errors carry a list of
:class:`Problem` s, one per thing wrong, so the CLI can print every problem on its own line and exit
with code 2 instead of showing a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from knockout.i18n import _

__all__ = ["InputError", "KnockoutError", "Problem", "ScenarioError"]


class KnockoutError(Exception):
    """Base class of every error this package raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where it is and what was expected.

    Attributes:
        source: The file (or other origin) the value came from.
        key: Where in that source: a dotted key path (``players[3].rating``) or ``line 7``.
        message: What was expected and what was found.
    """

    source: str
    key: str
    message: str

    def __str__(self) -> str:
        if self.key:
            return _("{source}: {key}: {message}").format(
                source=self.source, key=self.key, message=self.message
            )
        return _("{source}: {message}").format(source=self.source, message=self.message)


class InputError(KnockoutError, ValueError):
    """Bad input data (scenario, CSV, TRF): one or more problems, all reported at once."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("InputError needs at least one problem")
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(cls, source: str, key: str, message: str) -> InputError:
        """An error with exactly one problem."""
        return cls([Problem(source, key, message)])

    def lines(self) -> Sequence[str]:
        """One printable line per problem."""
        return [str(p) for p in self.problems]


class ScenarioError(InputError):
    """A scenario file that cannot be used as written."""
