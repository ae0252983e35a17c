"""Everything users read: pure renderers from rules objects to text and embeds, in French and English.

Modules: ``i18n`` (languages, catalogue, refusals), ``text`` (escaping, clipping, signed numbers),
``limits`` (Discord limits and a checker), ``card`` (the character card), ``messages`` (every public
result), ``translator`` (French command names).
"""
