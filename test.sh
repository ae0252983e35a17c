#!/usr/bin/env bash
# Set up (first time) and run the whole test suite: lint, format check, type check, tests.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/venv.sh
ensure_venv "[dev]"
echo "== ruff" && .venv/bin/ruff check . && .venv/bin/ruff format --check .
echo "== mypy" && .venv/bin/mypy
echo "== pytest" && .venv/bin/python -m pytest "$@"
