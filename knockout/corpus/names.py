"""Players' names: the team written before a name split off, traditional and simplified merged.

Records write a player as ``呂欽``, ``吕钦``, ``廣東呂欽`` or ``廣東 呂欽``. A :class:`NameBook`
learns from every name in the collection which words are teams and which are players, then reads
each written name as ``(team, player)``:

* brackets are read by :func:`bare` (a remark, or a team written before the name);
* a name with a space in it is a team and a player when both sides have at least two characters
  (``廣東 呂欽``); otherwise the space is padding inside one name (``洪  智``, ``程 鳴``); a name
  in letters keeps its words (``Tempelmann Claus``, team ``德國`` in ``德國 Hollanth Karsten``);
* a name with no space, of four characters or more, is split where the part before is a team the
  collection writes elsewhere (spaced, or in a ``RedTeam``/``BlackTeam`` tag) and the part after
  is a player it writes elsewhere on their own (``廣東呂欽``, ``黑龍江王有盛``); otherwise it is
  one name;
* two written forms are one player when OpenCC's traditional-to-simplified conversion makes them
  equal (``呂欽`` = ``吕钦``); the table writes each player in the form the collection uses most.

The book lists every player written in more than one form (:meth:`NameBook.merges`), so a wrong
merge or split can be seen.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import opencc

__all__ = ["NameBook", "Player", "bare", "simplified", "spaced"]

_SPACES = re.compile(r"[\s\u3000]+")
_OPEN = "(（"
_CLOSE = ")）"
_UNCLOSED = re.compile(r"[(（][^)）]*$")
_BRACKETED = re.compile(r"[(（]([^)）]*)[)）]")
_CJK = re.compile(r"[\u3400-\u9fff]")


@functools.cache
def _converter() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


@functools.lru_cache(maxsize=1 << 16)
def simplified(text: str) -> str:
    """``text`` in simplified characters (OpenCC's t2s), the key that merges the two scripts.

    >>> simplified("廣東呂欽")
    '广东吕钦'
    """
    return str(_converter().convert(text))


def spaced(text: str) -> str:
    """``text`` with its runs of spaces (full-width ones too) made one space, trimmed."""
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class Player:
    """A written name read: the team before it (or the record's team tag) and the player."""

    team: str
    name: str


def bare(written: str) -> str:
    """A written name with its brackets read: an unclosed bracket and what follows is a remark
    (``安徽 鍾濤 (紅先``); a bracket before the name holds its team (``(香港)趙汝權`` reads
    ``香港 趙汝權``); one after it is a remark; a name wholly in brackets is the name.

    >>> bare("安徽 鍾濤 (紅先"), bare("(香港)趙汝權"), bare("(山西周小平)"), bare("呂欽(特大)")
    ('安徽 鍾濤', '香港 趙汝權', '山西周小平', '呂欽')
    """
    text = _UNCLOSED.sub("", written).strip()
    match = _BRACKETED.search(text)
    if match is not None:
        before, inside, after = text[: match.start()], match[1], text[match.end() :]
        if not (before + after).strip():
            text = inside
        elif not before.strip():
            text = f"{inside} {after}"
        else:
            text = before
    return spaced(text)


def _first_reading(written: str) -> Player:
    """The reading of a name that needs nothing learnt: a team only where a space says so."""
    text = bare(written)
    if " " in text and not _CJK.search(text.rsplit(" ", 1)[1]):
        # A name in letters (``Tempelmann Claus``): its words are the name; a team before it is
        # written in characters (``德國 Hollanth Karsten``).
        words = text.split(" ")
        first = next((i for i, w in enumerate(words) if not _CJK.search(w)), len(words))
        return Player(" ".join(words[:first]), " ".join(words[first:]))
    if " " in text:
        head, last = text.rsplit(" ", 1)
        if len(last) >= 2 and len(head.replace(" ", "")) >= 2:
            return Player(head, last)
        return Player("", text.replace(" ", ""))
    return Player("", text)


class NameBook:
    """The players of a collection, learnt from all its written names at once.

    Args:
        written: Every written name with its record's team tag (``""`` if none).
    """

    def __init__(self, written: Iterable[tuple[str, str]]) -> None:
        pairs = list(written)
        teams: set[str] = set()
        players: set[str] = set()
        for name, team_tag in pairs:
            first = _first_reading(name)
            if team_tag.strip():
                teams.add(simplified(spaced(team_tag)))
            if first.team:
                teams.add(simplified(first.team))
                players.add(simplified(first.name))
            elif 2 <= len(first.name) <= 3:
                players.add(simplified(first.name))
        self._teams = frozenset(teams)
        self._players = frozenset(players)
        forms: dict[str, Counter[str]] = {}
        self._written: dict[str, set[str]] = {}
        for name, team_tag in pairs:
            player = self.read(name, team_tag)
            key = simplified(player.name)
            forms.setdefault(key, Counter())[player.name] += 1
            self._written.setdefault(key, set()).add(spaced(name))
        #: The form the collection writes each player in most (ties: the first in code order).
        self._display = {
            key: min(counts, key=lambda form: (-counts[form], form))
            for key, counts in forms.items()
        }

    def read(self, written: str, team_tag: str = "") -> Player:
        """``written`` as ``(team, player)``, the player in the form it is written.

        The team is the record's team tag when it has one, else the team written before the name.
        """
        first = _first_reading(written)
        if not first.team and len(first.name) >= 4:
            first = self._split(first.name)
        team = spaced(team_tag) or first.team
        return Player(team, first.name)

    def _split(self, name: str) -> Player:
        for cut in range(len(name) - 2, 1, -1):  # the longest team first
            team, player = name[:cut], name[cut:]
            if simplified(team) in self._teams and simplified(player) in self._players:
                return Player(team, player)
        return Player("", name)

    def player(self, written: str, team_tag: str = "") -> Player:
        """``written`` read, the player in the form the collection writes them in most."""
        read = self.read(written, team_tag)
        return Player(read.team, self._display.get(simplified(read.name), read.name))

    def key(self, written: str, team_tag: str = "") -> str:
        """The player's identity: their name in simplified characters, team removed."""
        return simplified(self.read(written, team_tag).name)

    def merges(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every player written in more than one way: ``(the name the table uses, the written
        forms)``, by name."""
        return sorted(
            (self._display[key], tuple(sorted(forms)))
            for key, forms in self._written.items()
            if len(forms) > 1 and key
        )

    def splits(self) -> int:
        """How many distinct written names had a team split off."""
        return sum(1 for forms in self._written.values() for form in forms if self.read(form).team)
