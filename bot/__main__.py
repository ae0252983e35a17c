"""``python -m bot`` runs the bot; ``python -m bot backup PATH`` makes an online backup;
``python -m bot check`` says whether the bot would start (settings, database), without Discord."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.config import DatabaseSettings, Settings
from bot.storage.errors import StorageError

log = logging.getLogger("bot")


def load_settings() -> Settings:
    try:
        return Settings()  # filled from the environment / .env
    except ValidationError as error:
        fields = {str(e["loc"][0]) for e in error.errors() if e["loc"]}
        if "discord_token" in fields:
            raise SystemExit(
                "error: DISCORD_TOKEN is not set (put it in the environment or in .env)"
            ) from None
        first = error.errors()[0]
        raise SystemExit(f"error: bad setting {first['loc'][0]}: {first['msg']}") from None


def run_check() -> None:
    """Exit 0 when the bot would start, else 1 with a one-line reason (for deploy scripts)."""
    from bot.check import check_database

    settings = load_settings()
    print(f"ok: settings (log level {settings.log_level}, Discord API {settings.discord_api_base})")
    try:
        print("ok: " + asyncio.run(check_database(settings.database_url)))
    except StorageError as error:
        raise SystemExit(f"error: {error}") from None
    if settings.web_port is not None:
        from bot.web.limits import Budget, open_files_at_start

        budget = Budget.for_limit(open_files_at_start())
        print(f"ok: player view on {settings.web_host}:{settings.web_port}: {budget.describe()}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Harmonies wound bot")
    sub = parser.add_subparsers(dest="command")
    backup_cmd = sub.add_parser("backup", help="copy the live database to PATH (SQLite online backup)")
    backup_cmd.add_argument("path")
    sub.add_parser(
        "check",
        help="check the settings and the database (migrations tried on a copy), without Discord: "
        "exit 0 when the bot would start",
    )
    args = parser.parse_args(argv)

    if args.command == "backup":
        from bot.storage.sqlite import backup

        try:
            asyncio.run(backup(DatabaseSettings().database_url, args.path))
        except StorageError as error:
            raise SystemExit(f"error: backup failed: {error}") from None
        print(f"backup written to {args.path}")
        return
    if args.command == "check":
        run_check()
        return

    settings = load_settings()
    from bot.interface.run import run

    run(settings)


if __name__ == "__main__":
    main(sys.argv[1:])
