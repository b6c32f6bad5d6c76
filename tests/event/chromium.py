"""A real browser for the tests: Debian's headless chromium, driven over the DevTools protocol
through a pipe (``--remote-debugging-pipe``: JSON messages ending in NUL on file descriptors 3
and 4), so no driver and no dependency is needed.

:func:`find_chromium` says where it is, or why it is not there (the tests skip with that reason);
:class:`Browser` opens one page and can navigate, evaluate JavaScript, wait for a condition,
emulate print media at A4 and take screenshots.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

#: The flags the tests run chromium with: headless, and nothing that reaches for the network
#: by itself (the closed network refuses those connections, which slows or stops the browser).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)

#: A4 at 96 CSS pixels an inch (210 x 297 mm).
A4 = (794, 1123)


def find_chromium() -> tuple[str | None, str]:
    """The chromium binary, or None and why not."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found, ""
    return None, (
        "no chromium on this machine (Debian: apt-get install chromium fonts-noto-cjk; "
        ".ci/run installs them)"
    )


class BrowserError(RuntimeError):
    """The browser answered with an error or not at all."""


class Browser:
    """One headless chromium with one page (a context manager).

    Args:
        binary: The chromium binary.
        timeout: Seconds to wait for any one answer (generous: a slow machine is not a failure).
    """

    def __init__(self, binary: str, *, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="knockout-chromium-")
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our messages, fd 4 writes its own
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self._process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=wire,  # noqa: PLW1509 (no threads are started before it)
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._write = os.fdopen(to_child_w, "wb", buffering=0)
        self._read = os.fdopen(from_child_r, "rb", buffering=0)
        self._buffer = b""
        self._id = 0
        self._session: str | None = None
        try:
            targets = self.call("Target.getTargets")["targetInfos"]
            page = next(t for t in targets if t["type"] == "page")
            attached = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)
            self._session = attached["sessionId"]
            self.call("Page.enable")
            self.call("Runtime.enable")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the browser and remove its profile."""
        try:
            self._session = None
            self.call("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=30)
        for f in (self._write, self._read):
            f.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command to the page (or the browser) and wait for its answer."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self._session is not None and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self._session
        self._write.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self._id:
                    if "error" in answer:
                        raise BrowserError(f"{method}: {answer['error']}")
                    result: dict[str, Any] = answer.get("result", {})
                    return result
            chunk = self._read.read(1 << 16)
            if not chunk:
                raise BrowserError(f"{method}: the browser closed the pipe")
            self._buffer += chunk
        raise BrowserError(f"{method}: no answer in {self.timeout:g} s")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        answer = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in answer:
            raise BrowserError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def wait_for(self, expression: str, *, timeout: float | None = None) -> Any:
        """Poll ``expression`` until it is truthy; its value (raises after ``timeout``)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after waiting: {expression}")
            time.sleep(0.2)

    def open(self, url: str) -> None:
        """Load ``url`` and wait until its document has loaded (fonts too)."""
        self.call("Page.navigate", url=url)
        self.wait_for(
            f"location.href === {json.dumps(url)} && document.readyState === 'complete'"
            " && document.fonts.status === 'loaded'"
        )

    def size(self, width: int, height: int, *, media: str = "screen") -> None:
        """The viewport in CSS pixels, and the CSS media type (``screen`` or ``print``)."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )
        self.call("Emulation.setEmulatedMedia", media=media)

    def screenshot(self, path: Path, *, full_page: bool = False) -> Path:
        """A PNG of the viewport (or of the whole page) written to ``path``."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            metrics = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {
                "x": 0,
                "y": 0,
                "width": metrics["width"],
                "height": metrics["height"],
                "scale": 1,
            }
        data = self.call("Page.captureScreenshot", **params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path
