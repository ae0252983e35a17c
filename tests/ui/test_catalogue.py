"""The catalogues (bot/locale/*/LC_MESSAGES/harmonies.po) against the code: every message has its
translation, with the placeholders of its English; a catalogue holds exactly the messages the code has
(scripts/messages.py's extraction); no unfilled parameter can reach a user: every message renders with
its parameters, and every call site gives each message all of its parameters."""

from __future__ import annotations

import ast
import importlib.util
import string
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.ui import i18n
from bot.ui.i18n import LANGS, t, tn, tnp
from bot.ui.text import t_name

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])
PO_FILES = sorted((ROOT / "bot" / "locale").glob("*/LC_MESSAGES/harmonies.po"))

# Each renderer: where its English is among the arguments (singular, plural), and what it fills in itself.
RENDERERS = {"t": (1, None), "t_name": (1, None), "tn": (1, 2), "tp": (2, None), "tnp": (2, 3)}
IMPLIED = {"t": set(), "t_name": {"name"}, "tn": {"count"}, "tp": set(), "tnp": {"count"}}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def messages(path: Path) -> list[Message]:
    return [m for m in read(path) if m.id]


def forms(message: Message) -> tuple[str, ...]:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return tuple(text or "" for text in strings)


def english(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


def test_there_is_a_french_catalogue_and_it_is_a_language() -> None:
    assert [p.parent.parent.name for p in PO_FILES] == ["fr"]
    assert LANGS == ("en", "fr")
    assert len(messages(PO_FILES[0])) > 400
    assert read(PO_FILES[0]).plural_expr == "(n > 1)"  # French: 0 and 1 are singular


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: p.parent.parent.name)
def test_every_message_has_its_translation(path: Path) -> None:
    untranslated = [(m.context, m.id) for m in messages(path) if m.fuzzy or not all(forms(m))]
    assert untranslated == []


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: p.parent.parent.name)
def test_every_translation_has_exactly_the_placeholders_of_its_english(path: Path) -> None:
    wrong = []
    for m in messages(path):
        wanted = set().union(*(placeholders(e) for e in english(m)))
        wrong += [(m.id, form) for form in forms(m) if placeholders(form) != wanted]
    assert wrong == []


def test_the_check_of_placeholders_sees_a_wrong_one() -> None:
    assert placeholders("{name} est mort") != placeholders("{nom} is dead")


def _messages_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("messages_script", ROOT / "scripts" / "messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_catalogues_hold_exactly_the_messages_of_the_code() -> None:
    """What scripts/messages.py extracts from bot/, cogs/ and the commands' tree is what each .po holds:
    a message added or changed in the code, and not yet in a catalogue, fails here."""
    script = _messages_script()
    code = script.template()
    assert len([m for m in code if m.id]) > 400
    for path in PO_FILES:
        assert script.differences(code, path) == []


def test_the_comparison_sees_a_message_missing_and_one_gone(tmp_path: Path) -> None:
    script = _messages_script()
    code = script.template()
    po = read(PO_FILES[0])
    po.delete("Cancel")
    po.add("A text the code does not have", "Un texte que le code n'a pas")
    changed = tmp_path / "harmonies.po"
    changed.write_bytes(script.render(po))
    found = script.differences(code, changed)
    assert "missing from harmonies.po: (None, 'Cancel')" in found
    assert "no longer in the code: (None, 'A text the code does not have')" in found


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders_with_its_parameters_and_nothing_unfilled(lang: str) -> None:
    for m in messages(PO_FILES[0]):
        params = {name: f"<{name}>" for e in english(m) for name in placeholders(e)}
        if isinstance(m.id, tuple | list):
            params.pop("count", None)  # the count is the plural's
            texts = [tnp(lang, m.context, m.id[0], m.id[1], n, **params) for n in (0, 1, 2)]
        else:
            texts = [i18n.tp(lang, m.context, m.id, **params)]
        for text in texts:
            assert "{" not in text.replace("{{", "") and "}" not in text.replace("}}", ""), m.id
            assert all(f"<{name}>" in text for name in params), m.id


def _message(node: ast.expr) -> list[str]:
    """The English a call's argument names: a literal, or both branches of a choice between two texts
    (``N_("…") if … else N_("…")``); none when it is computed elsewhere (a variable, a table)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
        return _message(node.args[0]) if node.args else []
    if isinstance(node, ast.IfExp):
        return _message(node.body) + _message(node.orelse)
    return []


def calls() -> Iterator[tuple[str, set[str], list[tuple[str | None, str]]]]:
    """``(where, keyword parameters given, (context, English) of the messages named)`` for each call of
    a renderer that names its message in place and passes no ``**params``."""
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            if name not in RENDERERS or any(keyword.arg is None for keyword in node.keywords):
                continue  # **params: checked where they are built
            at, plural = RENDERERS[name]
            if len(node.args) <= at:
                continue
            context = None
            if name in ("tp", "tnp"):
                first = node.args[1]
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str | None)):
                    continue
                context = first.value
            named = [(context, text) for text in _message(node.args[at])]
            if plural is not None:
                named += [(None, text) for text in _message(node.args[plural])]  # the plural's placeholders
            if named:
                given = {keyword.arg for keyword in node.keywords if keyword.arg} | IMPLIED[name]
                yield f"{path.relative_to(ROOT)}:{node.lineno}", given, named


def test_every_call_site_names_a_message_of_the_catalogues() -> None:
    known = {(m.context, english(m)[0]) for m in messages(PO_FILES[0])}
    plurals = {english(m)[1] for m in messages(PO_FILES[0]) if len(english(m)) > 1}
    missing = [
        (where, text)
        for where, _, named in calls()
        for context, text in named
        if (context, text) not in known and text not in plurals
    ]
    assert missing == []


def test_every_call_site_gives_every_parameter_of_its_message() -> None:
    found = 0
    unfilled = []
    for where, given, named in calls():
        found += 1
        for _, text in named:
            if lacks := placeholders(text) - given:
                unfilled.append(f"{where}: {text!r} lacks {sorted(lacks)}")
    assert found > 200  # the check sees the code's calls (not an empty walk)
    assert unfilled == []


def test_the_checks_see_the_damage_line_bug_they_were_written_for() -> None:
    """The damage line once filled ``damage_blow`` without two of its parameters: the renderer raises."""
    with pytest.raises(KeyError, match="effective"):
        t("en", "**Roll {index}**: {terms}; {effective} ⇒ {outcome}", index=1, terms="luck 7")
    assert tn("fr", "Rest: {count} day", "Rest: {count} days", 2) == "Repos\u202f: 2 jours"
    assert t_name("en", "Wounds — {name}", "Aélis", 256) == "Wounds — Aélis"
    source = 'def f(lang):\n    return t(lang, "Wounds — {name}")\n'
    node = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call))
    assert placeholders(_message(node.args[1])[0]) - set() == {"name"}
