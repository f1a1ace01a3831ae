"""deploy/nginx.conf run for real in front of local app processes: the same map, hash and locations, with
only what ties it to Docker replaced (the upstream servers, the port, the user, the resolver, the paths)."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tests.support.server import ROOT, free_port
from tests.support.services import missing

NGINX_CONF = ROOT / "deploy" / "nginx.conf"


def render(ports: list[int], listen: int, prefix: Path) -> str:
    text = NGINX_CONF.read_text()
    servers = "".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=2s;\n" for port in ports)
    text, count = re.subn(r"( *server app\d+:8000[^\n]*\n)+", servers, text)
    assert count == 1, "no upstream server lines in deploy/nginx.conf"
    replacements = {
        r"^user [^;]*;": "",
        r"^worker_processes [^;]*;": "worker_processes 1;\npid " + str(prefix / "nginx.pid") + ";",
        r"error_log [^;]*;": f"error_log {prefix / 'error.log'} notice;",
        r"access_log /dev/stdout threefold;": f"access_log {prefix / 'access.log'} threefold;",
        r" *resolver[^;]*;\n": "",
        r"listen 80 default_server;": f"listen 127.0.0.1:{listen} default_server;",
        r"http \{": "http {\n"
        + "".join(
            f"    {kind}_temp_path {prefix / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        ),
    }
    for pattern, replacement in replacements.items():
        text, count = re.subn(pattern, replacement, text, count=1, flags=re.MULTILINE)
        assert count == 1, f"deploy/nginx.conf no longer has {pattern!r}"
    return text


@contextlib.contextmanager
def nginx_in_front(ports: list[int]) -> Iterator[str]:
    """nginx with deploy/nginx.conf's routing over the app processes on ``ports``; yields its base URL."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None:
        missing("nginx not installed (apt-get install nginx-light): the routing tests run the real proxy")
    assert binary is not None
    listen = free_port()
    with tempfile.TemporaryDirectory(prefix="threefold-nginx-") as tmp:
        prefix = Path(tmp)
        conf = prefix / "nginx.conf"
        conf.write_text(render(ports, listen, prefix))
        proc = subprocess.Popen(
            [binary, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"nginx exited: {proc.stderr.read().decode() if proc.stderr else ''}")
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", listen), timeout=0.2):
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError("nginx did not listen in 10 s")
                time.sleep(0.05)
            yield f"http://127.0.0.1:{listen}"
        finally:
            proc.terminate()
            proc.wait(10)
