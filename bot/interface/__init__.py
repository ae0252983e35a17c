"""What the cogs (cogs/, the slash commands) share of Discord: the bot and its command tree, replies
and the error funnel, options and autocomplete, views, the boards kept edited, health and metrics."""
