"""The screenshots in docs/organiser.md: the hall screen, the bracket, a result slip and the bid
form, taken by headless chromium from ``knockout event serve`` on the tests' event; with a
language, the pages in that language (``?lang=zh``: the ones in docs/zh/).

Usage: ``.venv/bin/python tests/event/hall_screenshots.py docs/img``,
``.venv/bin/python tests/event/hall_screenshots.py docs/zh zh``
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chromium import A4, Browser, find_chromium
from hall_helpers import hall_event

from knockout.dashboard.web.server import HallSite, make_server


def main(out: Path, lang: str = "") -> None:
    binary, why = find_chromium()
    if binary is None:
        raise SystemExit(why)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        path = hall_event(Path(folder))
        server = make_server(HallSite(path, command_file="cup.db"), "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        query = f"?lang={lang}" if lang else ""
        try:
            with Browser(binary) as b:
                b.size(1280, 800)
                b.open(url + query)
                b.screenshot(out / "hall-screen.png")
                b.size(1240, 900)
                b.open(url + "bracket.html" + query)
                b.screenshot(out / "bracket.png", full_page=True)
                b.size(*A4, media="print")
                b.open(url + "slips.html" + query)
                b.screenshot(out / "slip.png")
                b.open(url + "bid-forms.html" + query)
                b.screenshot(out / "bid-form.png")
        finally:
            server.shutdown()
            server.server_close()
    for name in ("hall-screen", "bracket", "slip", "bid-form"):
        print(out / f"{name}.png")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"), *sys.argv[2:3])
