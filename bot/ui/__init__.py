"""Everything users read: pure renderers from rules objects to text and embeds, in the reader's language
(the modules: README, Layout)."""
