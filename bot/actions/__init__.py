"""Application services: one function per command, doing check → load → rules → save inside one
transaction, and returning what the cog renders. No Discord and no SQL here."""
