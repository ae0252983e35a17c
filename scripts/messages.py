"""Extract every text users read and update the translations in bot/locale (docs/translating.md).

    .venv/bin/python scripts/messages.py             # update every bot/locale/*/LC_MESSAGES/harmonies.po
    .venv/bin/python scripts/messages.py --check     # say whether they match the code (exit 1 if not)
    .venv/bin/python scripts/messages.py --new de    # start the catalogue of a new language
    .venv/bin/python scripts/messages.py --template harmonies.pot   # write the template alone

The messages are what Babel's extractor finds in bot/ and cogs/ under the names in KEYWORDS (the English
written at the call site), plus every text of the slash commands as discord.py hands it to the
translator (names, descriptions, options, choices; a name with its context: bot.ui.i18n.command_context).
Updating a catalogue is Babel's (``pybabel update``): a new message gets an empty translation, one gone
from the code is dropped, a translation whose English changed is kept but marked fuzzy (not used until
a translator checks it). The tests fail while any message lacks its translation.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import sys
from collections.abc import Iterator, Mapping
from io import BytesIO
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402
from discord import app_commands  # noqa: E402
from discord.ext import commands  # noqa: E402

from bot.ui.i18n import DOMAIN, LOCALE_DIR, command_context  # noqa: E402

KEYWORDS = {
    "t": (2,),  # t(lang, "English", **params)
    "tp": ((2, "c"), 3),  # tp(lang, "context", "English", **params)
    "tn": (2, 3),  # tn(lang, "one English", "several English", count, **params)
    "tnp": ((2, "c"), 3, 4),
    "t_name": (2,),  # t_name(lang, "English {name}", raw_name, limit)
    "N_": (1,),  # a text marked where it is not rendered: a table, a choice between two
    "UserError": (1,),  # a refusal: UserError("English {name}", name=...)
    "Failure": (1,),
    "ImportProblem": (2,),  # a problem of an import file: ImportProblem(where, "English", values)
}
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);"}
"""The plural rule of a new catalogue (``--new``), where Babel's own is not the one wanted."""


def extract_ast(
    fileobj: IO[bytes], keywords: Mapping[str, object], comment_tags: object, options: object
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """Babel's extraction method, on Python's own parser: every call of a keyword, wherever it is (in an
    f-string, nested in another call), with its literal arguments (``None`` for any other)."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in keywords:
                args = tuple(
                    a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                    for a in node.args
                )
                yield node.lineno, name, args, []


def code_messages(catalog: Catalog) -> None:
    for folder in ("bot", "cogs"):
        method_map = [("**.py", extract_ast)]  # Babel takes a callable as well as a name
        found = extract_from_dir(ROOT / folder, method_map=method_map, keywords=KEYWORDS)  # type: ignore[arg-type]
        for filename, lineno, message, comments, context in found:
            where = f"{folder}/{filename}"
            catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)


class _Recorder(app_commands.Translator):
    def __init__(self) -> None:
        self.texts: list[tuple[str | None, str, str]] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.french:  # one locale is enough: every text is asked for each
            where = getattr(context.data, "qualified_name", None) or getattr(context.data, "name", "")
            self.texts.append((command_context(context), string.message, str(where)))
        return None


async def _command_texts() -> list[tuple[str | None, str, str]]:
    """Every text of the slash commands the translator is asked for: (context, English, command)."""
    from bot.config import Settings
    from bot.interface.client import HarmoniesTree, extensions

    bot = commands.Bot(command_prefix=[], intents=discord.Intents.none(), tree_cls=HarmoniesTree)
    bot.settings = Settings.model_construct()  # type: ignore[attr-defined]  # what the cogs' setup reads
    for extension in extensions():
        await bot.load_extension(extension)
    recorder = _Recorder()
    for command in bot.tree.get_commands():
        await command.get_translated_payload(bot.tree, recorder)
    return recorder.texts


def command_messages(catalog: Catalog) -> None:
    for context, english, command in asyncio.run(_command_texts()):
        catalog.add(english, None, auto_comments=[f"/{command}"], context=context)


def template() -> Catalog:
    """Every message of the code and of the commands, untranslated."""
    catalog = Catalog(project="harmonies-wounds", version="", domain=DOMAIN, fuzzy=False)
    code_messages(catalog)
    command_messages(catalog)
    return catalog


def catalogue_paths() -> list[Path]:
    return sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def render(catalog: Catalog) -> bytes:
    out = BytesIO()
    write_po(out, catalog, width=110, include_previous=False, ignore_obsolete=True, include_lineno=False)
    return out.getvalue()


def keys(catalog: Catalog) -> set[tuple[str | None, object]]:
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id}


def differences(code: Catalog, path: Path) -> list[str]:
    """How the catalogue at ``path`` differs from the code: messages missing, gone, untranslated."""
    po = read(path)
    wanted, held = keys(code), keys(po)
    lines = [f"missing from {path.name}: {k!r}" for k in sorted(wanted - held, key=str)]
    lines += [f"no longer in the code: {k!r}" for k in sorted(held - wanted, key=str)]
    for m in po:
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        if m.id and (m.fuzzy or not all(strings)):
            lines.append(f"not translated{' (fuzzy)' if m.fuzzy else ''}: {(m.context, m.id)!r}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only report differences (exit 1 if any)")
    parser.add_argument("--new", metavar="LANG", help="create the catalogue of a new language")
    parser.add_argument("--template", metavar="PATH", type=Path, help="write the template (.pot) to PATH")
    args = parser.parse_args()
    code = template()
    if args.template:
        args.template.write_bytes(render(code))
        return 0
    if args.check:
        problems = [line for path in catalogue_paths() for line in differences(code, path)]
        print("\n".join(problems) or "The catalogues match the code.")
        return 1 if problems else 0
    if args.new:
        path = LOCALE_DIR / args.new / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            print(f"{path} exists already")
            return 1
        catalog = Catalog(locale=args.new, domain=DOMAIN, project="harmonies-wounds", version="", fuzzy=False)
        if args.new in PLURAL_FORMS:
            catalog.mime_headers = [*catalog.mime_headers, ("Plural-Forms", PLURAL_FORMS[args.new])]
        path.parent.mkdir(parents=True)
        path.write_bytes(render(catalog))
    for path in catalogue_paths():
        po = read(path)
        created = po.creation_date
        po.update(code, update_header_comment=False)
        po.creation_date = created  # no change to the file when the messages did not change
        path.write_bytes(render(po))
        print(f"{path.relative_to(ROOT)}: {len([m for m in po if m.id])} messages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
