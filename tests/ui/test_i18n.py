"""The message catalogue, languages, severity labels and refusals."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import discord
import pytest

from bot.errors import Change, ImportProblem, Mention, Possessive, RestDays, UserError
from bot.rules import Severity, Track
from bot.ui import i18n
from bot.ui.i18n import CATALOGUES, KNOWN, LANGS, Lang, MissingParameter, lang_of, plural_index, t, tn
from bot.ui.refusals import UNKNOWN, change_text, error_text
from bot.ui.text import join_lines, severity_label, t_name
from tests.ui.builders import PING
from tests.ui.refusals import REFUSALS, messages_of, raised_refusals

ROOT = Path(__file__).resolve().parents[2]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


FRENCH = CATALOGUES["fr"].messages


REQUIRED = [
    ("{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo."),
    (
        "{name} is incoherent (unplayable): no more wounds, rest or rolls. Only "
        "a GM can bring them back, with /undo."
    ),
    ("The number of wounds must be between 1 and {max}. For more, run the command again."),
    ("The note is too long: {max} characters at most. Shorten it and try again."),
    ("The note contains a NUL character (U+0000), which cannot be stored. Remove it and try again."),
    ("{name} has no {severity} to lower. Check the card with /character show and pick a severity it holds."),
    (
        "This {severity} cannot be lowered: {name} already holds the maximum of "
        "{below_plural}, and healing never escalates. Heal a {below} first."
    ),
    (
        "On this server a GM heals mental wounds (/heal mental): players do not "
        "roll for them. A GM can allow it with /config rest mental-healing-rolls."
    ),
    "{name} has no wound to heal: nothing to roll.",
    (
        "No healing roll yet for {name}: {days} of rest for the least severe "
        "wound ({severity}), {remaining} to go. A GM grants in-game rest with "
        "/rest."
    ),
    ("Rest must be between 1 and {max} days. For more, grant it in several steps."),
    (
        "I cannot read these dice: {text}. Give luck-unluck pairs in order, each "
        "die from 1 to 10 (more only with open rolls), e.g. 7-3 10-2; or leave "
        "the option empty and the bot rolls."
    ),
    "A name must have 1 to {max} characters. Choose another name.",
    ("Corps, Résistance and Intuition must be between {min} and {max}. Type a value in that range."),
    ("There is no preset called {preset}. Known presets: {known}. A GM can add one with /config preset."),
    ("No character called {ref} in this server. Pick one from the suggestions, or see /character list."),
    (
        "No character called {ref} in this server. Did you mean {close}? Pick one from the "
        "suggestions, or see /character list."
    ),
    ("There is already a character called {name} in this server. Choose another name."),
    "There is nothing left to undo here. See /history for what was recorded.",
    (
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone "
        "on its own: {tie} changed after "
        "it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, "
        "newest first: /undo character:{tie} reverts #{blocked_by_id}; then undo "
        "#{id}."
    ),
    ("This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export."),
    ("Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM."),
    ("{name} is played by {player}: only that person (or a GM) can do this. Use your own character."),
    ("On this server only GMs create characters. Ask a GM to create yours (/character create with player)."),
    (
        "No active character for {user}. Name one with the character option, "
        "create one with /character create, or choose one with /character select."
    ),
    (
        "Say who: give target (a player, for their active character) or "
        "character (any character, NPCs included)."
    ),
    (
        "{name} is not a character of {user}. Give only target, or only "
        "character, or one of that player's characters."
    ),
    "This command only works in a server, not in direct messages.",
    (
        "That setting is not valid:\n{errors}\nNothing was changed: fix the value "
        "and try again (/config show lists the current settings)."
    ),
    (
        "Something went wrong on our side (error id {error_id}). The change may already be recorded: check "
        "/history before trying again. If it keeps happening, give this id to the bot's admins."
    ),
    "That page does not exist: choose a page from 1 to {pages}.",
]


def test_the_refusals_asked_for_all_exist() -> None:
    assert set(REQUIRED) <= REFUSALS


def test_every_refusal_raised_anywhere_has_a_message() -> None:
    assert len(REFUSALS) > 60
    assert {(None, message) for message in REFUSALS} - KNOWN == set()


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("fr", "fr"),
        ("fr-FR", "fr"),
        ("FR", "fr"),
        ("fr_CA", "fr"),
        (discord.Locale.french, "fr"),
        ("en-US", "en"),
        ("de", "en"),
        ("", "en"),
        (discord.Locale.german, "en"),
        (discord.Locale.american_english, "en"),
        (None, "en"),
    ],
)
def test_lang_of(locale: discord.Locale | str | None, expected: Lang) -> None:
    assert lang_of(locale) == expected


@pytest.mark.parametrize(
    ("lang", "track", "severity", "expected", "plural"),
    [
        ("en", Track.PHYSICAL, Severity.LOW, "light wound", "light wounds"),
        ("en", Track.PHYSICAL, Severity.MID, "serious wound", "serious wounds"),
        ("en", Track.PHYSICAL, Severity.HIGH, "critical wound", "critical wounds"),
        ("en", Track.MENTAL, Severity.LOW, "shock", "shocks"),
        ("en", Track.MENTAL, Severity.MID, "trauma", "traumas"),
        ("en", Track.MENTAL, Severity.HIGH, "psychosis", "psychoses"),
        ("fr", Track.PHYSICAL, Severity.LOW, "blessure légère", "blessures légères"),
        ("fr", Track.PHYSICAL, Severity.MID, "blessure grave", "blessures graves"),
        ("fr", Track.PHYSICAL, Severity.HIGH, "blessure critique", "blessures critiques"),
        ("fr", Track.MENTAL, Severity.LOW, "choc", "chocs"),
        ("fr", Track.MENTAL, Severity.MID, "traumatisme", "traumatismes"),
        ("fr", Track.MENTAL, Severity.HIGH, "psychose", "psychoses"),
    ],
)
def test_severity_label(lang: Lang, track: Track, severity: Severity, expected: str, plural: str) -> None:
    assert severity_label(lang, track, severity) == expected
    assert severity_label(lang, track, severity, plural=True) == plural


def test_in_production_unknown_keys_and_missing_parameters_show(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "STRICT", False)
    assert t("en", "no_such_key") == "no_such_key"
    assert t(
        "fr", "{name} is played by {player}: only that person (or a GM) can do this. Use your own character."
    ) == t(
        "fr",
        "{name} is played by {player}: only that person (or a GM) can do this. Use your own character.",
        name="?",
    )


def test_under_the_tests_a_missing_parameter_or_key_fails() -> None:
    with pytest.raises(MissingParameter, match="'name'"):
        t(
            "fr",
            "{name} is played by {player}: only that person (or a GM) can do this. Use your own character.",
            player="<@1>",
        )
    with pytest.raises(MissingParameter, match="no_such_key"):
        t("en", "no_such_key")


def test_plural_forms() -> None:
    assert [plural_index("en", n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [plural_index("fr", n) for n in (0, 1, 2)] == [0, 0, 1]
    assert tn("en", "Rest: {count} day", "Rest: {count} days", 1) == "Rest: 1 day"
    assert tn("fr", "Rest: {count} day", "Rest: {count} days", 3) == "Repos\u202f: 3 jours"


def test_t_name_escapes_and_fits_the_limit() -> None:
    title = t_name("en", "† {name} — dead", "@everyone" * 100, 256)
    assert len(title) <= 256
    assert title.startswith("† ") and title.endswith(" — dead")
    assert not PING.search(title)


SAMPLES = [
    UserError(
        "{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo.",
        name="Aria",
    ),
    UserError(
        "{name} is incoherent (unplayable): no more wounds, rest or rolls. Only "
        "a GM can bring them back, with /undo.",
        name="Aria",
    ),
    UserError("The number of wounds must be between 1 and {max}. For more, run the command again.", max=7),
    UserError("The note is too long: {max} characters at most. Shorten it and try again.", max=200),
    UserError("There is no board in this channel: post one with /board first."),
    UserError(
        "{name} is a player character: player characters are always on the "
        "board. Only NPCs are added or taken off.",
        name="Aria",
    ),
    UserError("{name} is already on this channel's board.", name="Goblin"),
    UserError("{name} is not on this channel's board: nothing to take off.", name="Goblin"),
    UserError("Add or drop one NPC at a time: run /board twice."),
    UserError("{name} is a player character: only NPCs can be kept secret.", name="Aria"),
    UserError(
        "Every NPC of this server is secret, {name} included: turn that off "
        "first with /config secret-npcs secret:False (without a character).",
        name="Goblin",
    ),
    UserError("The note contains a NUL character (U+0000), which cannot be stored. Remove it and try again."),
    UserError(
        "{name} has no {severity} to lower. Check the card with /character show "
        "and pick a severity it holds.",
        name="Aria",
        track=Track.PHYSICAL,
        severity=Severity.MID,
    ),
    UserError(
        "This {severity} cannot be lowered: {name} already holds the maximum of "
        "{below_plural}, and healing never escalates. Heal a {below} first.",
        name="Aria",
        track=Track.MENTAL,
        severity=Severity.MID,
        below=Severity.LOW,
    ),
    UserError(
        "On this server a GM heals mental wounds (/heal mental): players do not "
        "roll for them. A GM can allow it with /config rest mental-healing-rolls."
    ),
    UserError("{name} has no wound to heal: nothing to roll.", name="Aria"),
    UserError(
        "{name} changed since the question (a wound, a rest or another session): "
        "nothing was rolled. Run /heal roll again to see the new odds.",
        name="Aria",
    ),
    UserError("{name} has no mental wound to heal: nothing to roll.", name="Aria"),
    UserError(
        "Only a GM lowers a wound without a roll (surgery, magic). To heal your "
        "character, roll for it with /heal roll once the rest period is over."
    ),
    UserError(
        "Only a GM lowers a mental wound by command. Ask a GM; when this server "
        "allows mental healing rolls, roll with /heal roll track:mental once the "
        "rest period is over."
    ),
    UserError(
        "A die above 10 in {text}: open rolls are off on this server, so each "
        "die shows 1 to 10. A GM can turn them on with /config dice open-rolls.",
        text="15-3",
    ),
    UserError(
        "No healing roll yet for {name}: {days} of rest for the least severe "
        "wound ({severity}), {remaining} to go. A GM grants in-game rest with "
        "/rest.",
        name="Aria",
        days=RestDays(2, 7),
        remaining=5,
        severity=Severity.MID,
        track=Track.PHYSICAL,
    ),
    UserError("Rest must be between 1 and {max} days. For more, grant it in several steps.", max=365),
    UserError(
        "I cannot read these dice: {text}. Give luck-unluck pairs in order, each "
        "die from 1 to 10 (more only with open rolls), e.g. 7-3 10-2; or leave "
        "the option empty and the bot rolls.",
        text="7-x",
    ),
    UserError(
        "The damage thresholds must increase: light < serious < critical < "
        "fatal, and these would be {light}, {serious}, {critical}, {fatal}. "
        "Nothing was changed: give thresholds that increase (/config show lists "
        "the current table).",
        light=11,
        serious=21,
        critical=21,
        fatal=41,
    ),
    UserError(
        "Give either severity (a wound of that severity) or damage (a damage "
        "level the target rolls against), not both and not neither."
    ),
    UserError(
        "The dice and preview options only go with damage (a damage level the "
        "target rolls against). Give damage instead of severity, or leave them "
        "out."
    ),
    UserError("The damage level must be between 0 and {max}.", max=999),
    UserError("A name must have 1 to {max} characters. Choose another name.", max=64),
    UserError(
        "Corps, Résistance and Intuition must be between {min} and {max}. Type a value in that range.",
        min=-10,
        max=10,
    ),
    UserError(
        "There is no preset called {preset}. Known presets: {known}. A GM can add one with /config preset.",
        preset="elf",
        known="humanoid, orc",
    ),
    UserError(
        "{name} holds more wounds than the preset {preset} allows. Heal some "
        "first, or choose a larger preset.",
        name="Aria",
        preset="tiny",
    ),
    UserError(
        "No character called {ref} in this server. Pick one from the suggestions, or see /character list.",
        ref="Bob",
    ),
    UserError(
        "No character called {ref} in this server. Did you mean {close}? Pick one from the "
        "suggestions, or see /character list.",
        ref="Aelis",
        close="Aélis de Varenne",
    ),
    UserError(
        "That character does not exist in this server (any more). Pick one from "
        "the suggestions, or see /character list."
    ),
    UserError("There is already a character called {name} in this server. Choose another name.", name="Aria"),
    UserError("There is nothing left to undo here. See /history for what was recorded."),
    UserError(
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone on its own: {tie} "
        "changed after it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, newest "
        "first: /undo character:{tie} reverts #{blocked_by_id}; then undo #{id}.",
        id=30,
        kind=Change("import", 2, True),
        name="Brann",
        tie="Aria",
        blocked_by=Change("rest", 6, True),
        blocked_by_id=31,
    ),
    UserError(
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone on its own: a "
        "later change, #{blocked_by_id} ({blocked_by}), depends on it. Undo the later changes "
        "first (/undo without a character).",
        id=4,
        kind=Change("import", 3, True),
        name="Aria",
        blocked_by=Change("config", 0, True),
        blocked_by_id=5,
    ),
    UserError(
        "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export.",
        errors=(ImportProblem((), "this is not a JSON file"),),
    ),
    UserError("Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM."),
    UserError(
        "{name} is played by {player}: only that person (or a GM) can do this. Use your own character.",
        name="Aria",
        player=Mention(100000000000000003),
    ),
    UserError("{name} is an NPC: only a GM can do this.", name="Goblin"),
    UserError(
        "{of_name} healing rolls are rolled by {player}; a GM can heal without a roll with /heal wound.",
        of_name=Possessive("Aélis"),
        player=Mention(100000000000000003),
    ),
    UserError(
        "{name} is an NPC: a GM rolls its healing (/heal roll), or heals it without a roll (/heal wound).",
        name="Goblin",
    ),
    UserError(
        "{name} is played by {player}: only that person can make it their active "
        "character. Choose one of yours.",
        name="Aria",
        player=Mention(100000000000000003),
    ),
    UserError("{name} is an NPC: it is nobody's active character. Choose one of yours.", name="Goblin"),
    UserError("Nothing to change: give at least one value. /config show lists every setting."),
    UserError(
        "On this server only GMs create characters. Ask a GM to create yours (/character create with player)."
    ),
    UserError(
        "No active character for {user}. Name one with the character option, "
        "create one with /character create, or choose one with /character select.",
        user=Mention(42),
    ),
    UserError(
        "Say who: give target (a player, for their active character) or "
        "character (any character, NPCs included)."
    ),
    UserError(
        "{name} is not a character of {user}. Give only target, or only "
        "character, or one of that player's characters.",
        name="Aria",
        user=Mention(42),
    ),
    UserError("This command only works in a server, not in direct messages."),
    UserError(
        "That setting is not valid:\n{errors}\nNothing was changed: fix the value "
        "and try again (/config show lists the current settings).",
        errors=((("physical", "penalties", 0), "less_than_equal", 0),),
    ),
    UserError(
        "Something went wrong on our side (error id {error_id}). The change may "
        "already be recorded: check /history before trying again. If it keeps "
        "happening, give this id to the bot's admins.",
        error_id="ab12cd34",
    ),
    UserError("That page does not exist: choose a page from 1 to {pages}.", pages=3),
    UserError("This value is not valid: {value}. Check the option and try again.", value="abc"),
    UserError(
        "Discord sent this command in a form the bot cannot read (it may have "
        "just been updated). Nothing was changed: try again in a minute."
    ),
    UserError(
        "The bot's database is full (no space left on its disk): nothing was "
        "saved. Tell the bot's admins, and try again once they have freed some "
        "space."
    ),
    UserError(
        "The bot's database is read-only at the moment: nothing was saved. Tell "
        "the bot's admins, and try again once they have fixed it."
    ),
    UserError("The database is unavailable right now: nothing was changed. Try again in a moment."),
    UserError(
        "The database did not confirm the change: it may have been recorded, or "
        "not. Check /history before trying again."
    ),
    UserError(
        "The character option is blank. Pick a character from the suggestions, or leave the option out."
    ),
    UserError("Nothing to change: give at least one of name, corps, resistance, intuition or preset."),
    UserError("{name} already is like that: nothing was changed.", name="Aria"),
    UserError("That is already the setting: nothing was changed. /config show lists every setting."),
    UserError("The role every member has cannot be the GM role: create a role for your GMs and choose it."),
    UserError(
        "No character in play (alive and coherent) to rest in this server. Create one with /character create."
    ),
    UserError("The modifier must be between −{max} and {max}. Type a smaller number.", max=100),
    UserError(
        "The player view is not set up on this bot: its operator sets "
        "WEB_BASE_URL and WEB_PORT (docs/player-view.md). /board alone posts the "
        "board in this channel."
    ),
    UserError("revoke:True goes with link:True: /board link:True revoke:True."),
    UserError("link:True goes alone (or with revoke:True): add or drop NPCs in another /board."),
    UserError("Choose the targets first, in the list above the buttons."),
    UserError(
        "There is no board in this channel: post one with /board first. Its party are the "
        "fight's combatants (/board add: for NPCs, or /character create count: for a band)."
    ),
    UserError("A band has 1 to {max} NPCs.", max=10),
    UserError("A band is of NPCs: leave out player, or leave out count."),
    UserError("Every target chosen is dead or incoherent already: nothing was changed. Choose living ones."),
    UserError("The damage level is a number from 0 to {max}.", max=999),
    UserError(
        "Attributes are three numbers from {low} to {high}: Corps, Résistance, Intuition (2 1 0).",
        low=-10,
        high=10,
    ),
]


def test_the_samples_cover_every_refusal() -> None:
    assert {e.message for e in SAMPLES} == REFUSALS - {UNKNOWN}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("err", SAMPLES, ids=lambda e: e.message)
def test_every_refusal_renders_completely(
    lang: Lang, err: UserError, caplog: pytest.LogCaptureFixture
) -> None:
    text = error_text(lang, err)
    assert "missing" not in caplog.text  # every placeholder was given
    assert "{" not in text and "}" not in text
    assert 0 < len(text) <= 2000


def test_refusals_name_severities_in_the_right_language() -> None:
    err = UserError(
        "This {severity} cannot be lowered: {name} already holds the maximum of "
        "{below_plural}, and healing never escalates. Heal a {below} first.",
        name="Aria",
        track=Track.MENTAL,
        severity=Severity.MID,
        below=Severity.LOW,
    )
    assert "trauma" in error_text("en", err) and "shocks" in error_text("en", err)
    assert "traumatisme" in error_text("fr", err) and "chocs" in error_text("fr", err)
    rest = UserError(
        "No healing roll yet for {name}: {days} of rest for the least severe "
        "wound ({severity}), {remaining} to go. A GM grants in-game rest with "
        "/rest.",
        name="A",
        days=RestDays(2, 7),
        remaining=5,
        severity=Severity.MID,
        track=Track.PHYSICAL,
    )
    assert "2/7" in error_text("en", rest) and "5 to go" in error_text("en", rest)
    assert "blessure grave" in error_text("fr", rest)


def test_required_texts() -> None:
    not_gm = error_text(
        "en", UserError("Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM.")
    )
    assert "Only a GM (the GM role, Manage Server, or the server owner) can" in not_gm
    assert "error id ab12" in error_text(
        "en",
        UserError(
            "Something went wrong on our side (error id {error_id}). The change may "
            "already be recorded: check /history before trying again. If it keeps "
            "happening, give this id to the bot's admins.",
            error_id="ab12",
        ),
    )
    assert "Something went wrong on our side" in error_text(
        "en",
        UserError(
            "Something went wrong on our side (error id {error_id}). The change may "
            "already be recorded: check /history before trying again. If it keeps "
            "happening, give this id to the bot's admins.",
            error_id="x",
        ),
    )
    assert "physical.penalties" in error_text(
        "en",
        UserError(
            "That setting is not valid:\n{errors}\nNothing was changed: fix the value "
            "and try again (/config show lists the current settings).",
            errors="physical.penalties: x",
        ),
    )


def test_unknown_refusals_do_not_crash_and_name_the_key() -> None:
    assert "no_such_refusal" in error_text("en", UserError("no_such_refusal", whatever=object()))
    assert "`no_such_refusal`" in error_text("fr", UserError("no_such_refusal"))
    assert "`x1`" in error_text("fr", UserError("x**`<@1>"))


def test_refusal_parameters_are_escaped_and_clipped() -> None:
    text = error_text(
        "en",
        UserError(
            "No character called {ref} in this server. Pick one from the "
            "suggestions, or see /character list.",
            ref="@everyone <@&1> **b**" * 500,
        ),
    )
    assert not PING.search(text)
    assert "\\*\\*b" in text
    assert len(text) <= 2000
    odd = error_text(
        "fr",
        UserError(
            "I cannot read these dice: {text}. Give luck-unluck pairs in order, each "
            "die from 1 to 10 (more only with open rolls), e.g. 7-3 10-2; or leave "
            "the option empty and the bot rolls.",
            text=object(),
        ),
    )
    assert odd


def test_a_character_without_a_name_to_show_and_a_change_without_a_tie_have_texts_of_their_own() -> None:
    assert error_text(
        "en",
        UserError(
            "That character does not exist in this server (any more). Pick one from "
            "the suggestions, or see /character list."
        ),
    ).startswith("That character does not exist")
    assert error_text(
        "fr",
        UserError(
            "That character does not exist in this server (any more). Pick one from "
            "the suggestions, or see /character list."
        ),
    ).startswith("Ce personnage n'existe pas")
    later = UserError(
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone on its own: a "
        "later change, #{blocked_by_id} ({blocked_by}), depends on it. Undo the later changes "
        "first (/undo without a character).",
        id=4,
        kind=Change("import", 3, True),
        name="Aria",
        blocked_by=Change("config", 0, True),
        blocked_by_id=5,
    )
    assert "a later change, #5 (setting change), depends on it" in error_text("en", later)
    assert "#4 (import of the whole server, 3 characters), the latest one touching Aria," in error_text(
        "en", later
    )
    assert "n°4 (import de tout le serveur, 3 personnages), le dernier à toucher Aria" in error_text(
        "fr", later
    )
    # A change's reach, singular and plural, in both languages.
    assert change_text("en", Change("rest", 1, True)) == "rest of the whole server, 1 character"
    assert change_text("fr", Change("rest", 1, True)) == "repos de tout le serveur, 1 personnage"
    assert change_text("en", Change("character_delete", 2)) == "character deletion, 2 characters"
    assert change_text("en", Change("wound")) == "wound"


def test_a_refusal_missing_a_parameter_fails_under_the_tests() -> None:
    with pytest.raises(MissingParameter, match="'ref'"):
        error_text(
            "en",
            UserError(
                "No character called {ref} in this server. Pick one from the "
                "suggestions, or see /character list."
            ),
        )
    with pytest.raises(MissingParameter, match="'user'"):
        error_text(
            "en",
            UserError(
                "No active character for {user}. Name one with the character option, "
                "create one with /character create, or choose one with /character select."
            ),
        )


def test_every_refusal_raised_in_the_code_gives_exactly_its_placeholders() -> None:
    """No parameter is renamed, derived or dropped on the way to the text: what a raiser passes is what
    the message shows (a severity also gives its ``_plural``; ``track`` says which track it names)."""
    raised = raised_refusals()
    assert len(raised) > 60
    for where, message, names in raised:
        assert (None, message) in KNOWN, where
        wanted = placeholders(message) | placeholders(str(FRENCH[None, message]))
        given = names | {f"{name}_plural" for name in names}
        assert wanted <= given, f"{where}: {message} needs {sorted(wanted - given)}"
        assert names - {"track"} <= wanted, f"{where}: {message} does not show {sorted(names - wanted)}"


def test_undo_blocked_names_the_change_what_ties_it_and_the_order() -> None:
    err = UserError(
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone on its own: {tie} "
        "changed after it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, newest "
        "first: /undo character:{tie} reverts #{blocked_by_id}; then undo #{id}.",
        id=30,
        kind=Change("rest", 2, True),
        name="Bastien",
        tie="Aélis",
        blocked_by=Change("heal_roll"),
        blocked_by_id=31,
    )
    assert error_text("en", err) == (
        "Change #30 (rest of the whole server, 2 characters), the latest one touching Bastien, cannot be "
        "undone on its own: Aélis changed after it, in #31 (healing session). "
        "Undo the later changes first, newest first: /undo character:Aélis reverts #31; then undo #30."
    )
    assert error_text("fr", err) == (
        "Le changement n°30 (repos de tout le serveur, 2 personnages), le dernier à toucher Bastien, ne "
        "peut pas être annulé seul\u202f: Aélis a changé depuis, au n°31 "
        "(séance de guérison). Annulez d'abord les changements plus récents, du plus récent au plus "
        "ancien\u202f: /annuler personnage:Aélis annule le n°31\u202f; puis annulez le n°30."
    )


def qualified_names(lang: Lang) -> set[str]:
    """Every command's qualified name in ``lang`` (its names' context is its English qualified name)."""
    french = {
        context.removeprefix("/"): str(text)
        for (context, _), text in FRENCH.items()
        if context is not None and context.startswith("/")
    }
    if lang == "en":
        return set(french)
    return {
        " ".join(french[" ".join(key.split()[: i + 1])] for i in range(len(key.split()))) for key in french
    }


COMMAND = re.compile(r"(?:^|[\s(])/([\w-]+)(?: ([\w…-]+))?")


@pytest.mark.parametrize("lang", LANGS)
def test_commands_cited_in_messages_exist_in_that_language(lang: Lang) -> None:
    names = qualified_names(lang)
    groups = {name.split()[0] for name in names if " " in name}
    texts = {
        (english, text if lang == "fr" else english)
        for (_, english), french in FRENCH.items()
        for text in ((french,) if isinstance(french, str) else french)
    }
    assert len(texts) > 400
    for english, text in texts:
        for top, sub in COMMAND.findall(text):
            assert top in names or top in groups, (english, top)
            if top in groups and sub != "…":
                assert f"{top} {sub}" in names, (english, top, sub)


@pytest.mark.parametrize("lang", LANGS)
def test_every_import_problem_is_worded_in_both_languages(
    lang: Lang, caplog: pytest.LogCaptureFixture
) -> None:
    problems = (
        ImportProblem((), "the file is larger than {mb} MB", (("mb", 16),)),
        ImportProblem(("characters", 2, "name"), "same name as character {first}", (("first", 0),)),
        ImportProblem(
            ("characters", 1),
            "{held} {severity_plural} held, more than the maximum of {maximum}",
            (("held", 3), ("maximum", 2), ("track", Track.MENTAL), ("severity", Severity.MID)),
        ),
        ImportProblem(("x\n@everyone",), "unknown field"),
    )
    text = error_text(
        lang,
        UserError(
            "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export.",
            errors=problems,
        ),
    )
    assert "missing" not in caplog.text and "{" not in text
    assert "@everyone" not in text  # a key of the file is not echoed
    if lang == "fr":
        assert "le fichier dépasse 16 Mo" in text and "même nom que le personnage 0" in text
        assert "characters.1\u202f: 3 traumatismes en cours, au-delà du maximum de 2" in text
    else:
        assert "the file is larger than 16 MB" in text and "same name as character 0" in text
        assert "characters.1: 3 traumas held, more than the maximum of 2" in text


def test_every_import_problem_has_a_message() -> None:
    whats: set[str] = set()
    for path in (ROOT / "bot" / "export_file.py", ROOT / "bot" / "errors.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) == "ImportProblem"
                and len(node.args) > 1
            ):
                whats.update(messages_of(node.args[1]))
            elif isinstance(node, ast.Call) and ast.unparse(node.func) == "N_":
                whats.update(messages_of(node))
    assert len(whats) > 12 and {(None, what) for what in whats} <= KNOWN


@pytest.mark.parametrize(("lang", "more"), [("en", "… and {} more"), ("fr", "… et {} de plus")])
def test_a_long_list_of_import_problems_is_cut_with_a_count(lang: Lang, more: str) -> None:
    problems = tuple(ImportProblem(("characters", i, "corps"), "invalid value") for i in range(100))
    text = error_text(
        lang,
        UserError(
            "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export.",
            errors=problems,
        ),
    )
    assert len(text) <= 2000
    shown = text.count("characters.")
    assert 10 < shown < 100 and more.format(100 - shown) in text


def test_a_healing_refusal_says_who_rolls_and_what_a_gm_can_do_instead() -> None:
    fr = error_text(
        "fr",
        UserError(
            "{of_name} healing rolls are rolled by {player}; a GM can heal without a roll with /heal wound.",
            of_name=Possessive("Aélis"),
            player=Mention(100000000000000003),
        ),
    )
    assert fr == (
        "Les jets de guérison d'Aélis sont lancés par <@100000000000000003>\u202f; un MJ peut soigner "
        "sans jet avec /soin blessure."
    )
    en = error_text(
        "en",
        UserError(
            "{of_name} healing rolls are rolled by {player}; a GM can heal without a roll with /heal wound.",
            of_name=Possessive("Mira Vance"),
            player=Mention(3),
        ),
    )
    assert en.startswith("Mira Vance's healing rolls are rolled by <@3>; a GM can heal")
    assert "de Mira" in error_text(
        "fr",
        UserError(
            "{of_name} healing rolls are rolled by {player}; a GM can heal without a roll with /heal wound.",
            of_name=Possessive("Mira"),
            player=Mention(1),
        ),
    )


def test_join_lines_keeps_what_fits_and_says_how_many_are_left() -> None:
    lines = [f"line {i}" for i in range(100)]
    text = join_lines("en", lines, 100)
    assert len(text) <= 100
    assert text.startswith("line 0\nline 1")
    kept = text.count("line ")
    assert text.endswith(f"… and {100 - kept} more")
    assert re.search(r"\n… et \d+ de plus$", join_lines("fr", lines, 100))
    assert join_lines("en", ["a", "b"], 100) == "a\nb"
    assert len(join_lines("en", ["x" * 5000], 1024)) <= 1024
