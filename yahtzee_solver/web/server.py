"""The page's HTTP server: werkzeug's, handing the app the request as it was sent.

``yahtzee-solve serve`` (:mod:`yahtzee_solver.cli.serve`) runs werkzeug's
server with :class:`RequestHandler`, which differs from werkzeug's own in what it
puts in the WSGI environ:

* ``QUERY_STRING`` holds the query as sent, each byte from 0x80 on
  percent-encoded (as a browser sends it) before http.server reads the request
  line.  http.server reads the line as Latin-1 text and splits it at blanks, and
  0x85 and 0xA0 are blanks in that text: raw UTF-8 holding them (``张``, ``à``,
  ``Å``) split the line (a 400 "Bad request syntax" in mojibake, or a value cut
  short); and werkzeug's handler encoded the query once more as UTF-8, so raw
  ``?player=Zoë`` (as curl sends it) reached the app as ``ZoÃ«``.  The app decodes
  the query (:func:`yahtzee_solver.web.app.query_args`): raw and percent-encoded
  UTF-8 read alike.
* ``yahtzee_solver.content_lengths`` (:data:`CONTENT_LENGTHS`) holds every
  ``Content-Length`` header as sent, for the app to refuse an empty one or two
  that differ (werkzeug's environ keeps one value, and an empty one reads as no
  header).
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

__all__ = ["RequestHandler", "BODY_TIMEOUT", "CONTENT_LENGTHS"]

#: The environ key of the request's ``Content-Length`` headers as sent (a tuple of str), set by
#: :class:`RequestHandler` when there is one or more.
CONTENT_LENGTHS = "yahtzee_solver.content_lengths"

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
        environ["QUERY_STRING"] = urlsplit(self.path).query  # self.path: the request line, ASCII (parse_request)
        lengths = self.headers.get_all("Content-Length")
        if lengths:
            environ[CONTENT_LENGTHS] = tuple(lengths)
        body = _WaitedInput(self, self.body_timeout)
        chunked = isinstance(environ["wsgi.input"], DechunkedInput)  # werkzeug's reader of a chunked body
        environ["wsgi.input"] = DechunkedInput(body) if chunked else body  # type: ignore[arg-type]
        return environ

    def parse_request(self) -> bool:
        """http.server's reading of the request line, its bytes from 0x80 on percent-encoded first (see the module).

        Returns
        -------
        bool
            Whether the request can be answered (http.server's own result).
        """
        raw: bytes = self.raw_requestline  # type: ignore[has-type]  # set by http.server before this call
        if not raw.isascii():
            self.raw_requestline = re.sub(rb"[\x80-\xff]", lambda m: b"%%%02X" % m.group()[0], raw)
        return super().parse_request()

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
