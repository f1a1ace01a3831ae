"""Game options are as strict as the messages that carry them: no string or float passes for an integer,
no number for a boolean."""

from __future__ import annotations

from typing import Any

import pytest

from app.live import lobby
from app.live.messages import Configure, ProtocolError, RoomSettingsMsg
from app.live.records import RoomRecord, SeatRecord
from app.live.room_state import LiveRoom
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


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"size": "5"}, {"key": "options.not_integer", "params": {"game": "tri-tac", "field": "size"}}),
        ({"size": 2}, {"key": "options.at_least", "params": {"game": "tri-tac", "field": "size", "min": 3}}),
        ({"size": 13}, {"key": "options.at_most", "params": {"game": "tri-tac", "field": "size", "max": 12}}),
        ({"power_play": 1}, {"key": "options.not_boolean", "params": {"game": "tri-tac", "field": "power_play"}}),
        ({"bogus": 1}, {"key": "options.unknown", "params": {"game": "tri-tac", "field": "bogus"}}),
    ],
)
def test_a_refused_option_names_its_field_and_problem_for_the_page(
    options: dict[str, Any], problem: dict[str, Any]
) -> None:
    """The page phrases what was wrong ("Board size: must be a whole number") from the reason's key and
    params, never from the English message."""
    live = tri_tac_lobby()
    with pytest.raises(ProtocolError) as err:
        lobby.configure(live, HOST, Configure(type="configure", options=options))
    assert err.value.code == "bad_options"
    assert err.value.reason == problem


def test_refused_room_settings_name_their_field_and_bound() -> None:
    live = tri_tac_lobby()
    with pytest.raises(ProtocolError) as err:
        lobby.room_settings(live, HOST, RoomSettingsMsg(type="room_settings", turn_seconds=2))
    assert err.value.code == "bad_options"
    assert err.value.reason == {
        "key": "options.at_least",
        "params": {"game": None, "field": "turn_seconds", "min": 5},
    }
