"""Discord entrypoints, one cog per area; every module here is loaded at start-up (``bot.cogs`` once
installed: see pyproject.toml). A cog imports from ``bot``, never from another cog."""
