"""Peak memory of parsing and checking one module, per byte of its source: the figure behind
`--jobs`'s memory bound and the per-module size bound under a memory limit (index/limits.py,
index/pools.py; the README states it).

    .venv/bin/python bench/parse_memory.py                 # 64 KiB .. 1 MiB, 3 runs each
        --sizes 65536,262144 --runs N --json FILE (default bench/parse_memory.json)

Each measurement runs in a fresh process: it imports LibCST and replaylint, reads the module,
notes its peak resident size, then parses it (LibCST alone) or checks it (what a worker does:
CPython's verdict, the LibCST parse, the walk, findings and their positions) and notes the peak
again. The difference over the source's bytes is the cost per byte; the table shows medians.
Modules are workflow modules from corpus.py, concatenated up to each size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Run in a fresh interpreter: argv = [mode, path]; prints the peak RSS growth in bytes.
_MEASURE = """
import resource, sys
from pathlib import Path
import libcst
from replaylint.api import guard_source
from replaylint.project.config import Config
mode, path = sys.argv[1], sys.argv[2]
data = Path(path).read_bytes()
config = Config(max_module_size=len(data) + 1)
guard_source("__adk_workflow__ = True\\n", source="warmup.py", config=config)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if mode == "parse":
    tree = libcst.parse_module(data)
else:
    report = guard_source(data, source=path, config=config)
    assert not [f for f in report.findings if f.code.value == "ADK-E001"], report.findings
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024)
"""


def module_of_size(size: int) -> bytes:
    """Workflow modules from corpus.py, one after another, cut at a statement near `size`."""
    sys.path.insert(0, str(HERE))
    from corpus import generate

    parts: list[str] = []
    total, index = 0, 0
    while total < size:
        text, _ = generate(index, seed=7)
        if parts:  # one module: its `from __future__` import may only come first
            text = text.replace("from __future__ import annotations\n", "")
        parts.append(text)
        total += len(text.encode())
        index += 1
    return "\n".join(parts).encode()


def peak_growth(mode: str, path: Path) -> int:
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, mode, str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return int(out.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="65536,262144,524288,1048576")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=HERE / "parse_memory.json")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="replaylint-bench-") as folder:
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(folder) / f"module_{size}.py"
            data = module_of_size(size)
            path.write_bytes(data)
            row: dict[str, object] = {"bytes": len(data)}
            for mode in ("parse", "check"):
                samples = [peak_growth(mode, path) for _ in range(args.runs)]
                peak = statistics.median(samples)
                row[f"{mode}_mb"] = round(peak / 2**20, 1)
                row[f"{mode}_per_byte"] = round(peak / len(data), 1)
            rows.append(row)
            print(
                f"{len(data):>9,} bytes  LibCST parse {row['parse_mb']:>7} MB"
                f" ({row['parse_per_byte']:>5} B/B)  whole check {row['check_mb']:>7} MB"
                f" ({row['check_per_byte']:>5} B/B)",
                flush=True,
            )
    args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
