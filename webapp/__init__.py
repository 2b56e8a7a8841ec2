"""coin-puzzles web app: the Flask application factory."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, security, error pages and one blueprint per puzzle. (Flask and the blueprints are
    imported here, not with the package: the command line imports `webapp.commands.cli` without them.)"""
    from flask import Flask

    from webapp import config
    from webapp.http import assets, caching, errors, htmx, security
    from webapp.jobs import access as results
    from webapp.pages import gamebar, main
    from webapp.pages.registry import PUZZLES

    app = Flask(
        __name__,
        template_folder=str(config.ROOT / "templates"),
        static_folder=str(config.ROOT / "static"),
        instance_path=str(config.instance_path()),
    )
    _configure(app, test_config)
    results.init_app(app)
    security.init_app(app)
    caching.init_app(app)
    assets.init_app(app)
    errors.init_app(app, [(p.area, p.name, p.endpoint) for p in PUZZLES])
    app.register_blueprint(main.bp)
    app.register_blueprint(gamebar.bp)
    for puzzle in PUZZLES:  # each: its pages and its JSON API
        for blueprint in puzzle.blueprints:
            app.register_blueprint(blueprint)
    app.after_request(htmx.keep_posts_out_of_history)
    _templates(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    return app


def served_app() -> Flask:
    """The app as `coin-puzzles serve` runs it: built once in gunicorn's master (`--preload`), which also does what a
    worker's first request would otherwise do, kept by every worker it forks: the certified sizes past the optima table
    replayed (1.5 s here, `optima.beyond`; read from the account's cache on later starts), the shipped games built at
    their own sizes (Bulls and Cows' outcome table: 0.2 s). When the site precomputes (`config.precomputing`), what is
    shipped is stored too, before the site listens (gunicorn's master loads the app before it binds): a reader that
    found it missing would check and store it itself, inside a request (a fresh instance's first optima table replayed
    the 14 certificates in it: 1.3-2.1 s). 4 s of CPU on a fresh store here, beside the consumer's own pass, started
    with it (each may check an item the other stores); on later starts it reads every entry's envelope (0.4 s here)."""
    import sys

    from webapp.config import precomputing
    from webapp.jobs.optima import beyond
    from webapp.jobs.shipped import install
    from webapp.results.games import default_sizes, load, shipped
    from webapp.store import default_store

    app = create_app()
    beyond()
    for name, spec in shipped().items():
        load(name, *default_sizes(spec))
    if precomputing():
        stored = install(default_store(), lambda line: print(f"coin-puzzles serve: {line}", file=sys.stderr))
        print(f"coin-puzzles serve: {stored} shipped results stored before the site listens", file=sys.stderr)
    return app


def prerender() -> None:
    """The listed pages too heavy to render in a request, rendered once as the site starts (the precomputation's
    consumer runs this in a process of its own beside storing what is shipped), so that no visitor waits on them:
    the Æquitas table to 40 coins is 1 MB of HTML from a 59 MB stored result, whose decoding and rendering took
    1.7 s of a request. Each body is kept in the store under the deploy's build (`rendered.page_body`), where every
    web worker finds it; its result is computed here first if it is not stored yet (the 30-coin table: a second)."""
    import sys
    import time

    from webapp.jobs.shipped import kept
    from webapp.results.catalogue import AEQUITAS, AequitasParams
    from webapp.results.computations import run, write
    from webapp.store import default_store

    store, client = default_store(), create_app().test_client()
    for path, params in (("/aequitas/table", AequitasParams(30)), ("/aequitas/table?max=40", AequitasParams(40))):
        start = time.perf_counter()
        if kept(store, AEQUITAS, params) is None:  # stored, or shipped (then stored); else computed here, its
            value = run(AEQUITAS, params, lambda done, total: None)  # queued job's claim left alone
            write(store, AEQUITAS, AEQUITAS.key(params), value)
        status = client.get(path).status_code
        took = time.perf_counter() - start
        print(f"coin-puzzles worker: {path} rendered ({status}) in {took:.1f} s", file=sys.stderr, flush=True)


def _configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The app's settings: the test's, the keys (followed when `rotate-key` changes them, unless set) and the result
    store's address."""
    from webapp import config
    from webapp.keys import rotation

    app.config.from_mapping(MAX_CONTENT_LENGTH=64 * 1024, WTF_CSRF_TIME_LIMIT=None)
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        rotation.use(app, config.keys(Path(app.instance_path)))
        app.session_interface = rotation.FollowingSessions()  # `rotate-key` takes effect without a restart
    elif app.config.get("SECRET_KEY_FALLBACKS"):  # CSRF tokens signed with an older key still validate
        app.config["WTF_CSRF_SECRET_KEY"] = [*app.config["SECRET_KEY_FALLBACKS"], app.config["SECRET_KEY"]]
    if not app.config.get("RESULT_STORE"):
        app.config["RESULT_STORE"] = config.store_address(Path(app.instance_path))


def _templates(app: Flask) -> None:
    """What every template sees: the layout (page or fragment), the footer, the filters and the shared tables."""
    import math

    import jinja2

    from solvers.cachedir import account_cache
    from solvers.codebreak.strategy import STRATEGY_NAMES
    from solvers.pegs.board import board
    from webapp.http import htmx
    from webapp.pages import main, presets
    from webapp.pages.registry import PUZZLES

    folder = account_cache(f"templates-{jinja2.__version__}")
    if folder is not None:  # each template compiled once a version of it, not again in every process and app
        app.jinja_env.bytecode_cache = htmx.CompiledTemplates(str(folder))
    app.context_processor(htmx.layout)
    app.context_processor(main.footer)
    app.jinja_env.filters.update(
        ord=ord,
        num=htmx.number,
        capitalize_first=htmx.capitalize_first,
        sentence=htmx.sentence,
        board_title=lambda name: board(name).title,  # a peg board's name for people
        strategy_name=lambda s: STRATEGY_NAMES.get(s, s),  # a code-breaking strategy's, likewise
        reading_letter=htmx.reading_letter,
        cos=math.cos,
        sin=math.sin,
    )
    app.jinja_env.globals.update(
        TILT=htmx.TILT,
        OUTCOME_WORDS=htmx.OUTCOME_WORDS,
        OUTCOMES=htmx.PAGE_OUTCOMES,
        THUMB_LABELS={p.area: p.picture for p in PUZZLES},
        presets=presets.presets,
    )
