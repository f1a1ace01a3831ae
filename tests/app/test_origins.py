"""Only the site's own pages may use a player's cookie: the WebSocket handshake and every state-changing
POST are checked against the site's origin (app/origins.py)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import orjson
import pytest
import websockets

from app.client import ThreefoldClient
from app.origins import OriginPolicy
from tests.support.inprocess import InProcessServer
from tests.support.server import migrate

LISTED = "http://friends.example:9000"


@pytest.fixture(scope="module")
def origin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('origins') / 'threefold.db'}"
    migrate(url)
    with InProcessServer(url, extra_env={"THREEFOLD_ALLOWED_ORIGINS": f"{LISTED}, https://other.example"}) as proc:
        yield proc


async def first_message_and_close(url: str, headers: dict[str, str]) -> tuple[dict[str, object], int | None]:
    """The first message the server sends, and the close code if it then closes (None if it stays open)."""
    async with websockets.connect(url, additional_headers=headers, compression=None, open_timeout=10) as ws:
        first = orjson.loads(await ws.recv(decode=False))
        if first.get("type") != "error":
            return first, None
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        return first, ws.close_code


async def test_a_page_of_another_origin_cannot_open_the_socket_with_the_cookie(origin_server: InProcessServer) -> None:
    async with ThreefoldClient(origin_server.url) as ann:
        token = await ann.set_name("Ann")
        code = await ann.create_room("tri-tac")
        url = f"ws://127.0.0.1:{origin_server.port}/ws/{code}"
        cookie = {"Cookie": f"tf_token={token}"}
        for foreign in (
            f"http://127.0.0.1:{origin_server.port + 1}",  # another port of the same host: another site
            f"http://localhost:{origin_server.port}",  # another name for it is another origin
            f"https://127.0.0.1:{origin_server.port + 1}",
            "null",
            "http://friends.example:9001",
        ):
            first, close_code = await first_message_and_close(url, {**cookie, "Origin": foreign})
            assert (first["type"], first["code"], close_code) == ("error", "origin_not_allowed", 4403), foreign
        # A cookie without any Origin is not a browser page we can place: refused too.
        first, close_code = await first_message_and_close(url, cookie)
        assert (first["code"], close_code) == ("origin_not_allowed", 4403)
        # The site's own pages, and a listed origin, get in.
        for own in (origin_server.url, LISTED, "https://other.example"):
            first, close_code = await first_message_and_close(url, {**cookie, "Origin": own})
            assert (first["type"], close_code) == ("welcome", None), own
        # A non-browser client sends no Origin and authenticates by header.
        async with ann.connect(code) as sock:
            assert (await sock.next(lambda m: m["type"] in ("welcome", "error")))["type"] == "welcome"


async def test_a_post_from_another_origin_is_refused(origin_server: InProcessServer) -> None:
    async with ThreefoldClient(origin_server.url) as ann:
        token = await ann.set_name("Ann")
        cookie = {"Cookie": f"tf_token={token}"}
        foreign = f"http://127.0.0.1:{origin_server.port + 1}"
        async with httpx.AsyncClient(base_url=origin_server.url) as http:
            for path, body in (("/api/me", {"name": "Mallory"}), ("/api/rooms", {"game": "tri-tac"})):
                refused = await http.post(path, json=body, headers={**cookie, "Origin": foreign})
                assert refused.status_code == 403, path
                assert refused.json() == {
                    "detail": "origin_not_allowed",
                    "code": "origin_not_allowed",
                    "params": {"origin": foreign},
                }
                assert "Content-Security-Policy" in refused.headers
            # A browser that sent no Origin still says where the page came from.
            sneaky = await http.post(
                "/api/me", json={"name": "Mallory"}, headers={**cookie, "Sec-Fetch-Site": "same-site"}
            )
            assert sneaky.status_code == 403
            assert (await http.get("/api/me", headers=cookie)).json()["name"] == "Ann"
            own = await http.post("/api/me", json={"name": "Ann B"}, headers={**cookie, "Origin": origin_server.url})
            assert own.status_code == 200
            same_origin = {**cookie, "Origin": origin_server.url, "Sec-Fetch-Site": "same-origin"}
            assert (await http.post("/api/rooms", json={"game": "tri-tac"}, headers=same_origin)).status_code == 201
            # Reading is not checked (a GET changes nothing), and clients without an Origin are not browsers.
            assert (await http.get("/api/me", headers={**cookie, "Origin": foreign})).status_code == 200
            assert (await http.post("/api/me", json={"name": "Ann"}, headers=cookie)).status_code == 200


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        ("http://192.168.1.20:8000", "192.168.1.20:8000", True),  # make run LAN=1: a phone on the LAN address
        ("http://192.168.1.20:8001", "192.168.1.20:8000", False),
        ("http://192.168.1.21:8000", "192.168.1.20:8000", False),
        ("https://play.example.org", "play.example.org", True),  # behind a TLS proxy passing the Host on
        ("https://play.example.org", "play.example.org:443", True),
        ("http://play.example.org", "play.example.org:443", False),
        ("https://PLAY.example.org", "play.EXAMPLE.org", True),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("http://[::1]:8001", "[::1]:8000", False),
        ("https://play.example.org", None, False),
        ("null", "play.example.org", False),
        ("file://", "play.example.org", False),
        ("http://play.example.org:99999", "play.example.org:99999", False),
        ("https://listed.example", "elsewhere.example", True),
        ("https://listed.example:444", "elsewhere.example", False),
    ],
)
def test_origin_policy(origin: str, host: str | None, allowed: bool) -> None:
    assert OriginPolicy(["https://listed.example/some/path"]).allows(origin, host) is allowed


def test_the_policy_ignores_what_is_not_an_origin() -> None:
    assert OriginPolicy(["", "not a url", "ftp://x"]).listed == set()
