"""The Flask application: the page, its static files and the JSON API.

The API (documented in the README, "Playing in the browser"):

==========================  =====================================================================
``GET  /api/config``        version, languages, rule sets, opponents, the server's ``--lang``
``GET  /api/text``          every word of the page in ``?lang=`` (box names, rules titles, messages)
``GET  /api/game``          the game on the server (or ``null``)
``POST /api/game/new``      ``{rules?, opponent?, first?, seed?, abandon?}`` (defaults: :data:`NEW_GAME_DEFAULTS`;
                            a seed, a decimal string (or an integer): practice)
``POST /api/game/roll``     ``{version?}`` or an empty body (as for every POST without fields)
``POST /api/game/hold``     ``{held: [5 booleans], version?}``
``POST /api/game/score``    ``{box: index, confirm?: true, version?}`` (a would-be 0 needs ``confirm``)
``POST /api/game/cpu``      ``{version?}``: one step of the CPU's turn
``POST /api/game/undo``     ``{version?}``: take back the last score (solitaire, before the next roll; practice)
``POST /api/game/hint``     ``{version?}``: ranked options for the player's position (the game becomes practice);
                            against the CPU each with its chance of winning (:mod:`yahtzee_solver.strategy.win_chances`)
``POST /api/game/why``      ``{version?}``: the reasons of the hint's best options (:mod:`yahtzee_solver.web.why`)
``GET  /api/train``         the trainer's session and saved sessions (:mod:`yahtzee_solver.web.train`)
``POST /api/train/new``     ``{rules?, count?, from_history?, seed?}``: a new session
``POST /api/train/answer``  ``{position, keep? | box?, version?}``: answer the position asked
``POST /api/train/quit``    ``{version?}``: end the session (the answers so far are saved)
``GET  /api/train/why``     ``?position=N``: the reasons of the best option and of the answer
``GET  /api/advice``        ``?rules=&card=&dice=&rolls_left=``: ranked keeps or boxes for any position
``GET  /api/rules``         ``?rules=``: the rules pages
``GET  /api/records``       the records book (unaided rows, then practice)
``GET  /api/review``        ``?game=N&player=you|cpu``: the review of a finished game of the history (default the
                            last), the numbers of ``yahtzee-solve review N --json``; of a coach game
                            ``player=NAME`` (default its first player), as ``review N --player NAME``
``/api/coach...``           the coach's page (a game played with real dice): :mod:`yahtzee_solver.web.coach`
==========================  =====================================================================

Every endpoint takes ``?lang=en|zh|ja`` for its texts.  A query's names and values are
UTF-8, raw or percent-encoded alike (:func:`query_args`; other bytes are a 400 naming the
parameter).  The game (``game``) carries its ``version`` (a string) and its ``seed`` as a decimal string (64-bit seeds lose digits as
JavaScript numbers); an action sent with a ``version`` that is not the current one is
refused with 409 ``stale`` and the current game in ``game``.  Errors are JSON
``{"error": "<one line>", "code": "<reason>"}`` with a 4xx status: bad JSON,
a body that is not an object, unknown fields or query parameters, wrong
types, bodies over :data:`MAX_BODY` bytes or shorter than their Content-Length, a Content-Length that is not
a count of bytes,
illegal moves.  Nothing returns a
traceback.  Every error is said in the request's ``?lang`` (the server's ``--lang``
for an unknown one), from the catalogue (:mod:`yahtzee_solver.web.text`, keys ``web.err.*``).

Protection (a page on any web site can send requests to a server on
127.0.0.1): every request must carry a ``Host`` header naming an allowed host
(``127.0.0.1``, ``localhost``, ``[::1]`` and the ``--host`` given), which
defeats DNS rebinding; every ``POST`` must carry the per-launch token (a random
value written into the page's HTML, which other sites cannot read) in the
``X-Yahtzee-Token`` header and be ``application/json``; and every ``/api/``
request, reads included, is refused (403) when the browser says it comes from
another site (``Sec-Fetch-Site`` other than ``same-origin``/``none``, or an
``Origin`` other than the server's own).  Nothing that changes the game or the
records answers a ``GET`` or ``HEAD``.
"""

from __future__ import annotations

import hmac
import os
import json
import re
import secrets
import sys
from importlib import resources
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import Flask, Request, Response, jsonify, request
from flask.json.provider import DefaultJSONProvider
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge
from werkzeug.utils import cached_property

from .._version import __version__
from ..files import refuse_repeated_keys
from ..game import MAX_SEED_DIGITS, OPPONENTS, seed_too_long
from ..dice import whole_number
from ..i18n import LANGS
from ..rules import RULESETS
from .server import CONTENT_LENGTHS
from .service import (ApiError, GameService, Msg, WebTranslator, advise, check_lang, history_number, quoted, records,
                      review, rules_pages, texts)

__all__ = ["create_app", "query_args", "MAX_BODY", "TOKEN_HEADER", "LOCAL_HOSTS", "NEW_GAME_DEFAULTS"]

#: Largest request body accepted (bytes); the largest real one is about 100.
MAX_BODY = 4096
#: Header that carries the per-launch token on state-changing requests.
TOKEN_HEADER = "X-Yahtzee-Token"
#: Host names always accepted in the ``Host`` header.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
#: ``POST /api/game/new``: the value of each field the body leaves out (the page sends them all).
NEW_GAME_DEFAULTS: dict[str, object] = {"rules": "yahtzee", "opponent": "none", "first": "me", "seed": None, "abandon": False}
#: Pages of the single-page app (all serve ``index.html``).
PAGES = ("/", "/advisor", "/rules", "/records", "/review", "/coach")


def _host_name(host: str) -> str:
    """``Host`` header without its port (``[::1]:8000`` -> ``[::1]``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _host_refused() -> ApiError:
    """The 403 ``bad_host`` naming the ``Host`` header as sent (quoted, cut to 60 characters).

    werkzeug's :attr:`request.host` is ``''`` for a host it cannot read (a Cyrillic letter; two ``Host``
    headers, which the server joins with a comma), so the refusal named nothing: it quotes the header
    itself (its bytes read as UTF-8), and says when it names several hosts.
    """
    sent = request.environ.get("HTTP_HOST")
    if not isinstance(sent, str):
        return ApiError(403, Msg("web.err.host", host=quoted(request.host, 60)), "bad_host")
    try:  # the server gives a header's bytes as Latin-1 text (PEP 3333)
        sent = sent.encode("latin-1").decode("utf-8")
    except UnicodeError:
        pass
    if "," in sent:
        return ApiError(403, Msg("web.err.hosts", n=sent.count(",") + 1, hosts=quoted(sent, 60)), "bad_host")
    return ApiError(403, Msg("web.err.host", host=quoted(sent, 60)), "bad_host")


#: A well-formed ``Content-Length``: digits only (blanks around them are the header's own, RFC 9110).
_LENGTH = re.compile(r"[ \t]*[0-9]+[ \t]*", re.ASCII)


def _check_content_length() -> None:
    """Refuse a request whose ``Content-Length`` is not a count of bytes (``-5``, ``abc``, ``+5``, ``5, 5``).

    werkzeug reads such a header as 0, an empty body: the action ran without the fields sent (a stale tab's
    ``version`` not checked).  Under serve's server (:data:`~yahtzee_solver.web.server.CONTENT_LENGTHS`) an
    empty header and two headers that differ are refused too; elsewhere an empty value is no header (PEP 3333).

    Raises
    ------
    ApiError
        400 ``bad_content_length``, quoting the value sent (cut to 40 characters).
    """
    headers = request.environ.get(CONTENT_LENGTHS)  # every header as sent, under serve's server
    if headers:
        # an empty one, or two that differ (werkzeug kept one of them): no count of bytes either
        sent = headers[0] if len({h.strip() for h in headers}) == 1 else ", ".join(headers)
    else:
        sent = request.environ.get("CONTENT_LENGTH") or ""
        if not sent:
            return
    if not _LENGTH.fullmatch(sent):
        raise ApiError(400, Msg("web.err.content_length", value=quoted(sent, 40)), "bad_content_length")


def _read_body() -> bytes:
    """The request body, at most :data:`MAX_BODY` bytes.

    The limit holds on the bytes actually read, so a chunked body (no
    Content-Length) is refused like a declared one instead of being cut short.

    Raises
    ------
    werkzeug.exceptions.RequestEntityTooLarge
        413 for a longer body.
    ApiError
        400 when the body ends before the bytes its Content-Length announced (or a chunked body before
        its last chunk): the client closed its side, or sent nothing more for the server's wait
        (:attr:`yahtzee_solver.web.server.RequestHandler.body_timeout`).
    """
    stream = request.stream
    raw, want = b"", MAX_BODY + 1
    try:
        while want > 0:  # a stream may return fewer bytes than asked before its end
            chunk = stream.read(want)
            if not chunk:
                break
            raw, want = raw + chunk, want - len(chunk)
    except ClientDisconnected:  # werkzeug's bare 400 said only "Bad Request"
        if request.content_length is None:
            raise ApiError(400, Msg("web.err.cut_body")) from None  # werkzeug's dechunking loses the count
        raise ApiError(400, Msg("web.err.short_body", got=len(raw), want=request.content_length)) from None
    if len(raw) > MAX_BODY:
        raise RequestEntityTooLarge()
    return raw


#: Refuses a JSON body that names a field twice.
_NO_REPEATS = refuse_repeated_keys(lambda name: ApiError(400, Msg("web.err.field_twice", name=quoted(name, 40))))


def _body(fields: dict[str, Any]) -> dict[str, Any]:
    """The request's JSON object, checked against ``fields`` (name -> (type, required)).

    Raises
    ------
    ApiError
        400 for bad JSON, a field given twice, a non-object, an unknown or missing field, or a
        wrong type.
    """
    raw = _read_body()
    if not raw.strip():
        data = {}
    else:
        try:
            data = json.loads(raw.decode("utf-8"), object_pairs_hook=_NO_REPEATS)
        except RecursionError:
            raise ApiError(400, Msg("web.err.json_deep")) from None
        except UnicodeDecodeError:
            raise ApiError(400, Msg("web.err.json_utf8")) from None
        except json.JSONDecodeError as e:  # where, not the parser's English
            raise ApiError(400, Msg("web.err.json", line=e.lineno, column=e.colno)) from None
    if not isinstance(data, dict):
        raise ApiError(400, Msg("web.err.not_object"))
    for name in data:
        if name not in fields:
            raise ApiError(400, Msg("web.err.unknown_field", name=quoted(str(name), 40), known=", ".join(fields) or "-"))
    for name, (kind, required) in fields.items():
        if name not in data:
            if required:
                raise ApiError(400, Msg("web.err.missing_field", name=repr(name)))
            continue
        v = data[name]
        ok = {
            "int": isinstance(v, int) and not isinstance(v, bool),
            "bool": isinstance(v, bool),
            "str": isinstance(v, str),
            "int?": v is None or (isinstance(v, int) and not isinstance(v, bool)),
            "seed": v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0)
                    or (isinstance(v, str) and v != "" and v.isascii() and v.isdigit()),
            "str?": v is None or isinstance(v, str),
            "bools5": isinstance(v, list) and len(v) == 5 and all(isinstance(x, bool) for x in v),
        }[kind]
        if not ok:
            want = Msg(f"web.err.want.{kind.replace('?', '_null')}", n=MAX_SEED_DIGITS)
            raise ApiError(400, Msg("web.err.invalid_field", name=name, want=want,
                                    got=json.dumps(v, ensure_ascii=False)[:40]))
        if kind == "seed" and v is not None:  # the limit of --seed too (int() of at most MAX_BODY digits)
            digits = seed_too_long(int(v))
            if digits is not None:
                raise ApiError(400, Msg("web.err.seed_long", seed=quoted(str(v)), n=digits, most=MAX_SEED_DIGITS))
    return data


def _query_pairs(raw: bytes) -> list[tuple[bytes, bytes]]:
    """The ``name=value`` pairs of the query string ``raw``, as werkzeug splits them (``&``; a name alone has the
    value ``''``), each a byte string: ``+`` a blank, ``%XX`` its byte, not yet decoded."""
    pairs = []
    for part in raw.split(b"&"):
        if part:
            name, _, value = part.partition(b"=")
            pairs.append((unquote_to_bytes(name.replace(b"+", b" ")), unquote_to_bytes(value.replace(b"+", b" "))))
    return pairs


def query_args(raw: bytes) -> ImmutableMultiDict[str, str]:
    """The query parameters of the query string ``raw`` (its bytes as sent), each name and value read as UTF-8.

    Raw and percent-encoded bytes read alike: ``player=Zoë`` (the bytes ``c3 ab``, as curl sends what is
    typed) and ``player=Zo%C3%AB`` (as a browser sends it) are both ``Zoë``.  (werkzeug read percent-encoded
    bytes that are not UTF-8 as the text ``%EB``, and raised on such raw bytes.)

    Raises
    ------
    ApiError
        400 naming the first parameter whose name or value is not UTF-8 (its name quoted, a bad byte as U+FFFD).
    """
    args = []
    for name, value in _query_pairs(raw):
        try:
            args.append((name.decode("utf-8"), value.decode("utf-8")))
        except UnicodeDecodeError:
            raise ApiError(400, Msg("web.err.query_utf8", name=quoted(name.decode("utf-8", "replace"), 40))) from None
    return ImmutableMultiDict(args)


class _Request(Request):
    """Flask's request, its :attr:`args` read by :func:`query_args` (UTF-8, raw or percent-encoded alike)."""

    @cached_property
    def args(self) -> ImmutableMultiDict[str, str]:
        return query_args(self.query_string)


def _asked_lang() -> str | None:
    """The request's ``?lang=`` as given, also when another parameter is not UTF-8 (for the language of that error)."""
    try:
        return request.args.get("lang")
    except ApiError:
        langs = [v for k, v in _query_pairs(request.query_string) if k == b"lang"]
        return langs[0].decode("utf-8", "replace") if langs else None


def _query(allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The query parameters, each given at most once, all in ``allowed`` (``lang`` always allowed)."""
    args = request.args
    for name in args:
        if name not in allowed and name != "lang":
            raise ApiError(400, Msg("web.err.unknown_query", name=quoted(name, 40)))
        if len(args.getlist(name)) > 1:
            raise ApiError(400, Msg("web.err.query_twice", name=quoted(name, 40)))
    for name in required:
        if name not in args:
            raise ApiError(400, Msg("web.err.missing_query", name=repr(name)))
    return {k: args[k] for k in args}


def create_app(
    *,
    game_file: str | os.PathLike[str] | None = None,
    records_file: str | os.PathLike[str] | None = None,
    history_file: str | os.PathLike[str] | None = None,
    token: str | None = None,
    lang: str | None = None,
    hosts: tuple[str, ...] = (),
    jit: bool = False,
) -> Flask:
    """The web application.

    Parameters
    ----------
    game_file, records_file, history_file : path, optional
        Where the game, the records and the game history are kept (:class:`GameService`): by default
        the terminal game's files, or, when ``game_file`` is given, ``records.json`` and
        ``history.json`` next to it.
    token : str, optional
        The per-launch token (default: 32 random bytes, URL-safe).
    lang : str, optional
        Language forced by ``--lang``; ``None`` lets the page follow the browser.
    hosts : tuple of str
        Host names accepted besides :data:`LOCAL_HOSTS` (the ``--host`` served).
    jit : bool
        Compiled kernels for the advisor and the CPU (the server's default) or interpreted.

    Returns
    -------
    flask.Flask
        With ``app.config["TOKEN"]`` and ``app.extensions["yahtzee"]`` (the :class:`GameService`).
    """
    if lang is not None:
        check_lang(lang)
    app = Flask(__name__, static_folder="static", static_url_path="/static")
    app.request_class = _Request
    # One byte over: a declared longer body is refused unread; the 413 for a body of MAX_BODY + 1 bytes,
    # declared or chunked, is _read_body's (werkzeug's own limit would refuse a chunked body of exactly
    # MAX_BODY bytes when reading to its end).
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY + 1
    app.config["TOKEN"] = token = token or secrets.token_urlsafe(32)
    provider = app.json
    assert isinstance(provider, DefaultJSONProvider)  # Flask's own
    provider.sort_keys = False
    provider.ensure_ascii = False
    service = GameService(game_file, records_file, history_file=history_file, jit=jit)
    app.extensions["yahtzee"] = service
    # the coach's game (web/coach.py): the terminal coach's save, beside the game file when one is given
    from .coach import CoachService, add_routes as add_coach_routes

    coach = CoachService(service.advisors, None if game_file is None else service.game_file.with_name("coach.json"),
                         service.history_file)
    app.extensions["yahtzee_coach"] = coach
    allowed_hosts = {h.lower() for h in LOCAL_HOSTS} | {_host_name(h) for h in hosts}
    page = resources.files(__package__).joinpath("static", "index.html").read_text("utf-8")
    page = page.replace("@TOKEN@", token).replace("@LANG@", lang or "").replace("@VERSION@", __version__)

    def tr() -> WebTranslator:
        return WebTranslator(check_lang(request.args.get("lang", lang or "en")))

    @app.before_request
    def guard() -> None:
        if not request.environ.get("HTTP_HOST"):  # werkzeug would take the server's own name for it
            raise ApiError(403, Msg("web.err.no_host"), "bad_host")
        if _host_name(request.host) not in allowed_hosts:
            raise _host_refused()
        _check_content_length()  # any request: the server cannot tell where such a body ends
        if request.path.startswith("/api/"):
            # Another site's page may send any request here (a form, a fetch, an <img>): refuse them all,
            # reads too.  Browsers say where a request comes from in Sec-Fetch-Site, and in Origin.
            site = request.headers.get("Sec-Fetch-Site")
            if site is not None and site not in ("same-origin", "none"):
                raise ApiError(403, Msg("web.err.cross_site", site=site[:20]), "cross_site")
            origin = request.headers.get("Origin")
            if origin is not None and origin.lower() != f"{request.scheme}://{request.host}".lower():
                raise ApiError(403, Msg("web.err.origin", origin=quoted(origin, 60)), "bad_origin")
        if request.routing_exception is not None:
            return None  # no such page or method: Flask answers 404 / 405
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            origin = request.headers.get("Origin")
            if origin is not None and origin.lower() != f"{request.scheme}://{request.host}".lower():
                raise ApiError(403, Msg("web.err.origin", origin=quoted(origin, 60)), "bad_origin")
            sent = request.headers.get(TOKEN_HEADER, "")
            if not hmac.compare_digest(sent.encode("utf-8", "replace"), token.encode()):
                raise ApiError(403, Msg("web.err.token"), "bad_token")
            has_body = request.content_length != 0 and (request.content_length is not None
                                                        or "chunked" in request.headers.get("Transfer-Encoding", ""))
            if has_body and request.mimetype != "application/json":  # an empty body is {}, of any type
                raise ApiError(415, Msg("web.err.type"), "bad_type")

    @app.after_request
    def headers(resp: Response) -> Response:
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        )
        if request.path.startswith("/api/") or request.path in PAGES:
            resp.headers["Cache-Control"] = "no-store"
        return resp

    def error_tr() -> WebTranslator:
        # the language of an error: the request's, else (an unknown ?lang=) the server's
        asked = _asked_lang()
        return WebTranslator(asked if asked in LANGS else lang or "en")

    @app.errorhandler(ApiError)
    def api_error(e: ApiError) -> ResponseReturnValue:
        return jsonify(error=e.render(error_tr()), code=e.code, **e.extra), e.status

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> ResponseReturnValue:
        messages = {413: Msg("web.err.too_large", n=MAX_BODY), 404: Msg("web.err.no_page", path=quoted(request.path, 60)),
                    405: Msg("web.err.method", method=request.method[:20], path=quoted(request.path, 60))}
        msg = messages.get(e.code or 0, Msg("web.err.http", status=e.code or 400, name=e.name or "Bad Request"))
        code = (e.name or "error").lower().replace(" ", "_")
        return jsonify(error=" ".join(msg.render(error_tr()).split()), code=code), e.code or 500

    @app.errorhandler(Exception)
    def internal_error(e: Exception) -> ResponseReturnValue:
        import traceback

        traceback.print_exc(file=sys.stderr)  # for the server's console, never for the page
        return jsonify(error=Msg("web.err.internal", name=type(e).__name__).render(error_tr()), code="internal"), 500

    # -- the page -----------------------------------------------------------------------------------
    def index() -> Response:
        # a page takes any query: the advisor reads its own parameters, a shared link may carry others
        return Response(page, mimetype="text/html")

    for path in PAGES:
        app.add_url_rule(path, f"page{path}", index, methods=["GET"])

    # -- read-only API --------------------------------------------------------------------------------
    @app.get("/api/config")
    def api_config() -> Response:
        _query(())
        tr()  # an unknown ?lang= is refused here too (the page asks with its first language, "en")
        return jsonify(version=__version__, lang=lang, langs=list(LANGS), rules=list(RULESETS),
                       opponents=list(OPPONENTS))

    @app.get("/api/text")
    def api_text() -> Response:
        _query(())
        return jsonify(texts(tr().lang))

    @app.get("/api/rules")
    def api_rules() -> Response:
        q = _query(("rules",), ("rules",))
        if q["rules"] not in RULESETS:
            raise ApiError(400, tr()("web.adv.err.rules", rules=quoted(q["rules"], 40), choices=", ".join(RULESETS)))
        return jsonify(rules_pages(q["rules"], tr().lang))

    @app.get("/api/records")
    def api_records() -> Response:
        _query(())
        return jsonify(records(tr().lang, service.records_file))

    @app.get("/api/review")
    def api_review() -> Response:
        q = _query(("game", "player"))
        g = q.get("game")
        number = None if g is None else history_number(g)
        # you or cpu; a coach game's player by name (you, the page's default: its first player)
        return jsonify(review(service.advisors, tr().lang, service.history_file, number, q.get("player")))

    @app.get("/api/advice")
    def api_advice() -> Response:
        q = _query(("rules", "card", "dice", "rolls_left"), ("dice",))
        r = q.get("rolls_left", "2")
        digits = whole_number(r)
        if digits not in ("0", "1", "2"):
            raise ApiError(400, tr()("web.err.rolls_left", value=quoted(r)))
        assert digits is not None  # one of the three
        # no card, or an empty card= (the page's empty card field), is the empty card; a blank one is refused
        card = q.get("card") or None
        return jsonify(advise(service.advisors, q.get("rules", "yahtzee"), card, q["dice"], int(digits), tr().lang))

    @app.get("/api/game")
    def api_game() -> Response:
        _query(())
        return jsonify(service.get(tr()))

    # -- the hint's reasons and the trainer (:mod:`yahtzee_solver.web.why`, :mod:`yahtzee_solver.web.train`) --
    from ..analysis.training import training_path
    from .train import TrainerService

    trainer = TrainerService(service.advisors, service.game_file.with_name("training.json")
                             if game_file is not None else training_path(), service.history_file)
    app.extensions["yahtzee_train"] = trainer
    versioned = {"version": ("str?", False)}
    app.add_url_rule("/train", "page/train", index, methods=["GET"])

    @app.after_request
    def train_page_headers(resp: Response) -> Response:
        if request.path == "/train":
            resp.headers["Cache-Control"] = "no-store"  # as the other pages
        return resp

    @app.post("/api/game/why")
    def api_why() -> Response:
        # a POST with the token, like the hint: the reasons make the game practice
        _query(())
        b = _body(versioned)
        return jsonify(service.why(tr(), b.get("version")))

    @app.get("/api/train")
    def api_train() -> Response:
        _query(())
        return jsonify(trainer.get(tr()))

    @app.get("/api/train/why")
    def api_train_why() -> Response:
        q = _query(("position",), ("position",))
        n = q["position"]
        digits = whole_number(n)
        if digits is None or len(digits) > 4:
            raise ApiError(400, tr()("web.err.position", value=quoted(n)))
        return jsonify(trainer.why(tr(), int(digits)))

    @app.post("/api/train/new")
    def api_train_new() -> Response:
        _query(())
        b = _body({"rules": ("str", False), "count": ("int", False), "from_history": ("bool", False),
                   "seed": ("seed", False)})
        seed = b.get("seed")
        return jsonify(trainer.new(tr(), b.get("rules", "yahtzee"), b.get("count", 10), b.get("from_history", False),
                                   None if seed is None else int(seed)))

    @app.post("/api/train/answer")
    def api_train_answer() -> Response:
        _query(())
        b = _body({"position": ("int", True), "keep": ("str?", False), "box": ("int?", False), **versioned})
        return jsonify(trainer.answer(tr(), b["position"], b.get("keep"), b.get("box"), b.get("version")))

    @app.post("/api/train/quit")
    def api_train_quit() -> Response:
        _query(())
        b = _body(versioned)
        return jsonify(trainer.quit(tr(), b.get("version")))

    # -- actions (each may carry the game's ``version`` it was decided on: 409 ``stale`` when it is not the current one)
    version = {"version": ("str?", False)}

    @app.post("/api/game/new")
    def api_new() -> Response:
        _query(())
        b = _body({"rules": ("str", False), "opponent": ("str", False), "first": ("str", False),
                   "seed": ("seed", False), "abandon": ("bool", False)})
        b = {**NEW_GAME_DEFAULTS, **b}
        seed = None if b["seed"] is None else int(b["seed"])
        return jsonify(service.new(tr(), b["rules"], b["opponent"], b["first"], seed, b["abandon"]))

    @app.post("/api/game/roll")
    def api_roll() -> Response:
        _query(())
        b = _body(version)
        return jsonify(service.roll(tr(), b.get("version")))

    @app.post("/api/game/hold")
    def api_hold() -> Response:
        _query(())
        b = _body({"held": ("bools5", True), **version})
        return jsonify(service.hold(tr(), b["held"], b.get("version")))

    @app.post("/api/game/score")
    def api_score() -> Response:
        _query(())
        b = _body({"box": ("int", True), "confirm": ("bool", False), **version})
        return jsonify(service.score(tr(), b["box"], b.get("confirm", False), b.get("version")))

    @app.post("/api/game/cpu")
    def api_cpu() -> Response:
        _query(())
        b = _body(version)
        return jsonify(service.cpu(tr(), b.get("version")))

    @app.post("/api/game/undo")
    def api_undo() -> Response:
        _query(())
        b = _body(version)
        return jsonify(service.undo(tr(), b.get("version")))

    @app.post("/api/game/hint")
    def api_hint() -> Response:
        # a POST with the token: the hint makes the game practice, so no other site may ask for it
        _query(())
        b = _body(version)
        return jsonify(service.hint(tr(), b.get("version")))

    add_coach_routes(app, coach, tr, _body, _query)
    return app
