"""The page's HTTP server: werkzeug's, handing the app the request as it was sent.

``yahtzee-solve serve`` (:mod:`yahtzee_solver.cli.serve`) runs werkzeug's
server with :class:`RequestHandler`, which differs from werkzeug's own in what it
puts in the WSGI environ:

* ``QUERY_STRING`` holds the query's bytes as sent, one character a byte
  (Latin-1), as PEP 3333 says.  http.server reads the request line so, and
  werkzeug's handler encoded that text as UTF-8 once more: raw UTF-8 in a query
  (``?player=Zoë`` as curl sends it; a browser percent-encodes it) reached the app
  encoded twice, ``ZoÃ«``, and bytes that are not UTF-8 as Latin-1 letters.  The
  app decodes the bytes (:func:`yahtzee_solver.web.app.query_args`).
* ``wsgi.input`` ends when the client sends nothing more for
  :attr:`RequestHandler.body_timeout` seconds.  A client that announces a longer
  body than it sends (``curl -H 'Content-Length: 10'`` with no data) and keeps the
  connection open had no answer at all: the read waited for the missing bytes as long
  as the connection stayed open.  Now the body ends there and the app answers 400
  (``web.err.short_body``), as it does at once when the client closes its side.

It also answers the refusals http.server makes itself, before the app sees the
request (a request line over 65,536 bytes: 414; a malformed one: 400; too many
or too long header lines: 431), in the app's JSON shape ``{"error", "code"}``
instead of http.server's HTML page.
"""

from __future__ import annotations

import io
import json
import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from werkzeug.serving import DechunkedInput, WSGIRequestHandler

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

__all__ = ["RequestHandler", "BODY_TIMEOUT"]

#: Seconds the server waits for the next byte of a request body (the page's bodies, at most
#: :data:`yahtzee_solver.web.app.MAX_BODY` bytes, come with their headers).
BODY_TIMEOUT = 5.0


class _WaitedInput:
    """The request's body as the socket gives it, ended (as if the client had closed its side) when nothing
    comes for ``timeout`` seconds.

    ``read`` returns ``size`` bytes unless the body ends first, as the buffered file it reads does.
    """

    def __init__(self, handler: RequestHandler, timeout: float) -> None:
        self.handler, self.timeout, self.ended = handler, timeout, False

    def _wait(self, size: int, line: bool = False) -> bytes:
        """One read of the socket's file (at most ``size`` bytes; a line with ``line``), waited for."""
        if self.ended:
            return b""
        h = self.handler
        h.connection.settimeout(self.timeout)
        try:
            return h.rfile.readline(size) if line else h.rfile.read1(size)
        except TimeoutError:
            # The socket's file refuses every read after a timeout, and werkzeug reads what is left of the
            # request once the answer is sent: an empty file in its place (the connection closes then).
            self.ended = True
            h.rfile.close()
            h.rfile = io.BytesIO()
            return b""
        finally:
            h.connection.settimeout(None)

    def read(self, size: int = -1) -> bytes:
        out = b""
        while size < 0 or len(out) < size:  # one socket read at a time, each waited for
            part = self._wait(65536 if size < 0 else size - len(out))
            if not part:
                break
            out += part
        return out

    def readline(self, size: int = -1) -> bytes:
        return self._wait(size, line=True)


class RequestHandler(WSGIRequestHandler):
    """werkzeug's request handler with the query string as sent and a wait for the body (see the module).

    Attributes
    ----------
    body_timeout : float
        Seconds to wait for the next byte of a body before taking it as ended (default :data:`BODY_TIMEOUT`).
    """

    body_timeout: float = BODY_TIMEOUT

    def make_environ(self) -> WSGIEnvironment:
        """werkzeug's environ, ``QUERY_STRING`` the query's bytes as sent, as Latin-1 text (PEP 3333), and
        ``wsgi.input`` the body waited for at most :attr:`body_timeout` seconds a byte.

        Returns
        -------
        dict
            The WSGI environ of the request.
        """
        environ = super().make_environ()
        environ["QUERY_STRING"] = urlsplit(self.path).query  # self.path: the request line's bytes as Latin-1
        body = _WaitedInput(self, self.body_timeout)
        chunked = isinstance(environ["wsgi.input"], DechunkedInput)  # werkzeug's reader of a chunked body
        environ["wsgi.input"] = DechunkedInput(body) if chunked else body  # type: ignore[arg-type]
        return environ

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusal of a request (see the module) as the app's JSON error, not an HTML page.

        ``{"error": "the request was refused (414 Request-URI Too Long)", "code": "request_uri_too_long"}``,
        in English (the request's language is not known yet), and the connection closed, as http.server does.
        """
        self.log_error("code %d, message %s", code, message)
        short = self.responses.get(code, ("Error", ""))[0]
        said = f"the request was refused ({code} {short})" + (f": {message[:80]}" if message and message != short
                                                               else "")
        body = json.dumps({"error": said, "code": re.sub(r"[^a-z0-9]+", "_", short.lower()).strip("_")}).encode()
        self.send_response(code, short)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if getattr(self, "command", None) != "HEAD" and code >= 200 and code not in (204, 304):
            self.wfile.write(body)
