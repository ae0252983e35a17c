# Sourced by run.sh, test.sh and scripts/lock.sh. Installs nothing outside the project folder.
#
#   find_python       PYTHON: a Python 3.11 or newer from the PATH
#   find_uv           UV: the uv pinned in pyproject.toml (the dev group's "uv==X"); when the PATH has
#                     no uv of that version, it is installed once into .tools/uv-X/ from the package
#                     index with pip (which every Python has), so a fresh machine needs nothing else
#   sync_venv ARGS    .venv holds exactly the set of uv.lock: `uv sync --locked ARGS` (--no-dev: the bot
#                     alone). --locked refuses to run when uv.lock no longer matches pyproject.toml:
#                     scripts/lock.sh updates it.

find_python() {
  local candidate
  PYTHON=""
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      PYTHON="$("$candidate" -c 'import sys; print(sys.executable)')"  # the interpreter, not a shim
      return
    fi
  done
  echo "Python 3.11 or newer is needed (python3.11 or python3 on the PATH)." >&2
  exit 1
}

find_uv() {
  local version tools
  [ -n "${PYTHON:-}" ] || find_python
  version="$("$PYTHON" -c '
import re, tomllib
with open("pyproject.toml", "rb") as f:
    dev = tomllib.load(f)["dependency-groups"]["dev"]
print(next(m.group(1) for d in dev if (m := re.fullmatch(r"uv==([\w.]+)", d))))
')"
  if command -v uv >/dev/null 2>&1 && [ "$(uv --version | cut -d' ' -f2)" = "$version" ]; then
    UV="$(command -v uv)"
    return
  fi
  tools=".tools/uv-$version"
  if [ ! -x "$tools/bin/uv" ]; then
    echo "Installing uv $version into $tools (first time only) ..." >&2
    rm -rf "$tools"
    "$PYTHON" -m venv "$tools"
    "$tools/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$version"
  fi
  UV="$tools/bin/uv"
}

sync_venv() {
  find_uv
  # Never download a Python: use the one found on this machine. Compile the bytecode at install, as pip
  # does (uv does not by default): else the first start of every new .venv compiles it, slowly.
  UV_PYTHON_DOWNLOADS=never "$UV" sync --locked --compile-bytecode --python "$PYTHON" "$@"
}
