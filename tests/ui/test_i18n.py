"""The message catalogue, languages, severity labels and refusals."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import discord
import pytest

from bot.errors import EventKind, ImportProblem, Mention, Possessive, RestDays, UserError
from bot.rules import Severity, Track
from bot.ui import i18n
from bot.ui.i18n import (
    CATALOGUE,
    LANGS,
    SECTIONS,
    Lang,
    MissingParameter,
    error_text,
    join_lines,
    lang_of,
    plural_form,
    severity_label,
    t,
    t_name,
    tn,
)
from bot.ui.strings_refusals import ERRORS
from tests.ui.builders import PING

ROOT = Path(__file__).resolve().parents[2]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_message_has_both_languages_with_the_same_placeholders() -> None:
    for key, entry in CATALOGUE.items():
        assert set(entry) == set(LANGS), key
        assert all(entry[lang].strip() for lang in LANGS), key
        assert placeholders(entry["en"]) == placeholders(entry["fr"]), key


def test_no_key_is_defined_twice() -> None:
    assert sum(len(part) for part in SECTIONS) == len(CATALOGUE)


REQUIRED = [
    "character_dead",
    "character_incoherent",
    "count_range",
    "note_length",
    "note_nul",
    "no_wound_of_severity",
    "lower_blocked",
    "mental_healing_off",
    "nothing_to_heal",
    "rest_not_over",
    "rest_range",
    "dice_invalid",
    "name_length",
    "attribute_range",
    "preset_unknown",
    "character_not_found",
    "name_taken",
    "undo_nothing",
    "undo_blocked",
    "import_invalid",
    "not_gm",
    "not_owner",
    "players_cannot_create",
    "no_active_character",
    "target_or_character",
    "character_not_targets",
    "guild_only",
    "config_invalid",
    "internal_error",
    "page_range",
]


def test_the_refusals_asked_for_all_exist() -> None:
    assert set(REQUIRED) <= set(ERRORS)


def raised_keys() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        found |= set(re.findall(r"UserError\(\s*\"([a-z_]+)\"", path.read_text(encoding="utf-8")))
    return found


def test_every_refusal_raised_anywhere_has_a_message() -> None:
    assert raised_keys() - set(ERRORS) == set()


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
    assert t("fr", "not_owner") == t("fr", "not_owner", name="?")


def test_under_the_tests_a_missing_parameter_or_key_fails() -> None:
    with pytest.raises(MissingParameter, match="'name'"):
        t("fr", "not_owner", player="<@1>")
    with pytest.raises(MissingParameter, match="no_such_key"):
        t("en", "no_such_key")


def test_plural_forms() -> None:
    assert [plural_form("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_form("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    assert tn("en", "rest_title", 1) == "Rest: 1 day"
    assert tn("fr", "rest_title", 3) == "Repos : 3 jours"


def test_t_name_escapes_and_fits_the_limit() -> None:
    title = t_name("en", "card_title_dead", "@everyone" * 100, 256)
    assert len(title) <= 256
    assert title.startswith("† ") and title.endswith(" — dead")
    assert not PING.search(title)


SAMPLES = [
    UserError("character_dead", name="Aria"),
    UserError("character_incoherent", name="Aria"),
    UserError("count_range", max=7),
    UserError("note_length", max=200),
    UserError("board_none"),
    UserError("board_player_character", name="Aria"),
    UserError("board_npc_already", name="Goblin"),
    UserError("board_npc_absent", name="Goblin"),
    UserError("board_one_at_a_time"),
    UserError("secret_player_character", name="Aria"),
    UserError("secret_all_npcs", name="Goblin"),
    UserError("note_nul"),
    UserError("no_wound_of_severity", name="Aria", track=Track.PHYSICAL, severity=Severity.MID),
    UserError("lower_blocked", name="Aria", track=Track.MENTAL, severity=Severity.MID, below=Severity.LOW),
    UserError("mental_healing_off"),
    UserError("nothing_to_heal", name="Aria"),
    UserError("heal_odds_changed", name="Aria"),
    UserError("nothing_to_heal_mental", name="Aria"),
    UserError("not_gm_lower"),
    UserError("not_gm_lower_mental"),
    UserError("dice_open_rolls_off", text="15-3"),
    UserError(
        "rest_not_over",
        name="Aria",
        days=RestDays(2, 7),
        remaining=5,
        severity=Severity.MID,
        track=Track.PHYSICAL,
    ),
    UserError("rest_range", max=365),
    UserError("dice_invalid", text="7-x"),
    UserError("damage_thresholds_order", light=11, serious=21, critical=21, fatal=41),
    UserError("severity_or_damage"),
    UserError("damage_option_alone"),
    UserError("damage_range", max=999),
    UserError("name_length", max=64),
    UserError("attribute_range", min=-10, max=10),
    UserError("preset_unknown", preset="elf", known="humanoid, orc"),
    UserError("preset_too_small", name="Aria", preset="tiny"),
    UserError("character_not_found", ref="Bob"),
    UserError("character_gone"),
    UserError("name_taken", name="Aria"),
    UserError("undo_nothing"),
    UserError(
        "undo_blocked",
        id=30,
        kind=EventKind("wound"),
        tie="Aria",
        blocked_by=EventKind("rest"),
        blocked_by_id=31,
    ),
    UserError(
        "undo_blocked_later", id=4, kind=EventKind("import"), blocked_by=EventKind("config"), blocked_by_id=5
    ),
    UserError("import_invalid", errors=(ImportProblem((), "not_json"),)),
    UserError("not_gm"),
    UserError("not_owner", name="Aria", player=Mention(100000000000000003)),
    UserError("not_owner_npc", name="Goblin"),
    UserError("heal_roll_owner", of_name=Possessive("Aélis"), player=Mention(100000000000000003)),
    UserError("heal_roll_npc", name="Goblin"),
    UserError("select_not_owner", name="Aria", player=Mention(100000000000000003)),
    UserError("select_npc", name="Goblin"),
    UserError("config_nothing"),
    UserError("players_cannot_create"),
    UserError("no_active_character", user=Mention(42)),
    UserError("target_or_character"),
    UserError("character_not_targets", name="Aria", user=Mention(42)),
    UserError("guild_only"),
    UserError("config_invalid", errors=((("physical", "penalties", 0), "less_than_equal", 0),)),
    UserError("internal_error", error_id="ab12cd34"),
    UserError("page_range", pages=3),
    UserError("option_invalid", value="abc"),
    UserError("payload_invalid"),
    UserError("storage_full"),
    UserError("storage_read_only"),
    UserError("storage_unavailable"),
    UserError("storage_unconfirmed"),
    UserError("character_blank"),
    UserError("edit_nothing"),
    UserError("edit_unchanged", name="Aria"),
    UserError("config_unchanged"),
    UserError("gm_role_everyone"),
    UserError("rest_nobody"),
    UserError("modifier_range", max=100),
    UserError("view_off"),
    UserError("view_revoke_alone"),
    UserError("view_link_alone"),
]


def test_the_samples_cover_every_refusal() -> None:
    assert {e.key for e in SAMPLES} == set(ERRORS) - {"error_unknown"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("err", SAMPLES, ids=lambda e: e.key)
def test_every_refusal_renders_completely(
    lang: Lang, err: UserError, caplog: pytest.LogCaptureFixture
) -> None:
    text = error_text(lang, err)
    assert "missing" not in caplog.text  # every placeholder was given
    assert "{" not in text and "}" not in text
    assert 0 < len(text) <= 2000


def test_refusals_name_severities_in_the_right_language() -> None:
    err = UserError(
        "lower_blocked", name="Aria", track=Track.MENTAL, severity=Severity.MID, below=Severity.LOW
    )
    assert "trauma" in error_text("en", err) and "shocks" in error_text("en", err)
    assert "traumatisme" in error_text("fr", err) and "chocs" in error_text("fr", err)
    rest = UserError(
        "rest_not_over",
        name="A",
        days=RestDays(2, 7),
        remaining=5,
        severity=Severity.MID,
        track=Track.PHYSICAL,
    )
    assert "2/7" in error_text("en", rest) and "5 to go" in error_text("en", rest)
    assert "blessure grave" in error_text("fr", rest)


def test_required_texts() -> None:
    not_gm = error_text("en", UserError("not_gm"))
    assert "Only a GM (the GM role, Manage Server, or the server owner) can" in not_gm
    assert "error id ab12" in error_text("en", UserError("internal_error", error_id="ab12"))
    assert "Something went wrong on our side" in error_text("en", UserError("internal_error", error_id="x"))
    assert "physical.penalties" in error_text(
        "en", UserError("config_invalid", errors="physical.penalties: x")
    )


def test_unknown_refusals_do_not_crash_and_name_the_key() -> None:
    assert "no_such_refusal" in error_text("en", UserError("no_such_refusal", whatever=object()))
    assert "`no_such_refusal`" in error_text("fr", UserError("no_such_refusal"))
    assert "`x1`" in error_text("fr", UserError("x**`<@1>"))


def test_refusal_parameters_are_escaped_and_clipped() -> None:
    text = error_text("en", UserError("character_not_found", ref="@everyone <@&1> **b**" * 500))
    assert not PING.search(text)
    assert "\\*\\*b" in text
    assert len(text) <= 2000
    odd = error_text("fr", UserError("dice_invalid", text=object()))
    assert odd


def test_a_character_without_a_name_to_show_and_a_change_without_a_tie_have_texts_of_their_own() -> None:
    assert error_text("en", UserError("character_gone")).startswith("That character does not exist")
    assert error_text("fr", UserError("character_gone")).startswith("Ce personnage n'existe pas")
    later = UserError(
        "undo_blocked_later", id=4, kind=EventKind("import"), blocked_by=EventKind("config"), blocked_by_id=5
    )
    assert "a later change, #5 (setting change), depends on it" in error_text("en", later)


def test_a_refusal_missing_a_parameter_fails_under_the_tests() -> None:
    with pytest.raises(MissingParameter, match="'ref'"):
        error_text("en", UserError("character_not_found"))
    with pytest.raises(MissingParameter, match="'user'"):
        error_text("en", UserError("no_active_character"))


def raised_refusals() -> list[tuple[str, str, set[str]]]:
    """Every ``UserError("key", ...)`` of the bot's code with a literal key (both keys of a ``key if
    ... else key``): where, the key, and the names of its parameters."""
    found = []
    for path in sorted([*Path("bot").rglob("*.py"), *Path("cogs").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "UserError" and node.args):
                continue
            first = node.args[0]
            keys = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            names = {k.arg for k in node.keywords if k.arg is not None}
            assert all(k.arg is not None for k in node.keywords), f"{path}:{node.lineno}: ** parameters"
            for key in keys:
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    found.append((f"{path}:{node.lineno}", key.value, names))
    return found


def test_every_refusal_raised_in_the_code_gives_exactly_its_placeholders() -> None:
    """No parameter is renamed, derived or dropped on the way to the text: what a raiser passes is what
    the message shows (a severity also gives its ``_plural``; ``track`` says which track it names)."""
    raised = raised_refusals()
    assert len(raised) > 60
    for where, key, names in raised:
        assert key in ERRORS, where
        wanted = placeholders(ERRORS[key]["en"]) | placeholders(ERRORS[key]["fr"])
        given = names | {f"{name}_plural" for name in names}
        assert wanted <= given, f"{where}: {key} needs {sorted(wanted - given)}"
        assert names - {"track"} <= wanted, f"{where}: {key} does not show {sorted(names - wanted)}"


def test_undo_blocked_names_the_change_what_ties_it_and_the_order() -> None:
    err = UserError(
        "undo_blocked",
        id=30,
        kind=EventKind("wound"),
        tie="Aélis",
        blocked_by=EventKind("heal_roll"),
        blocked_by_id=31,
    )
    assert error_text("en", err) == (
        "Change #30 (wound) cannot be undone on its own: Aélis changed after it, in #31 (healing session). "
        "Undo the later changes first, newest first: /undo character:Aélis reverts #31; then undo #30."
    )
    assert error_text("fr", err) == (
        "Le changement n°30 (blessure) ne peut pas être annulé seul : Aélis a changé depuis, au n°31 "
        "(séance de guérison). Annulez d'abord les changements plus récents, du plus récent au plus "
        "ancien : /annuler personnage:Aélis annule le n°31 ; puis annulez le n°30."
    )


def qualified_names(lang: Lang) -> set[str]:
    from bot.ui.strings_commands import COMMANDS

    french = {
        key.removeprefix("name.").replace(".", " "): entry["fr"]
        for key, entry in COMMANDS.items()
        if key.startswith("name.") and not key.startswith("name.menu.")
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
    for key, entry in CATALOGUE.items():
        for top, sub in COMMAND.findall(entry[lang]):
            assert top in names or top in groups, (key, top)
            if top in groups and sub != "…":
                assert f"{top} {sub}" in names, (key, top, sub)


@pytest.mark.parametrize("lang", LANGS)
def test_every_import_problem_is_worded_in_both_languages(
    lang: Lang, caplog: pytest.LogCaptureFixture
) -> None:
    problems = (
        ImportProblem((), "too_large", (("mb", 16),)),
        ImportProblem(("characters", 2, "name"), "same_name", (("first", 0),)),
        ImportProblem(
            ("characters", 1),
            "too_many",
            (("held", 3), ("maximum", 2), ("track", Track.MENTAL), ("severity", Severity.MID)),
        ),
        ImportProblem(("x\n@everyone",), "unknown_field"),
    )
    text = error_text(lang, UserError("import_invalid", errors=problems))
    assert "missing" not in caplog.text and "{" not in text
    assert "@everyone" not in text  # a key of the file is not echoed
    if lang == "fr":
        assert "le fichier dépasse 16 Mo" in text and "même nom que le personnage 0" in text
        assert "characters.1 : 3 traumatismes en cours, au-delà du maximum de 2" in text
    else:
        assert "the file is larger than 16 MB" in text and "same name as character 0" in text
        assert "characters.1: 3 traumas held, more than the maximum of 2" in text


def test_every_import_problem_key_has_a_message() -> None:
    source = (ROOT / "bot" / "export_file.py").read_text(encoding="utf-8")
    whats = set(re.findall(r'ImportProblem\((?:where|\(.*?\)), "([a-z_]+)"', source)) | {"too_large"}
    whats |= {"fatal_not_dead", "fatal_not_incoherent", "dead_not_fatal", "incoherent_not_fatal"}
    whats |= {"missing", "unknown_field", "not_json", "invalid_value"}
    assert len(whats) > 12 and {f"import_{what}" for what in whats} <= set(CATALOGUE)


@pytest.mark.parametrize(("lang", "more"), [("en", "… and {} more"), ("fr", "… et {} de plus")])
def test_a_long_list_of_import_problems_is_cut_with_a_count(lang: Lang, more: str) -> None:
    problems = tuple(ImportProblem(("characters", i, "corps"), "invalid_value") for i in range(100))
    text = error_text(lang, UserError("import_invalid", errors=problems))
    assert len(text) <= 2000
    shown = text.count("characters.")
    assert 10 < shown < 100 and more.format(100 - shown) in text


def test_a_healing_refusal_says_who_rolls_and_what_a_gm_can_do_instead() -> None:
    fr = error_text(
        "fr", UserError("heal_roll_owner", of_name=Possessive("Aélis"), player=Mention(100000000000000003))
    )
    assert fr == (
        "Les jets de guérison d'Aélis sont lancés par <@100000000000000003> ; un MJ peut soigner sans jet "
        "avec /soin blessure."
    )
    en = error_text("en", UserError("heal_roll_owner", of_name=Possessive("Mira Vance"), player=Mention(3)))
    assert en.startswith("Mira Vance's healing rolls are rolled by <@3>; a GM can heal")
    assert "de Mira" in error_text(
        "fr", UserError("heal_roll_owner", of_name=Possessive("Mira"), player=Mention(1))
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
