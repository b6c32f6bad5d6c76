"""The words a person reads, in the reader's language: gettext message catalogues.

Every user-visible sentence is written in English in the code and marked: ``_("...")`` where it
is shown, ``N_("...")`` where it is only defined (a constant read later, translated where shown),
``ngettext`` where a count decides the form. ``make catalogues`` extracts the marked strings (and
every command's ``--help``) into ``knockout/i18n/locale/knockout.pot`` and updates each language's
``.po``; the build compiles the ``.po`` files to ``.mo`` (``hatch_build.py``), which this module
reads with the standard library's :mod:`gettext`, once, on first use.

Placeholders are ``str.format`` fields (``_("{n} games left").format(n=n)``), never f-strings,
so that a translation can move them; a number's format spec (``{share:.1%}``) travels with its
field. The shipped languages share CLDR's decimal and grouping symbols (``.`` and ``,``), so a
format spec is the locale's own number format for each of them (tests/i18n checks this against
CLDR's data).

The language in force is held in a context variable: a command sets it once
(:func:`set_language`); a server answering each request in the language that request asked for
sets it per request (:func:`speaking`). JSON keys, scenario keys and the values of options stay
English: they are contracts.
"""

from __future__ import annotations

import contextvars
import gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "N_",
    "LanguageChoice",
    "_",
    "catalogue_missing",
    "choose_language",
    "language",
    "language_asked",
    "language_from_locale",
    "ngettext",
    "parse_language",
    "pgettext",
    "set_language",
    "speaking",
    "use_event_language",
]

#: The languages the program speaks: English (the code's own) and Chinese, simplified and
#: traditional (the traditional catalogue is converted from the simplified one).
LANGUAGES = ("en", "zh_CN", "zh_TW")

#: The catalogues' folder: ``<lang>/LC_MESSAGES/knockout.mo`` for each language but English.
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "knockout"

_ALIASES = {
    "en": "en",
    "c": "en",
    "posix": "en",
    "zh": "zh_CN",
    "zh_cn": "zh_CN",
    "zh_sg": "zh_CN",
    "zh_hans": "zh_CN",
    "zh_hans_cn": "zh_CN",
    "zh_tw": "zh_TW",
    "zh_hk": "zh_TW",
    "zh_mo": "zh_TW",
    "zh_hant": "zh_TW",
    "zh_hant_tw": "zh_TW",
    "zh_hant_hk": "zh_TW",
}

_language: contextvars.ContextVar[str] = contextvars.ContextVar("knockout_language", default="en")
_explicit: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "knockout_language_explicit", default=False
)
_catalogues: dict[str, gettext.NullTranslations] = {}
_missing: set[str] = set()


def parse_language(text: str) -> str:
    """The language ``text`` names, as one of :data:`LANGUAGES`.

    Accepts ``en``, ``zh`` (Simplified Chinese), ``zh_TW`` (Traditional) and their usual
    spellings: a locale name (``zh_CN.UTF-8``, ``en_GB``, ``zh_TW.Big5``), a BCP 47 tag
    (``zh-Hans``, ``zh-Hant-TW``), case and ``-``/``_`` as typed.

    >>> parse_language("zh_CN.UTF-8"), parse_language("zh-Hant"), parse_language("en_GB@euro")
    ('zh_CN', 'zh_TW', 'en')

    Raises:
        ValueError: For a language the program does not speak.
    """
    tag = text.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if tag in _ALIASES:
        return _ALIASES[tag]
    base = tag.split("_")[0]
    if base == "en":
        return "en"
    raise ValueError(f"expected one of zh, zh_TW, en, got {text!r}")


def language_from_locale(environ: Mapping[str, str]) -> str | None:
    """The language the locale variables ask for, read as POSIX orders them (``LC_ALL``, then
    ``LC_MESSAGES``, then ``LANG``; the first one set decides), whether or not that locale is
    installed on the machine. None when none is set; English for a locale the program does not
    speak (``fr_FR.UTF-8``) and for ``C`` and ``POSIX``.

    >>> language_from_locale({"LANG": "zh_CN.UTF-8"}), language_from_locale({"LANG": "fr_FR"})
    ('zh_CN', 'en')
    >>> language_from_locale({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"})
    'en'
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            try:
                return parse_language(value)
            except ValueError:
                return "en"
    return None


class LanguageChoice:
    """The language chosen for one run and whether it was asked for outright.

    Attributes:
        language: One of :data:`LANGUAGES`.
        explicit: True when ``--lang`` or ``KNOCKOUT_LANG`` named it; False when it came from
            the locale or the default, so that an event's own language may take its place.
    """

    __slots__ = ("explicit", "language")

    def __init__(self, language: str, *, explicit: bool) -> None:
        self.language = language
        self.explicit = explicit

    def __repr__(self) -> str:
        return f"LanguageChoice({self.language!r}, explicit={self.explicit})"


def choose_language(flag: str | None, environ: Mapping[str, str]) -> LanguageChoice:
    """The language of a run: ``--lang`` (``flag``), else ``KNOCKOUT_LANG``, else the locale
    (:func:`language_from_locale`), else English. An event's own language sits between
    ``KNOCKOUT_LANG`` and the locale: organiser commands apply it with :func:`set_language`
    when the choice is not explicit.

    Raises:
        ValueError: For a ``flag`` or ``KNOCKOUT_LANG`` naming a language not spoken (the
            message names where it came from).
    """
    if flag is not None:
        try:
            return LanguageChoice(parse_language(flag), explicit=True)
        except ValueError as exc:
            raise ValueError(f"--lang: {exc}") from None
    env = environ.get("KNOCKOUT_LANG", "")
    if env:
        try:
            return LanguageChoice(parse_language(env), explicit=True)
        except ValueError as exc:
            raise ValueError(f"KNOCKOUT_LANG: {exc}") from None
    return LanguageChoice(language_from_locale(environ) or "en", explicit=False)


def set_language(lang: str, *, explicit: bool = True) -> None:
    """Speak ``lang`` (one of :data:`LANGUAGES`) from now on, in this context; ``explicit``
    when the user named it (``--lang``, ``KNOCKOUT_LANG``), which an event's own language does
    not override (:func:`use_event_language`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"expected one of {', '.join(LANGUAGES)}, got {lang!r}")
    _language.set(lang)
    _explicit.set(explicit)


def language_asked() -> str | None:
    """The language the user named for this run (``--lang``, ``KNOCKOUT_LANG``), or None when
    it came from the locale or the default: what ``event new`` stores as the event's own."""
    return _language.get() if _explicit.get() else None


def use_event_language(lang: str | None) -> None:
    """Speak an event's own language (``event new --lang``), unless the user named one for
    this run; None (an event that set none) changes nothing."""
    if lang is not None and not _explicit.get():
        set_language(lang, explicit=False)


def language() -> str:
    """The language in force (one of :data:`LANGUAGES`)."""
    return _language.get()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the ``with`` block only (a server's answer to one request)."""
    if lang not in LANGUAGES:
        raise ValueError(f"expected one of {', '.join(LANGUAGES)}, got {lang!r}")
    token = _language.set(lang)
    try:
        yield
    finally:
        _language.reset(token)


def catalogue_missing(lang: str) -> bool:
    """True when ``lang``'s compiled catalogue could not be read (an install that skipped the
    build step): its words then fall back to English."""
    _catalogue(lang)
    return lang in _missing


def _catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang``, read once (English: the code's own words)."""
    found = _catalogues.get(lang)
    if found is not None:
        return found
    catalogue: gettext.NullTranslations
    if lang == "en":
        catalogue = gettext.NullTranslations()
    else:
        path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        try:
            with path.open("rb") as file:
                catalogue = gettext.GNUTranslations(file)
        except OSError:
            _missing.add(lang)
            catalogue = gettext.NullTranslations()
    _catalogues[lang] = catalogue
    return catalogue


def _(message: str) -> str:
    """``message`` in the language in force."""
    return _catalogue(_language.get()).gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it here: a constant defined at
    import time, translated with :func:`_` where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that ``n`` calls for, in the language in force (Chinese has one
    form; English two)."""
    return _catalogue(_language.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, where the English word alone is ambiguous
    (``pgettext("result", "draw")`` against ``pgettext("verb", "draw")``)."""
    return _catalogue(_language.get()).pgettext(context, message)
