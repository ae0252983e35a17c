#!/usr/bin/env bash
# Update uv.lock after a change to the dependencies in pyproject.toml: `scripts/lock.sh`.
# `scripts/lock.sh --upgrade` moves every package to the newest release that pyproject.toml allows;
# `scripts/lock.sh --upgrade-package ruff` moves one. Commit uv.lock with the change.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
find_uv
UV_PYTHON_DOWNLOADS=never "$UV" lock --python "$PYTHON" "$@"
