"""Everything users read: pure renderers from rules objects to text and embeds, in French and English.

Modules: ``i18n`` (languages, the catalogue, refusals), ``text`` (escaping, clipping, signed numbers,
wound marks), ``limits`` (Discord's limits and a checker), ``rolls`` (dice, odds, the damage table),
``card`` (the character card, a state in a few lines), ``board`` (the board, the player view's lines,
autocomplete choices), ``results`` (public results), ``damage`` (damage rolls), ``events`` and ``undo``
(history), ``settings`` (config, import, the character list), ``translator`` (French command names).
"""
