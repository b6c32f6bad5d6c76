"""Build hook: compile the message catalogues (``.po`` to ``.mo``) into the package.

The ``.po`` files are the catalogues' source, kept in git; the ``.mo`` files the program reads
(``knockout.i18n``) are made here, for wheels and editable installs alike (``pip install -e .``
writes them beside the ``.po`` files), and are not kept in git.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CataloguesHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        locale = Path(self.root) / "knockout" / "i18n" / "locale"
        for po in sorted(locale.glob("*/LC_MESSAGES/knockout.po")):
            with po.open("rb") as file:
                catalog = read_po(file)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as file:
                write_mo(file, catalog, use_fuzzy=False)
            build_data.setdefault("artifacts", []).append(str(mo.relative_to(self.root)))
