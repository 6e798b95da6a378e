"""The glibc a wheel asks for, read from its file name's platform tag, against the oldest the project
supports: `python .ci/wheel_glibc.py WHEEL OLDEST` (OLDEST as "2.28") prints the tag and exits 1 unless
every platform tag of WHEEL is a manylinux tag for glibc OLDEST or older, that is, unless pip installs
the wheel on every Linux with glibc OLDEST (RHEL 8 and its rebuilds for 2.28). .ci/wheel-check runs it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from packaging.utils import parse_wheel_filename

# the manylinux tags named before PEP 600, by the glibc they stand for
LEGACY = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def glibc_of(platform: str) -> tuple[int, int] | None:
    """The glibc a platform tag asks for (``manylinux_2_28_x86_64`` -> (2, 28)), or None if the tag is
    not a manylinux one (``linux_x86_64``: this machine's own, installable nowhere else)."""
    modern = re.fullmatch(r"manylinux_(\d+)_(\d+)_\w+", platform)
    if modern:
        return int(modern[1]), int(modern[2])
    legacy = re.fullmatch(r"(manylinux\w*?)_\w+", platform)
    return LEGACY.get(legacy[1]) if legacy else None


def check(wheel: str, oldest: str) -> str | None:
    """What is wrong with the wheel's platform tags, or None if each asks for glibc ``oldest`` or older."""
    limit = tuple(int(part) for part in oldest.split("."))
    _, _, _, tags = parse_wheel_filename(Path(wheel).name)
    for platform in sorted({tag.platform for tag in tags}):
        needs = glibc_of(platform)
        if needs is None:
            return f"{platform} is not a manylinux tag"
        if needs > limit:
            return f"{platform} asks for glibc {needs[0]}.{needs[1]}, newer than {oldest}"
    return None


def main(argv: list[str]) -> int:
    wheel, oldest = argv
    problem = check(wheel, oldest)
    if problem:
        print(f"{Path(wheel).name}: {problem}: it would not install where glibc is {oldest}", file=sys.stderr)
        return 1
    print(f"{Path(wheel).name}: installs where glibc is {oldest} or newer")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
