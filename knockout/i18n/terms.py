"""The game's own words shown in every view: stage names, colours, results, replies.

A stage's name is a scenario key (``sudden_death``, typed in files and shown in JSON); a view
shows it as a person says it (English ``sudden death``, Chinese 突然死亡局). Names a scenario
makes up itself are shown as written.
"""

from __future__ import annotations

from knockout.i18n import N_, _, pgettext

__all__ = [
    "STAGE_NAMES",
    "colour_label",
    "colour_word",
    "reached_label",
    "reply_label",
    "round_heading",
    "round_label",
    "round_short",
    "stage_label",
]

#: The presets' stage names: in English a view shows the name itself (it is what scenarios and
#: JSON say); the catalogue says it in the glossary's terms (sudden_death: 突然死亡局).
STAGE_NAMES = {
    "slow": N_("slow"),
    "classical": N_("classical"),
    "rapid": N_("rapid"),
    "super_rapid": N_("super_rapid"),
    "blitz": N_("blitz"),
    "decider": N_("decider"),
    "sudden_death": N_("sudden_death"),
    "armageddon": N_("armageddon"),
}


def stage_label(name: str) -> str:
    """A stage as a person says it: ``sudden_death`` (突然死亡局)."""
    message = STAGE_NAMES.get(name)
    return name if message is None else _(message)


def colour_label(colour: str) -> str:
    """``red`` or ``black`` (any case) as a side is named: Red, Black (红方, 黑方)."""
    return {"red": pgettext("side", "Red"), "black": pgettext("side", "Black")}.get(
        colour.lower(), colour
    )


def colour_word(colour: str) -> str:
    """A colour as a word in a sentence: red, black (红, 黑)."""
    return {"red": pgettext("colour", "red"), "black": pgettext("colour", "black")}.get(
        colour.lower(), colour
    )


def reply_label(reply: str) -> str:
    """乙's reply as a verb in the past: accepted, objected (接受, 反对)."""
    return {"accept": _("accepted"), "object": _("objected")}.get(reply, reply)


#: A bracket's rounds as the rules name them, and their short column heads.
ROUND_NAMES = {
    "final": (N_("final"), N_("F")),
    "semi-final": (N_("semi-final"), N_("SF")),
    "quarter-final": (N_("quarter-final"), N_("QF")),
    "third place": (N_("third place"), N_("3rd")),
}


def round_label(name: str) -> str:
    """A round as a person says it: ``round 2`` is 第 2 轮, ``final`` is 决赛."""
    if name in ROUND_NAMES:
        return _(ROUND_NAMES[name][0])
    number = name.removeprefix("round ")
    return _("round {n}").format(n=number) if number.isdigit() else name


def round_heading(name: str) -> str:
    """A round as a heading or a label that starts a line: ``Semi-final``, ``Round 2`` (半决赛,
    第 2 轮)."""
    label = round_label(name)
    return label[:1].upper() + label[1:]


def round_short(name: str) -> str:
    """A round's short column head: F, SF, QF, R1 (决赛, 半决, 1/4, 第1轮)."""
    if name in ROUND_NAMES:
        return _(ROUND_NAMES[name][1])
    number = name.removeprefix("round ")
    return _("R{n}").format(n=number) if number.isdigit() else name


#: How far a player came, as a ranking names it (besides a round's name).
REACHED = {
    "champion": N_("champion"),
    "fourth place": N_("fourth place"),
}


def reached_label(reached: str) -> str:
    """How far a player came (:func:`knockout.engine.ranking.how_far`): ``champion``,
    ``final``, ``in semi-final`` (冠军, 决赛, 进入半决赛), as a ranking shows it."""
    if reached in REACHED:
        return _(REACHED[reached])
    if reached == "third place":  # the place won (第三名), not the match for it
        return pgettext("place", "third place")
    if reached.startswith("in "):
        return _("in {round}").format(round=round_label(reached.removeprefix("in ")))
    return round_label(reached)


#: The shared verdict words (knockout.studies.verdicts; English keys in JSON), for the
#: catalogue: a sentence says a verdict with ``_(verdict)``.
VERDICT_WORDS = (
    N_("holds"),
    N_("does not hold"),
    N_("cannot be settled by these data"),
    N_("too few events"),
)
