# Sourced by run.sh and test.sh: make sure .venv exists and holds what pyproject.toml asks for.
# Usage: ensure_venv "" (the bot) or ensure_venv "[dev]" (the bot and its test tools).
ensure_venv() {
  local extras="$1" python="" stamp want
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      python="$candidate"
      break
    fi
  done
  if [ -z "$python" ]; then
    echo "Python 3.11 or newer is needed (python3.11 or python3 on the PATH)." >&2
    exit 1
  fi
  if [ ! -x .venv/bin/python ]; then
    echo "Creating .venv with $python ..." >&2
    "$python" -m venv .venv
  fi
  stamp=.venv/.installed
  want="$(cat pyproject.toml | "$python" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())') $extras"
  # A dev install also serves the bot; reinstall only when pyproject.toml changed or more is asked.
  if [ ! -f "$stamp" ] || { [ "$(cat "$stamp")" != "$want" ] && [ "$(cat "$stamp")" != "${want% *} [dev]" ]; }; then
    echo "Installing dependencies into .venv ..." >&2
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".$extras"
    echo "$want" >"$stamp"
  fi
}
