"""The layout is the architecture: who may import what, and no import circles (function-local imports
and those for the type checker included, so that a circle can hide neither in a function nor under
``if TYPE_CHECKING:``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"
COGS = ROOT / "cogs"  # installed as bot.cogs (pyproject.toml)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] == "cogs":
        parts.insert(0, "bot")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in [*BOT.rglob("*.py"), *COGS.glob("*.py")]}


def imported(path: Path, package: str = "") -> set[str]:
    """Every module ``path`` (of ``package``) imports, when it runs or for the type checker (``if
    TYPE_CHECKING:`` blocks too: a circle hidden there is still a circle); relative imports resolved."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module is not None or node.level > 0):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 0 else ""
            module = ".".join(part for part in (base, node.module) if part)
            found.add(module)
            # ``from bot.interface import autocomplete`` imports the module bot.interface.autocomplete.
            found.update(f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in MODULES)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


IMPORTS = {name: imported(path, package_of(name, path)) for name, path in MODULES.items()}


def imports_discord(name: str) -> bool:
    return any(target == "discord" or target.startswith("discord.") for target in IMPORTS[name])


UI_WITH_DISCORD = {
    # they build discord.Embed (text: its fit_total and Discord's markdown escaping)
    *("bot.ui.board", "bot.ui.card", "bot.ui.damage", "bot.ui.events", "bot.ui.fight"),
    *("bot.ui.results", "bot.ui.settings", "bot.ui.text"),
    "bot.ui.i18n",  # it holds discord.py's app_commands.Translator
}
"""The README's Layout names the same files."""


def test_discord_is_imported_only_by_the_interface_the_cogs_and_the_embed_builders() -> None:
    outside = {
        name
        for name in MODULES
        if imports_discord(name) and not name.startswith(("bot.interface", "bot.cogs"))
    }
    assert outside == UI_WITH_DISCORD


def test_cogs_are_entrypoints_that_only_cogs_import() -> None:
    """Nothing imports a cog but another cog (/mental and the Wound… menu use /wound's flow, in
    cogs/combat.py): the bot loads each one as an extension, found in the folder."""
    cogs = {name for name in MODULES if name.startswith("bot.cogs.")}
    assert {"bot.cogs.combat", "bot.cogs.mental", "bot.cogs.healing"} <= cogs
    assert "bot.cogs.combat" in IMPORTS["bot.cogs.mental"]  # a relative import is seen
    for name, targets in IMPORTS.items():
        if not name.startswith("bot.cogs"):
            assert not {t for t in targets if t.startswith("bot.cogs")}, name


def test_the_core_layers_do_not_reach_up() -> None:
    for name, targets in IMPORTS.items():
        bot_targets = {t for t in targets if t == "bot" or t.startswith("bot.")}
        if name.startswith("bot.rules"):
            assert all(t.startswith("bot.rules") or t == "bot.errors" for t in bot_targets), name
        if name.startswith(("bot.storage", "bot.shards", "bot.actions", "bot.ui", "bot.export_file")):
            assert not any(t.startswith(("bot.interface", "bot.cogs")) for t in bot_targets), name
        if name.startswith(("bot.storage", "bot.shards", "bot.ui", "bot.export_file")):
            assert not any(t.startswith("bot.actions") for t in bot_targets), name
        if name.startswith("bot.storage"):  # the file format is read and written by the actions
            assert "bot.export_file" not in bot_targets, name


def test_the_player_view_reads_the_store_and_the_text_only() -> None:
    """bot.web (the web pages) stands beside the Discord interface: no discord, no cog, no action."""
    web = {name for name in MODULES if name.startswith("bot.web")}
    assert {"bot.web.server", "bot.web.page"} <= web
    for name in web:
        assert not imports_discord(name), name
        above = ("bot.interface", "bot.cogs", "bot.actions")
        assert not any(t.startswith(above) for t in IMPORTS[name]), name


def test_only_storage_touches_the_database() -> None:
    """The store is the one way in: outside bot/storage nothing reads ``store.database`` (its connection,
    its pool, its writer thread)."""
    reaching = sorted(
        name
        for name, path in MODULES.items()
        if not name.startswith("bot.storage")
        and any(
            isinstance(node, ast.Attribute) and node.attr == "database"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    )
    assert reaching == []


def test_no_import_circles() -> None:
    # A module's own packages are already being imported when it runs: those edges close no circle.
    graph = {
        name: {t for t in targets if t in MODULES and not f"{name}.".startswith(f"{t}.")}
        for name, targets in IMPORTS.items()
    }
    done: set[str] = set()
    path: list[str] = []

    def walk(name: str) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        path.append(name)
        for target in sorted(graph[name]):
            walk(target)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        walk(name)


def test_the_checker_sees_a_circle_hidden_in_a_function_or_for_the_type_checker(tmp_path: Path) -> None:
    hidden = tmp_path / "hidden.py"
    hidden.write_text("def f():\n    from bot.interface.results import card\n", encoding="utf-8")
    assert "bot.interface.results" in imported(hidden)
    guarded = tmp_path / "guarded.py"
    guarded.write_text("if TYPE_CHECKING:\n    from bot.interface.client import HarmoniesBot\n")
    assert imported(guarded) == {"bot.interface.client"}
