"""Expensive results: computed once, verified by their solvers, kept in the result store, and computed by a
background job when they are not there yet.

A view asks `computed(c, params)` (c: a computation, `results.catalogue`). A stored result comes back at once; a
quick one is computed on the spot and stored; anything heavier is claimed (one job per key across every worker and
host), enqueued on the task queue, and the view raises `Pending`, which the app answers with a progress page (or
`202 Accepted` with the progress for the API) at the same URL until the result is there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar, cast

from flask import Flask, Response, current_app, has_request_context, jsonify, render_template, request

from webapp import config
from webapp.http import caching
from webapp.http.errors import error_response
from webapp.jobs import queues as jobs
from webapp.jobs.precompute import listed, store_budget
from webapp.jobs.shipped import kept
from webapp.results.catalogue import from_key
from webapp.results.computations import (
    PRECOMPUTE_NOTE,
    Computation,
    Failed,
    P,
    Params,
    Wire,
    read,
    run,
    unpack,
    write,
)
from webapp.store import FAILED_SECONDS, NO_LIMITS, Limits, Progress, Store, open_store


class Pending(Exception):  # noqa: N818 - not an error: the answer is on its way
    """The result is being computed by a background job."""

    def __init__(self, title: str, progress: Progress, lane: str = "visitors", key: str = "") -> None:
        """Keep what the progress page shows (the lane and key: where the job waits in its queue)."""
        super().__init__(title)
        self.title = title
        self.progress = progress
        self.lane, self.key = lane, key


RETRY_SECONDS = 2  # how often a progress page asks again


class Waiting(NamedTuple):
    """The progress page of a job: what it computes, how far it is, its place in the queue (None: not waiting),
    and how often the page asks again (seconds)."""

    title: str
    progress: Progress
    place: int | None
    retry: int = RETRY_SECONDS


R = TypeVar("R")
Enqueue = Callable[[str, Wire, str], None]  # (computation, parameters, client)


BUSY_TITLE = "Too many computations waiting"


class Busy(Exception):  # noqa: N818 - an answer, not a fault: come back later
    """A visitor's job was not queued: this client has too many (429) or the queue is full (503); or (title) the
    store had no room for a new game (503)."""

    def __init__(self, status: int, message: str, retry_after: int, title: str = BUSY_TITLE) -> None:
        """Keep what the answer says."""
        super().__init__(message)
        self.status, self.message, self.retry_after, self.title = status, message, retry_after, title


class JobFailed(Exception):  # noqa: N818 - the job failed; the answer says so and when to retry
    """The job computing a result failed (its process was killed, or it ran past its time limit)."""

    def __init__(self, title: str, note: str) -> None:
        """Keep what the page shows."""
        super().__init__(note)
        self.title, self.note = title, note


BUSY_RETRY_SECONDS = 30


def describe(store: Store, key: str) -> str:
    """A job's key in words: its computation's title and how far it is."""
    found = from_key(key)
    title = found[0].title(found[1]) if found else key.partition("@")[0]
    p = store.progress(key)
    if p is not None and p.state == "running":
        return f"{title} (running{f', {p.fraction:.0%}' if p.total else ''})"
    return f"{title} (queued)"


def _refused(verdict: str, limits: Limits, store: Store, client: str) -> Busy:
    """The answer to a claim the limits refused (a visitor's: naming the computations they have waiting)."""
    if verdict == "client-full":
        waiting = "; ".join(describe(store, k) for k in store.client_jobs(client))
        return Busy(
            429,
            f"You already have {limits.per_client} computation{'' if limits.per_client == 1 else 's'} queued or "
            f"running ({waiting}), so this one was not queued. Ask again once one of them is done.",
            BUSY_RETRY_SECONDS,
        )
    return Busy(
        503,
        f"The queue is full ({limits.total} computations waiting); nothing was queued. Try again in a little while.",
        BUSY_RETRY_SECONDS,
    )


QUICK_WAIT_SECONDS = 0.4  # how long a request waits for the quick lane's job it queued before it shows progress


def await_result(store: Store, c: Computation[P, R], key: str, seconds: float) -> R | Failed | None:
    """The result under key once a job has stored it, waiting at most `seconds` of wall time (None after)."""
    deadline = time.monotonic() + seconds
    while True:
        found = read(store, c, key)
        if found is not None or time.monotonic() >= deadline:
            return found
        time.sleep(0.02)


def fetch(
    store: Store, c: Computation[P, R], params: P, enqueue: Enqueue, client: str = "", limits: Limits = NO_LIMITS
) -> R:
    """The result, from the store or computed now if quick; otherwise claim and enqueue a job, raise Pending.
    A visitor's job (client set) counts against the limits: past them, Busy and nothing queued; a job that
    failed a moment ago raises JobFailed until it may be tried again."""
    key = c.key(params)
    found = kept(store, c, params)
    if found is not None:
        return unpack(found)
    c.check(params)  # refused at once, not by a job minutes later
    if c.quick(params):
        value = run(c, params, lambda done, total: None)
        write(store, c, key, value)
        return unpack(value)
    lane = c.lane(params)
    if client and lane != "visitors":  # the quick lane's jobs are counted apart from the visitor's long ones
        client = f"{client} {lane}"
    verdict = store.claim(key, client, limits)
    if verdict == "won":
        try:
            enqueue(c.name, c.wire(params), client)
        except Exception:
            store.release(key)  # never leave a claim that no job will end
            raise
        # an in-process (immediate) queue has already finished it; a quick lane's job is awaited a moment, so
        # that work of a fraction of a second comes back in this request, computed by the job's process, not here
        found = read(store, c, key)
        if found is None and lane == "quick":
            found = await_result(store, c, key, QUICK_WAIT_SECONDS)
        if found is not None:
            return unpack(found)
    elif verdict != "taken":
        raise _refused(verdict, limits, store, client)
    else:
        waiting = store.progress(key)
        if waiting is not None and waiting.state == "queued" and waiting.note == PRECOMPUTE_NOTE:
            # queued by the precomputation, perhaps behind hours of it: a visitor now waits, so the job becomes
            # theirs, counted against their limits like one of their own, and is queued on their lane (once: the
            # note is cleared; whichever task runs first stores the result, the other finds it and skips)
            adopted = store.adopt(key, client, limits, PRECOMPUTE_NOTE)
            if adopted == "won":
                enqueue(c.name, c.wire(params), client)
            elif adopted != "taken":
                raise _refused(adopted, limits, store, client)
    progress = store.progress(key) or Progress("queued", 0, 0, "", time.time())
    if progress.state == "failed":  # it holds the key a while: shown as failed, then queued again if asked
        raise JobFailed(c.title(params), progress.note)
    raise Pending(c.title(params), progress, lane, key)


def app_limits() -> Limits:
    """The app's job limits (JOBS_PER_CLIENT and JOBS_QUEUED in its config)."""
    return Limits(int(current_app.config["JOBS_PER_CLIENT"]), int(current_app.config["JOBS_QUEUED"]))


def app_keys() -> tuple[str, ...]:
    """The app's secret keys: the current one, then the older ones still accepted."""
    config = current_app.config
    return (str(config["SECRET_KEY"]), *(str(k) for k in config.get("SECRET_KEY_FALLBACKS") or ()))


_OPENING = threading.Lock()  # a worker's threads open its store once, one of them


def app_store() -> Store:
    """The app's store (one per process, opened on first use by one of its threads)."""
    store: Store | None = current_app.extensions.get("coin_puzzles_store")
    if store is None:
        with _OPENING:
            store = current_app.extensions.get("coin_puzzles_store")
            if store is None:
                budget = store_budget()
                store = open_store(str(current_app.config["RESULT_STORE"]), [k.encode() for k in app_keys()], budget)
                current_app.extensions["coin_puzzles_store"] = store
    return store


def app_queues() -> jobs.Queues:
    """The app's job queues (built by init_app)."""
    queues: jobs.Queues = current_app.extensions["coin_puzzles_queues"]
    return queues


SITE = "site"  # the bucket of a visitor's jobs for results the site lists, counted apart from what they ask


def computed(c: Computation[P, R], params: P) -> R:
    """A view's way in: the result, or Pending while a job computes it (a job queued on this visitor's account:
    Busy past the limits).

    A page of a result the site itself lists (what the precomputation fills the store with: every page a visitor
    merely opens) never counts against the visitor's limits: up to the limit per visitor such jobs go on the visitors'
    lane in a bucket of their own (as hints have the quick lane's), and past it they wait on the server's
    account, on the precomputation's queue, instead of a 429. The API's answers are explicit asks: counted."""
    enqueue, store = app_queues().enqueue, app_store()
    if not has_request_context():  # a command or a test in the app's context: no visitor to count it against
        return fetch(store, c, params, enqueue)
    client = request.remote_addr or "unknown"
    on_site = not request.path.startswith("/api/") and listed(c.key(params))
    try:
        try:
            return fetch(store, c, params, enqueue, f"{client} {SITE}" if on_site else client, app_limits())
        except Busy:
            if not on_site:
                raise
            app_queues().enqueue_missing(store, [(c, cast(Params, params))])  # the server's, behind the precomputation
            progress = store.progress(c.key(params)) or Progress("queued", 0, 0, "", time.time())
            raise Pending(c.title(params), progress, "precompute", c.key(params)) from None
    except (Pending, Busy, JobFailed):
        caching.changing()  # a page that shows the job's progress inline changes as the job goes on
        raise


def peek(c: Computation[P, R], params: P) -> R | None:
    """The stored result if it is there (never computing or queuing anything), else None (and the page that
    asked may change once it is stored)."""
    found = kept(app_store(), c, params)
    if found is None:
        caching.changing()
    return None if found is None else unpack(found)


def held(c: Computation[P, R], params: P) -> bool:
    """Whether a job holds the result now (queued or running), without queuing anything."""
    caching.changing()
    return app_store().progress(c.key(params)) is not None


def pending_response(e: Pending) -> tuple[Response | str, int, dict[str, str]]:
    """The progress page (200, polled by htmx, refreshed without JavaScript) or, for the API, 202 Accepted."""
    p = e.progress
    headers = {"Retry-After": str(RETRY_SECONDS), "Cache-Control": "no-store"}
    place = None
    if p.state != "running" and e.key and not app_queues().visitors.immediate:
        place = app_queues().place(e.lane if e.lane in ("quick", "precompute") else "visitors", e.key)
    if request.path.startswith("/api/"):
        body = {
            "status": "running" if p.state == "running" else "queued",
            "progress": {"done": p.done, "total": p.total, "fraction": round(p.fraction, 4)},
            "place": place,
            "retry_after": RETRY_SECONDS,
        }
        return jsonify(body), 202, headers
    page = render_template("progress.html", job=Waiting(e.title, p, place))
    return page, 200, headers


def _retry_later(status: int, title: str, message: str, seconds: int) -> Response:
    """An error page (or the API's JSON error) that says when to ask again, in Retry-After as well."""
    body, code = error_response(status, title, message, {"retry_after": seconds})
    response = current_app.make_response((body, code))
    response.headers["Retry-After"] = str(seconds)
    response.headers["Cache-Control"] = "no-store"
    return response


def busy_response(e: Busy) -> Response:
    """429 (this client) or 503 (everyone), nothing queued (or no game started)."""
    return _retry_later(e.status, e.title, e.message, e.retry_after)


def failed_response(e: JobFailed) -> Response:
    """503: the job failed, with its reason (the API: status "failed", reason, retry_after); asking again after
    FAILED_SECONDS tries again."""
    seconds = int(FAILED_SECONDS)
    message = f"Computing {e.title} failed: {e.note}. It will be tried again if you ask after {seconds} s."
    if request.path.startswith("/api/"):
        body = {"status": "failed", "error": message, "reason": e.note, "retry_after": seconds}
        response = jsonify(body)
        response.status_code = 503
        response.headers["Retry-After"] = str(seconds)
        response.headers["Cache-Control"] = "no-store"
        return response
    return _retry_later(503, "The computation failed", message, seconds)


def init_app(app: Flask) -> None:
    """The job limits and queues from the app's config (the environment's settings by default), and the answers
    to Pending, Busy and JobFailed."""
    app.config.setdefault("JOBS_PER_CLIENT", config.setting("COIN_PUZZLES_JOBS_PER_CLIENT", 4))
    app.config.setdefault("JOBS_QUEUED", config.setting("COIN_PUZZLES_JOBS_QUEUED", 64))
    app.config.setdefault("REDIS_URL", config.redis_url())
    app.config.setdefault("JOBS_IMMEDIATE", app.testing)  # jobs run in the request's process (a test client's)
    app.extensions["coin_puzzles_queues"] = jobs.Queues(
        app.config["REDIS_URL"],
        Path(app.instance_path),
        bool(app.config["JOBS_IMMEDIATE"]),
        str(app.config.get("RESULT_STORE") or ""),
    )
    app.register_error_handler(Pending, pending_response)
    app.register_error_handler(Busy, busy_response)
    app.register_error_handler(JobFailed, failed_response)
