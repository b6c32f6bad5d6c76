"""Extract, update and compile knockout's message catalogues (``make catalogues``).

    python tools/catalogues.py update    # extract into the template, update every .po, compile
    python tools/catalogues.py compile   # compile every .po to its .mo (the build does this too)
    python tools/catalogues.py check     # exit 1 when the template is not what extraction finds

The template (``knockout/i18n/locale/knockout.pot``) holds every marked string in the code
(``_``, ``N_``, ``ngettext``, ``pgettext``; the hall pages' Jinja2 templates too) and every text
of the command line's ``--help``, found by running the same walk that translates the help
(``knockout.cli.localise.localised``) with a translator that records what it is given. Updating
a ``.po`` adds the new strings untranslated (the catalogue test then fails until they are
translated) and drops the ones no longer used. The traditional Chinese catalogue is made from
the simplified one (``tools/traditional.py``: OpenCC and a reviewed term list), never edited by
hand.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]
LOCALE = ROOT / "knockout" / "i18n" / "locale"
TEMPLATE = LOCALE / "knockout.pot"
#: The catalogues translated by hand (zh_TW is converted from zh_CN).
EDITED = ("zh_CN",)
TRADITIONAL = LOCALE / "zh_TW" / "LC_MESSAGES" / "knockout.po"
KEYWORDS = {**DEFAULT_KEYWORDS}
CREATED = datetime(2026, 12, 4, tzinfo=UTC)
HEADER = "knockout's messages: every string a person reads, in English (the message ids)."


def _source_messages() -> Iterator[tuple[str | tuple[str, ...], str, int, list[str], str | None]]:
    """(message, file, line, comments, context) for each marked string in the package."""
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT / "knockout"),
        method_map=[
            ("**.py", "python"),
            ("**/templates/**.html", "jinja2.ext:babel_extract"),
            ("**/templates/**.svg", "jinja2.ext:babel_extract"),
        ],
        options_map={"**/templates/**": {"trim_blocks": "true", "lstrip_blocks": "true"}},
        keywords=KEYWORDS,
        comment_tags=("Translators:",),
    ):
        yield message, f"knockout/{filename}", lineno, comments, context


def _help_texts() -> list[tuple[str, str]]:
    """(text, command path) for every text the command line's --help translates."""
    from typer.main import get_command

    from knockout.cli.localise import localised
    from knockout.program import app

    found: list[tuple[str, str]] = []

    def record(text: str) -> str:
        found.append((text, "--help"))
        return text

    localised(get_command(app), record)
    return found


def extract() -> Catalog:
    """The template: every marked string and --help text, in a stable order."""
    catalog = Catalog(
        project="knockout",
        header_comment=f"# {HEADER}",
        fuzzy=False,
        creation_date=CREATED,  # not the run's time: an update changes only what changed
    )
    for message, filename, lineno, comments, context in _source_messages():
        catalog.add(
            message, locations=[(filename, lineno)], auto_comments=comments, context=context
        )
    for text, where in _help_texts():
        if text.strip():
            catalog.add(text, locations=[(where, None)])
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=100,
        sort_output=True,
        include_lineno=False,
        ignore_obsolete=True,
        omit_header=False,
    )
    return buffer.getvalue()


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def compile_all() -> None:
    """Every catalogue's .po compiled to the .mo the program reads."""
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/knockout.po")):
        catalog = read(po)
        with po.with_suffix(".mo").open("wb") as file:
            write_mo(file, catalog, use_fuzzy=False)


def update() -> None:
    """The template extracted anew; every hand-edited .po brought in line with it; the
    traditional catalogue converted; all compiled."""
    template = extract()
    TEMPLATE.write_bytes(_po_bytes(template))
    for lang in EDITED:
        po = LOCALE / lang / "LC_MESSAGES" / "knockout.po"
        if po.exists():
            catalog = read(po, lang)
        else:
            po.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, project="knockout", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=True)
        po.write_bytes(_po_bytes(catalog))
    TRADITIONAL.parent.mkdir(parents=True, exist_ok=True)
    TRADITIONAL.write_bytes(traditional_bytes())
    compile_all()


def traditional_bytes() -> bytes:
    """The zh_TW catalogue as converted from the zh_CN one (tools/traditional.py)."""
    from traditional import converted_catalogue

    return _po_bytes(converted_catalogue(read(LOCALE / "zh_CN" / "LC_MESSAGES" / "knockout.po")))


def stale() -> list[str]:
    """The message ids extraction finds that the template lacks, and the reverse."""
    found = {m.id for m in extract() if m.id}
    kept = {m.id for m in read(TEMPLATE) if m.id}
    return [f"not in the template: {i!r}" for i in sorted(found - kept, key=str)] + [
        f"no longer in the code: {i!r}" for i in sorted(kept - found, key=str)
    ]


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        update()
        return 0
    if argv == ["compile"]:
        compile_all()
        return 0
    if argv == ["check"]:
        problems = stale()
        for line in problems:
            print(line)
        return 1 if problems else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
