"""The edges of the site as `make run` serves it (nginx, gunicorn, the consumers), fourth pass (issue 74): large
downloads sent by nginx from disk, the cache's host pattern exact to the port, redirects built from checked fields
only, no control socket shared between servers. Hashed static files: tests/system/test_proxy.py. The fixture fails
each test if the server's log holds a traceback."""

from __future__ import annotations

import http.client
import re
import urllib.error
import urllib.parse
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.system.conftest import Served
from tests.system.test_limits import _cache_files, _get
from tests.system.test_queue_faults import honest_game
from webapp.config import CERTIFICATES

pytestmark = pytest.mark.slow


def test_a_certificate_is_sent_by_nginx_from_disk(serve: Callable[..., Served]) -> None:
    """The largest certificate (13 MB) through nginx: the bytes on disk, as an attachment, with the security
    headers; gunicorn answered with an empty body (nginx read the file itself, so a slow reader holds no worker
    and no temporary file), and a client's own X-Coin-Puzzles-Proxy header changes nothing."""
    app = serve()
    name = max(CERTIFICATES.glob("*.npz"), key=lambda p: p.stat().st_size).name
    host, port = app.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    conn.request("GET", f"/codebreak/optima/certificates/{name}", headers={"X-Coin-Puzzles-Proxy": "no"})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    assert r.status == 200 and body == (CERTIFICATES / name).read_bytes()
    assert "attachment" in r.headers["Content-Disposition"] and r.headers["X-Frame-Options"] == "DENY"
    assert "X-Accel-Redirect" not in r.headers
    logged = re.search(rf'"GET /codebreak/optima/certificates/{re.escape(name)} HTTP/1\.\d" 200 (\d+)', app.output())
    assert logged and int(logged[1]) < 1000, logged


def test_the_cache_keeps_one_copy_per_host_whatever_the_port(serve: Callable[..., Served]) -> None:
    """A kept page asked under its own host and port, bare, and under 30 other ports: the other ports are hosts
    the site does not answer to by name, so they add no entry (each was one before)."""
    app = serve()
    port = app.url.rsplit(":", 1)[1]
    path = "/pegs/table?board=triangle-5"
    for host in (f"127.0.0.1:{port}", f"127.0.0.1:{port}", "127.0.0.1"):
        assert _get(app.url, path, {"Host": host}) == 200
    before = _cache_files(app)
    assert 1 <= before <= 2
    for other in range(30):
        assert _get(app.url, path, {"Host": f"127.0.0.1:{20000 + other}"}, f"127.0.5.{other + 1}") == 200
    assert _cache_files(app) == before


def test_a_form_field_too_long_for_its_redirect_is_refused(serve: Callable[..., Served]) -> None:
    """A weighing posted with a hint count of 17,000 characters: a 400 that names the field, not a 502 (the field
    went into the redirect as it came); the same weighing with its count is taken."""
    app = serve()
    browser, csrf, game = honest_game(app.url)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(game).query))
    form = {**query, "csrf_token": csrf, "c1": "left", "c2": "right"}
    with pytest.raises(urllib.error.HTTPError) as refused:
        browser.open(app.url + "/adversary/weigh", data=urllib.parse.urlencode({**form, "h": "9" * 17_000}).encode())
    assert refused.value.code == 400 and "h must be a whole number" in refused.value.read().decode()
    with browser.open(app.url + "/adversary/weigh", data=urllib.parse.urlencode({**form, "h": "2"}).encode()) as r:
        assert r.status == 200 and "h=2" in r.geturl()


def test_two_servers_of_one_account_share_no_control_socket(serve: Callable[..., Served], tmp_path: Path) -> None:
    """gunicorn runs without its control socket (by default one path in the account's home for every server,
    which each start unlinked): two servers run side by side and both answer."""
    first, second = serve(), serve()
    for app in (first, second):
        assert _get(app.url, "/healthz", {}) == 200 and "Control socket" not in app.output()


def test_a_malformed_queue_entry_is_dropped_by_the_running_consumer(serve: Callable[..., Served]) -> None:
    """Rows written straight into the visitors' queue file (not JSON, another shape, an unknown task) while the
    site runs: its consumer drops each with one line (no traceback in the log: the fixture checks) and still runs
    the next real job."""
    import sqlite3

    from tests.system.test_queue_faults import answered, until
    from webapp.jobs.queues import QUEUE_FILES, make_huey

    app = serve()
    queue = Path(app.log).parent / "instance" / QUEUE_FILES["visitors"]
    until(queue.exists, 30, "no visitors' queue file")
    name = make_huey("visitors", None, queue.parent).name
    with sqlite3.connect(queue) as db:
        unknown = b'T["id","nobody.task",null,0,0,null,[],{},null,null,null,null,null]'
        for junk in (b"\x80\x04pickle", b"T[1,2]", unknown):
            db.execute("INSERT INTO task (queue, data, priority) VALUES (?, ?, 0)", (name, junk))
    until(lambda: app.output().count("a malformed queue entry was dropped") >= 3, 30, "the entries were not dropped")
    assert answered(app.url, "/api/devil?n=14", "127.0.0.1")[0] == 200
