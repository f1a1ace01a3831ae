"""What each socket of a room is sent: who it is, the room, and the game as its seat may see it.

Views are filtered here, at the edge: a socket gets only its own seat's view (spectators the public one),
and a payload that many sockets get alike is encoded and framed once for all of them.
"""

from __future__ import annotations

from app.live.connection import Connection
from app.live.messages import encode
from app.live.room_state import LiveRoom
from app.ws_protocol import text_frame
from engines.base import Event, Seat


class Fanout:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        """Where join links and QR codes in the room's summary point."""

    def welcome(self, live: LiveRoom, conn: Connection) -> bytes:
        """Who the socket is in this room; remembered on the connection (see ``welcomes``)."""
        name, seat, host, coach = self._who(live, conn)
        conn.welcomed = (name, seat, host, coach)
        you = {"id": conn.player_id, "name": name, "seat": seat, "host": host, "coach": coach}
        return encode({"type": "welcome", "you": you})

    @staticmethod
    def _who(live: LiveRoom, conn: Connection) -> tuple[str, Seat | None, bool, bool]:
        """The socket's name, seat, whether it hosts, and whether it plays its first game of this kind."""
        seat = live.seat_of_socket(conn)
        coach = seat is not None and conn.player_id in live.coached
        return live.names.get(conn.player_id, "?"), seat, live.record.host_id == conn.player_id, coach

    def changed_welcome(self, live: LiveRoom, conn: Connection) -> bytes | None:
        """The socket's ``welcome`` if who it is changed since the last one (a rematch changes only whether
        it is a first game)."""
        if conn.welcomed == self._who(live, conn):
            return None
        return self.welcome(live, conn)

    def welcomes(self, live: LiveRoom) -> None:
        """Tell each socket who it is now, if that changed."""
        for conn in live.connections:
            welcome = self.changed_welcome(live, conn)
            if welcome is not None:
                conn.send(welcome)

    def room_message(self, live: LiveRoom) -> bytes:
        return encode({"type": "room", "room": live.summary(self.base_url)})

    def room(self, live: LiveRoom) -> None:
        payload = self.room_message(live)
        for conn in live.connections:
            conn.send(payload)

    def state(
        self,
        live: LiveRoom,
        events: list[Event],
        ack: tuple[Connection, bytes] | None = None,
        *,
        room: bool = False,
        welcomes: bool = False,
        log_since: int | None = None,
    ) -> None:
        """Each socket gets the view for its seat; identical payloads are encoded once. With ``room``, the
        room's summary goes before it, with ``welcomes`` each socket's changed ``welcome`` next, and ``ack``
        to its socket after it: all in one write a socket (a game's end and a rematch each sent the room in a
        write of its own, a system call a socket, at every game's end). ``log_since`` is the
        version every socket of the room was sent last: the log then carries only what came after it."""
        game = live.game
        if game is None:
            if room:
                self.room(live)
            if welcomes:
                self.welcomes(live)
            if ack is not None:
                ack[0].send(ack[1])
            return
        head = self.room_message(live) if room else None
        message_for = game.state_messages(events, log_since)
        cache: dict[Seat | None, tuple[bytes, bytes]] = {}
        """Each seat's payload and its frame: framed once, however many sockets get it."""
        last: tuple[bytes, bytes] | None = None
        seats = live.seats_by_player()
        for conn in live.connections:
            seat = None if conn.watching else seats.get(conn.player_id)
            prepared = cache.get(seat)
            if prepared is None:
                payload = message_for(seat)
                if last is None or last[0] is not payload:  # else one message for every seat: framed once
                    last = (payload, text_frame(payload))
                prepared = cache[seat] = last
            payload = prepared[0]
            if head is None and not welcomes:  # every ordinary move
                if ack is not None and conn is ack[0]:
                    conn.send(payload, ack[1])
                else:
                    conn.send_framed(prepared[1], payload)
                continue
            parts = [] if head is None else [head]
            if welcomes and (welcome := self.changed_welcome(live, conn)) is not None:
                parts.append(welcome)
            parts.append(payload)
            if ack is not None and conn is ack[0]:
                parts.append(ack[1])
            conn.send(*parts)
        if ack is not None and ack[0] not in live.connections:
            ack[0].send(ack[1])

    async def resync(self, live: LiveRoom, conn: Connection) -> list[bytes]:
        """What a socket that fell behind needs to be up to date again."""
        fresh = [self.welcome(live, conn), self.room_message(live)]
        if live.game is not None:
            fresh.append(live.game.state_message(live.seat_of_socket(conn), []))
        return fresh
