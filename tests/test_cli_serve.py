"""``yahtzee-solve serve``: options, the missing-extra error, the lock, a real server stopped by Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest
from clihelpers import assert_clean_error, assert_click_usage_error, hold_lock, lock_is_free, run

pytest.importorskip("flask", reason="the serve tests need the [web] extra (Flask)")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    return tmp_path


class FakeServer:
    def __init__(self, host, port, app, threaded, fd, request_handler=None):
        self.app, self.closed, self.handler = app, False, request_handler
        FakeServer.last = self

    def serve_forever(self):
        raise KeyboardInterrupt

    def server_close(self):
        self.closed = True


@pytest.fixture
def fake(monkeypatch):
    import webbrowser

    import werkzeug.serving

    import yahtzee_solver.cli.serve as serve_module

    class FakeSocket:  # no real port taken: these tests check what serve does around the server
        def __init__(self, host, port):
            self.address = (host, port or 40000)

        def getsockname(self):
            return self.address

        def fileno(self):
            return -1

        def close(self):
            pass

    opened = []
    monkeypatch.setattr(werkzeug.serving, "make_server", FakeServer)
    monkeypatch.setattr(serve_module, "_listen", FakeSocket)
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url))
    return opened


def test_serve_opens_the_page_and_stops_on_ctrl_c(fake, home):
    r = run("serve", "--port", "8123")
    assert r.exit_code == 0, r.output
    assert "http://127.0.0.1:8123/" in r.output and "stopped" in r.output
    assert fake == ["http://127.0.0.1:8123/"]
    assert FakeServer.last.closed and lock_is_free(home / "game.lock")
    assert "Warning" not in r.output
    from yahtzee_solver.web.server import RequestHandler

    assert FakeServer.last.handler is RequestHandler  # the query string as sent (tests/test_web_api.py, wire)


def test_no_open_lang_and_other_host(fake):
    r = run("serve", "--no-open", "--host", "0.0.0.0", "--lang", "ja")
    assert r.exit_code == 0, r.output
    assert fake == []
    assert "Warning: listening on 0.0.0.0" in r.output
    assert FakeServer.last.app.config["TOKEN"]
    c = FakeServer.last.app.test_client()
    assert c.get("/api/config").get_json()["lang"] == "ja"


def test_bad_options():
    assert_click_usage_error(run("serve", "--port", "70000"), "70000", command="serve")
    assert_click_usage_error(run("serve", "--lang", "fr"), "fr", command="serve")


def test_one_game_at_a_time(home, fake):
    with hold_lock(home / "game.lock"):
        assert_clean_error(run("serve", "--no-open"), 1, "another game is running")


def test_missing_extra_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "flask", None)  # import flask -> ImportError
    assert_clean_error(run("serve", "--no-open"), 1, "'web' extra", "pip install 'yahtzee-solver[web]'")


def test_port_in_use(home):
    """werkzeug's own bind would print the bare reason and exit: one Error line naming the address instead."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = run("serve", "--no-open", "--port", str(port))
    assert_clean_error(r, 1, f"cannot listen on 127.0.0.1:{port}", "in use")
    assert lock_is_free(home / "game.lock")


def test_address_not_on_this_machine():
    r = run("serve", "--no-open", "--host", "192.0.2.1", "--port", "0")  # TEST-NET-1: never a local address
    assert_clean_error(r, 1, "cannot listen on 192.0.2.1:0", "assign requested address")


def test_host_that_is_not_an_address():
    assert_click_usage_error(run("serve", "--no-open", "--host", "999.1.1.1"), "999.1.1.1", command="serve")


def test_a_real_server_serves_and_stops_cleanly(home):
    env = dict(os.environ, YAHTZEE_SOLVER_HOME=str(home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "yahtzee_solver", "serve", "--port", "0", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line + proc.stderr.read()
        url = m.group(0)
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        token = re.search(r'name="yahtzee-token" content="([^"]+)"', page).group(1)
        req = urllib.request.Request(url + "api/game/new", data=b'{"seed": 1}', method="POST",
                                     headers={"Content-Type": "application/json", "X-Yahtzee-Token": token})
        assert urllib.request.urlopen(req, timeout=10).status == 200
        assert (home / "game.json").exists() and not lock_is_free(home / "game.lock")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()  # never leave a hung server behind
            out, err = proc.communicate(timeout=20)
            raise AssertionError("the server did not stop on Ctrl-C: " + err[-3000:]) from None
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    assert lock_is_free(home / "game.lock")


@pytest.mark.parametrize("setting", [{"NUMBA_NUM_THREADS": "0"}, {"NUMBA_NUM_THREADS": " "},
                                     {"NUMBA_THREADING_LAYER": "no-such-layer"}])
def test_serve_refuses_a_numba_setting_it_cannot_start_before_it_listens(tmp_path, setting):
    # else each request needing the compiled kernels answered a 500 that did not name the setting
    env = {**os.environ, "HOME": str(tmp_path), "YAHTZEE_SOLVER_HOME": str(tmp_path / "data"), **setting}
    out = subprocess.run([sys.executable, "-m", "yahtzee_solver", "serve", "--port", "0", "--no-open"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    name = next(iter(setting))
    assert out.stderr.count("\n") == 1 and name in out.stderr and "Traceback" not in out.stderr, out.stderr
