"""No unfilled parameter can reach a user: every message of the catalogue renders with its parameters in
both languages, and every call site in the code gives each message all of its parameters."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.ui.i18n import CATALOGUE, LANGS, t, t_name, tn

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])

# What each renderer fills in itself, and how it turns the key it is given into catalogue keys.
IMPLIED = {"t": set(), "tn": {"count"}, "t_name": {"name"}}
SUFFIXES = {"t": ("",), "tn": ("_one", "_other"), "t_name": ("",)}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders_with_its_parameters_and_nothing_unfilled(lang: str) -> None:
    for key, entry in CATALOGUE.items():
        params = {name: f"<{name}>" for name in placeholders(entry[lang])}
        text = t(lang, key, **params)  # type: ignore[arg-type]
        assert "{" not in text.replace("{{", "") and "}" not in text.replace("}}", ""), key
        assert all(f"<{name}>" in text for name in params), key


def _key_pattern(node: ast.expr) -> re.Pattern[str] | None:
    """The catalogue keys a call's key argument can name: a literal, or an f-string whose fixed parts
    must match; ``None`` when the key is computed elsewhere (a variable)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.compile(re.escape(node.value))
    if isinstance(node, ast.JoinedStr):
        parts = [
            re.escape(str(part.value)) if isinstance(part, ast.Constant) else "[a-z_]*"
            for part in node.values
        ]
        return re.compile("".join(parts))
    return None


def calls() -> Iterator[tuple[str, bool, set[str], list[str]]]:
    """``(where, exact, keyword parameters given, catalogue keys named)`` for each call of ``t``,
    ``tn`` or ``t_name`` that names its key in place and passes no ``**params`` (``exact``: a literal
    key; an f-string key may name any of the keys its fixed parts match)."""
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            if name not in IMPLIED or len(node.args) < 2:
                continue
            if any(keyword.arg is None for keyword in node.keywords):
                continue  # **params: checked where they are built
            pattern = _key_pattern(node.args[1])
            if pattern is None:
                continue
            keys = [
                key
                for key in CATALOGUE
                if any(pattern.fullmatch(key.removesuffix(s)) and key.endswith(s) for s in SUFFIXES[name])
            ]
            given = {keyword.arg for keyword in node.keywords if keyword.arg} | IMPLIED[name]
            exact = isinstance(node.args[1], ast.Constant)
            yield f"{path.relative_to(ROOT)}:{node.lineno}", exact, given, keys


def test_every_call_site_names_a_message_of_the_catalogue() -> None:
    missing = [where for where, _, _, keys in calls() if not keys]
    assert missing == []


def test_every_call_site_gives_every_parameter_of_its_message() -> None:
    found = 0
    unfilled = []
    for where, exact, given, keys in calls():
        found += 1
        lacking = {key: placeholders(CATALOGUE[key]["en"]) - given for key in keys}
        if exact or not any(not lacks for lacks in lacking.values()):
            unfilled += [f"{where}: {key} lacks {sorted(lacks)}" for key, lacks in lacking.items() if lacks]
    assert found > 200  # the check sees the code's calls (not an empty walk)
    assert unfilled == []


def test_the_checks_see_the_damage_line_bug_they_were_written_for() -> None:
    """The damage line once filled ``damage_blow`` without two of its parameters: the renderer raises."""
    with pytest.raises(KeyError, match="effective"):
        t("en", "**Roll {index}**: {terms}; {effective} ⇒ {outcome}", index=1, terms="luck 7")
    assert tn("fr", "Rest: {count} day", "Rest: {count} days", 2) == "Repos : 2 jours"
    assert t_name("en", "Wounds — {name}", "Aélis", 256) == "Wounds — Aélis"


def _named_keys() -> tuple[set[str], list[re.Pattern[str]]]:
    """Every string written in bot/ and cogs/ (a ``tn`` key with its plural forms), and the pattern of
    every f-string or ``"prefix" + …`` that could build a key (``f"sev_{…}_short"``, ``"name." + …``)."""
    literals: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for path in SOURCES:
        if path.name.startswith("strings_"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
                patterns.append(re.compile(re.escape(str(node.left.value)) + ".*"))
            elif isinstance(node, ast.JoinedStr) and (pattern := _key_pattern(node)) is not None:
                patterns.append(pattern)
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tn"):
                continue
            if (key := _key_pattern(node.args[1])) is not None:
                patterns.append(re.compile(key.pattern + "_(one|other)"))
    # a pattern with hardly any fixed text ("{key}_{form}") would match every key
    fixed = [p for p in patterns if len(re.sub(r"\[a-z_\]\*|\.\*|\\|_|\(one\|other\)", "", p.pattern)) >= 3]
    return literals, fixed


def test_every_message_is_named_somewhere_in_the_code() -> None:
    literals, patterns = _named_keys()
    unused = [k for k in CATALOGUE if k not in literals and not any(p.fullmatch(k) for p in patterns)]
    assert unused == []
