"""What the cogs (cogs/, the slash commands) share of Discord: the bot, its command tree and error
funnel, replies, options and autocomplete, views, the results with their buttons, and the wound flow of
both tracks."""
