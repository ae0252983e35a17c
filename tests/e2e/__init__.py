"""End-to-end tests: a real ``discord.py`` bot process driven by a local Discord stand-in (``standin.py``)."""
