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
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from werkzeug.serving import WSGIRequestHandler

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

__all__ = ["RequestHandler"]


class RequestHandler(WSGIRequestHandler):
    """werkzeug's request handler with the query string of the environ as sent (see the module)."""

    def make_environ(self) -> WSGIEnvironment:
        """werkzeug's environ, ``QUERY_STRING`` the query's bytes as sent, as Latin-1 text (PEP 3333).

        Returns
        -------
        dict
            The WSGI environ of the request.
        """
        environ = super().make_environ()
        environ["QUERY_STRING"] = urlsplit(self.path).query  # self.path: the request line's bytes as Latin-1
        return environ
