"""Who a public answer may ping, and which language it speaks."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.interface.replies import mentions_for, public_lang
from bot.rules import Ruleset


def interaction_in(guild_locale: discord.Locale | str | None) -> discord.Interaction[Any]:
    return cast(discord.Interaction[Any], SimpleNamespace(guild_locale=guild_locale))


def test_the_server_setting_wins_over_its_locale() -> None:
    assert public_lang(interaction_in("fr"), Ruleset(language="en")) == "en"
    assert public_lang(interaction_in(discord.Locale.french), Ruleset()) == "fr"


def test_allowed_mentions_only_ever_the_one_player() -> None:
    mentions = mentions_for(42).to_dict()
    assert mentions["users"] == [42]
    assert "everyone" not in mentions["parse"] and "roles" not in mentions["parse"]
    assert mentions_for().to_dict()["parse"] == []
