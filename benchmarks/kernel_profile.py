"""Profile inside the compiled kernels: `perf` samples named by kernel.

py-spy and pyinstrument stop at a kernel's call; Linux's ``perf record`` samples inside it,
but numba's machine code lives in anonymous memory, so ``perf report`` shows bare
addresses. This script runs the `flock.py` flock (``--full``: everything on; ``--crowd``:
one of `crowd.py`'s flocks instead) and, once its kernels are loaded, writes
``/tmp/perf-PID.map``, the file in which ``perf`` looks up such addresses: every kernel's
functions, inlined callees apart, named ``module.function``.

Run (Linux, the Debian package linux-perf; ``perf_event_paranoid`` at most 2)::

    perf record -e cpu-clock -F 5000 -o kernels.data \\
        python benchmarks/kernel_profile.py --boids 10000 --full --seconds 20
    perf report -i kernels.data --no-children --sort sym

``--threads 1`` keeps the numbers per core (with two, the helper's spin shows as
unnamed addresses in libgomp). Functions that numba links into several kernels are named
once per kernel that holds a copy.

How it names them: numba hands each kernel's object code to its loader
(`CPUCodeLibrary._set_compiled_object`, numba's internal API, wrapped here before any
kernel loads); its symbol table (``nm``) gives each function's offset and size, and the
address of one exported function gives where the code landed.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from numba.core import codegen

_objects: list[tuple[Any, bytes]] = []  # (code library, object code) as numba loads them
_load: Any = codegen.CPUCodeLibrary._set_compiled_object


def _keep_object(library: Any, value: bytes) -> None:
    _objects.append((library, value))
    _load(library, value)


codegen.CPUCodeLibrary._set_compiled_object = _keep_object  # type: ignore[method-assign]

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crowd import SCENES  # noqa: E402  (after the hook: kernels load on import)
from flock import DT, time_whole_steps  # noqa: E402
from scene import LeaderScene  # noqa: E402

from shoal.systems import set_threads  # noqa: E402


def short_name(symbol: str) -> str:
    """``module.function`` of a numba symbol (``_ZN5shoal7systems...``), else the symbol."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, rest = [], symbol[3:]
    while rest[:1].isdigit():
        digits = len(rest) - len(rest.lstrip("0123456789"))
        size = int(rest[:digits])
        parts.append(rest[digits : digits + size])
        rest = rest[digits + size :]
    return ".".join(parts[-2:]) or symbol


def functions(obj: bytes) -> list[tuple[int, int, str, str]]:
    """(offset, size, kind, symbol) of each function in an object file's code section."""
    with tempfile.NamedTemporaryFile(suffix=".o") as file:
        file.write(obj)
        file.flush()
        listing = subprocess.run(
            ["nm", "-S", "--defined-only", file.name], capture_output=True, text=True, check=True
        ).stdout
    found = []
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            found.append((int(fields[0], 16), int(fields[1], 16), fields[2], fields[3]))
    return found


def write_perf_map() -> int:
    """Write ``/tmp/perf-PID.map`` for the kernels loaded so far; return its line count."""
    lines = []
    for library, obj in _objects:
        symbols = functions(obj)
        # Where the code landed: an exported (strong) symbol's address less its offset.
        base = next(
            (library.get_pointer_to_function(name) - offset
             for offset, _, kind, name in symbols if kind == "T"),
            None,
        )  # fmt: skip
        if base is None:
            continue
        lines += [
            f"{base + offset:x} {size:x} {short_name(name)}" for offset, size, _, name in symbols
        ]
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    return len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--boids", type=int, default=10000)
    parser.add_argument("--full", action="store_true", help="everything on (flock.py --full)")
    parser.add_argument(
        "--crowd", choices=sorted(SCENES), default="open", help="crowd.py's flock to step"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to step")
    parser.add_argument("--threads", type=int, default=0, help="0: all cores")
    args = parser.parse_args()
    if args.threads:
        set_threads(args.threads)
    flock = SCENES[args.crowd](args.boids, 1)
    scene = LeaderScene(flock, 1) if args.full else None
    time_whole_steps(flock, 300, scene)  # warm-up: every kernel loaded, the school formed
    print(f"perf map: {write_perf_map()} functions", file=sys.stderr)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < args.seconds:
        if scene:
            scene.move_leader(DT)
        flock.step(DT)
        steps += 1
    print(f"{(time.perf_counter() - started) / steps * 1e3:.3f} ms a step", file=sys.stderr)


if __name__ == "__main__":
    main()
