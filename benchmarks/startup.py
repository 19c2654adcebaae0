"""Start-up time of the command line: `python -m sim table` (the seed's table) and `import sim`, wall time.

    .venv/bin/python benchmarks/startup.py [--repeat N]

Prints the median and the largest of N runs (default 15) of each, in seconds, each in a fresh
interpreter. The goal of the restructuring (issue 11): `python -m sim table` under 0.4 s on the
course's 2-core machine kind. A benchmark prints its figure; no test times anything.
"""

import argparse
import statistics
import subprocess
import sys
import time


def wall(args: list[str]) -> float:
    """Seconds of wall time for one run of `python args...` in a fresh interpreter."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each command (default 15)")
    repeat = parser.parse_args().repeat
    for label, args in (("python -m sim table", ["-m", "sim", "table"]), ("import sim", ["-c", "import sim"]),
                        ("python (nothing)", ["-c", "pass"])):  # fmt: skip
        times = [wall(args) for _ in range(repeat)]
        print(
            f"{label:<22} median {statistics.median(times):.3f} s, largest {max(times):.3f} s, {repeat} runs"
        )


if __name__ == "__main__":
    main()
