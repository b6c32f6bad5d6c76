"""The hall screen: the event's pages served live over HTTP, read-only.

:class:`HallSite` reads the event file read-only (:mod:`knockout.event.reader`) whenever the
journal has grown and renders the pages of that moment; the standard library's
:class:`~http.server.ThreadingHTTPServer` serves them. The SQLite file is the only state shared
with the arbiters' terminals: each read is one transaction, so a page shows the journal before
or after an entry, never half of one, and serving never writes the file.

Besides the pages (:data:`~knockout.dashboard.web.pages.PAGES` and the round pages),
``/state.json`` gives ``{"head", "event"}``: the journal's last entry, which the pages poll
to update themselves (without JavaScript they reload every few seconds instead).

Each page speaks the language the server was started in (``--lang``, else the event's own),
unless the request asks for another: ``/?lang=zh``, ``/round-1.html?lang=en`` (the page's links
then keep asking for it). The language is set for that request only
(:func:`knockout.i18n.speaking`): the server's threads share nothing but the rendered pages,
kept per language.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from knockout.dashboard.web.pages import Site
from knockout.event.errors import EventRefused
from knockout.event.reader import journal_head_read_only, load_event_read_only
from knockout.i18n import _, language, parse_language, speaking

__all__ = ["HallSite", "make_server"]

_TEXT = "text/plain; charset=utf-8"
_TYPES = {".html": "text/html; charset=utf-8", ".svg": "image/svg+xml; charset=utf-8"}


@dataclass
class HallSite:
    """The pages of an event file, rendered again only when its journal has grown.

    Attributes:
        path: The event file.
        command_file: The file as printed in the commands on slips and forms.
        lang: The pages' language when a request asks for none (by default the language in
            force where the server is made: ``--lang``, else the event's own).
    """

    path: Path
    command_file: str
    lang: str = field(default_factory=language)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _site: Site | None = field(default=None, repr=False)
    _pages: dict[tuple[str, str, str], str] = field(default_factory=dict, repr=False)

    def site(self) -> Site:
        """The pages of the event as it stands now.

        Raises:
            EventRefused: The file cannot be read (see :func:`load_event_read_only`).
        """
        head = journal_head_read_only(self.path)
        with self._lock:
            if self._site is None or self._site.head != head:
                event = load_event_read_only(self.path)
                self._site = Site(event, command_file=self.command_file, live=True)
                self._pages = {}
            return self._site

    def page(self, name: str, lang: str | None = None) -> str | None:
        """The page ``name`` as the event stands now, in ``lang`` (one of
        :data:`~knockout.i18n.LANGUAGES`) when a request asked for it, else in :attr:`lang`
        (None: no such page). A page asked for in a language keeps asking for it in its links.
        """
        site = self.site()
        query = "" if lang is None else f"?lang={lang}"
        key = (lang or self.lang, query, name)
        with self._lock:
            if site is self._site and key in self._pages:
                return self._pages[key]
        with speaking(key[0]):
            text = site.render(name, query=query)
        if text is not None:
            with self._lock:
                if site is self._site:
                    self._pages[key] = text
        return text

    def state(self) -> dict[str, object]:
        """``{"head", "event"}``."""
        site = self.site()
        return {"head": site.head, "event": site.event.name}


def _asked_language(query: str) -> tuple[str | None, str]:
    """The language a request's ``?lang=`` asks for (None: it asks for none), and the problem
    with it (empty: none)."""
    asked = parse_qs(query).get("lang")
    if not asked:
        return None, ""
    try:
        return parse_language(asked[-1]), ""
    except ValueError as exc:
        return None, _("?lang={value}: {problem}\n").format(value=asked[-1], problem=exc)


def _handler(hall: HallSite, log: Callable[[str], None]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "knockout-hall"

        def log_message(self, format: str, *args: object) -> None:
            log(format % args)

        def _send(self, status: HTTPStatus, kind: str, body: bytes, *, head: bool) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            if not head:
                self.wfile.write(body)

        def _answer(self, *, head: bool) -> None:
            url = urlsplit(self.path)
            with speaking(hall.lang):
                lang, problem = _asked_language(url.query)
                if problem:
                    self._send(HTTPStatus.BAD_REQUEST, _TEXT, problem.encode(), head=head)
                    return
            with speaking(lang or hall.lang):
                self._answer_in_language(url.path, lang, head=head)

        def _answer_in_language(self, path: str, lang: str | None, *, head: bool) -> None:
            name = path.lstrip("/") or "index.html"
            try:
                if name == "state.json":
                    state = json.dumps(hall.state(), ensure_ascii=False).encode()
                    self._send(HTTPStatus.OK, "application/json", state, head=head)
                    return
                text = hall.page(name, lang)
            except EventRefused as exc:
                message = "; ".join(exc.lines())
                body = _("The event file cannot be read now: {problem}\n").format(problem=message)
                self._send(HTTPStatus.SERVICE_UNAVAILABLE, _TEXT, body.encode(), head=head)
                return
            if text is None:
                body = _("No page {path!r}: see / for the pages of this event.\n").format(path=path)
                self._send(HTTPStatus.NOT_FOUND, _TEXT, body.encode(), head=head)
                return
            kind = _TYPES[Path(name).suffix]
            self._send(HTTPStatus.OK, kind, text.encode(), head=head)

        def do_GET(self) -> None:
            self._answer(head=False)

        def do_HEAD(self) -> None:
            self._answer(head=True)

    return Handler


def make_server(
    hall: HallSite, host: str, port: int, *, log: Callable[[str], None] = lambda _: None
) -> ThreadingHTTPServer:
    """An HTTP server for ``hall`` bound to ``host:port`` (port 0: any free port).

    Raises:
        OSError: The address cannot be bound (in use, not allowed, not this machine's).
    """
    server = ThreadingHTTPServer((host, port), _handler(hall, log))
    server.daemon_threads = True
    return server
