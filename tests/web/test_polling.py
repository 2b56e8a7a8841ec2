"""Every element that updates itself (a job's progress, a guess being judged, a game's strategies being computed)
gets back an answer that holds its own target: the HX answer to its poll is rendered and its target looked for
in it. A poll whose target is missing from the answer empties the page (the first Mastermind guess went blank)."""

from __future__ import annotations

import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from webapp import create_app
from webapp.jobs.access import Pending, computed
from webapp.jobs.optima import OPTIMA_STRATEGIES
from webapp.results.codebreak_results import CODEBREAK, GAME, codebreak_params, game_params

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
POLLS = ("load delay", "every ")  # the hx-trigger values that ask again by themselves

# One page per polling template, opened with no consumer running: its jobs stay queued, so each page polls.
PAGES = {
    "progress.html": "/aequitas/table?max=30",
    "codebreak/game.html": "/codebreak/game?game=mastermind",
    # Bulls and Cows' third guess against the adversary: searched by a job (a second guess's worth is shipped)
    "codebreak/play.html": "/codebreak/play?game=bulls-and-cows&maker=adversarial&g=ABCD,EFGH,IJAB",
    # a size queued (the store fixture asks for 3x5's proof): the table updates itself until it is proved
    "codebreak/optima.html": "/codebreak/optima",
}


class Elements(HTMLParser):
    """Every element's tag and attributes, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))


def elements(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = Elements()
    parser.feed(html)
    return parser.found


def polls(html: str) -> list[dict[str, str]]:
    """The attributes of every element that asks again by itself."""
    return [a for _, a in elements(html) if "hx-get" in a and any(p in a.get("hx-trigger", "") for p in POLLS)]


def ids(html: str) -> set[str]:
    return {a["id"] for _, a in elements(html) if "id" in a}


def polling_templates() -> set[str]:
    """The templates with an element that polls."""
    return {
        str(p.relative_to(TEMPLATES))
        for p in TEMPLATES.rglob("*.html")
        if any(f'hx-trigger="{poll}' in p.read_text() for poll in POLLS)
    }


@pytest.fixture(scope="module")
def store() -> str:
    """A result store holding Bulls and Cows' outcome table (built in-process), so that its play page is the game's
    and not the table's progress."""
    address = f"sqlite:{tempfile.mkdtemp(prefix='coin-puzzles-polls-')}/results.db"
    with create_app({"TESTING": True, "RESULT_STORE": address, "JOBS_IMMEDIATE": True}).app_context():
        computed(GAME, game_params("bulls-and-cows", (4, 10, None)))
    queued = create_app({"TESTING": True, "RESULT_STORE": address, "JOBS_IMMEDIATE": False})
    with queued.app_context(), pytest.raises(Pending):  # 3x5's proof asked for, and left queued
        computed(CODEBREAK, codebreak_params("mastermind", (3, 5, None), OPTIMA_STRATEGIES[0]))
    return address


@pytest.fixture
def queued_client(store: str) -> FlaskClient:
    """A client whose jobs stay queued (no consumer): every heavy page shows its progress."""
    return create_app({"TESTING": True, "RESULT_STORE": store, "JOBS_IMMEDIATE": False}).test_client()


def test_every_polling_template_has_a_page_here() -> None:
    """A new template that polls must be added to PAGES (and so to the test below)."""
    assert polling_templates() == set(PAGES)


@pytest.mark.parametrize("template", sorted(PAGES))
def test_each_poll_gets_back_its_own_target(queued_client: FlaskClient, template: str) -> None:
    """The page polls; the HX answer to the poll holds the element its swap selects (hx-select), or, swapped into
    #main whole, is a fragment without a second main (and polls on while the job waits)."""
    page = queued_client.get(PAGES[template]).get_data(as_text=True)
    found = polls(page)
    assert found, f"{PAGES[template]} does not poll"
    for attrs in found:
        answer = queued_client.get(attrs["hx-get"], headers={"HX-Request": "true"})
        body = answer.get_data(as_text=True)
        assert answer.status_code == 200
        assert "<html" not in body and 'id="main"' not in body  # the fragment, as htmx asks for it
        select, target = attrs.get("hx-select"), attrs.get("hx-target", "#main")
        if select:
            assert select.startswith("#") and select[1:] in ids(body), (select, body[:400])
            assert target == select and attrs.get("hx-swap") == "outerHTML"
        else:
            assert target == "#main"
        assert polls(body), "the answer stops polling while the job still waits"


class Region(HTMLParser):
    """The tags opened inside the element with a given id."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted, self.tag, self.depth, self.inside = wanted, "", 0, False
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.inside:
            self.tags.append(tag)
            self.depth += tag == self.tag
        elif dict(attrs).get("id") == self.wanted:
            self.inside, self.tag, self.depth = True, tag, 1

    def handle_endtag(self, tag: str) -> None:
        if self.inside and tag == self.tag:
            self.depth -= 1
            self.inside = self.depth > 0


def test_the_poll_keeps_the_visitors_choices_out_of_its_swap(queued_client: FlaskClient) -> None:
    """On a game's page the strategies poll their own section, not the start form the visitor may be filling in;
    a guess being judged polls its own note, not the guess row being typed."""
    for path in (PAGES["codebreak/game.html"], PAGES["codebreak/play.html"]):
        page = queued_client.get(path).get_data(as_text=True)
        (attrs,) = polls(page)
        region = Region(attrs["hx-target"].removeprefix("#"))
        region.feed(page)
        assert region.tags and not {"form", "input", "select", "textarea"} & set(region.tags), (path, region.tags)
        assert "<form" in page  # the page has a form, outside the polled region


@pytest.mark.parametrize(
    ("done", "said"), [(0, "Working on it."), (12_000, "Working on it: 12,000 states of what is known examined so far")]
)
def test_a_running_job_with_no_known_total_says_how_far_it_got(done: int, said: str) -> None:
    """A search that cannot say its total ahead (a variant's plan, the Devil's: the beliefs it examines, what the
    player can know) shows its count so far
    and a bar that moves without a figure, not an empty bar beside 'Working on it.' for half a minute (the visitor's
    tour); a job with a total keeps its figure."""
    import time

    from flask import render_template

    from webapp.jobs.access import Waiting
    from webapp.store import Progress

    with create_app({"TESTING": True}).test_request_context("/variants/plan?n=61&weight=unknown&lies=2"):
        page = render_template(
            "progress.html", job=Waiting("a plan", Progress("running", done, 0, "", time.time()), None)
        )
        known = render_template(
            "progress.html", job=Waiting("a plan", Progress("running", 3, 8, "", time.time()), None)
        )
    assert said in page and "<progress aria-label" in page and 'value="' not in page.split("<progress")[1]
    assert "Working on it: 3 of 8." in known and 'max="8" value="3"' in known
