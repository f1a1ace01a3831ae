"""Server-rendered pages (Jinja2): home, room (lobby + game), rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader
from starlette.exceptions import HTTPException  # FastAPI's and app.errors.ApiError both derive from it

from app import codes, game_folders, i18n
from app.deps import HubDep, OptionalPlayer, ServicesDep, base_url
from app.queries import leaderboard
from app.routers.games import game_catalogue
from app.routers.rooms import find_room
from app.typography import typography
from engines import registry

TEMPLATE_FOLDER = Path(__file__).resolve().parents[2] / "templates"
TEMPLATES = Jinja2Templates(directory=str(TEMPLATE_FOLDER))
# A game's rules pages live in its folder (app/game_folders.py), named games/<game>/rules/<lang>.html.
TEMPLATES.env.loader = ChoiceLoader(
    [
        FileSystemLoader(TEMPLATE_FOLDER),
        PrefixLoader({game_folders.TEMPLATE_PREFIX: FileSystemLoader(game_folders.FOLDERS)}),
    ]
)
TEMPLATES.env.filters["typography"] = typography


def has_lesson(game: str) -> bool:
    """Whether ``/learn/<game>`` has a lesson to show (the pages link to it only then)."""
    try:
        return registry.get_game(game).lesson is not None
    except registry.UnknownGame:
        return False


def lesson_games() -> list[str]:
    """The games that have a lesson, for a page whose game can change (the room's "How to play")."""
    return [game.name for game in registry.games() if game.lesson is not None]


TEMPLATES.env.globals.update(
    game_icon=game_folders.icon_url,
    game_icons=game_folders.icon_urls,
    rules_pages=game_folders.rules_templates,
    has_lesson=has_lesson,
    lesson_games=lesson_games,
)
i18n.install(TEMPLATES.env.globals)
router = APIRouter(include_in_schema=False)


def _me(player: Any) -> dict[str, Any] | None:
    return None if player is None else {"id": player.id, "name": player.name}


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, player: OptionalPlayer) -> HTMLResponse:
    games = [g.model_dump() for g in game_catalogue()]
    return TEMPLATES.TemplateResponse(request, "home.html", {"me": _me(player), "games": games})


@router.get("/r/{code}", response_class=HTMLResponse)
async def room_page(
    code: str, request: Request, player: OptionalPlayer, hub: HubDep, services: ServicesDep
) -> HTMLResponse:
    try:
        live = await find_room(services, request, code)
    except HTTPException as err:
        message = f"There is no room {code}." if err.status_code == 404 else str(err.detail)
        key = "error.no_room" if err.status_code == 404 else None  # translated in static/i18n
        return TEMPLATES.TemplateResponse(
            request,
            "error.html",
            {"me": _me(player), "status": err.status_code, "message": message, "message_key": key, "code": code},
            status_code=err.status_code,
        )
    base = base_url(request, hub)
    return TEMPLATES.TemplateResponse(
        request,
        "room.html",
        {
            "me": _me(player),
            "code": live.code,
            "room": live.summary(base),
            "join_url": f"{base}/r/{live.code}",
            "games": [g.model_dump() for g in game_catalogue()],
        },
    )


@router.get("/leaderboard/{game}", response_class=HTMLResponse)
async def leaderboard_page(game: str, request: Request, player: OptionalPlayer, services: ServicesDep) -> HTMLResponse:
    games = {g.name: g for g in game_catalogue()}
    if game not in games:
        return TEMPLATES.TemplateResponse(
            request,
            "error.html",
            {
                "me": _me(player),
                "status": 404,
                "message": f"No game called {game}.",
                "message_key": "error.no_game",
                "game_name": game,
            },
            status_code=404,
        )
    rows = await leaderboard(services.sessions, game)
    return TEMPLATES.TemplateResponse(
        request,
        "leaderboard.html",
        {
            "me": _me(player),
            "game": games[game].model_dump(),
            "rows": rows,
            "games": [g.model_dump() for g in games.values()],
        },
    )


@router.get("/replay/import", response_class=HTMLResponse)
async def replay_import_page(request: Request, player: OptionalPlayer) -> HTMLResponse:
    return TEMPLATES.TemplateResponse(request, "replay_import.html", {"me": _me(player)})


@router.get("/replay/{game_id}", response_class=HTMLResponse)
async def replay_page(game_id: int, request: Request, player: OptionalPlayer) -> HTMLResponse:
    """Step through a finished game (the data comes from /api/history)."""
    return TEMPLATES.TemplateResponse(request, "replay.html", {"me": _me(player), "game_id": game_id})


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request, player: OptionalPlayer) -> HTMLResponse:
    games = [g.model_dump() for g in game_catalogue()]
    return TEMPLATES.TemplateResponse(request, "rules.html", {"me": _me(player), "game": None, "games": games})


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(game: str, request: Request, player: OptionalPlayer) -> HTMLResponse:
    games = {g.name: g for g in game_catalogue()}
    if game not in games:
        return TEMPLATES.TemplateResponse(
            request,
            "error.html",
            {
                "me": _me(player),
                "status": 404,
                "message": f"No game called {game}.",
                "message_key": "error.no_game",
                "game_name": game,
            },
            status_code=404,
        )
    return TEMPLATES.TemplateResponse(
        request,
        "rules.html",
        {
            "me": _me(player),
            "game": games[game].model_dump(),
            "games": [g.model_dump() for g in games.values()],
        },
    )


@router.get("/learn/{game}", response_class=HTMLResponse)
async def learn_page(game: str, request: Request, player: OptionalPlayer) -> HTMLResponse:
    """A game's lesson (static/js/learn.js plays it through /api/learn). ``from`` names the room the learner
    came from ("Back to the room"); ``embed=1`` draws it without the site's header, for a panel in a room."""
    games = {g.name: g for g in game_catalogue()}
    if game not in games or not has_lesson(game):
        return TEMPLATES.TemplateResponse(
            request,
            "error.html",
            {
                "me": _me(player),
                "status": 404,
                "message": f"No lesson for {game}.",
                "message_key": "error.no_game",
                "game_name": game,
            },
            status_code=404,
        )
    room = codes.normalise(request.query_params.get("from", ""))
    return TEMPLATES.TemplateResponse(
        request,
        "learn.html",
        {
            "me": _me(player),
            "game": games[game].model_dump(),
            "from_room": room if codes.is_well_formed(room) else None,
            "embed": request.query_params.get("embed") == "1",
        },
    )
