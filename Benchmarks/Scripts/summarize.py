#!/usr/bin/env python3
"""Reads the text output of one or more `swift package benchmark` runs and prints, per benchmark,
the median (p50) wall-clock time and malloc count per unit of work, and the median over runs.

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
