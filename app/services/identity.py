"""The player token: a random secret in a cookie; the server keeps only its HMAC."""

from __future__ import annotations

import hashlib
import hmac
import secrets

COOKIE = "kr_player"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest that browsers keep a cookie


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def token_hash(secret_key: str, token: str) -> str:
    return hmac.new(secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()
