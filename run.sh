#!/usr/bin/env bash
# Set up (first time) and run the bot. Needs DISCORD_TOKEN in the environment or in .env.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/venv.sh
sync_venv --no-dev
exec .venv/bin/python -m bot "$@"
