"""Property-based fuzzing of the REST API from its own OpenAPI schema (schemathesis 4), against a live server.

Schemathesis reads ``/openapi.json`` from a real server process and generates requests for every operation:
valid ones (positive mode) and invalid ones (negative mode), with a player's Bearer token so the authenticated
paths (``/api/me``, creating rooms) are exercised, without one (anonymous), and for the ``{code}`` paths against
a room that exists. Each response must:

- never be a 5xx (``not_a_server_error``);
- have a documented status code, content type, headers and body (``status_code_conformance``,
  ``content_type_conformance``, ``response_headers_conformance``, ``response_schema_conformance``): the
  ``{"detail", "code"}`` error envelope of docs/protocol.md included;
- refuse schema-invalid input with a 4xx (``negative_data_rejection``).

Not enforced: ``positive_data_acceptance`` (every schema-valid request accepted), because some rules cannot be
said in the schema (a name is trimmed and must stay non-empty and printable; ``game`` must be a registered
engine; ``options`` are checked per game): the API answers those with a documented 422.

Schemathesis' pytest plugin (``from_fixture`` + ``parametrize``) does not work with pytest 9 (it writes the
removed ``Node._nodeid``), so the test loads the schema from the live server itself and drives Hypothesis per
operation; all failures are collected and reported together. Hypothesis is derandomized: runs repeat.

Generating the examples costs far more than sending them, so each example is sent to a server on SQLite and
one on PostgreSQL (where reachable) in turn: both get the same examples and the same checks, generated once.
Only the examples for an existing room's code are generated per server (the code is each server's own).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess, migrate
from tests.support.services import IN_CI, postgres_database

MAX_EXAMPLES = 15
"""Per operation and pass: keeps the whole module well under a minute."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def rest_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    """One server per database kind for the whole module (the fuzz only adds players and rooms)."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('rest') / 'threefold.db'}"
        else:
            url = stack.enter_context(postgres_database())
        migrate(url)
        proc = InProcessServer(url).start()
        stack.callback(proc.stop)
        yield proc


@pytest.fixture(scope="module")
def identity(rest_server: ServerProcess) -> dict[str, Any]:
    return make_identity(rest_server.url)


def throwaway_player(base_url: str) -> dict[str, str]:
    r = httpx.post(f"{base_url}/api/me", json={"name": "Rotated"})
    r.raise_for_status()
    return {"Authorization": f"Bearer {r.json()['token']}"}


@dataclass
class Target:
    """A server the fuzz sends every example to, with its player's headers and room."""

    name: str
    server: InProcessServer
    identity: dict[str, Any]


@pytest.fixture(scope="module")
def fuzz_targets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Target]]:
    """A server on SQLite and, where PostgreSQL is reachable (always under CI), one on PostgreSQL."""
    with contextlib.ExitStack() as stack:
        urls = [("sqlite", f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'threefold.db'}")]
        try:
            urls.append(("postgres", stack.enter_context(postgres_database())))
        except pytest.skip.Exception:
            assert not IN_CI
        targets = []
        for name, url in urls:
            migrate(url)
            proc = InProcessServer(url).start()
            stack.callback(proc.stop)
            targets.append(Target(name, proc, make_identity(proc.url)))
        yield targets


def make_identity(base_url: str) -> dict[str, Any]:
    """A player (token) and one of their rooms, made through the API itself."""
    r = httpx.post(f"{base_url}/api/me", json={"name": "Fuzzy"})
    r.raise_for_status()
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    r = httpx.post(f"{base_url}/api/rooms", json={"game": "tri-tac"}, headers=headers)
    r.raise_for_status()
    return {"token": token, "headers": headers, "code": r.json()["code"]}


def fuzz_operation(
    operation: Any,
    mode: GenerationMode,
    targets: list[tuple[str, str, dict[str, str]]],
    label: str,
    path_parameters: dict[str, Any] | None = None,
) -> str | None:
    """Run Hypothesis over one operation, each example sent to every (name, base URL, headers) target; the
    failure's text, or None."""

    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=path_parameters))
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        for name, base_url, headers in targets:
            try:
                case.call_and_validate(base_url=base_url, headers=headers, checks=CHECKS, timeout=10)
            except Exception as err:
                err.add_note(f"on the {name} server")
                raise

    try:
        run()
    except Unsatisfiable:
        return None  # negative mode on an operation with nothing to get wrong (no body, free-form path)
    except (Exception, BaseExceptionGroup) as err:
        return f"{operation.label} [{mode.value}, {label}]: {err}"
    return None


@pytest.mark.slow  # schemathesis: generating its examples takes most of it
def test_rest_api_conforms_to_its_schema(fuzz_targets: list[Target]) -> None:
    first = fuzz_targets[0].server
    schema = schemathesis.openapi.from_url(f"{first.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    labels = {op.label for op in operations}
    assert {"GET /api/me", "POST /api/me", "GET /api/games", "POST /api/rooms", "GET /api/rooms/{code}"} <= labels
    published = httpx.get(f"{first.url}/openapi.json").json()
    for target in fuzz_targets[1:]:  # the same API on every database
        assert httpx.get(f"{target.server.url}/openapi.json").json() == published
    offsets = [target.server.log_path.stat().st_size for target in fuzz_targets]
    failures = []
    for op in operations:
        # Rotating revokes the token it is sent with: the shared player's must outlive the fuzz.
        rotate = op.label == "POST /api/me/token/rotate"
        tokens = [
            (t.name, t.server.url, throwaway_player(t.server.url) if rotate else t.identity["headers"])
            for t in fuzz_targets
        ]
        anonymous = [(t.name, t.server.url, {}) for t in fuzz_targets]
        failures.append(fuzz_operation(op, GenerationMode.POSITIVE, tokens, "with a token"))
        failures.append(fuzz_operation(op, GenerationMode.NEGATIVE, tokens, "with a token"))
        failures.append(fuzz_operation(op, GenerationMode.POSITIVE, anonymous, "anonymous"))
        if "{code}" in op.path:
            for target, token in zip(fuzz_targets, tokens, strict=True):
                room = {"code": target.identity["code"]}
                failures.append(fuzz_operation(op, GenerationMode.POSITIVE, [token], "existing room", room))
    found = [f for f in failures if f is not None]
    assert not found, f"{len(found)} operation(s) failed:\n\n" + "\n\n".join(found)
    for target, offset in zip(fuzz_targets, offsets, strict=True):
        log = target.server.log_path.read_bytes()[offset:].decode(errors="replace")
        assert "Traceback" not in log, f"{target.name}: {log[-4000:]}"
        assert httpx.get(f"{target.server.url}/healthz").json()["ok"] is True


# ---- regressions found by fuzzing: numbers the database cannot hold, seats the engine does not have ---------


def test_huge_numbers_are_refused_not_server_errors(rest_server: ServerProcess, identity: dict[str, Any]) -> None:
    """Ids and seeds the database cannot hold (beyond PostgreSQL's integer, beyond 64 bits) are a 4xx, not a 500.

    ``seed`` is accepted in testing mode (as here)."""
    problems = []
    for game_id in (2**31, 2**63, 10**30):
        for path in (f"/api/history/{game_id}/export", f"/api/history/{game_id}/replay?step=0"):
            r = httpx.get(f"{rest_server.url}{path}")
            if r.status_code not in (404, 422):
                problems.append(f"GET {path}: {r.status_code} {r.text[:100]}")
    for seed in (2**63, 2**64, -(2**63) - 1, 10**30):
        body = {"game": "tri-tac", "seed": seed}
        r = httpx.post(f"{rest_server.url}/api/rooms", json=body, headers=identity["headers"])
        if r.status_code != 422:
            problems.append(f"POST /api/rooms {body}: {r.status_code} {r.text[:100]}")
    assert not problems, "\n".join(problems)


def test_import_refuses_seats_the_game_does_not_have(rest_server: ServerProcess) -> None:
    """An imported action for a seat out of range is refused (422) by every engine, never a 500."""
    games = [g["name"] for g in httpx.get(f"{rest_server.url}/api/games").json()]
    assert "tri-tac" in games
    problems = []
    for game in games:
        for seat in (99, 2**40, -1):
            for action in ({}, {"type": "pass"}, {"type": "unknown"}):
                body = {
                    "engine": game,
                    "options": {},
                    "seed": 1,
                    "seats": [],
                    "actions": [{"seat": seat, "action": action}],
                }
                r = httpx.post(f"{rest_server.url}/api/history/import", json=body)
                if r.status_code != 422:
                    problems.append(f"{game} seat {seat} {action}: {r.status_code} {r.text[:100]}")
    assert not problems, "\n".join(problems)


async def test_concurrent_room_creation_does_not_exhaust_the_pool(rest_server: ServerProcess) -> None:
    """64 players create rooms at the same moment (more than the SQLite pool's 5 + 10 and PostgreSQL's 10 + 20
    connections): every request succeeds, promptly. Found by the fan-out benchmark's set-up: a route that holds
    the request's session (the current player's lookup) while the hub opens another one deadlocks the pool
    until its 30 s timeout, and every request then fails with a 500."""
    async with httpx.AsyncClient(base_url=rest_server.url, timeout=60) as http:
        tokens = []
        for i in range(64):
            r = await http.post("/api/me", json={"name": f"Crowd {i}"})
            tokens.append(r.json()["token"])
            http.cookies.clear()
        started = time.monotonic()
        replies = await asyncio.gather(
            *(
                http.post("/api/rooms", json={"game": "tri-tac"}, headers={"Authorization": f"Bearer {token}"})
                for token in tokens
            )
        )
        elapsed = time.monotonic() - started
    statuses = Counter(r.status_code for r in replies)
    assert statuses == {201: 64}, f"{dict(statuses)} after {elapsed:.1f} s"
    assert elapsed < 20, elapsed
