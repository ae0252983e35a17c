"""Everything users read: pure renderers from rules objects to text and embeds, in French and English.

The catalogue, by audience: ``strings_refusals`` (every refusal), ``strings_results`` (everything else
users read), ``strings_commands`` (the slash commands' names and descriptions); ``i18n`` renders a key in
a language and holds the translator of the commands. Renderers: ``text`` (Discord's limits, escaping,
clipping, signed numbers, wound marks), ``rolls`` (dice, odds, the damage table), ``card`` (the character
card, a state in a few lines), ``board`` (the board, the player view's lines, autocomplete choices),
``results`` and ``damage`` (public results), ``events`` and ``undo`` (history), ``settings`` (config,
import, the character list).
"""
