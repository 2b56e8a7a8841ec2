"""Every game's list of moves is `moves` in its URLs and forms; the names the games used before (pegs `j`,
code-breaking `g`, the weighing games `w`) still open the same position, so old links, bookmarks and pages left
open keep working, and the pages they open link on with `moves`."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

# (the page without its moves, the moves, the name the game used before; None: `moves` already)
GAMES = [
    ("/pegs/play?board=triangle-4&hole=2", "7-2", "j"),
    ("/codebreak/play?game=mastermind&maker=adversarial", "AABB,CCDD", "g"),
    ("/adversary/play?n=12&budget=3&mode=adversary", "1-2", "w"),
    ("/variants/play?n=12&lies=1", "1,2,3,4-5,6,7,8", "w"),
    ("/aequitas/play?game=F&n=5", "1-2", "w"),
    ("/devil/play?n=4&goal=all-heads", "1", None),
]


def page(client: FlaskClient, url: str) -> str:
    """A page's HTML without its form tokens (one per session, the same here, but kept out of the comparison); a
    position where the computer is to move goes on to the one after its move."""
    r = client.get(url, follow_redirects=True)
    assert r.status_code == 200, (url, r.status_code)
    return re.sub(r'name="csrf_token" value="[^"]+"', "", r.get_data(as_text=True))


@pytest.mark.parametrize(("base", "moves", "before"), GAMES)
def test_old_names_open_the_same_position(client: FlaskClient, base: str, moves: str, before: str | None) -> None:
    new = page(client, f"{base}&moves={moves}")
    assert "&amp;moves=" in new or "moves=" in new  # its own links carry the one name
    if before is None:
        return
    old = page(client, f"{base}&{before}={moves}")
    assert old == new
    assert not re.search(rf'href="[^"]*[?&;]{before}=', old)  # links made from an old link use the new name
