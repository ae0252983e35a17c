#!/usr/bin/env bash
# Set up (first time) and run the whole test suite: lint, format check, type check, tests.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/venv.sh
sync_venv
# One command per line: under `set -e`, a failure on the left of `&&` would not stop the script.
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/python -m pytest "$@"
