"""``yahtzee-solve serve``: the game and the advisor in the browser, served by this machine.

The command only parses its options, takes the game lock (one game at a time
in the data folder, shared with ``play``), builds the application
(:func:`yahtzee_solver.web.app.create_app`) and runs it on werkzeug's HTTP
server, with the page's request handler (:class:`yahtzee_solver.web.server.RequestHandler`),
until Ctrl-C.  Flask comes with the optional extra ``[web]``.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from typing import TYPE_CHECKING, Any

import click

from ..errors import YahtzeeError
from ..i18n import LANGS
from .options import NumberRange

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["serve", "DEFAULT_PORT", "MISSING_EXTRA"]

DEFAULT_PORT = 8765
MISSING_EXTRA = "the web page needs the 'web' extra: pip install 'yahtzee-solver[web]'"


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _machine_names(host: str) -> tuple[str, ...]:
    """Host names a browser may use to reach a server listening on ``host``."""
    names = {host}
    try:
        if ipaddress.ip_address(host.strip("[]")).is_unspecified:  # 0.0.0.0 / :: -- every interface
            names |= {socket.gethostname(), socket.getfqdn()}
            for info in socket.getaddrinfo(socket.gethostname(), None):
                names.add(str(info[4][0]))
    except (ValueError, OSError):
        pass
    return tuple(f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names)


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (0: any free port), bound here and not by werkzeug.

    werkzeug's own bind prints the system's bare reason ("Address already in
    use") and calls ``sys.exit``; binding first turns every start-up failure
    into one error naming the address.

    Raises
    ------
    click.BadParameter
        ``host`` is neither an address nor a name this machine can resolve (exit 2).
    YahtzeeError
        The address cannot be listened on: in use, not this machine's, no permission (exit 1).
    """
    from werkzeug.serving import select_address_family

    family = select_address_family(host, port)
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, family, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise click.BadParameter(f"{host!r} is not an address or a known host name ({reason})",
                                 param_hint="'--host'") from None
    except OverflowError as e:
        raise YahtzeeError(f"cannot listen on {host}:{port}: {e}") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as http.server does
        sock.bind(infos[0][4])
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise YahtzeeError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


@click.command()
@click.option("--port", type=NumberRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="TCP port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but this machine's loopback prints a warning.")
@click.option("--no-open", "no_open", is_flag=True, help="Do not open the page in the default browser.")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default=None,
              help="Language of the page (default: the browser's language).")
def serve(port: int, host: str, no_open: bool, lang: str | None) -> None:
    """Play the game and ask the advisor in your web browser.

    Starts a local web server and opens the page.  The game in progress is the
    terminal game's (same save file, same records), so a game continues with
    the same dice after closing the tab or restarting the server.  Ctrl-C stops.
    """
    try:
        import flask  # noqa: F401
        from werkzeug.serving import make_server
    except ImportError:
        raise YahtzeeError(MISSING_EXTRA) from None
    from ..solver import jit
    from ..web import store
    from ..web.app import create_app
    from ..web.server import RequestHandler

    # numba's settings are the server's: a thread count or threading layer numba cannot start is
    # refused here, in one line, not at each request that needs the compiled kernels
    jit.started_numba()
    with store.GameLock(holder="the web page's server (yahtzee-solve serve)"):  # first: a second server on the same port is told another game runs
        sock = _listen(host, port)
        try:
            app = create_app(lang=lang.lower() if lang else None, hosts=_machine_names(host), jit=True)
            # werkzeug dups the socket; the handler gives the app the request as sent (web/server.py)
            server = make_server(host, port, app, threaded=True, fd=sock.fileno(), request_handler=RequestHandler)
            _run(server, app, host, sock.getsockname()[1], no_open)
        finally:
            sock.close()


def _run(server: Any, app: Flask, host: str, port: int, no_open: bool) -> None:
    """Serve until Ctrl-C on the bound ``port``, the page opened in the browser unless ``no_open``."""
    # Load the table and compile the kernels while the browser opens.
    warm = threading.Thread(target=app.extensions["yahtzee"].warm, daemon=True)
    warm.start()
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if not _is_loopback(host):
        click.echo(click.style(
            f"Warning: listening on {host}: other machines on the network can reach this page and play "
            "your game (state-changing requests still need the page's token).", fg="yellow"), err=True)
    click.echo(f"Serving the game on {url}  (Ctrl-C to stop)")
    if not no_open:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()  # werkzeug's returns on Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    click.echo("\nServer stopped; the game is saved.")
    # Leaving while numba compiles in another thread can hang the interpreter's exit.
    warm.join(timeout=120)
