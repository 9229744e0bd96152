#!/usr/bin/env python3
"""Reads the text output of one or more `swift package benchmark` runs and prints, per benchmark,
the median (p50) wall-clock time and malloc count per unit of work, and the median over runs;
then each target ratio of issue 4, computed within each run (numerator and denominator from the
same run, so machine noise mostly cancels) and its median over runs.

Figures marked `*` by package-benchmark are already divided by the benchmark's scaling factor
(its units per iteration). Usage: python3 Scripts/summarize.py run1.txt run2.txt ...
"""
import re
import statistics
import sys

TIME_UNITS = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
MAGNITUDE = {"K": 1e3, "M": 1e6, "G": 1e9}


def parse(path):
    results, name = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line and not line.startswith(("│", "╒", "╞", "├", "╘", " ", "=")) and re.match(r"^W\d", line):
            name = line.strip()
            results.setdefault(name, {})
            continue
        if name is None or not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        if len(cells) < 9 or cells[0] == "Metric":
            continue
        metric, p50 = cells[0], float(cells[3].replace(",", ""))
        unit = re.findall(r"\(([^)]*)\)", metric)
        scale = 1.0
        for u in unit:
            scale *= TIME_UNITS.get(u, 1) * MAGNITUDE.get(u, 1)
        if metric.startswith("Time (wall clock)"):
            results[name]["ns"] = p50 * scale
        elif metric.startswith("Malloc (total)"):
            results[name]["mallocs"] = p50 * scale
        elif metric.startswith("Memory (resident peak)"):
            results[name]["peakRSS"] = p50 * scale
    return results


runs = [parse(path) for path in sys.argv[1:]]
names = sorted({name for run in runs for name in run})
print(f"{'benchmark':70} {'ns/unit':>10} {'mallocs/unit':>13} {'peak RSS':>10}  per-run ns")
for name in names:
    values = [run[name] for run in runs if name in run]
    ns = [v["ns"] for v in values if "ns" in v]
    mallocs = [v["mallocs"] for v in values if "mallocs" in v]
    rss = [v["peakRSS"] for v in values if "peakRSS" in v]
    print(f"{name:70} {statistics.median(ns) if ns else float('nan'):10.1f} "
          f"{statistics.median(mallocs) if mallocs else float('nan'):13.3f} "
          f"{(statistics.median(rss) if rss else 0):10.0f}  {' '.join(f'{x:.1f}' for x in ns)}")

# (what, numerator, denominator, target): the targets of issue 4.
RATIOS = [
    ("W1 hot 1 listener / closures + lock", "W1 Receiver .hot", "W1 floor: closure array + lock", 2.0),
    ("W2 per delivery / plain closure call", "W2 Receiver .hot", "W2 floor: closure array", 1.3),
    ("W3 10,000 others / none", "W3 Receiver listen + dispose, 10000 others", "W3 Receiver listen + dispose, 0 others", 1.5),
    ("W3 none / append + remove", "W3 Receiver listen + dispose, 0 others", "W3 floor: append + remove a closure", 3.0),
    ("W4 warm(64) broadcast / closures + lock", "W4 Receiver .warm(upTo: 64) broadcast", "W1 floor: closure array + lock", 3.0),
    ("W4 warm(4096) / warm(64) broadcast", "W4 Receiver .warm(upTo: 4096) broadcast", "W4 Receiver .warm(upTo: 64) broadcast", 1.2),
    ("W4 late listener / 64 closure calls", "W4 Receiver .warm(upTo: 64) late listener", "W4 floor: a closure called 64 times", 5.0),
    ("W5 chain per input / W1", "W5 Receiver map → filter → map → skipRepeats", "W1 Receiver .hot", 3.0),
    ("W6 ValuePromise set / 10 closures", "W6 ValuePromise set, 10 subscribers", "W6 floor: 10 closures", 2.0),
    ("W8 2 threads / lock floor, 2 threads", "W8 Receiver .hot, 2 threads", "W8 floor: closure array + lock, 2 threads", 2.0),
]
print()
print(f"{'ratio':45} {'median':>7} {'target':>7}  met  per-run")
for what, numerator, denominator, target in RATIOS:
    ratios = [run[numerator]["ns"] / run[denominator]["ns"] for run in runs
              if "ns" in run.get(numerator, {}) and "ns" in run.get(denominator, {})]
    if not ratios:
        continue
    median = statistics.median(ratios)
    print(f"{what:45} {median:7.2f} {target:7.2f}  {'yes' if median <= target else 'NO ':3}  "
          f"{' '.join(f'{r:.2f}' for r in ratios)}")
