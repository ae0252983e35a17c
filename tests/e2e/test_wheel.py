"""Install like a user: the wheel that ``scripts/dist.sh`` builds, with its locked requirements, in a
venv of its own, then ``python -m bot`` started from another folder against the Discord stand-in.

The checkout is nowhere on that bot's path: it runs from the venv's site-packages, finds its
migrations there, and keeps its database under the folder it was started from (the default URL).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.databases import latest_version
from tests.e2e.process import REPO, BotProcess
from tests.e2e.running import server_payload, wait_ready_after
from tests.fakediscord import DiscordStandin
from tests.table import GM_ROLE, GUILD, Table

pytestmark = pytest.mark.slow

#: Where the locked uv of the dev group lives: scripts/dist.sh takes it from the PATH.
SCRIPTS = sysconfig.get_path("scripts")


def run(argv: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without anything that could lead a child back to the checkout or its venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join([SCRIPTS, env.get("PATH", "")])
    env.update(extra)
    return env


def build_and_install(work: Path) -> Path:
    """``scripts/dist.sh``, then the README's install (with uv's installer, which reuses its cache):
    the locked requirements with ``--require-hashes``, then the wheel alone. Returns the venv's python."""
    dist = work / "dist"
    run(["bash", REPO / "scripts" / "dist.sh", dist], cwd=REPO, env=clean_env())
    (wheel,) = dist.glob("harmonies_wounds-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    # cogs/ and migrations/ are installed inside bot/, and nothing else at the top but bot/ itself.
    inside = {"bot": "bot", "cogs": "bot/cogs", "migrations": "bot/migrations"}
    modules = {
        f"{inside[p.relative_to(REPO).parts[0]]}/{p.relative_to(REPO).as_posix().split('/', 1)[1]}"
        for top in inside
        for p in (REPO / top).glob("**/*.py")
    }
    missing = sorted(m for m in modules if m not in names)
    assert not missing, f"modules missing from {wheel.name}: {missing}"
    migrations = sorted(
        f"bot/{p.relative_to(REPO).as_posix()}" for p in (REPO / "migrations").glob("*/*.sql")
    )
    assert migrations and all(m in names for m in migrations), sorted(names)  # sqlite/ and postgres/
    catalogues = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "bot" / "locale").glob("*/*/*.po"))
    assert catalogues and all(c in names for c in catalogues), sorted(names)  # the translations
    assert {n.split("/")[0] for n in names} == {"bot", wheel.name.split("-")[0] + "-0.1.0.dist-info"}

    venv = work / "venv"
    run([sys.executable, "-m", "venv", venv], cwd=work, env=clean_env())
    python = venv / "bin" / "python"
    uv = Path(SCRIPTS) / "uv"
    env = clean_env(UV_PYTHON_DOWNLOADS="never")
    install: list[str | Path] = [uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", python]
    run([*install, "--require-hashes", "-r", dist / "requirements.txt"], cwd=work, env=env)
    run([*install, "--no-deps", wheel], cwd=work, env=env)
    return python


async def test_the_installed_wheel_runs_from_another_folder(tmp_path: Path) -> None:
    python = await asyncio.to_thread(build_and_install, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    site = run(
        [
            python,
            "-c",
            "import bot, bot.storage.migrations as m; print(bot.__file__); print(m.MIGRATIONS_DIR)",
        ],
        cwd=elsewhere,
        env=clean_env(),
    ).split()
    assert all(line.startswith(str(tmp_path / "venv" / "lib")) for line in site), site
    french = "from bot.ui.i18n import LANGS, t; print(*LANGS, t('fr', 'Cancel'))"
    assert run([python, "-c", french], cwd=elsewhere, env=clean_env()).strip() == "en fr Annuler"

    async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
        env = clean_env(**standin.bot_env(LOG_LEVEL="INFO"))
        env.pop("DATABASE_URL", None)  # the default: data/harmonies.db under the folder it starts in
        assert run([python, "-m", "bot", "check"], cwd=elsewhere, env=env).splitlines()[1] == (
            "ok: database data/harmonies.db does not exist yet: the first start creates it "
            f"(schema version {latest_version()})"
        )
        proc = await BotProcess.start(
            [str(python), "-m", "bot"], env=env, log_path=tmp_path / "bot.log", cwd=elsewhere
        )
        standin.watch(proc.unexpected_exit)
        try:
            await wait_ready_after(standin, proc, within=60)
            table = Table.over(standin, GUILD, gm_role=GM_ROLE)
            shown = await table.say("character create", {"name": "Aria", "corps": 2})
            assert shown.embeds[0]["title"] == "Aria", shown.text
            assert await proc.stop(grace=8, sig=signal.SIGTERM) == 0, proc.output()
        finally:
            await proc.stop()
            print(f"---- installed bot output (exit {proc.returncode}) ----\n{proc.output()}")

    assert (elsewhere / "data" / "harmonies.db").is_file()
    assert " INFO discord.client: " in proc.output()  # the bot's own log lines, on stdout
    checked = run([python, "-m", "bot", "check"], cwd=elsewhere, env=env).splitlines()
    assert checked[1] == f"ok: database data/harmonies.db at schema version {latest_version()}, up to date"
