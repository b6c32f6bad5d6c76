"""Players: ratings per time class and how much of their clock they use."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from knockout.rules.model.strength import TimeClass

__all__ = ["DEFAULT_SPEED", "MAX_BELIEF_SD", "MAX_RATING", "MAX_RATING_SD", "Player", "Speed"]

#: The largest rating uncertainty a scenario may give (Elo): a new player's Glicko deviation is
#: 350, and the bracket integral is tested to 500.
MAX_RATING_SD = 500.0
#: The highest rating a scenario may give (Elo): the strongest players of any rating list stand
#: near 2,900; a rating of 10^12 gives odds no event could have.
MAX_RATING = 4000.0
#: The largest noise of a player's estimate of the gap (``[strategy] belief_sd``, Elo): at 1,000
#: every estimate is a coin toss between players of any realistic gap.
MAX_BELIEF_SD = 1000.0


@dataclass(frozen=True)
class Speed:
    """Fraction of the base clock a player uses in a game: ``Normal(mean, sd)``, per game."""

    mean: float = 0.75
    sd: float = 0.10

    def to_dict(self) -> dict[str, float]:
        """``{"mean": ..., "sd": ...}``."""
        return {"mean": self.mean, "sd": self.sd}


DEFAULT_SPEED = Speed()


@dataclass(frozen=True)
class Player:
    """A player. ``rating_rapid``/``rating_blitz`` fall back as MODEL.md says.

    Attributes:
        name: Unique within a scenario; may be Chinese.
        rating: Classical rating.
        rating_rapid: Rapid rating, if different from ``rating``.
        rating_blitz: Blitz rating, if different from the rapid one.
        speed: Time-use distribution.
        seed: Explicit bracket seed (1 = top), used with ``seeding = "given"``.
        withdrawn: The player has withdrawn: they lose their next match by walkover.
        rating_sd: How uncertain the rating is (Elo): the true strength is the rating plus
            ``Normal(0, rating_sd)``, one draw per event, shared by every time class.
    """

    name: str
    rating: float
    rating_rapid: float | None = None
    rating_blitz: float | None = None
    speed: Speed = field(default_factory=Speed)
    seed: int | None = None
    withdrawn: bool = False
    rating_sd: float = 0.0

    def shifted(self, offset: float) -> Player:
        """The player with every rating moved by ``offset`` (a draw of the true strength)."""
        return replace(
            self,
            rating=self.rating + offset,
            rating_rapid=None if self.rating_rapid is None else self.rating_rapid + offset,
            rating_blitz=None if self.rating_blitz is None else self.rating_blitz + offset,
        )

    def rating_for(self, tc: TimeClass) -> float:
        """The rating used in a game of time class ``tc``.

        >>> Player("A", 2500, rating_rapid=2450).rating_for(TimeClass.BLITZ)
        2450
        """
        if tc is TimeClass.CLASSICAL:
            return self.rating
        if tc is TimeClass.RAPID:
            return self.rating if self.rating_rapid is None else self.rating_rapid
        if self.rating_blitz is not None:
            return self.rating_blitz
        return self.rating_for(TimeClass.RAPID)
