"""The lobby's rules: seats, the game and its options, bots, host controls.

Each change checks who may make it and changes the room in memory (``live.record``, and a kicked player's
seat in the running game), or raises ProtocolError and changes nothing. Saving, telling everyone and any
other consequence (closing a kicked player's sockets, re-arming timers) is the hub's job: see
``Hub._change_room``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.live.connection import Connection
from app.live.messages import (
    AddBot,
    Configure,
    Invite,
    Kick,
    Learning,
    MakeHost,
    MoveSeat,
    ProtocolError,
    RemoveBot,
    RoomSettingsMsg,
    ShuffleTeams,
    Sit,
    Stand,
)
from app.live.records import SeatRecord
from app.live.room_settings import RoomSettings
from app.live.room_state import LiveRoom, bot_name
from engines.base import EngineError, InvalidOptions, invalid_options
from engines.levels import DEFAULT_LEVEL, STAND_IN_LEVEL, Level
from engines.registry import get_bot, get_engine

LobbyMessage = (
    Sit | Stand | Configure | AddBot | RemoveBot | RoomSettingsMsg | Kick | Invite | MakeHost | MoveSeat | ShuffleTeams
)


@dataclass
class Change:
    """What a lobby change needs beyond saving the room and telling everyone."""

    changed: bool = True
    removed: list[Connection] = field(default_factory=list)
    """A kicked player's sockets, to be told and closed."""
    timers: bool = False
    """Turn timers, bots or stand-ins may need re-arming."""
    game_seats: bool = False
    """The running game's seats changed (a bot took a kicked player's): stored with the room."""


def require_host(live: LiveRoom, player_id: int) -> None:
    if live.record.host_id != player_id:
        raise ProtocolError("not_host", "only the host can do that")


def require_not_playing(live: LiveRoom) -> None:
    if live.record.status == "playing":
        raise ProtocolError("not_in_lobby", "a game is in progress")


def require_host_in_lobby(live: LiveRoom, player_id: int) -> None:
    """What the host's changes to the table need: the host, and no game in progress."""
    require_host(live, player_id)
    require_not_playing(live)


def require_seats(live: LiveRoom, *indices: int) -> list[SeatRecord]:
    """The room's seats, once every index given is one of them."""
    seats = live.record.seats
    for index in indices:
        if not 0 <= index < len(seats):
            raise ProtocolError("bad_message", f"there is no seat {index}")
    return seats


def require_can_start(live: LiveRoom, player_id: int) -> None:
    require_host_in_lobby(live, player_id)
    if any(rec.player_id is None and not rec.is_bot for rec in live.record.seats):
        raise ProtocolError("seats_empty", "every seat must be taken before the game starts")


def accept_rematch(live: LiveRoom, player_id: int) -> Change:
    """A seated player other than the host accepts a rematch of the finished game. ``changed`` is False
    when they had already accepted. The hub starts the game once ``rematch_ready``."""
    if live.record.status != "finished" or live.game is None:
        raise ProtocolError("not_host", "only the host can start a game before one has finished")
    if not any(rec.player_id == player_id for rec in live.record.seats):
        raise ProtocolError("not_seated", "only a seated player can accept a rematch")
    accepted = live.rematch_accepted()
    if player_id in accepted:
        return Change(changed=False)
    update = {"rematch": [*accepted, player_id], "rematch_after": live.game.id}
    live.record.settings = live.settings.model_copy(update=update).model_dump()
    return Change()


def rematch_ready(live: LiveRoom) -> bool:
    """Every seat is taken and every seated person has accepted the rematch (bots always accept)."""
    seats = live.record.seats
    accepted = set(live.rematch_accepted())
    return all(rec.is_bot or rec.player_id in accepted for rec in seats)


def clear_rematch(live: LiveRoom) -> None:
    """Any change to the room voids the acceptances: they were given for the room as it was."""
    if live.settings.rematch:
        live.record.settings = live.settings.model_copy(update={"rematch": [], "rematch_after": None}).model_dump()


def change(live: LiveRoom, player_id: int, msg: LobbyMessage) -> Change:
    """Apply one lobby message from ``player_id`` to the room in memory; a change voids the rematch
    acceptances."""
    result = _change(live, player_id, msg)
    if result.changed:
        clear_rematch(live)
    return result


def _change(live: LiveRoom, player_id: int, msg: LobbyMessage) -> Change:
    if isinstance(msg, Sit):
        return sit(live, player_id, msg.seat)
    if isinstance(msg, Stand):
        return stand(live, player_id)
    if isinstance(msg, Configure):
        return configure(live, player_id, msg)
    if isinstance(msg, AddBot):
        return set_bot(live, player_id, msg.seat, True, msg.level)
    if isinstance(msg, RemoveBot):
        return set_bot(live, player_id, msg.seat, False)
    if isinstance(msg, RoomSettingsMsg):
        return room_settings(live, player_id, msg)
    if isinstance(msg, Kick):
        return kick(live, player_id, msg.player)
    if isinstance(msg, Invite):
        return invite(live, player_id, msg.player)
    if isinstance(msg, MakeHost):
        return make_host(live, player_id, msg.player)
    if isinstance(msg, MoveSeat):
        return move_seat(live, player_id, msg.seat, msg.to)
    return shuffle(live, player_id)


def sit(live: LiveRoom, player_id: int, seat: int) -> Change:
    require_not_playing(live)
    seats = require_seats(live, seat)
    if seats[seat].player_id == player_id:
        return Change(changed=False)
    if seats[seat].player_id is not None or seats[seat].is_bot:
        raise ProtocolError("seat_taken", "that seat is taken")
    for rec in seats:
        if rec.player_id == player_id:
            rec.player_id = None
    seats[seat] = SeatRecord(player_id)
    return Change()


def stand(live: LiveRoom, player_id: int) -> Change:
    require_not_playing(live)
    held = [rec for rec in live.record.seats if rec.player_id == player_id]
    if not held:
        raise ProtocolError("not_seated", "you have no seat to leave")
    for rec in held:
        rec.player_id = None
    return Change()


def configure(live: LiveRoom, player_id: int, msg: Configure) -> Change:
    """The host picks the game and its options; the seat table grows or shrinks to the game's seats."""
    require_host_in_lobby(live, player_id)
    game = msg.game or live.record.game
    try:
        engine = get_engine(game)
        raw = msg.options if msg.options is not None else (live.record.options if game == live.record.game else {})
        options = engine.parse_options(raw)
    except EngineError as err:
        raise ProtocolError("bad_options", str(err), None, options_reason(err, game)) from None
    count = len(engine.seats(options))
    seats = live.record.seats[:count]
    seats += [SeatRecord(None) for _ in range(count - len(seats))]
    if game != live.record.game:
        live.learning.clear()  # their lessons were of the game no longer chosen
    live.record.game = game
    live.record.options = options.model_dump(mode="json")
    live.record.seats = seats
    return Change()


def set_bot(live: LiveRoom, player_id: int, seat: int, add: bool, level: Level = DEFAULT_LEVEL) -> Change:
    """The host fills an empty seat with the game's bot at ``level`` (or changes the level of the bot
    there), or frees a bot's seat."""
    require_host_in_lobby(live, player_id)
    seats = require_seats(live, seat)
    if add:
        if get_bot(live.record.game) is None:
            raise ProtocolError("no_bot", f"{live.engine.title} has no bot")
        if seats[seat].player_id is not None:
            raise ProtocolError("seat_taken", "that seat is taken")
        seats[seat] = SeatRecord(None, is_bot=True, level=level)
    else:
        if not seats[seat].is_bot:
            raise ProtocolError("bad_message", "there is no bot in that seat")
        seats[seat] = SeatRecord(None)
    return Change()


def room_settings(live: LiveRoom, player_id: int, msg: RoomSettingsMsg) -> Change:
    """Lock, spectators, turn timer, grace period: only what the message sets changes."""
    require_host(live, player_id)
    current = live.settings.model_dump()
    changes = msg.model_dump(exclude={"type", "id"}, exclude_none=True)
    if changes.get("turn_seconds") == 0:
        changes["turn_seconds"] = None
    try:
        updated = RoomSettings.model_validate({**current, **changes})
    except ValidationError as err:
        problem = invalid_options(err)
        raise ProtocolError("bad_options", str(problem), None, problem.reason()) from None
    live.record.settings = updated.model_dump()
    return Change(timers=True)


def kick(live: LiveRoom, player_id: int, target: int) -> Change:
    """Remove someone: they cannot come back to this room; a bot takes their seat mid-game."""
    require_host(live, player_id)
    if target == player_id:
        raise ProtocolError("bad_message", "the host cannot kick themselves")
    known = target in live.connected_players() or any(s.player_id == target for s in live.record.seats)
    if not known:
        raise ProtocolError("bad_message", "that player is not in this room")
    settings = live.settings.model_copy(deep=True)
    if target not in settings.banned:
        settings.banned.append(target)
    live.record.settings = settings.model_dump()
    game_seats = False
    for index, rec in enumerate(live.record.seats):
        if rec.player_id == target:
            playing = live.record.status == "playing"
            live.record.seats[index] = SeatRecord(None, is_bot=playing, level=STAND_IN_LEVEL if playing else None)
            if playing and live.game is not None:
                stand_in = {"player_id": None, "bot": True, "name": bot_name(index), "level": STAND_IN_LEVEL}
                live.game.seats[index] = {**live.game.seats[index], **stand_in}
                game_seats = True
    removed = [c for c in live.connections if c.player_id == target]
    live.connections.difference_update(removed)
    live.learning.pop(target, None)
    return Change(removed=removed, timers=True, game_seats=game_seats)


def invite(live: LiveRoom, player_id: int, target: int) -> Change:
    """Undo a kick: the player may come back (they still have to take a free seat)."""
    require_host(live, player_id)
    settings = live.settings.model_copy(deep=True)
    if target not in settings.banned:
        raise ProtocolError("bad_message", "that player was not removed from this room")
    settings.banned.remove(target)
    live.record.settings = settings.model_dump()
    return Change()


def make_host(live: LiveRoom, player_id: int, target: int) -> Change:
    require_host(live, player_id)
    if target not in live.connected_players() or target in live.settings.banned:
        raise ProtocolError("bad_message", "the new host must be in the room")
    live.record.host_id = target
    return Change()


def move_seat(live: LiveRoom, player_id: int, seat: int, to: int) -> Change:
    """The host swaps two seats (whoever sits there, bots included)."""
    require_host_in_lobby(live, player_id)
    seats = require_seats(live, seat, to)
    seats[seat], seats[to] = seats[to], seats[seat]
    return Change()


def shuffle(live: LiveRoom, player_id: int) -> Change:
    """Deal the seated people (and bots) to random seats, so teams come out mixed."""
    require_host_in_lobby(live, player_id)
    random.shuffle(live.record.seats)
    return Change()


def learn(live: LiveRoom, player_id: int, msg: Learning) -> bool:
    """The player's progress through the chosen game's lesson while the room waits (``step`` null: they
    stopped). Presence only: nothing is saved, and acceptances of a rematch stand. True if it changed.
    Stopping is taken at any time: a page closing its lesson as the game starts must not be refused."""
    before = live.learning.get(player_id)
    if msg.step is None or msg.of is None:
        live.learning.pop(player_id, None)
    else:
        require_not_playing(live)
        live.learning[player_id] = (msg.step, msg.of)
    return live.learning.get(player_id) != before


def options_reason(err: EngineError, game: str) -> dict[str, Any]:
    """What was wrong with a game's options, as the page phrases it (an unknown game: the game field)."""
    if isinstance(err, InvalidOptions):
        return err.reason()
    return InvalidOptions(str(err), "game", "not_a_choice", game=game).reason()
