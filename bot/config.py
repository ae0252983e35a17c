"""Settings read from the environment or a ``.env`` file. Built in ``main()``, never at import."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///data/harmonies.db"
DISCORD_API_BASE = "https://discord.com/api/v10"


class DatabaseSettings(BaseSettings):
    """What the maintenance commands (``python -m bot backup``) need: no token."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = DEFAULT_DATABASE_URL


class Settings(DatabaseSettings):
    discord_token: SecretStr = Field(min_length=1)
    log_level: str = "INFO"
    discord_api_base: str = DISCORD_API_BASE
    """Where Discord's REST API lives; only tests point it elsewhere (a local stand-in)."""
    bench_floor: bool = False
    """BENCH_FLOOR=1 adds ``/bench-floor``, a command answering a fixed embed with no database: the
    floor of the end-to-end benchmark (``python -m bench e2e``). Off in normal use."""

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level
