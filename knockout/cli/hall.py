"""``knockout event publish`` and ``knockout event serve``: the event's pages for the hall.

Registered on the ``event`` group (:mod:`knockout.cli.event`); both only read the event file.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Annotated

import typer

from knockout.cli.app import err_console, out_console, user_errors
from knockout.cli.event import EventArg, event_app
from knockout.errors import KnockoutError
from knockout.i18n import _

__all__ = ["publish", "serve"]

DEFAULT_PORT = 8000
LOOPBACK = "127.0.0.1"


@event_app.command("publish")
def publish(
    event: EventArg,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="The folder to write the pages to (created if missing; pages already there "
            "are replaced, all at once: every page or none).",
            show_default=False,
        ),
    ],
) -> None:
    """Write the event's pages as a small static site: to open from a folder, copy to a web
    server, or print.

    index.html (games to play now, decisions to ask, latest results), round-1.html, ... (per
    round: pairings and results with boards, colours, clocks, stages, who advanced and how),
    bracket.html and bracket.svg, ranking.html, and two pages to print on A4: slips.html (a
    result slip per board) and bid-forms.html (the sudden-death bid form for 甲 and 乙). The
    pages load nothing from other sites. The event file is only read.

    Example:

        knockout event publish cup.db --out site
    """
    from knockout.dashboard.web.pages import Site
    from knockout.dashboard.web.publish import write_site
    from knockout.event.reader import load_event_read_only

    with user_errors():
        ev = load_event_read_only(event)
        pages = Site(ev, command_file=str(event)).pages()
        try:
            write_site(out, pages)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise KnockoutError(
                    _(
                        "--out {out}: the disk is full: no page was written (the folder is as it "
                        "was); free some space (or give another --out), then publish again"
                    ).format(out=repr(str(out)))
                ) from None
            raise KnockoutError(
                _("--out {out}: cannot write the pages there: {why}; no page was written").format(
                    out=repr(str(out)), why=exc.strerror or exc
                )
            ) from None
    out_console.print(
        f"Wrote {len(pages)} pages of {ev.name} to {out}/ (journal entry #{ev.entries[-1].seq}): "
        f"open {out / 'index.html'}; print slips.html and bid-forms.html on A4.",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


def _port(value: int) -> int:
    if not 0 <= value <= 65535:
        err_console.print(
            f"error: --port: expected a port from 0 to 65535, found {value}",
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(2)
    return value


@event_app.command("serve")
def serve(
    event: EventArg,
    port: Annotated[
        int,
        typer.Option("--port", help="The port to listen on (0: any free port).", callback=_port),
    ] = DEFAULT_PORT,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="The address to listen on. The default is loopback: only this computer can "
            "open the pages; give 0.0.0.0 (or the hall network's address) for the hall's "
            "screens to open them.",
        ),
    ] = LOOPBACK,
) -> None:
    """Serve the event's pages live for the hall screen, read-only (Ctrl-C stops).

    The same pages as knockout event publish; / lists every match's next game, the decisions
    to ask and the latest results (Red's score first). They update by themselves within a few
    seconds of any entry made from another terminal (without JavaScript they reload every few
    seconds). Serving never writes the event file: it opens it read-only.

    Example:

        knockout event serve cup.db --port 8000
    """
    from knockout.dashboard.web.server import HallSite, make_server
    from knockout.event.reader import load_event_read_only

    with user_errors():
        ev = load_event_read_only(event)
        hall = HallSite(Path(event), command_file=str(event))
        try:
            server = make_server(hall, host, port)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise KnockoutError(
                    f"--port {port}: already in use on {host} (another program listens there); "
                    "choose another with --port"
                ) from None
            raise KnockoutError(
                f"--host {host} --port {port}: cannot listen there: {exc.strerror or exc}"
            ) from None
    bound_host, bound_port = str(server.server_address[0]), int(server.server_address[1])
    where = (
        "loopback only: this computer can open it, other machines cannot; --host 0.0.0.0 shows "
        "it to the hall's network"
        if bound_host.startswith("127.") or bound_host in ("::1", "localhost")
        else f"on {bound_host}: any machine that reaches this address can open it"
    )
    out_console.print(
        f"Serving {ev.name} from {event} at http://{bound_host}:{bound_port}/ ({where}). "
        "Read-only: the event file is never written. Ctrl-C stops.",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    out_console.file.flush()
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
