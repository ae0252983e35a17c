from __future__ import annotations

from tests.bot.conftest import table

__all__ = ["table"]
