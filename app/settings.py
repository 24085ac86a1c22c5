"""All configuration, from environment variables (or an ``.env`` file), in one place."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app import proxies, push_guard

INSECURE_SECRET = "change-me-in-production"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    environment: Literal["development", "production"] = Field(
        "development", description="production refuses insecure defaults and logs JSON"
    )
    database_url: str = Field(
        "sqlite:///./data/kartenrunde.db",
        description="SQLAlchemy URL; postgresql+psycopg://user:pass@host/db for PostgreSQL",
    )
    redis_url: str | None = Field(
        None,
        pattern=r"^rediss?://",
        description="Redis for several server processes: they share rooms, presence and "
        "fan-out through it (optional; one process needs none); redis:// or rediss://",
    )
    public_base_url: str | None = Field(
        None, description="base of share links behind a proxy, e.g. https://cards.example.org"
    )
    secret_key: str = Field(INSECURE_SECRET, description="signs seat tokens; keep it secret")
    room_idle_minutes: int = Field(
        120, ge=1, description="rooms with no activity for this long are closed"
    )
    idle_check_seconds: float = Field(
        60.0, gt=0, le=3600, description="how often each process looks for idle rooms"
    )
    log_level: str = Field("INFO", description="DEBUG, INFO, WARNING or ERROR")
    log_format: Literal["auto", "json", "text"] = Field(
        "auto", description="auto: JSON lines in production, readable text in development"
    )
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="origins besides the site's own whose pages may open websockets and send "
        "requests that change something (JSON list)",
    )
    max_message_bytes: int = Field(4096, ge=256, description="largest websocket message")
    max_body_bytes: int = Field(
        64 * 1024,
        ge=1024,
        description="largest HTTP request body; a larger one is refused (413) before it is read",
    )
    messages_per_second: float = Field(
        20.0,
        gt=0,
        description="websocket messages a connection may send per second (bursts of one "
        "second's worth); a connection that sends faster is closed with 4429",
    )
    max_connections_per_address: int = Field(
        32, ge=1, description="open websockets per client address, over all rooms"
    )
    max_connections_per_room: int = Field(
        64, ge=2, description="open websockets per room, players and spectators together"
    )
    rooms_per_address_per_minute: int = Field(
        10, ge=1, description="rooms one client address may create per minute"
    )
    send_queue_messages: int = Field(
        64,
        ge=8,
        description="messages waiting for one websocket; a connection further behind is closed",
    )
    send_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="longest a write to one websocket may stall before it is closed",
    )
    metrics_port: int | None = Field(
        None,
        ge=1,
        le=65535,
        description="serve /metrics on this port only, for the operator's scraper; unset: "
        "on the site's own port, to requests from this machine (loopback) that no proxy "
        "relayed",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1,::1",
        description="peers whose X-Forwarded-For/-Proto are believed (app/proxies.py)",
    )
    bot_move_delay_seconds: float = Field(
        0.8,
        ge=0,
        le=30,
        description="shortest time between a move and the computer's answer, so that a "
        "person can follow it",
    )
    bot_think_seconds: float = Field(
        1.0, gt=0, le=30, description="how long the strong computer player thinks per move"
    )
    bot_processes: int = Field(
        1, ge=1, le=64, description="worker processes in which computer players think"
    )
    search_processes: int = Field(
        1,
        ge=1,
        le=64,
        description="worker processes for Scoundrel's best line and hints",
    )
    search_queue: int = Field(
        8,
        ge=1,
        le=1000,
        description="different searches waiting or running at once (twice as many requests "
        "may wait for them); more get 'busy, try again'",
    )
    analysis_ahead: bool = Field(
        True,
        description="search Scoundrel's best line as each match is dealt (when no other "
        "search waits or runs), so the end screen need not wait; off: once it is asked for",
    )
    takeover_seconds: float = Field(
        180.0,
        gt=0,
        description="how long a seated person may be away during their turn before the "
        "opponent may let the computer play for them or end the match",
    )
    turn_check_seconds: float = Field(
        60.0,
        gt=0,
        le=3600,
        description="how often each process looks for turn-based moves whose time ran out "
        "or has a quarter left",
    )
    test_clock_file: Path | None = Field(
        None,
        description="tests only, refused in production: a file holding seconds by which "
        "the server's clock is moved on (read at every look at the clock)",
    )
    public_history: bool = Field(
        False,
        description="the history may list every finished match (off: only your own matches)",
    )
    daily_time_zone: str = Field(
        "UTC",
        description="the IANA time zone whose midnight starts a new daily deal "
        "(e.g. Europe/Berlin)",
    )
    vapid_private_key: str | None = Field(
        None,
        description="Web Push: the server's VAPID private key (PEM, or raw base64url); "
        "unset: one is made at first start and kept in the database",
    )
    push_contact: str = Field(
        "mailto:admin@localhost",
        description="Web Push: the contact (mailto: or https:) push services may write to",
    )
    push_queue: int = Field(
        1000, ge=1, description="Web Push: notices waiting to be sent; beyond, one is dropped"
    )
    push_tries: int = Field(3, ge=1, le=10, description="Web Push: tries per notice and device")
    push_retry_seconds: float = Field(
        1.0, ge=0, description="Web Push: wait before the second try (doubled for each next)"
    )
    push_timeout_seconds: float = Field(
        10.0, gt=0, description="Web Push: how long one request to a push service may take"
    )
    push_ttl_seconds: int = Field(
        3600, ge=0, description="Web Push: how long a push service keeps an undelivered notice"
    )
    push_services: list[str] = Field(
        default_factory=lambda: list(push_guard.BROWSERS_PUSH_SERVICES),
        description="Web Push: the push services' host names a subscription may name (JSON "
        "list; *.example.com: its subdomains); by default the browsers' own",
    )
    push_test_origins: list[str] = Field(
        default_factory=list,
        description="tests only, refused in production: the tests' push services "
        "(scheme://host:port, JSON list) the push rules let through: plain http, any port, "
        "loopback, an unverified certificate",
    )

    @field_validator("forwarded_allow_ips")
    @classmethod
    def known_proxy_entries(cls, value: str) -> str:
        proxies.parse(value)
        return value

    @field_validator("push_services")
    @classmethod
    def push_services_are_host_names(cls, value: list[str]) -> list[str]:
        return [push_guard.checked_push_service(entry) for entry in value]

    @field_validator("push_test_origins")
    @classmethod
    def push_test_origins_are_origins(cls, value: list[str]) -> list[str]:
        return [push_guard.checked_test_origin(entry) for entry in value]

    @field_validator("daily_time_zone")
    @classmethod
    def known_time_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {value!r}; an IANA name like Europe/Berlin"
            ) from None
        return value

    @model_validator(mode="after")
    def refuse_test_clock_in_production(self) -> Settings:
        if self.environment == "production" and self.test_clock_file is not None:
            raise ValueError("TEST_CLOCK_FILE is for tests only; production keeps real time")
        return self

    @model_validator(mode="after")
    def refuse_push_test_origins_in_production(self) -> Settings:
        if self.environment == "production" and self.push_test_origins:
            raise ValueError(
                "PUSH_TEST_ORIGINS is for tests only; production sends only to push services"
            )
        return self

    @model_validator(mode="after")
    def refuse_insecure_production(self) -> Settings:
        if self.environment == "production" and (
            self.secret_key == INSECURE_SECRET or len(self.secret_key) < 32
        ):
            raise ValueError(
                "SECRET_KEY must be set to a random value of at least 32 characters in "
                "production (for example: python -c 'import secrets; print(secrets.token_hex(32))')"
            )
        return self


@lru_cache
def get_settings() -> Settings:
    return Settings()
