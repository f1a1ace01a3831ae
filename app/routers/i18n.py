"""The scripts' copy of a language's catalogue (app/i18n.py).

A route, not JSON inline in every page: the catalogue (every game's strings included) is tens of kilobytes a
language, the same on every page. Named by its content's digest, a browser fetches it once and keeps it;
base.html preloads it, so static/js/i18n.js rarely waits for it."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from app.errors import ApiError
from app.i18n import LANGUAGES, catalogue_json, digest

router = APIRouter(include_in_schema=False)

FOREVER = "public, max-age=31536000, immutable"
"""A digest names one content: it never changes."""


@router.get("/i18n/{lang}/{name}.json")
async def catalogue(lang: str, name: str) -> Response:
    if lang not in LANGUAGES:
        raise ApiError(404, "not_found")
    # A page rendered before a deploy asks for the old digest: it gets today's catalogue, not kept.
    cache = FOREVER if name == digest(lang) else "no-cache"
    return Response(catalogue_json(lang), media_type="application/json", headers={"Cache-Control": cache})
