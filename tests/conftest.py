"""Fixtures shared by every suite: the database backends (SQLite, and a real PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from bot.ui import i18n
from tests.postgres import Server, Unavailable, postgres_server, unavailable

i18n.STRICT = True  # a message rendered without one of its parameters fails the test, never shows "?"

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Server | str]:
    """The session's PostgreSQL server (started on first use), or why there is none."""
    with ExitStack() as stack:
        try:
            server: Server | str = stack.enter_context(postgres_server())
        except Unavailable as exc:
            server = str(exc)
        yield server


def _database(request: pytest.FixtureRequest, tmp_path: Path, *, migrated: bool) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'data' / 'bot.db'}"
        return
    server = request.getfixturevalue("postgres")  # started only when a PostgreSQL test runs
    if isinstance(server, str):
        unavailable(server)
        return
    url = server.create(migrated=migrated)
    try:
        yield url
    finally:
        server.drop(url)


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each backend (a test using it runs once per backend); on PostgreSQL,
    already migrated (the bot migrates it again at start-up: nothing to do)."""
    yield from _database(request, tmp_path, migrated=True)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database: for the tests where the backend plays no part (command dispatch)."""
    return f"sqlite:///{tmp_path / 'data' / 'bot.db'}"


@pytest.fixture(params=BACKENDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each backend (no schema at all)."""
    yield from _database(request, tmp_path, migrated=False)


@pytest.fixture
def fresh_postgres(request: pytest.FixtureRequest) -> Iterator[Callable[..., str]]:
    """``fresh_postgres(migrated=True)``: a new PostgreSQL database (for tests of PostgreSQL alone)."""
    server = request.getfixturevalue("postgres")
    if isinstance(server, str):
        unavailable(server)
    created: list[str] = []

    def create(*, migrated: bool = True) -> str:
        assert isinstance(server, Server)
        created.append(server.create(migrated=migrated))
        return created[-1]

    yield create
    for url in created:
        assert isinstance(server, Server)
        server.drop(url)
