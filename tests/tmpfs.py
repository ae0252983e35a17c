"""A small filesystem that the tests can fill: a tmpfs mounted for the test (mounting needs root; the
test fails, saying so, without it)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_tmpfs(folder: Path, megabytes: int, *, owner: tuple[int, int] | None = None) -> Iterator[Path]:
    """``folder`` (created) as a tmpfs of ``megabytes``, owned by ``owner`` (uid, gid); unmounted after."""
    if os.geteuid() != 0:
        pytest.fail("this test mounts a small tmpfs to fill it: it needs root", pytrace=False)
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(folder)], check=True)
    try:
        if owner is not None:
            os.chown(folder, *owner)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """A file in ``folder`` as large as its filesystem allows; delete it to free the space."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        for chunk in (1 << 20, 8192, 512):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * chunk)
    finally:
        os.close(fd)
    return filler
