"""End-to-end tests: a real ``discord.py`` bot process, driven through the fake Discord over HTTP."""
