"""The words of the results, through the real dispatch (issue 37, point 4): English singular and plural
and its percent form; French typography (a narrow no-break space before : ; ! ? % and inside « »),
neutral, with one word for death."""

from __future__ import annotations

from tests.table import ALICE, Table, public, refused

NNBSP = "\u202f"


async def test_english_says_one_day_one_wound_one_blow_and_ten_percent(table: Table) -> None:
    await table.create("Aria", ALICE)
    public(await table.run("wound", {"severity": "light", "character": "Aria", "note": "arrow"}))
    card = public(await table.run("character show", {"character": "Aria"}))
    assert "rested 0/1 day (least severe: light wound)" in card and "0/1 days" not in card
    public(await table.run("rest", {"days": 3}))
    card = public(await table.run("character show", {"character": "Aria"}))
    assert "rested 1/1 day (" in card and "1/1 days" not in card
    assert "success 45% · worsening 1%" in card and " %" not in card
    public(await table.run("wound", {"damage": 25, "character": "Aria", "dice": "5-5"}))
    history = public(await table.run("history"))
    assert "**Aria**: light wound — “arrow”" in history and "1 × light wound" not in history
    assert "**Aria**: damage 25 → " in history and "× 1" not in history
    ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True})
    assert ask.ephemeral and "• **light wound**: **1%**" in ask.text and " %" not in ask.text


async def test_french_typography_and_one_word_for_death(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    public(await table.run("config secret-npcs", {"secret": True, "character": "Goblin"}))
    french = public(await table.run("config show", guild_locale="fr"))
    assert "1 PNJ choisi" in french and "1 choisis" not in french
    public(await table.run("wound", {"severity": "light", "character": "Aria", "note": "flèche"}))
    card = public(await table.run("character show", {"character": "Aria"}, guild_locale="fr"))
    assert f"Physique{NNBSP}: 0 jour sur 1 de repos" in card
    history = public(await table.run("history", guild_locale="fr"))
    assert f"**Aria**{NNBSP}: blessure légère — «{NNBSP}flèche{NNBSP}»" in history
    for _ in range(2):
        await table.run("wound", {"severity": "critical", "character": "Aria"})
    # A refusal and a result say the same word for death.
    text = refused(await table.run("wound", {"severity": "light", "character": "Aria"}, locale="fr"))
    assert text.startswith(f"Aria a succombé{NNBSP}: plus de blessures") and "est mort" not in text
    for said in (french, card, history, text):
        assert " :" not in said and " ;" not in said and " ?" not in said and "« " not in said
