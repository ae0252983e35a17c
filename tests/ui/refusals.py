"""Every refusal the code raises, found in its source: ``UserError("English", ...)`` and ``Failure``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def messages_of(node: ast.expr) -> list[str]:
    """The English an argument names: a literal, or the two of ``N_(…) if … else N_(…)``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "N_" and node.args:
        return messages_of(node.args[0])
    if isinstance(node, ast.IfExp):
        return messages_of(node.body) + messages_of(node.orelse)
    return []


def raised_refusals() -> list[tuple[str, str, set[str]]]:
    """Every ``UserError("English", ...)`` (or ``Failure``) of the bot's code with its English in place
    (both of a ``… if … else …``): where, the English, and the names of its parameters."""
    found = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) in ("UserError", "Failure")):
                continue
            if not node.args:
                continue
            names = {k.arg for k in node.keywords if k.arg is not None}
            assert all(k.arg is not None for k in node.keywords), f"{path}:{node.lineno}: ** parameters"
            for message in messages_of(node.args[0]):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", message, names))
    return found


REFUSALS = frozenset(message for _, message, _ in raised_refusals())
"""The English of every refusal."""
INTERNAL_ERROR = next(message for message in REFUSALS if message.startswith("Something went wrong"))
"""The funnel's answer to a bug (with its error id)."""
