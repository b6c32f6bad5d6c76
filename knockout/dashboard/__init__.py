"""Presentation: rich renderables for every view. Only this package (and the CLI) imports rich.

Importing it sets rich's line breaking for Chinese text (:mod:`knockout.dashboard.linebreak`),
once for the process, so every view wraps the same way in every test and command.
"""

from knockout.dashboard.linebreak import install_line_breaking

install_line_breaking()
