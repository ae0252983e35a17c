"""The systemd units of docs/ stop the bot the way it stops: SIGTERM, and time enough to finish the
interactions in flight before systemd's SIGKILL (docs/operations.md, "Deploying")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.interface.run import DRAIN_S
from bot.web.limits import MOST_CONNECTIONS, RESERVE_FILES, Budget

DOCS = Path(__file__).resolve().parents[1] / "docs"
EXIT_WITHIN = 10.0  # the bot exits within 10 s of a SIGTERM (tests/e2e/test_graceful_stop.py)


def service_settings(unit: Path) -> dict[str, str]:
    settings, section = {}, ""
    for line in unit.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key] = value
    return settings


@pytest.mark.parametrize("name", ["harmonies-bot.service", "harmonies-bot@.service"])
def test_the_unit_waits_longer_than_the_bot_takes_to_stop(name: str) -> None:
    settings = service_settings(DOCS / name)
    assert settings["KillSignal"] == "SIGTERM"
    timeout = float(settings["TimeoutStopSec"])
    assert DRAIN_S < EXIT_WITHIN < timeout <= 2 * EXIT_WITHIN, (DRAIN_S, timeout)


@pytest.mark.parametrize("name", ["harmonies-bot.service", "harmonies-bot@.service"])
def test_the_unit_gives_the_player_view_its_whole_budget(name: str) -> None:
    limit = int(service_settings(DOCS / name)["LimitNOFILE"])
    assert Budget.for_limit(limit).connections == MOST_CONNECTIONS
    assert Budget.for_limit(limit).reserve >= RESERVE_FILES
