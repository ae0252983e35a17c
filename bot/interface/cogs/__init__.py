"""Discord entrypoints: one cog per area."""
