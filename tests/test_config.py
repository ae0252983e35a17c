"""Settings of the shards and of the health checks: what the environment gives, and the one-line
errors bad values get at start-up."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.__main__ import load_settings
from bot.config import Settings, describe_shard_ids, parse_shard_ids


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.chdir(str(tmp_path))  # no stray .env
    for name in ("SHARD_COUNT", "SHARD_IDS", "IDENTIFY_WINDOW", "HEALTH_PORT", "HEALTH_HOST"):
        monkeypatch.delenv(name, raising=False)
    for name in ("WEB_PORT", "WEB_HOST", "WEB_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "token")


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("0", (0,)),
        ("0-3", (0, 1, 2, 3)),
        ("0,1", (0, 1)),
        (" 4, 0-1 ", (0, 1, 4)),
        ("2-2", (2,)),
    ],
)
def test_shard_ids_are_read_as_ranges_and_lists(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize("ids", [(0,), (0, 1, 2, 3), (0, 2), (0, 1, 4, 5, 6, 9)])
def test_shard_ids_are_described_as_they_are_written(ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(describe_shard_ids(ids)) == ids


def test_unset_means_one_process_with_the_count_discord_recommends() -> None:
    settings = Settings()
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert settings.health_port is None and settings.health_host == "127.0.0.1"
    assert settings.identify_window == 5.0


def test_empty_values_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "")
    monkeypatch.setenv("SHARD_IDS", " ")
    monkeypatch.setenv("HEALTH_PORT", "")
    settings = Settings()
    assert (settings.shard_count, settings.shard_ids, settings.health_port) == (None, None, None)


def test_the_player_view_is_off_unless_a_port_and_an_address_are_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = Settings()
    assert (settings.web_port, settings.web_host, settings.web_base_url) == (None, "127.0.0.1", "")
    monkeypatch.setenv("WEB_PORT", "8088")
    monkeypatch.setenv("WEB_HOST", "0.0.0.0")
    monkeypatch.setenv("WEB_BASE_URL", " https://harmonies.example.org/table/ ")
    settings = Settings()
    assert (settings.web_port, settings.web_host) == (8088, "0.0.0.0")
    assert settings.web_base_url == "https://harmonies.example.org/table"


def test_a_process_runs_the_shards_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2-3")
    monkeypatch.setenv("HEALTH_PORT", "8081")
    monkeypatch.setenv("HEALTH_HOST", "0.0.0.0")
    settings = Settings()
    assert (settings.shard_count, settings.shard_ids) == (4, (2, 3))
    assert (settings.health_host, settings.health_port) == ("0.0.0.0", 8081)


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-2"}, "SHARD_IDS 2 is not below SHARD_COUNT 2"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "SHARD_IDS must look like 0-3 or 0,1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-"}, "SHARD_IDS must look like 0-3 or 0,1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "-1"}, "SHARD_IDS must look like 0-3 or 0,1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "the range 3-1 goes backwards"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,0-1"}, "names a shard twice"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-99999999"}, "shard ids stop at 65535"),
        ({"SHARD_COUNT": "0"}, "shard_count: Input should be greater than or equal to 1"),
        ({"SHARD_COUNT": "two"}, "shard_count: Input should be a valid integer"),
        ({"HEALTH_PORT": "70000"}, "health_port: Input should be less than or equal to 65535"),
        ({"IDENTIFY_WINDOW": "-1"}, "identify_window: Input should be greater than or equal to 0"),
        ({"WEB_PORT": "8080"}, "WEB_PORT needs WEB_BASE_URL"),
        ({"WEB_PORT": "0", "WEB_BASE_URL": "https://a.example"}, "greater than or equal to 1"),
        ({"WEB_BASE_URL": "harmonies.example.org"}, "WEB_BASE_URL must look like https://"),
        ({"WEB_BASE_URL": "ftp://harmonies.example.org"}, "WEB_BASE_URL must look like https://"),
        ({"WEB_BASE_URL": "https://a.example/?x=1"}, "WEB_BASE_URL takes no query"),
        ({"WEB_BASE_URL": "https://me:pw@a.example"}, "WEB_BASE_URL takes no query"),
        ({"WEB_BASE_URL": "https://a.example:port"}, "WEB_BASE_URL has a bad port"),
    ],
)
def test_bad_values_get_a_one_line_error_at_start_up(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], said: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()
    with pytest.raises(SystemExit) as stopped:
        load_settings()
    message = str(stopped.value.code)
    assert message.startswith("error: bad setting ") and "\n" not in message
    assert said in message, message
