"""htmx helpers: fragment or full page."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from flask import Response, g, redirect, request, url_for
from jinja2.bccache import Bucket, FileSystemBytecodeCache
from werkzeug.datastructures import iter_multi_items

from solvers.weighing.problem import Outcome


def wants_fragment() -> bool:
    """True for an htmx request that is not a history restore (which needs the full page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def layout() -> dict[str, str]:
    """The layout every page extends: the fragment (title and main region) for htmx, the full page otherwise."""
    return {"layout": "fragment.html" if wants_fragment() else "base.html"}


def keep_posts_out_of_history(response: Response) -> Response:
    """A boosted form's POST answers a page in place (a refusal) or sends the browser on (HX-Location, pushed):
    its own address (/adversary/weigh) never goes into the history, where Back would ask for it again."""
    if request.method == "POST" and wants_fragment():
        response.headers.setdefault("HX-Push-Url", "false")
    return response


def go(url: str) -> Response:
    """After a successful POST: redirect (303), or for htmx, HX-Location so the new page swaps in and is pushed."""
    if wants_fragment():
        return Response("", 200, {"HX-Location": json.dumps({"path": url, "target": "#main"})})
    return redirect(url, code=303)  # type: ignore[return-value]


QUERY_SAFE = "!$'()*,/:;?@"  # what werkzeug's url_for leaves unquoted in a query (the WHATWG's percent-encode set)


def link(endpoint: str, query: Mapping[str, object]) -> str:
    """The URL of an endpoint with a query; empty values ('' or None) are left out of the URL. The same URL as
    url_for writes, the endpoint's path looked up once per request: a page links dozens of positions (a peg
    board's every coin), and url_for's routing was a third of such a page's time."""
    bases: dict[str, str] = g.setdefault("link_bases", {})
    base = bases.get(endpoint)
    if base is None:
        base = bases[endpoint] = url_for(endpoint)
    values: dict[str, Any] = {k: v for k, v in query.items() if v not in ("", None)}
    items = [(k, v) for k, v in iter_multi_items(values) if v is not None]
    return f"{base}?{urlencode(items, safe=QUERY_SAFE)}" if items else base


def number(value: int) -> str:
    """The site's one number format: comma thousands ("1,000,000 coins", "65,535 moves")."""
    return f"{value:,}"


def capitalize_first(text: str) -> str:
    """The text with its first letter upper-case and the rest untouched ('coins 1, G1' -> 'Coins 1, G1')."""
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A message as a sentence: a full stop at its end unless it ends in one (or ! or ?)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?" else f"{text}."


def reading_letter(digit: int) -> str:
    """A reading digit of Dyson's schemes as its outcome's letter (L, B, R)."""
    return Outcome.from_reading(digit).letter


PAGE_OUTCOMES = list(Outcome)  # the weighing's outcomes in the order pages list them: value, letter, label, words
OUTCOME_WORDS = {o.value: o.words for o in Outcome}  # the templates' outcome values in words
TILT = {"left-heavier": -8, "balance": 0, "right-heavier": 8}  # degrees the beam turns in the scale picture


class CompiledTemplates(FileSystemBytecodeCache):
    """Templates compiled before, in the account's cache folder: a file that cannot be read back is compiled
    again (and replaced), and one that cannot be written (a full disk) is skipped, so the cache never fails a
    page."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - a damaged file: compiled again
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)
