"""The production shape (docker-compose.yml, Dockerfile, deploy/nginx.conf) is valid and wired together.

No Docker engine is needed: Debian's `docker-compose` package validates and renders the file with
`docker-compose config`. Without that binary those tests skip, except under CI=true, where they fail. The shape
checks also run on the file as written (PyYAML understands the `<<: *app` merge keys), so they never skip."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.services import missing

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
UVICORN_FLAGS = [
    "app.main:create_app",
    "--factory",
    "--host 0.0.0.0",
    "--port 8000",
    "--ws app.ws_protocol:PreparedFramesProtocol",
    "--ws-per-message-deflate false",
    "--ws-max-size 1048576",
]
# Variables the compose file reads; cleared so the rendered file shows its defaults.
COMPOSE_VARS = (
    "POSTGRES_PASSWORD",
    "THREEFOLD_PUBLIC_URL",
    "THREEFOLD_SECURE_COOKIES",
    "THREEFOLD_METRICS_TOKEN",
    "THREEFOLD_HTTP_PORT",
    "THREEFOLD_IMAGE_TAG",
)

Doc = dict[str, Any]


# --- getting the file, as written and as docker-compose renders it ---------------------------------------------


def compose_binary() -> str:
    found = shutil.which("docker-compose")
    if found is None:
        missing("docker-compose not installed (apt-get install docker-compose); it validates docker-compose.yml")
    assert found is not None
    return found


def run_compose_config(extra_env: dict[str, str] | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in COMPOSE_VARS and not k.startswith("COMPOSE_")}
    env.update(extra_env or {})
    result = subprocess.run(
        [compose_binary(), "-f", str(COMPOSE_FILE), "--project-directory", str(ROOT), "config"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"docker-compose config failed:\n{result.stderr}{result.stdout}"
    return result.stdout


@pytest.fixture(scope="module")
def rendered() -> Doc:
    doc: Doc = yaml.safe_load(run_compose_config())
    return doc


@pytest.fixture(scope="module")
def written() -> Doc:
    doc: Doc = yaml.safe_load(COMPOSE_FILE.read_text())
    return doc


def command_text(service: Doc) -> str:
    command = service.get("command", "")
    return " ".join(str(part) for part in command) if isinstance(command, list) else str(command)


def app_services(doc: Doc) -> dict[str, Doc]:
    return {name: s for name, s in doc["services"].items() if "app.main:create_app" in command_text(s)}


def environment(service: Doc) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):  # KEY=VALUE list form
        env = dict(item.split("=", 1) for item in env)
    return {str(k): str(v) for k, v in env.items()}


def conditions(service: Doc) -> dict[str, str]:
    deps = service.get("depends_on") or {}
    if isinstance(deps, list):  # short form: no condition means "started", which is not enough anywhere here
        return {name: "service_started" for name in deps}
    return {name: str(spec.get("condition", "service_started")) for name, spec in deps.items()}


def one_shots(doc: Doc) -> set[str]:
    """Services something waits on to *complete*: they exit, so they have no health to check."""
    return {
        name
        for service in doc["services"].values()
        for name, condition in conditions(service).items()
        if condition == "service_completed_successfully"
    }


def has_healthcheck(service: Doc) -> bool:
    check = service.get("healthcheck")
    if not check or check.get("disable"):
        return False
    test = check.get("test")
    return bool(test) and test != ["NONE"] and test != "NONE"


# --- the shape, checked on the written file and on what docker-compose makes of it -----------------------------


def check_shape(doc: Doc) -> None:
    services: dict[str, Doc] = doc["services"]
    for name in ("postgres", "redis", "migrate", "proxy"):
        assert name in services, f"no {name} service"
    apps = app_services(doc)
    assert len(apps) >= 2, f"want two or more app processes, found {sorted(apps)}"

    assert str(services["postgres"]["image"]).startswith("postgres:")
    assert str(services["redis"]["image"]).startswith("redis:")
    assert str(services["proxy"]["image"]).startswith("nginx:")

    # Migrations: one shot, from the app image, once PostgreSQL is healthy; the apps wait for it to succeed.
    migrate = services["migrate"]
    assert "alembic upgrade head" in command_text(migrate)
    assert migrate.get("restart", "no") == "no"
    assert conditions(migrate).get("postgres") == "service_healthy"
    assert one_shots(doc) == {"migrate"}

    images = {str(s.get("image")) for s in apps.values()} | {str(migrate.get("image"))}
    assert len(images) == 1, f"app processes and migrations must share one image, got {images}"

    pg_env = environment(services["postgres"])
    for name, app in apps.items():
        command = command_text(app)
        for flag in UVICORN_FLAGS:
            assert flag in command, f"{name}: command lacks {flag!r}: {command}"
        env = environment(app)
        db_url = env.get("DATABASE_URL", "")
        assert db_url.startswith("postgresql+asyncpg://"), f"{name}: DATABASE_URL={db_url!r}"
        assert f"{pg_env['POSTGRES_USER']}:" in db_url and f"@postgres:5432/{pg_env['POSTGRES_DB']}" in db_url
        assert env.get("REDIS_URL") == "redis://redis:6379/0"
        assert env.get("THREEFOLD_INTERNAL_URL") == f"http://{name}:8000", f"{name}: others relay sockets there"
        assert "THREEFOLD_PUBLIC_URL" in env
        assert "THREEFOLD_TESTING" not in env, "fixed seeds must never be accepted in production"
        assert conditions(app) == {
            "migrate": "service_completed_successfully",
            "postgres": "service_healthy",
            "redis": "service_healthy",
        }, name
        assert "/healthz" in " ".join(str(p) for p in app["healthcheck"]["test"]), name
        assert "ports" not in app, f"{name} must be reached through the proxy only"

    for name, service in services.items():
        if name not in one_shots(doc):
            assert has_healthcheck(service), f"long-running service {name} has no health check"

    proxy = services["proxy"]
    assert conditions(proxy) == {name: "service_healthy" for name in apps}
    assert proxy.get("ports"), "the proxy publishes the only port"
    mounts = [str(v if isinstance(v, str) else v.get("source", "")) for v in proxy.get("volumes", [])]
    assert any("deploy/nginx.conf" in m for m in mounts), mounts


def test_compose_shape_as_written(written: Doc) -> None:
    check_shape(written)


def test_docker_compose_config_validates(rendered: Doc) -> None:
    check_shape(rendered)


def test_public_url_and_password_come_from_the_environment() -> None:
    doc: Doc = yaml.safe_load(
        run_compose_config({"THREEFOLD_PUBLIC_URL": "https://play.example.org", "POSTGRES_PASSWORD": "s3cret"})
    )
    for app in app_services(doc).values():
        env = environment(app)
        assert env["THREEFOLD_PUBLIC_URL"] == "https://play.example.org"
        assert ":s3cret@postgres:5432/" in env["DATABASE_URL"]
    assert environment(doc["services"]["postgres"])["POSTGRES_PASSWORD"] == "s3cret"
    assert ":s3cret@" in environment(doc["services"]["migrate"])["DATABASE_URL"]


def test_the_secure_cookie_flag_is_derived_unless_set(written: Doc) -> None:
    """A default of `false` here overrode what the app derives from an https:// THREEFOLD_PUBLIC_URL."""
    for name, app in app_services(written).items():
        value = environment(app).get("THREEFOLD_SECURE_COOKIES", "")
        assert value in ("", "${THREEFOLD_SECURE_COOKIES:-}", "${THREEFOLD_SECURE_COOKIES}"), (name, value)


# --- the proxy ---------------------------------------------------------------------------------------------------


def nginx_block(text: str, header: str) -> str:
    """The body of the first `header { ... }` block (braces balanced), comments removed."""
    text = re.sub(r"#[^\n]*", "", text)
    match = re.search(re.escape(header) + r"\s*\{", text)
    assert match is not None, f"no `{header}` block in deploy/nginx.conf"
    depth, start = 1, match.end()
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start:i]
    raise AssertionError(f"unbalanced braces after `{header}`")


def directives(block: str) -> list[list[str]]:
    """Top-level directives of a block (nested blocks dropped), each as its words."""
    flat: list[str] = []
    depth = 0
    for ch in block:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                flat.append(";")  # a nested block ends its own statement
        elif depth == 0:
            flat.append(ch)
    return [statement.split() for statement in "".join(flat).split(";") if statement.strip()]


def seconds(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h)?", value).groups()  # type: ignore[union-attr]
    return int(number) * {"ms": 0, "s": 1, None: 1, "m": 60, "h": 3600}[unit]


def test_proxy_upgrades_websockets_on_ws_path() -> None:
    assert NGINX_CONF.is_file()
    ws = directives(nginx_block(NGINX_CONF.read_text(), "location /ws/"))
    headers = {d[1].lower(): " ".join(d[2:]) for d in ws if d[0] == "proxy_set_header"}
    assert headers.get("upgrade") == "$http_upgrade"
    connection = headers.get("connection", "")
    if connection == "$connection_upgrade":
        assert re.search(r"map\s+\$http_upgrade\s+\$connection_upgrade", NGINX_CONF.read_text())
    else:
        assert connection.strip("\"'").lower() == "upgrade"
    settings = {d[0]: d[1:] for d in ws}
    assert settings["proxy_http_version"] == ["1.1"]
    assert settings["proxy_pass"] == ["http://threefold_app"]
    # An open game socket may be quiet for a while between moves; the proxy must not cut it after a minute.
    assert seconds(settings["proxy_read_timeout"][0]) >= 300
    assert seconds(settings["proxy_send_timeout"][0]) >= 300
    # The edge overwrites X-Forwarded-For: appending would let a client forge its address.
    assert headers.get("x-forwarded-for") == "$remote_addr"


def test_proxy_access_log_never_writes_a_query_string_or_credentials() -> None:
    """The request line and the query string are where a careless client's ?token= would be."""
    http = nginx_block(NGINX_CONF.read_text(), "http")
    everything = re.sub(r"#[^\n]*", "", NGINX_CONF.read_text())
    formats = {
        match.group(1): match.group(2) for match in re.finditer(r"log_format\s+(\w+)\s+((?:'[^']*'\s*)+);", everything)
    }
    logs = [d for d in directives(http) if d[0] == "access_log"]
    for block in ("location /ws/", "location /", "server"):
        logs += [d for d in directives(nginx_block(everything, block)) if d[0] == "access_log"]
    assert logs, "no access_log: nginx would log in the combined format"
    leaky = ("$request ", '$request"', "$request_uri", "$args", "$query_string", "$arg_", "$is_args", "$http_")
    for log in logs:
        if log[1] == "off":
            continue
        assert len(log) >= 3 and log[2] in formats, f"{log}: the default format logs the request line"
        text = formats[log[2]]
        allowed_headers = text.replace("$http_user_agent", "")
        assert not any(variable in allowed_headers for variable in leaky), (log[2], text)
        assert "$uri" in text


def test_proxy_refuses_a_token_in_the_query_string() -> None:
    """nginx's error log quotes the request line (query string included) when an upstream fails."""
    server = nginx_block(NGINX_CONF.read_text(), "server")
    refusal = re.search(r"if\s*\(\s*\$arg_token\s*\)\s*\{([^}]*)\}", server)
    assert refusal is not None, "no `if ($arg_token)` in the server block"
    assert directives(refusal.group(1))[0][0] == "return" and directives(refusal.group(1))[0][1].startswith("4")


def test_proxy_passes_the_host_with_its_port() -> None:
    """The app compares a page's Origin with the Host the browser sent; `$host` drops the port."""
    for block in ("location /ws/", "location /"):
        headers = {
            d[1].lower(): d[2]
            for d in directives(nginx_block(NGINX_CONF.read_text(), block))
            if d[0] == "proxy_set_header"
        }
        assert headers["host"] == "$http_host", block


def test_proxy_balances_over_every_app_process(written: Doc) -> None:
    upstream = directives(nginx_block(NGINX_CONF.read_text(), "upstream threefold_app"))
    servers = {d[1] for d in upstream if d[0] == "server"}
    assert servers == {f"{name}:8000" for name in app_services(written)}
    # Each room lives in one process: every request and socket of a room to the same one, by its code.
    assert ["hash", "$room_code", "consistent"] in upstream
    location = directives(nginx_block(NGINX_CONF.read_text(), "location /"))
    assert ["proxy_pass", "http://threefold_app"] in location


def test_proxy_health_check_hits_a_location_it_serves(written: Doc) -> None:
    test = " ".join(str(p) for p in written["services"]["proxy"]["healthcheck"]["test"])
    path = re.search(r"http://127\.0\.0\.1(/[\w-]+)", test)
    assert path is not None, test
    block = directives(nginx_block(NGINX_CONF.read_text(), f"location = {path.group(1)}"))
    assert ["return", "200", '"ok\\n"'] in block


# --- the image ---------------------------------------------------------------------------------------------------


def test_dockerfile_builds_a_non_root_app_image() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    assert instructions[0] == "FROM python:3.11-slim"
    copied = {part.rstrip("/") for line in instructions if line.startswith("COPY ") for part in line.split()[1:-1]}
    for needed in ("pyproject.toml", "app", "engines", "templates", "static", "migrations", "alembic.ini"):
        assert needed in copied, f"Dockerfile does not copy {needed}"
    assert any(line.startswith("RUN pip install .") for line in instructions)
    users = [line.split()[1] for line in instructions if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0"), "the app must not run as root"
    ignored = {line.strip().rstrip("/") for line in (ROOT / ".dockerignore").read_text().splitlines()}
    assert {".venv", ".git", "data"} <= ignored
    assert not ignored & {"app", "engines", "templates", "static", "migrations", "pyproject.toml", "README.md"}
