#!/usr/bin/env bash
# Build what a server installs (README, "Running it as a service"): the wheel, and requirements.txt,
# the bot's dependencies exactly as uv.lock pins them, with their hashes (pip --require-hashes).
#   scripts/dist.sh [FOLDER]     (dist/ by default)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
. scripts/venv.sh
find_uv
UV_PYTHON_DOWNLOADS=never "$UV" build --quiet --python "$PYTHON" --out-dir "$out"
"$UV" export --quiet --frozen --no-dev --no-emit-project --format requirements-txt --output-file "$out/requirements.txt"
echo "$out: $(cd "$out" && ls -- *.whl) and requirements.txt"
