"""The preset formats: the official schemes and the rules the studies compare, as data.

Each preset is a :class:`~knockout.rules.book.formats.Format` built from stages
(:mod:`knockout.rules.book.formats`), never a new code path; :func:`get_format` gives one by name.
"""

from __future__ import annotations

from collections.abc import Mapping

from knockout.game import Colour
from knockout.rules.book.formats import BiddingMenu, ColourRule, CutChoose, Format, SealedBid, Stage

__all__ = [
    "FORMATS",
    "get_format",
]

#: Red's base time in the ``red-handicap`` preset, as a share of the base (cut by 40 %).
RED_HANDICAP_SHARE = 0.6


def _official(
    preset: str,
    slow: int,
    rapid: int,
    super_rapid: int,
    *,
    repeat: bool = False,
    max_blocks: int = 0,
    decider: int = 1,
) -> Format:
    """A knockout scheme of the CXA rule book (ch. 7, section 30): slow games (60+10, colours by
    lot, then swapped), 快棋 (10 min + 10 s), 超快棋 (5 min + 3 s), each with colours swapped
    from the game before, then the 附加赛: Red 6 / Black 4 min + 3 s, a draw counting as a
    Black win, its colours chosen by the player the ``chooser`` rule names."""
    return Format(
        preset=preset,
        stages=(
            Stage("slow", slow, None, (60.0, 60.0), 10.0, ColourRule.LOT),
            Stage("rapid", rapid, None, (10.0, 10.0), 10.0, ColourRule.ALTERNATE),
            Stage(
                "super_rapid",
                super_rapid,
                None,
                (5.0, 5.0),
                3.0,
                ColourRule.ALTERNATE,
                repeat=repeat,
                max_blocks=max_blocks,
            ),
            Stage(
                "decider",
                decider,
                None,
                (6.0, 4.0),
                3.0,
                ColourRule.CHOICE,
                draw_winner=Colour.BLACK,
            ),
        ),
        increment_seconds=10.0,
    )


#: The cap on official-6's 超快棋 games (the rule text leaves the number to the event).
OFFICIAL_6_CAP = 4


def _seed_stages_then(preset: str, decider: Stage) -> Format:
    """The seed's two slow games and rapid game (colours by lot), then ``decider``."""
    return Format(
        preset=preset,
        stages=(
            Stage("slow", 2, None, (60.0, 60.0), 10.0, ColourRule.LOT),
            Stage("rapid", 1, None, (15.0, 15.0), 10.0, ColourRule.LOT),
            decider,
        ),
        increment_seconds=10.0,
    )


def _sealed_armageddon(rule: SealedBid) -> Stage:
    """One Armageddon game whose colours and Black's clock the sealed bids set (Red 10 min + 2 s,
    a draw counting for Black)."""
    return Stage(
        "armageddon",
        1,
        None,
        (10.0, 10.0),
        2.0,
        ColourRule.SEALED_BID,
        draw_winner=Colour.BLACK,
        sealed_bid=rule,
    )


def _xq_bidding(preset: str, slow_games: int, rapid_games: int) -> Format:
    return Format(
        preset=preset,
        stages=(
            Stage("slow", slow_games, None, (60.0, 60.0), 10.0, ColourRule.LOT),
            Stage("rapid", rapid_games, None, (15.0, 15.0), 10.0, ColourRule.LOT),
            Stage(
                "sudden_death",
                1,
                None,
                (30.0, 10.0),
                10.0,
                ColourRule.BIDDING,
                draw_winner=Colour.BLACK,
                bidding=BiddingMenu(),
            ),
        ),
        increment_seconds=10.0,
    )


FORMATS: Mapping[str, Format] = {
    # Seed 001, 三.1-3: two slow games, a rapid game if level, then the bidding sudden death.
    "xq-bidding": _xq_bidding("xq-bidding", 2, 1),
    # Seed 001, 三.4: one slow game; if drawn, straight to the sudden-death game.
    "single-slow": _xq_bidding("single-slow", 1, 0),
    # Chinese Xiangqi Association competition rules (chapter 7, section 30, 附加赛): after the
    # slow games, a rapid game with colours swapped, a super-rapid game with colours swapped
    # again, then a decider, Red 6 / Black 4 minutes + 3 s (draw = Black wins), in which a lot
    # decides who chooses the colours (抽签决定先后手选择权).
    "official-playoff": Format(
        preset="official-playoff",
        stages=(
            Stage("slow", 2, None, (60.0, 60.0), 10.0, ColourRule.LOT),
            Stage("rapid", 1, None, (10.0, 10.0), 10.0, ColourRule.ALTERNATE),
            Stage("super_rapid", 1, None, (5.0, 5.0), 3.0, ColourRule.ALTERNATE),
            Stage(
                "decider",
                1,
                None,
                (6.0, 4.0),
                3.0,
                ColourRule.CHOICE,
                draw_winner=Colour.BLACK,
            ),
        ),
        increment_seconds=10.0,
    ),
    # The rule book's six knockout schemes (ch. 7, section 30): the 附加赛's chooser is a format
    # key (decider.chooser: lot, higher-ranked, last-black, first-black, or a player's name).
    # (1) one slow game, a 快棋 game with colours swapped, the 附加赛;
    "official-1": _official("official-1", 1, 1, 0),
    # (2) one slow game, 快棋, 超快棋, the 附加赛;
    "official-2": _official("official-2", 1, 1, 1),
    # (3) one slow game, 快棋, two 超快棋 games, the 附加赛;
    "official-3": _official("official-3", 1, 1, 2),
    # (4) one slow game, 快棋, then 超快棋 games until one is decisive (no 附加赛: give
    # super_rapid a max_blocks and decider_games = 1 to cap them);
    "official-4": _official("official-4", 1, 1, 1, repeat=True, decider=0),
    # (5) two slow games, two 超快棋 games, the 附加赛;
    "official-5": _official("official-5", 2, 0, 2),
    # (6) two slow games, then 超快棋 games until one is decisive, at most OFFICIAL_6_CAP of
    # them (super_rapid.max_blocks), then the 附加赛.
    "official-6": _official("official-6", 2, 0, 1, repeat=True, max_blocks=OFFICIAL_6_CAP),
    # Two slow games, a rapid game, then an Armageddon whose colours and Black's clock are set by
    # sealed bids: Red 10 minutes, Black the lower bid (draw = Black wins).
    "armageddon-bid": _seed_stages_then("armageddon-bid", _sealed_armageddon(SealedBid())),
    # The same with a second-price (Vickrey) sealed bid: the lower bid plays Black, on the higher
    # bid's time, so that bidding one's own indifference clock is safe against undercutting.
    "armageddon-vickrey": _seed_stages_then(
        "armageddon-vickrey", _sealed_armageddon(SealedBid(price="second"))
    ),
    # The seed's slow and rapid stages, then "you cut, I choose" on the sudden-death stage's
    # clock: 甲 (who used less time in the rapid game) names Red's base minutes against Black's
    # 10 + 10 s, and 乙 picks the colour (draw = Black wins). Between known equal players the
    # cutter's best cut is the fair split, so each advances 50 %.
    "cut-choose": _seed_stages_then(
        "cut-choose",
        Stage(
            "sudden_death",
            1,
            None,
            (10.0, 10.0),
            10.0,
            ColourRule.CUT_CHOOSE,
            draw_winner=Colour.BLACK,
            cut=CutChoose(),
        ),
    ),
    # The seed's slow and rapid stages, then one Armageddon decider on the sudden-death stage's
    # accept clocks (30/10 + 10 s) with colours by lot and a draw counting for Black: the
    # bidding's baseline, without the choice.
    "armageddon-lot": _seed_stages_then(
        "armageddon-lot",
        Stage(
            "decider",
            1,
            None,
            (30.0, 10.0),
            10.0,
            ColourRule.LOT,
            draw_winner=Colour.BLACK,
        ),
    ),
    # The CXA rules' appendix on rapid play: in a one-game knockout or playoff, Black may be
    # compensated by cutting Red's base time by 40 % of the base (红方贴时). One decisive game on
    # the rapid base (15 + 10 s): Red 9 minutes, Black 15, colours by lot, a draw for Black.
    "red-handicap": Format(
        preset="red-handicap",
        stages=(
            Stage(
                "decider",
                1,
                None,
                (15.0 * RED_HANDICAP_SHARE, 15.0),
                10.0,
                ColourRule.LOT,
                draw_winner=Colour.BLACK,
            ),
        ),
        increment_seconds=10.0,
    ),
    # Two slow games, then pairs of blitz games (colours by lot per pair) until a pair is won.
    "blitz-pairs": Format(
        preset="blitz-pairs",
        stages=(
            Stage("slow", 2, None, (60.0, 60.0), 10.0, ColourRule.LOT),
            Stage("blitz", 2, None, (5.0, 5.0), 3.0, ColourRule.LOT, repeat=True),
        ),
        increment_seconds=10.0,
    ),
}


def get_format(name: str) -> Format:
    """The preset called ``name``.

    Raises:
        ValueError: For an unknown name.
    """
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown format: {name!r} (known: {', '.join(FORMATS)})") from None
