"""Room chat for everyone, team chat for teammates only. Text is plain text: clients never render it as markup."""

from __future__ import annotations

import time

from app.live.connection import Connection
from app.live.messages import Chat, ProtocolError, encode, kept
from app.live.room import LiveRoom


def post(live: LiveRoom, conn: Connection, msg: Chat, max_length: int) -> None:
    """Check one chat line, keep it for people who join later, and send it to whoever may read it."""
    text = " ".join(msg.text.split())
    if not text:
        raise ProtocolError("bad_message", "a chat message cannot be empty")
    if len(text) > max_length:
        raise ProtocolError("too_large", f"chat messages are at most {max_length} characters")
    if any(not ch.isprintable() for ch in text):
        raise ProtocolError("bad_message", "chat messages cannot contain control characters")
    if not conn.allow_chat():
        raise ProtocolError("rate_limited", "you are chatting too fast")
    team = None
    if msg.team:
        team = live.team_of_seat(live.seat_of(conn.player_id))
        if team is None:
            raise ProtocolError("bad_message", "team chat needs a seat in a team game")
    payload = encode(
        {
            "type": "chat",
            "from": {"id": conn.player_id, "name": live.names.get(conn.player_id, "?")},
            "text": text,
            "team": team,
            "at": int(time.time() * 1000),
        }
    )
    live.chat.append((team, kept(payload)))
    for other in live.connections:
        if team is None or live.team_of_seat(live.seat_of(other.player_id)) == team:
            other.send(payload)
