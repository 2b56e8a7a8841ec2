"""deploy/nginx.conf in front of the app as `make run` serves it: cheap pages stay fast while 20 slow clients
hold connections (they would hold both gunicorn sync workers without it), and nginx's own error pages carry the
security headers. Needs Debian's nginx, which `make test` installs."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.system.conftest import Served, free_port, wait_for_port
from tests.waiting import until
from webapp.commands.cli import main


def start_nginx(tmp_path: Path, upstream: str, *extra: str) -> tuple[str, subprocess.Popen[bytes]]:
    """nginx with the configuration `coin-puzzles proxy-config` writes, in front of upstream: its URL and process."""
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(exe).exists():
        pytest.fail("nginx is not installed: run `make test`, which installs it")
    port = free_port()
    run = tmp_path / "nginx"
    assert (
        main(["proxy-config", "--run", str(run), "--listen", f"127.0.0.1:{port}", "--upstream", upstream, *extra]) == 0
    )
    proc = subprocess.Popen([exe, "-p", str(run), "-c", str(run / "nginx.conf"), "-g", "daemon off;"])
    wait_for_port(port)
    return f"http://127.0.0.1:{port}", proc


@pytest.fixture
def proxied(serve: Callable[..., Served], tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(the app through nginx, the app directly: gunicorn without the nginx that serve puts in front)."""
    app = serve(COIN_PUZZLES_PROXY="0")
    url, proc = start_nginx(tmp_path, app.url.removeprefix("http://"))
    yield url, app.url
    proc.terminate()
    proc.wait(timeout=10)


def slow_clients(url: str, count: int, seconds: float) -> tuple[threading.Thread, threading.Event]:
    """Open count connections that send a request's headers one line every half second for a while (returning once
    all are open); the event is set when they stop sending (just before they close)."""
    host, port = url.removeprefix("http://").split(":")

    def trickle() -> None:
        socks = []
        for _ in range(count):
            s = socket.create_connection((host, int(port)))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        connected.set()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for s in socks:
                with contextlib.suppress(OSError):
                    s.sendall(b"X-Slow: 1\r\n")
            time.sleep(0.5)
        stopped.set()
        for s in socks:
            s.close()

    stopped, connected = threading.Event(), threading.Event()
    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    assert connected.wait(30), "the slow clients did not connect"
    return t, stopped


def fetch(url: str) -> int:
    """One GET's status."""
    with urllib.request.urlopen(url, timeout=30) as r:
        r.read()
        return int(r.status)


@pytest.mark.slow
def test_cheap_pages_stay_fast_behind_nginx_with_slow_clients(proxied: tuple[str, str]) -> None:
    """20 slow clients through nginx: / answers 40 times while they are still sending, and gunicorn behind it
    answers too. (Straight at gunicorn the same trick held / while its sync workers lasted; its threaded workers
    no longer hold still for it, so that half is gone: nginx's buffering is what this keeps checked. No timing is
    asserted: the order of events shows it.)"""
    through, direct = proxied
    trickling, stopped = slow_clients(through, 20, 6)
    assert [fetch(through + "/") for _ in range(40)] == [200] * 40
    assert not stopped.is_set()
    assert fetch(direct + "/") == 200
    trickling.join()


@pytest.mark.slow
def test_proxy_error_pages_carry_the_security_headers(proxied: tuple[str, str]) -> None:
    """A request line too long for nginx gets its 414, with the same headers as every page; static files come
    from nginx with them too."""
    through, _ = proxied
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(through + "/coins?x=" + "a" * 70_000, timeout=10)
    e.value.close()  # the error holds the response's socket: close it here, not in a later test's garbage
    assert e.value.code == 414 and "script-src 'self'" in e.value.headers["Content-Security-Policy"]
    with urllib.request.urlopen(through + "/static/css/site.css", timeout=10) as r:
        assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers.get_all("X-Frame-Options") == ["DENY"]
    with urllib.request.urlopen(through + "/coins", timeout=10) as r:
        assert r.headers.get_all("Content-Security-Policy") and len(r.headers.get_all("Content-Security-Policy")) == 1


def test_static_files_from_a_private_directory(tmp_path: Path) -> None:
    """A checkout in a 0700 directory (a home directory, `mktemp -d`): nginx started by its owner, root or not,
    still serves static/ (its workers run as that account, not as nobody). Here the static folder is a copy in
    such a directory; no app is needed for static files."""
    private = tmp_path / "home"
    private.mkdir(mode=0o700)
    shutil.copytree(Path(__file__).resolve().parents[2] / "static", private / "static")
    url, proc = start_nginx(tmp_path, "127.0.0.1:9", "--static", str(private / "static"))
    try:
        with urllib.request.urlopen(url + "/static/css/site.css", timeout=10) as r:
            assert r.status == 200 and b"{" in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one GET."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
        return int(r.status), {k: v for k, v in r.headers.items()}, r.read()


def _until_kept(url: str) -> tuple[dict[str, str], bytes]:
    """The headers and body of url asked again until nginx answers from its cache (it finishes writing its copy
    just after the first answer: on a loaded machine, a moment later), for at most 2 s."""

    def kept() -> tuple[dict[str, str], bytes] | None:
        _, headers, body = _get(url)
        return (headers, body) if headers["X-Cache"] == "HIT" else None

    return until(kept, 2, f"nginx did not answer {url} from its cache", 0.1)


@pytest.mark.slow
def test_nginx_keeps_the_pages_the_app_marks_and_forgets_them_at_a_restart(
    serve: Callable[..., Served], tmp_path: Path
) -> None:
    """Through deploy/nginx.conf: a page of its address comes from nginx's cache the second time (X-Cache: HIT),
    gzipped for a client that accepts it, and a conditional GET gets its 304 there; a page with a form token is
    never kept. Writing the configuration again, as `coin-puzzles serve` does at each start (a deploy), empties
    the cache: nothing from before it is served."""
    app = serve(COIN_PUZZLES_PROXY="0")
    upstream = app.url.removeprefix("http://")
    url, proc = start_nginx(tmp_path, upstream)
    plan = "/coins/plan?n=12&weight=unknown&goal=identify&extra=0&maybe_none=0&objective=worst&path=LB"
    try:
        status, first, body = _get(url + plan)
        assert status == 200 and first["X-Cache"] == "MISS" and "public" in first["Cache-Control"]
        assert "X-Accel-Expires" not in first  # nginx's own instruction, not passed on
        second, again = _until_kept(url + plan)
        assert second["X-Cache"] == "HIT" and again == body and second["ETag"] == first["ETag"]
        _, gzipped, _ = _get(url + plan, **{"Accept-Encoding": "gzip"})
        assert gzipped["Content-Encoding"] == "gzip"
        with pytest.raises(urllib.error.HTTPError) as e:
            _get(url + plan, **{"If-None-Match": first["ETag"]})
        e.value.close()
        assert e.value.code == 304
        assert [_get(url + "/adversary")[1]["X-Cache"] for _ in range(2)] == ["MISS", "MISS"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    url, proc = start_nginx(tmp_path, upstream)  # the configuration written again: a new deploy's nginx
    try:
        assert _get(url + plan)[1]["X-Cache"] == "MISS"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
def test_hashed_static_files_come_from_disk_within_a_limit(serve: Callable[..., Served], tmp_path: Path) -> None:
    """A page's hashed static names are served by nginx from disk, immutable, with the security headers, and never
    reach the app or its cache: 40 query-string variants make no cache entry and no request in gunicorn's log; an
    invented hash is a 404; one address asking 400 at once is held to its rate (503 past a burst of 200, which
    the 42 asked before had begun)."""
    app = serve(COIN_PUZZLES_PROXY="0")
    url, proc = start_nginx(tmp_path, app.url.removeprefix("http://"))
    try:
        _, _, body = _get(url + "/")
        cache = tmp_path / "nginx" / "cache"
        kept = sorted(cache.rglob("*"))  # the home page's copy, written by now or soon: compared after, at the end
        css = re.search(r'href="(/static/css/site\.([0-9a-f]{10})\.css)"', body.decode())
        assert css is not None
        status, headers, text = _get(url + css[1])
        assert status == 200 and headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert headers["X-Frame-Options"] == "DENY" and "X-Cache" not in headers
        assert text == (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_bytes()
        for i in range(40):
            assert _get(f"{url}{css[1]}?v={i}")[2] == text
        assert "/static/" not in app.output()  # gunicorn's access log: no static request reached it
        with pytest.raises(urllib.error.HTTPError) as wrong:
            _get(url + css[1].replace(css[2], "0123456789"))
        wrong.value.close()
        assert wrong.value.code == 404 and wrong.value.headers["X-Frame-Options"] == "DENY"
        from concurrent.futures import ThreadPoolExecutor

        def status_of(i: int) -> int:
            try:
                return _get(f"{url}{css[1]}?n={i}")[0]
            except urllib.error.HTTPError as e:
                e.close()
                return e.code

        with ThreadPoolExecutor(32) as pool:
            statuses = list(pool.map(status_of, range(400)))
        assert statuses.count(503) > 0 and statuses.count(200) >= 120, sorted(set(statuses))  # the burst, less the 42
        assert len([p for p in cache.rglob("*") if p.is_file()]) <= max(1, len([p for p in kept if p.is_file()]))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
