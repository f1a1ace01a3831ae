"""Small pure pieces of the app: room codes, names, join-link addresses, message parsing."""

from __future__ import annotations

import pytest

from app.codes import ALPHABET, is_well_formed, new_code, normalise
from app.identity import BadName, clean_name
from app.live.messages import Act, ProtocolError, parse
from app.network import public_base_url


def test_room_codes_avoid_look_alikes() -> None:
    assert not set("0O1IL2Z5S8B") & set(ALPHABET)
    codes = {new_code() for _ in range(200)}
    assert all(is_well_formed(c) for c in codes)
    assert len(codes) > 190
    assert normalise(" k7-hx m ") == "K7HXM"
    assert not is_well_formed("K7HX") and not is_well_formed("K7HX0")


def test_names_are_trimmed_and_bounded() -> None:
    assert clean_name("  Ada   Lovelace ", 24) == "Ada Lovelace"
    for bad in ("", "   ", "x" * 25, "bell\x07", 12):
        with pytest.raises(BadName):
            clean_name(bad, 24)


def test_join_links_use_a_reachable_address() -> None:
    assert public_base_url("http://example.test:9000/", "127.0.0.1", 8000) == "http://example.test:9000"
    assert public_base_url(None, "127.0.0.1", 8000) == "http://127.0.0.1:8000"
    lan = public_base_url(None, "0.0.0.0", 8123)
    assert lan.startswith("http://") and lan.endswith(":8123") and "0.0.0.0" not in lan


def test_message_parsing_names_the_problem() -> None:
    msg = parse('{"type": "act", "action": {"type": "place"}, "version": 3, "id": "a1"}', 8192)
    assert isinstance(msg, Act) and msg.version == 3 and msg.id == "a1"
    cases = {
        "{": "bad_json",
        "[]": "bad_message",
        '{"type": "act", "action": {}, "version": true}': "bad_message",
        '{"type": "act", "action": {}, "version": 1, "extra": 1}': "bad_message",
        '{"type": "nope"}': "bad_message",
        '{"type": "ping", "pad": "' + "x" * 9000 + '"}': "too_large",
    }
    for raw, code in cases.items():
        with pytest.raises(ProtocolError) as err:
            parse(raw, 8192)
        assert err.value.code == code, raw


def test_refused_messages_still_name_their_id() -> None:
    from app.live.messages import message_id

    assert message_id('{"type": "act", "id": "m7"}', 8192) == "m7"
    assert message_id('{"type": "act", "id": 7}', 8192) is None
    assert message_id("{nope", 8192) is None
    assert message_id('{"id": "x", "pad": "' + "y" * 9000 + '"}', 8192) is None


def test_catalogue_seat_ranges_follow_the_options() -> None:
    from app.routers.games import game_catalogue
    from engines.registry import GAMES

    served = {game.name for game in GAMES}

    ranges = {g.name: (g.min_seats, g.max_seats) for g in game_catalogue() if g.name in served}
    assert ranges == {
        "tri-tac": (2, 2),
        "trick-tac-foe": (2, 4),
        "tic-tac-match": (2, 4),
        "tricky-tactics": (2, 4),
        "tic-tac-top": (3, 7),
    }
