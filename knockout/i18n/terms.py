"""The game's own words shown in every view: stage names, colours, results, replies.

A stage's name is a scenario key (``sudden_death``, typed in files and shown in JSON); a view
shows it as a person says it (English ``sudden death``, Chinese 突然死亡局). Names a scenario
makes up itself are shown as written.
"""

from __future__ import annotations

from knockout.i18n import N_, _, pgettext

__all__ = ["STAGE_NAMES", "colour_label", "reply_label", "stage_label"]

#: The presets' stage names and how a person says them (the glossary's terms in Chinese).
STAGE_NAMES = {
    "slow": N_("slow"),
    "classical": N_("classical"),
    "rapid": N_("rapid"),
    "super_rapid": N_("super-rapid"),
    "blitz": N_("blitz"),
    "decider": N_("decider"),
    "sudden_death": N_("sudden death"),
    "armageddon": N_("Armageddon"),
}


def stage_label(name: str) -> str:
    """A stage as a person says it: ``sudden_death`` is ``sudden death`` (突然死亡局)."""
    message = STAGE_NAMES.get(name)
    return name if message is None else _(message)


def colour_label(colour: str) -> str:
    """``red`` or ``black`` (any case) as a side is named: Red, Black (红方, 黑方)."""
    return {"red": pgettext("side", "Red"), "black": pgettext("side", "Black")}.get(
        colour.lower(), colour
    )


def reply_label(reply: str) -> str:
    """乙's reply as a verb in the past: accepted, objected (接受, 反对)."""
    return {"accept": _("accepted"), "object": _("objected")}.get(reply, reply)
