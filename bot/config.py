"""Settings read from the environment or a ``.env`` file. Built in ``main()``, never at import."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///data/harmonies.db"
DISCORD_API_BASE = "https://discord.com/api/v10"
MAX_SHARD_ID = 65535
IDENTIFY_WINDOW = 5.0
"""Seconds Discord wants between two IDENTIFYs of one bucket (``max_concurrency`` buckets per 5 s)."""


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"`` -> (0, 1, 2, 3); ``"0,2"`` -> (0, 2); ``"0-1,4"`` -> (0, 1, 4). Sorted, no repeats."""
    ids: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise ValueError(f"SHARD_IDS must look like 0-3 or 0,1 (got {text!r})")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"SHARD_IDS: the range {part.strip()} goes backwards")
        if high > MAX_SHARD_ID:
            raise ValueError(f"SHARD_IDS: shard ids stop at {MAX_SHARD_ID}")
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"SHARD_IDS names a shard twice (got {text!r})")
    return tuple(sorted(ids))


def describe_shard_ids(ids: Iterable[int]) -> str:
    """The other way: (0, 1, 2, 4) -> ``"0-2,4"``."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


class DatabaseSettings(BaseSettings):
    """What the maintenance commands (``python -m bot backup``) need: no token."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = DEFAULT_DATABASE_URL


class Settings(DatabaseSettings):
    discord_token: SecretStr = Field(min_length=1)
    log_level: str = "INFO"
    discord_api_base: str = DISCORD_API_BASE
    """Where Discord's REST API lives; only tests point it elsewhere (a local stand-in)."""
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARD_ID + 1)
    """How many shards the bot has in all, the same in every process; None: what Discord recommends."""
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    """The shards this process runs (``SHARD_IDS=0-3`` or ``0,1``); None: all of them."""
    identify_window: float = Field(default=IDENTIFY_WINDOW, ge=0, le=60)
    """Seconds an IDENTIFY keeps its bucket (Discord's is 5 s; tests shorten it)."""
    health_port: int | None = Field(default=None, ge=1, le=65535)
    """With a port, ``GET /healthz`` and ``GET /readyz`` are answered there."""
    health_host: str = "127.0.0.1"
    web_base_url: str = ""
    """The public address the player-view links are built on (``https://harmonies.example.org``); a
    process without it gives no links."""
    web_port: int | None = Field(default=None, ge=1, le=65535)
    """With a port, the player view (``/board link:True``) is served there; unset: no pages."""
    web_host: str = "127.0.0.1"
    """Where the player view listens: keep 127.0.0.1 behind a reverse proxy (docs/player-view.md)."""

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("shard_count", "shard_ids", "health_port", "web_port", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str) and not value.strip():
            return None
        return parse_shard_ids(value) if info.field_name == "shard_ids" and isinstance(value, str) else value

    @field_validator("web_base_url")
    @classmethod
    def _web_address(cls, text: str) -> str:
        """Empty (no player view), or ``http(s)://host[:port][/path]``, without a query, a fragment or a
        password; kept without its trailing slash."""
        value = text.strip()
        if not value:
            return ""
        url = urlsplit(value)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"WEB_BASE_URL must look like https://harmonies.example.org (got {value!r})")
        if url.query or url.fragment or url.username or url.password:
            raise ValueError("WEB_BASE_URL takes no query, fragment, user or password")
        try:
            url.port  # noqa: B018 (a port that is not a number raises here)
        except ValueError:
            raise ValueError(f"WEB_BASE_URL has a bad port (got {value!r})") from None
        return value.rstrip("/")

    @field_validator("web_port")
    @classmethod
    def _web_needs_address(cls, port: int | None, info: ValidationInfo) -> int | None:
        if port is not None and not info.data.get("web_base_url"):
            raise ValueError("WEB_PORT needs WEB_BASE_URL (the public address of the links)")
        return port

    @field_validator("shard_ids")
    @classmethod
    def _shards_exist(cls, ids: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if ids is None:
            return None
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the same total in every process)")
        beyond = [i for i in ids if i >= count]
        if beyond:
            raise ValueError(f"SHARD_IDS {beyond[0]} is not below SHARD_COUNT {count} (shards count from 0)")
        return ids
