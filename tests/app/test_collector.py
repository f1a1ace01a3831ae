"""The collector's measure of growth (app.collector): a full collection comes when resident memory grew."""

from __future__ import annotations

from app.collector import resident_bytes


def test_resident_memory_is_read() -> None:
    before = resident_bytes()
    ballast = bytearray(64 << 20)  # touched: zero-filled pages count once written
    ballast[::4096] = b"\x01" * len(ballast[::4096])
    assert resident_bytes() >= before + (48 << 20)
    del ballast
