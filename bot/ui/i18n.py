"""The gettext reader: a message in the reader's language, and the slash commands' translator.

Every text is written in English where it is used (``t(lang, "No character named {name}.", name=...)``,
``tn`` with a plural, ``tp`` with a context): the English is the message id, translated by the ``.po``
catalogues of ``bot/locale`` (``scripts/messages.py`` updates them: docs/translating.md).
"""

from __future__ import annotations

import gettext
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import discord
from babel.messages.pofile import read_po
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

log = logging.getLogger(__name__)

Lang = str
"""A language: ``"en"`` (the messages as written) or one of ``bot/locale`` (``"fr"``)."""
MISSING = "?"
STRICT = False
"""Set by the tests: a message parameter missing at a call site, or a message that no catalogue holds,
raises :class:`MissingParameter` instead of showing ``?`` (in production a user sees ``?`` or the English,
and the omission is logged)."""

LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"
DOMAIN: Final = "harmonies"


class MissingParameter(KeyError):
    """A message was rendered without one of its parameters, or is in no catalogue (a bug at the call
    site, or a catalogue not updated)."""


@dataclass(frozen=True)
class Catalogue:
    """One language's translations: ``(context, English)`` → the text, or its plural forms."""

    messages: dict[tuple[str | None, str], str | tuple[str, ...]]
    plural: Callable[[int], int]


def read_catalogue(path: Path) -> Catalogue:
    """The translated messages of the ``.po`` file at ``path`` (fuzzy or empty ones are left out)."""
    with path.open("rb") as file:
        po = read_po(file, locale=path.parent.parent.name)
    messages: dict[tuple[str | None, str], str | tuple[str, ...]] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list) and isinstance(message.string, tuple | list):
            forms = tuple(message.string)
            if all(forms):
                messages[message.context, str(message.id[0])] = forms
        elif isinstance(message.string, str) and message.string:
            messages[message.context, str(message.id)] = message.string
    return Catalogue(messages, gettext.c2py(po.plural_expr))


CATALOGUES: Final[dict[str, Catalogue]] = {
    path.parent.parent.name: read_catalogue(path)
    for path in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
}
LANGS: Final[tuple[Lang, ...]] = ("en", *CATALOGUES)
KNOWN: Final = frozenset(key for catalogue in CATALOGUES.values() for key in catalogue.messages)
"""Every message some catalogue translates: under the tests, rendering any other one fails."""


def lang_of(locale: discord.Locale | str | None) -> Lang:
    """``fr``, ``fr-FR``, ``fr_CA``… → ``"fr"`` (a language of ``bot/locale``); anything else → ``"en"``."""
    if locale is None:
        return "en"
    value = str(getattr(locale, "value", locale))  # a discord.Locale, or its value
    lang = value.strip().lower().replace("_", "-").split("-")[0]
    return lang if lang in CATALOGUES else "en"


TEXTS: Final[dict[Lang, dict[str, str]]] = {
    lang: {
        message: found if isinstance(found, str) else found[0]
        for (context, message), found in catalogue.messages.items()
        if context is None
    }
    for lang, catalogue in CATALOGUES.items()
}
"""Each language's messages without a context (those :func:`t` renders), looked up in one step;
English is every known message as itself."""
TEXTS["en"] = {message: message for context, message in KNOWN if context is None}


def _translation(lang: Lang, context: str | None, message: str) -> str | tuple[str, ...] | None:
    if STRICT and (context, message) not in KNOWN:
        raise MissingParameter(f"message {message!r} (context {context!r}) is in no catalogue")
    catalogue = CATALOGUES.get(lang)
    if catalogue is None:
        return None
    found = catalogue.messages.get((context, message))
    if found is None:
        log.warning("Message %r (context %r) has no translation in %r", message, context, lang)
    return found


def _fill(message: str, template: str, params: dict[str, object]) -> str:
    if "{" not in template:
        return template  # nothing to fill in (most labels)
    try:
        return template.format(**params)
    except KeyError as missing:  # shown as "?" (and logged) rather than failing the answer
        if STRICT:
            raise MissingParameter(f"message {message!r} rendered without its parameter {missing}") from None
        log.warning("Message %r rendered without its parameter %s", message, missing)
        return template.format_map(defaultdict(lambda: MISSING, params))


def tp(lang: Lang, context: str | None, message: str, /, **params: object) -> str:
    """The English ``message`` (in ``context``) in ``lang``, with ``params`` filled in. Parameters are
    inserted as given: escape user text before passing it (:func:`bot.ui.text.escape`)."""
    found = _translation(lang, context, message)
    template = found if isinstance(found, str) else found[0] if found else message
    return _fill(message, template, params)


def t(lang: Lang, message: str, /, **params: object) -> str:
    """The English ``message`` in ``lang`` with ``params`` filled in (see :func:`tp`)."""
    template = TEXTS.get(lang, TEXTS["en"]).get(message)
    if template is None:  # not translated: logged, or under the tests an error
        return tp(lang, None, message, **params)
    return _fill(message, template, params)


def plural_index(lang: Lang, count: int) -> int:
    """Which plural form ``count`` takes in ``lang``: 0 the singular (English: only 1; French: 0 and 1)."""
    catalogue = CATALOGUES.get(lang)
    if catalogue is None:
        return 0 if abs(count) == 1 else 1
    return catalogue.plural(abs(count))


def tnp(lang: Lang, context: str | None, singular: str, plural: str, count: int, /, **params: object) -> str:
    """The English ``singular`` or ``plural`` by ``count``, in ``lang`` (gettext's ``npgettext``), with
    ``count`` among the parameters."""
    index = plural_index(lang, count)
    found = _translation(lang, context, singular)
    if isinstance(found, tuple) and index < len(found):
        template = found[index]
    else:
        template = singular if plural_index("en", count) == 0 else plural
    return _fill(singular, template, {"count": count, **params})


def tn(lang: Lang, singular: str, plural: str, count: int, /, **params: object) -> str:
    """The English ``singular`` or ``plural`` by ``count`` (gettext's ``ngettext``): see :func:`tnp`."""
    return tnp(lang, None, singular, plural, count, **params)


# ---- The slash commands: discord.py's translator gets each English text (``locale_str("…")``: names,
# descriptions, choices) with where it is; a name's context says which name it is.


def command_context(context: app_commands.TranslationContextTypes) -> str | None:
    """The gettext context of a command's text: ``/heal mental`` (a command's or group's name), ``menu``,
    ``option``, ``choice``; none for a description (a sentence is its own context)."""
    match context.location:
        case Where.command_name | Where.group_name:
            data = context.data
            if isinstance(data, app_commands.Command | app_commands.Group):
                return "/" + data.qualified_name
            return "menu"
        case Where.parameter_name:
            return "option"
        case Where.choice_name:
            return "choice"
        case _:
            return None


class HarmoniesTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        catalogue = CATALOGUES.get(lang_of(locale))  # none for English, and for a language we lack
        if catalogue is None:
            return None
        found = catalogue.messages.get((command_context(context), string.message))
        return found if isinstance(found, str) else None
