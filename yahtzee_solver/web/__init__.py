"""The game and the advisor in the browser: a local web server over the same engine.

A second thin front end beside the terminal game (:mod:`yahtzee_solver.cli.play`):

* :mod:`~yahtzee_solver.web.service` -- what the page can do (the game on the
  server, hints, the advisor, rules, records) as plain functions and dicts,
  no web framework involved;
* :mod:`~yahtzee_solver.web.app` -- the Flask application: the JSON API, its
  input checks and its protection against other web sites (``create_app``);
* :mod:`~yahtzee_solver.web.store` -- the only door to the saved game, the
  records and the lock;
* :mod:`~yahtzee_solver.web.text` -- the page's own words in en/zh/ja;
* ``static/`` -- the page itself: HTML, CSS and JavaScript ES modules (``main.js`` starts it;
  ``api.js`` the API client, ``board.js`` the scorecard, ``dice.js``, ``hint.js`` the hint panel,
  ``game.js`` the actions and keys, ``advisor.js``, ``rules.js``, ``records.js``, ``review.js``) with no build step
  and nothing fetched from the internet.  It draws what the API sends and
  sends intentions back; no rule of the game is written in JavaScript.

Flask is the optional extra ``[web]``; importing :mod:`yahtzee_solver` never
imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["create_app"]


def create_app(**kwargs: Any) -> Flask:
    """:func:`yahtzee_solver.web.app.create_app` (imports Flask on first call)."""
    from .app import create_app as make

    return make(**kwargs)
