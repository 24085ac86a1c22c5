"""The JSON API under /api: one router per resource (app/main.py includes each)."""

from __future__ import annotations

from app.routes import daily, games, matches, me, players, rooms

ROUTERS = (games.router, rooms.router, me.router, matches.router, players.router, daily.router)
