"""Room chat for everyone, team chat for teammates only. Text is plain text: clients never render it as markup.

A line is checked here, stored by the hub, then shown: to this process' sockets at once, and to the room's
other processes through the bus, which carries only the room's code (they read the new lines from the
database and show each to whoever may read it there: team chat never travels through Redis)."""

from __future__ import annotations

import time
from collections import deque

from app.live.connection import Connection
from app.live.messages import Chat, ProtocolError, encode, kept
from app.live.records import ChatRecord
from app.live.room_state import LiveRoom


def check(live: LiveRoom, conn: Connection, msg: Chat, max_length: int) -> ChatRecord:
    """The line ``msg`` asks to post, or ProtocolError (nothing is kept or sent)."""
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
        team = live.team_of_seat(live.seat_of_socket(conn))
        if team is None:
            raise ProtocolError("bad_message", "team chat needs a seat in a team game")
    return ChatRecord(0, conn.player_id, live.names.get(conn.player_id, "?"), text, team, time.time())


def show(live: LiveRoom, line: ChatRecord) -> None:
    """Keep a stored line for people who join later and send it to whoever here may read it; a line already
    shown (this process posted it, or an earlier read had it) is not shown again.

    The kept lines stay in id order, the order every process and client shows: another process' line can be
    read here after a later line of our own (both posted at the same moment), and a newcomer's history must
    not depend on which process it joined through."""
    if any(line_id == line.id for line_id, _team, _payload in live.chat):
        return
    payload = encode(line.message())
    kept_line = (line.id, line.team, kept(payload))
    if not live.chat or live.chat[-1][0] < line.id:
        live.chat.append(kept_line)
    else:  # rare: only with several processes
        live.chat = deque(sorted([*live.chat, kept_line], key=lambda kept: kept[0]), maxlen=live.chat.maxlen)
    for other in live.connections:
        if line.team is None or live.team_of_seat(live.seat_of_socket(other)) == line.team:
            other.send(payload)
