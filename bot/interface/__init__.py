"""Everything that imports discord: the bot, its command tree and error funnel, replies, options and
autocomplete, views, the flows shared by commands and buttons, and the cogs (the slash commands)."""
