"""Instructions a message costs the app, counted rather than timed: whether a change of code moved the CPU a
move, whatever the machine is doing meanwhile (bench/README.md).

    .venv/bin/python -m bench.instructions /work/wt/old .        # two checkouts, side by side

Runs each checkout's ``bench.hub_moves`` (the app's own handler, no sockets, a fresh SQLite database) under
valgrind's callgrind twice, with few and with many messages; the difference of the two runs' instruction
counts over the difference of their messages is the instructions a message, the start-up and set-up both
runs share cancelled out. Counted instructions do not depend on the machine's load or speed: two runs of the
same tree differ by a few hundredths of a per cent of the whole. Also prints where the difference between the
checkouts lies, by shared library (the interpreter, pydantic-core, SQLite, orjson, ...). Slow: a few minutes
a run, the checkouts' runs two at a time.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

COUNTED = re.compile(r"Collected : (\d+)")
LINE = re.compile(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+.*\[(.*)\]\s*$")


def counted(tree: Path, rooms: int, messages: int, out: Path) -> tuple[int, dict[str, int]]:
    """Instructions of one ``hub_moves`` run in ``tree``, in all and by shared library."""
    done = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"),
            *(sys.executable, "-m", "bench.hub_moves", "--rooms", str(rooms), "--moves", str(messages)),
        ],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    found = COUNTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind counted nothing in {tree}: {done.stderr[-2000:]}")
    annotated = subprocess.run(
        ["callgrind_annotate", "--threshold=100", str(out)], capture_output=True, text=True, check=True
    ).stdout
    libraries: dict[str, int] = {}
    for line in annotated.splitlines():
        if match := LINE.match(line):
            library = match.group(2).rsplit("/", 1)[-1]
            libraries[library] = libraries.get(library, 0) + int(match.group(1).replace(",", ""))
    return int(found.group(1)), libraries


def per_message(tree: Path, rooms: int, few: int, many: int, work: Path) -> tuple[float, dict[str, float]]:
    name = tree.resolve().name
    with ThreadPoolExecutor(2) as pool:
        low, high = pool.map(
            lambda n: counted(tree, rooms, n, work / f"{name}-{n}.out"),
            (few, many),
        )
    span = many - few
    libraries = {lib: (high[1].get(lib, 0) - low[1].get(lib, 0)) / span for lib in {*low[1], *high[1]}}
    return (high[0] - low[0]) / span, libraries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", type=Path, nargs="+", help="checkouts (the first is the reference)")
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--few", type=int, default=200, help="messages of the short run (default 200)")
    parser.add_argument("--many", type=int, default=5200, help="messages of the long run (default 5200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="threefold-instructions-") as directory:
        results = [per_message(tree, args.rooms, args.few, args.many, Path(directory)) for tree in args.trees]
    reference, reference_libraries = results[0]
    for tree, (total, libraries) in zip(args.trees, results, strict=True):
        line = f"{tree}: {total / 1000:.1f} k instructions a message"
        if tree != args.trees[0]:
            line += f" ({(total / reference - 1) * 100:+.1f} % against {args.trees[0]})"
            changes = sorted(
                ((libraries.get(lib, 0) - reference_libraries.get(lib, 0), lib) for lib in {*libraries}),
                reverse=True,
            )
            line += "; by library: " + ", ".join(f"{lib} {change / 1000:+.1f} k" for change, lib in changes[:4])
        print(line, flush=True)


if __name__ == "__main__":
    main()
