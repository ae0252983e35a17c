"""Everything users read: pure renderers from rules objects to text and embeds, in French and English.

Every text is its English, written where it is used; ``i18n`` renders it in the reader's language from
the gettext catalogues of ``bot/locale`` and holds the translator of the commands. Renderers: ``text``
(Discord's limits, escaping, clipping, signed numbers, wound marks), ``rolls`` (dice, odds, the damage
table), ``card`` (the character card, a state in a few lines), ``board`` (the board, the player view's
lines, autocomplete choices), ``results`` and ``damage`` (public results), ``events`` and ``undo``
(history), ``settings`` (config, import, the character list).
"""
