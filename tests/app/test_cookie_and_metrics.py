"""The player cookie is Secure when the site is served over HTTPS, without a setting by hand, and /metrics is
for this machine unless a setting or a token opens it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from app.main import create_app
from app.settings import Settings


@asynccontextmanager
async def app_client(
    sqlite_url: str, base_url: str = "http://testserver", client: tuple[str, int] = ("127.0.0.1", 5000), **settings: Any
) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(database_url=sqlite_url, **settings))
    transport = httpx.ASGITransport(app=app, client=client)
    async with httpx.AsyncClient(transport=transport, base_url=base_url) as http:
        yield http


async def cookie_flags(http: httpx.AsyncClient) -> list[str]:
    named = await http.post("/api/me", json={"name": "Ann"})
    assert named.status_code == 200
    rotated = await http.post("/api/me/token/rotate", headers={"Authorization": f"Bearer {named.json()['token']}"})
    assert rotated.status_code == 200
    flags = []
    for response in (named, rotated):
        (cookie,) = response.headers.get_list("set-cookie")
        flags.append("secure" if "; secure" in cookie.lower() else "plain")
    return flags


@pytest.mark.parametrize(
    ("settings", "base_url", "expected"),
    [
        ({"public_url": "https://play.example.org"}, "http://app1:8000", "secure"),  # TLS ends at the proxy
        ({}, "https://play.example.org", "secure"),  # the request came over HTTPS (X-Forwarded-Proto)
        ({"public_url": "http://192.168.1.20:8000"}, "http://192.168.1.20:8000", "plain"),  # make run LAN=1
        ({}, "http://127.0.0.1:8000", "plain"),
        ({"public_url": "https://play.example.org", "secure_cookies": False}, "http://app1:8000", "plain"),
        ({"secure_cookies": True}, "http://127.0.0.1:8000", "secure"),
    ],
)
async def test_the_cookie_is_secure_when_the_site_is_https(
    sqlite_url: str, settings: dict[str, Any], base_url: str, expected: str
) -> None:
    async with app_client(sqlite_url, base_url, **settings) as http:
        assert await cookie_flags(http) == [expected, expected]


def test_an_empty_variable_leaves_the_cookie_derived(monkeypatch: pytest.MonkeyPatch) -> None:
    """docker-compose.yml passes THREEFOLD_SECURE_COOKIES through as "" when the shell has none."""
    monkeypatch.setenv("THREEFOLD_SECURE_COOKIES", "")
    monkeypatch.setenv("THREEFOLD_PUBLIC_URL", "https://play.example.org")
    assert Settings().cookie_is_secure("http") is True


@pytest.mark.parametrize(
    ("client", "settings", "headers", "status"),
    [
        (("127.0.0.1", 5000), {}, {}, 200),
        (("::1", 5000), {}, {}, 200),
        (("::ffff:127.0.0.1", 5000), {}, {}, 200),
        (("192.168.1.30", 5000), {}, {}, 403),  # a phone on the LAN under make run LAN=1
        (("192.168.1.30", 5000), {"metrics_token": "s3cret"}, {"Authorization": "Bearer s3cret"}, 200),
        (("192.168.1.30", 5000), {"metrics_token": "s3cret"}, {"Authorization": "Bearer guess"}, 403),
        (("192.168.1.30", 5000), {}, {"Authorization": "Bearer "}, 403),
        (("192.168.1.30", 5000), {"metrics_public": True}, {}, 200),
    ],
)
async def test_metrics_are_for_this_machine_unless_opened(
    sqlite_url: str, client: tuple[str, int], settings: dict[str, Any], headers: dict[str, str], status: int
) -> None:
    async with app_client(sqlite_url, client=client, **settings) as http:
        response = await http.get("/metrics", headers=headers)
    assert response.status_code == status
    if status == 200:
        assert "threefold_sockets_open" in response.text
    else:
        assert response.json() == {"detail": "metrics_not_public", "code": "metrics_not_public", "params": {}}
