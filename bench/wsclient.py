"""A minimal WebSocket client on a bare asyncio Protocol, for the load generator.

The ``websockets`` library costs tens of microseconds per message in Python; a load generator receiving
40,000 frames a second on one core cannot afford that, or it measures itself instead of the server. This
client does the RFC 6455 handshake, reads unmasked server frames straight out of the receive buffer and
hands each payload (bytes) with the time its TCP segment arrived to a callback. Frames it sends are masked
with an all-zero key (valid framing, payload unchanged): fine for a benchmark on loopback, not for a browser.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

OnMessage = Callable[[bytes, float], None]


class WSClient(asyncio.Protocol):
    def __init__(self, host: str, path: str, on_message: OnMessage, token: str | None = None) -> None:
        self.host = host
        self.path = path
        self.token = token
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()
        self.close_code: int | None = None
        self._open = False
        self._fragments = bytearray()

    # ---- asyncio.Protocol -----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio subclasses
        key = base64.b64encode(os.urandom(16)).decode()
        auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""  # never in the URL (access logs)
        self.transport.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"{auth}Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        buf = self.buffer
        buf += data
        if not self._open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            response = bytes(buf[:end])
            del buf[: end + 4]
            if not response.startswith(b"HTTP/1.1 101"):
                status = response.split(b"\r\n", 1)[0].decode(errors="replace")
                self.upgraded.set_exception(ConnectionError(status))
                assert self.transport is not None
                self.transport.close()
                return
            self._open = True
            if not self.upgraded.done():  # done: the connect was given up (cancelled on Ctrl-C)
                self.upgraded.set_result(None)
        pos, size = 0, len(buf)
        on_message = self.on_message
        while size - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            length, head = b1 & 0x7F, 2
            if length == 126:
                if size - pos < 4:
                    break
                length = (buf[pos + 2] << 8) | buf[pos + 3]
                head = 4
            elif length == 127:
                if size - pos < 10:
                    break
                (length,) = struct.unpack_from("!Q", buf, pos + 2)
                head = 10
            if size - pos < head + length:
                break
            start = pos + head
            payload = bytes(buf[start : start + length])
            pos = start + length
            opcode = b0 & 0x0F
            if opcode in (1, 2, 0):
                if b0 & 0x80:
                    if self._fragments:
                        payload = bytes(self._fragments) + payload
                        self._fragments.clear()
                    on_message(payload, now)
                else:
                    self._fragments += payload
            elif opcode == 8:
                self.close_code = struct.unpack_from("!H", payload)[0] if len(payload) >= 2 else None
                self._write_frame(8, payload[:2])
                assert self.transport is not None
                self.transport.close()
            elif opcode == 9:
                self._write_frame(10, payload)
        if pos:
            del buf[:pos]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.upgraded.done():
            self.upgraded.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    # ---- sending ----------------------------------------------------------------------------------

    def _write_frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        assert self.transport is not None
        self.transport.write(header + b"\x00\x00\x00\x00" + payload)

    def send_text(self, payload: bytes) -> None:
        """Send UTF-8 bytes as one text frame."""
        self._write_frame(1, payload)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._write_frame(8, struct.pack("!H", 1000))
            self.transport.close()


async def connect(url: str, on_message: OnMessage, timeout: float = 30, token: str | None = None) -> WSClient:
    """Open ``ws://host:port/path?query`` and complete the handshake (``token``: as a bearer header)."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    loop = asyncio.get_running_loop()
    _, proto = await loop.create_connection(lambda: WSClient(f"{host}:{port}", path, on_message, token), host, port)
    await asyncio.wait_for(proto.upgraded, timeout)
    return proto
