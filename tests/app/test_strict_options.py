"""Game options are as strict as the messages that carry them: no string or float passes for an integer,
no number for a boolean (issue 21, item 7)."""

from __future__ import annotations

from typing import Any

import pytest

from app.live import lobby
from app.live.messages import Configure, ProtocolError
from app.live.records import RoomRecord, SeatRecord
from app.live.room import LiveRoom
from engines.base import InvalidOptions
from engines.registry import get_engine

HOST = 1


def tri_tac_lobby() -> LiveRoom:
    record = RoomRecord(1, "ACDEF", HOST, "tri-tac", {}, "lobby", None, [SeatRecord(None), SeatRecord(None)], {})
    return LiveRoom(record, {HOST: "Ann"})


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"size": "5"}, "size"),
        ({"size": 6.0}, "size"),
        ({"size": True}, "size"),
        ({"power_play": 1}, "power_play"),
        ({"power_play": "true"}, "power_play"),
        ({"time_seconds": "30"}, "time_seconds"),
    ],
)
def test_configure_refuses_loosely_typed_options(options: dict[str, Any], field: str) -> None:
    live = tri_tac_lobby()
    with pytest.raises(ProtocolError) as err:
        lobby.configure(live, HOST, Configure(type="configure", options=options))
    assert err.value.code == "bad_options"
    assert err.value.message.startswith(f"{field}: ")
    assert live.record.options == {}


def test_well_typed_options_still_pass_and_tuples_come_from_json_lists() -> None:
    live = tri_tac_lobby()
    lobby.configure(live, HOST, Configure(type="configure", options={"size": 6, "power_play": True}))
    assert live.record.options["size"] == 6 and live.record.options["power_play"] is True
    top = get_engine("tic-tac-top")
    words = [f"word{i}" for i in range(12)]
    options = top.parse_options({"reveal_pause": 2, "custom_themes": [{"name": "Fruit", "words": words}]})
    assert options.model_dump(mode="json")["custom_themes"] == [{"name": "Fruit", "words": words}]
    with pytest.raises(InvalidOptions, match="players"):
        top.parse_options({"players": "4"})
