#!/usr/bin/env python3
"""Reads the text output of one or more `swift package benchmark` runs and prints, per benchmark,
the median (p50) wall-clock time and malloc count per unit of work, and the median over runs;
then each target ratio of the core's and the adapter's workloads, and the rows of SwiftSignalKit's
own benchmark workloads beside OpenCombine and their floors, computed within each run (numerator
and denominator from the same run, so machine noise mostly cancels) with its median over runs;
then the delivery ratios again with the listener's own cost ("W1 floor: the listener alone") taken
off both sides; then W24–W28, each row over Receiver's in the same run; then W9's bytes per live subscription (a custom metric, one figure per iteration) against the
adapter's targets.

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
        elif metric.startswith("Bytes per live subscription"):
            results[name]["bytes"] = p50 * scale
        elif metric.startswith("Requested bytes per live subscription"):
            results[name]["requested"] = p50 * scale
        elif metric.startswith("Allocations per live subscription"):
            results[name]["allocations"] = p50 * scale
    return results


runs = [parse(path) for path in sys.argv[1:]]
names = sorted({name for run in runs for name in run})
print(f"{'benchmark':70} {'ns/unit':>10} {'mallocs/unit':>13} {'peak RSS':>10}  per-run ns")
for name in names:
    values = [run[name] for run in runs if name in run]
    if any("bytes" in v for v in values):
        continue  # W9: its figures are per live subscription, in the table at the end
    ns = [v["ns"] for v in values if "ns" in v]
    mallocs = [v["mallocs"] for v in values if "mallocs" in v]
    rss = [v["peakRSS"] for v in values if "peakRSS" in v]
    print(f"{name:70} {statistics.median(ns) if ns else float('nan'):10.1f} "
          f"{statistics.median(mallocs) if mallocs else float('nan'):13.3f} "
          f"{(statistics.median(rss) if rss else 0):10.0f}  {' '.join(f'{x:.1f}' for x in ns)}")

# (what, numerator, denominator, target): the targets of the core's and the adapter's workloads
# (target None: shown, not a target). The adapter's: every time at least as fast as OpenCombine's
# nearest equivalent.
RATIOS = [
    ("W1 hot 1 listener / closures + lock", "W1 Receiver .hot", "W1 floor: closure array + lock", 2.0),
    ("W1 hot 1 listener / one closure under a lock", "W1 Receiver .hot", "W1 floor: one closure under a lock", None),
    ("W1 OpenCombine Passthrough / Receiver .hot", "W1 OpenCombine PassthroughSubject", "W1 Receiver .hot", None),
    ("W2 per delivery / plain closure call", "W2 Receiver .hot", "W2 floor: closure array", 1.3),
    ("W3 10,000 others / none", "W3 Receiver listen + dispose, 10000 others", "W3 Receiver listen + dispose, 0 others", 1.5),
    ("W3 none / append + remove", "W3 Receiver listen + dispose, 0 others", "W3 floor: append + remove a closure", 3.0),
    ("W4 warm(64) broadcast / closures + lock", "W4 Receiver .warm(upTo: 64) broadcast", "W1 floor: closure array + lock", 3.0),
    ("W4 warm(4096) / warm(64) broadcast", "W4 Receiver .warm(upTo: 4096) broadcast", "W4 Receiver .warm(upTo: 64) broadcast", 1.2),
    ("W4 late listener / 64 closure calls", "W4 Receiver .warm(upTo: 64) late listener", "W4 floor: a closure called 64 times", 5.0),
    ("W5 chain per input / W1", "W5 Receiver map → filter → map → skipRepeats", "W1 Receiver .hot", 3.0),
    ("W6 ValuePromise set / 10 closures", "W6 ValuePromise set, 10 subscribers", "W6 floor: 10 closures", 2.0),
    ("W8 2 threads / lock floor, 2 threads", "W8 Receiver .hot, 2 threads", "W8 floor: closure array + lock, 2 threads", 2.0),
    ("W10 never start+dispose / OpenCombine", "W10 never().start() + dispose()", "W10 OpenCombine Empty(completeImmediately: false) sink + cancel", 1.0),
    ("W10 never start+dispose / floor", "W10 never().start() + dispose()", "W10 floor: make and release one object", None),
    ("W10 OpenCombine / floor", "W10 OpenCombine Empty(completeImmediately: false) sink + cancel", "W10 floor: make and release one object", None),
    ("W11 set through 5 maps / OpenCombine", "W11 ValuePromise set |> five maps", "W11 OpenCombine CurrentValueSubject send, five .map", 1.0),
    ("W11 set through 5 maps / floor", "W11 ValuePromise set |> five maps", "W11 floor: five transforms and a handler", None),
    ("W11 OpenCombine / floor", "W11 OpenCombine CurrentValueSubject send, five .map", "W11 floor: five transforms and a handler", None),
    ("W12 combineLatest update / OpenCombine", "W12 combineLatest of three ValuePromises, one set", "W12 OpenCombine latest of three CurrentValueSubjects (flatMap + scan) send", 1.0),
    ("W12 combineLatest update / floor", "W12 combineLatest of three ValuePromises, one set", "W12 floor: latest of three behind a lock", None),
    ("W12 OpenCombine / floor", "W12 OpenCombine latest of three CurrentValueSubjects (flatMap + scan) send", "W12 floor: latest of three behind a lock", None),
    ("W13 mapToSignal switch / OpenCombine", "W13 ValuePromise set |> mapToSignal (inner: a ValuePromise get())", "W13 OpenCombine map + switchToLatest, outer send", 1.0),
    ("W13 mapToSignal switch / floor", "W13 ValuePromise set |> mapToSignal (inner: a ValuePromise get())", "W13 floor: a new closure swapped into a locked slot, and a handler call", None),
    ("W13 OpenCombine / floor", "W13 OpenCombine map + switchToLatest, outer send", "W13 floor: a new closure swapped into a locked slot, and a handler call", None),
    ("W14 deliverOn hop / OpenCombine", "W14 ValuePromise set |> deliverOn(serial Queue)", "W14 OpenCombine CurrentValueSubject send, receive(on: DispatchQueue)", 1.0),
    ("W14 deliverOn hop / floor", "W14 ValuePromise set |> deliverOn(serial Queue)", "W14 floor: DispatchQueue.async + semaphore", None),
    ("W14 OpenCombine / floor", "W14 OpenCombine CurrentValueSubject send, receive(on: DispatchQueue)", "W14 floor: DispatchQueue.async + semaphore", None),
    ("W15 MetaDisposable.set / OpenCombine", "W15 MetaDisposable.set", "W15 OpenCombine AnyCancellable slot: cancel the old, store the new", 1.0),
    ("W15 MetaDisposable.set / floor", "W15 MetaDisposable.set", "W15 floor: swap a closure in a locked slot, call the old one", None),
    ("W15 OpenCombine / floor", "W15 OpenCombine AnyCancellable slot: cancel the old, store the new", "W15 floor: swap a closure in a locked slot, call the old one", None),
    # SwiftSignalKit's own benchmark workloads: shown beside OpenCombine and the floor (their
    # targets are against SwiftSignalKit, measured outside this package).
    ("W16 Bag in order added / floor", "W16 Bag add 64, then remove them in the order added", "W16 floor: append 64 to an array, then remove the last 64", None),
    ("W17 Atomic.modify / floor", "W17 Atomic.modify", "W17 floor: a closure called under a pthread_mutex", None),
    ("W18 single start+dispose / OpenCombine", "W18 Signal.single(v).start() + dispose()", "W18 OpenCombine Just(v).sink + cancel", None),
    ("W18 single start+dispose / floor", "W18 Signal.single(v).start() + dispose()", "W18 floor: make and release one object, call a handler", None),
    ("W20 Promise.set(single) / OpenCombine", "W20 Promise.set(.single(v)), three subscribers", "W20 OpenCombine CurrentValueSubject fed by Just(v).subscribe, three sinks", None),
    ("W20 Promise.set(single) / floor", "W20 Promise.set(.single(v)), three subscribers", "W20 floor: three closures called under a lock", None),
    ("W21 combineLatest of 16 / OpenCombine", "W21 combineLatest of sixteen ValuePromises, one set", "W21 OpenCombine latest of sixteen CurrentValueSubjects (flatMap + scan), one send", None),
    ("W21 combineLatest of 16 / floor", "W21 combineLatest of sixteen ValuePromises, one set", "W21 floor: latest of sixteen behind a lock, added up", None),
]
print()
print(f"{'ratio':45} {'median':>7} {'target':>7}  met  per-run")
for what, numerator, denominator, target in RATIOS:
    ratios = [run[numerator]["ns"] / run[denominator]["ns"] for run in runs
              if "ns" in run.get(numerator, {}) and "ns" in run.get(denominator, {})]
    if not ratios:
        continue
    median = statistics.median(ratios)
    verdict = "" if target is None else ("yes" if median <= target else "NO")
    print(f"{what:45} {median:7.2f} {target if target is not None else float('nan'):7.2f}  {verdict:3}  "
          f"{' '.join(f'{r:.2f}' for r in ratios)}")

# The same delivery ratios with the listener's own cost taken off both sides: every row calls the
# benchmark's listener (`Tally`'s handler, `calls` times per unit), which costs the same whoever
# calls it, so the plain ratio is pulled towards 1 by a constant that depends on the harness. Less
# "W1 floor: the listener alone", the ratio compares only what each side adds to the calls.
LESS_LISTENER = [
    ("W1 hot 1 listener / closures + lock", "W1 Receiver .hot", "W1 floor: closure array + lock", 1),
    ("W1 hot 1 listener / one closure under a lock", "W1 Receiver .hot", "W1 floor: one closure under a lock", 1),
    ("W1 closures + lock / closures", "W1 floor: closure array + lock", "W1 floor: closure array", 1),
    ("W2 per delivery / plain closure call", "W2 Receiver .hot", "W2 floor: closure array", 1),
    ("W4 warm(64) broadcast / closures + lock", "W4 Receiver .warm(upTo: 64) broadcast", "W1 floor: closure array + lock", 1),
    ("W6 ValuePromise set / 10 closures", "W6 ValuePromise set, 10 subscribers", "W6 floor: 10 closures", 10),
    ("W8 2 threads / lock floor, 2 threads", "W8 Receiver .hot, 2 threads", "W8 floor: closure array + lock, 2 threads", 1),
]
LISTENER = "W1 floor: the listener alone"
print()
print(f"less the listener's own cost (\"{LISTENER}\", per call, from the same run):")
print(f"{'ratio':45} {'median':>7}  {'ours − listener':>16} {'floor − listener':>17}  per-run")
for what, numerator, denominator, calls in LESS_LISTENER:
    rows = [(run[numerator]["ns"] - calls * run[LISTENER]["ns"], run[denominator]["ns"] - calls * run[LISTENER]["ns"])
            for run in runs if all("ns" in run.get(name, {}) for name in (numerator, denominator, LISTENER))]
    rows = [(ours, floor) for ours, floor in rows if floor > 0]
    if not rows:
        continue
    ratios = [ours / floor for ours, floor in rows]
    print(f"{what:45} {statistics.median(ratios):7.2f}  {statistics.median(o for o, _ in rows):13.1f} ns "
          f"{statistics.median(f for _, f in rows):14.1f} ns  {' '.join(f'{r:.2f}' for r in ratios)}")

# W24–W28: Receiver beside what a Swift 6 team would pick instead, each row's time over Receiver's
# in the same run (above 1: Receiver is faster).
ALTERNATIVES = ["W24 one consumer", "W25 100 consumers", "W26 map → filter → map", "W27 two producers",
                "W28 attach + detach"]
printed_heading = False
for workload in ALTERNATIVES:
    rows = [name for name in names if name.startswith(workload + ":")]
    ours = next((name for name in rows if "Receiver" in name), None)
    if ours is None:
        continue
    if not printed_heading:
        print()
        print(f"{'alternatives (W24–W28), per unit':70} {'ns':>10} {'÷ Receiver':>11}  per-run ratio")
        printed_heading = True
    for name in rows:
        ratios = [run[name]["ns"] / run[ours]["ns"] for run in runs
                  if "ns" in run.get(name, {}) and run.get(ours, {}).get("ns")]
        ns = [run[name]["ns"] for run in runs if "ns" in run.get(name, {})]
        print(f"{name:70} {statistics.median(ns):10.1f} {statistics.median(ratios):11.1f}  "
              f"{' '.join(f'{r:.1f}' for r in ratios)}")

# (what, ours, OpenCombine's nearest equivalent, floor, target bytes): the adapter's targets.
BYTES = [
    ("never().start()", "W9 never().start()",
     "W9 OpenCombine Empty(completeImmediately: false).sink", "W9 floor: one object", 119),
    ("five maps on a ValuePromise", "W9 ValuePromise get() |> five maps, started",
     "W9 OpenCombine CurrentValueSubject five .map, sink", "W9 floor: one object", 1587),
    ("combineLatest of three promises", "W9 combineLatest of three ValuePromises, started",
     "W9 OpenCombine latest of three CurrentValueSubjects (flatMap + scan), sink", "W9 floor: one object", 2512),
    ("mapToSignal", "W9 ValuePromise get() |> mapToSignal (inner: a ValuePromise get()), started",
     "W9 OpenCombine CurrentValueSubject map + switchToLatest (inner: a CurrentValueSubject), sink",
     "W9 floor: one object", 1046),
]


def median_of(name, key="bytes"):
    values = [run[name][key] for run in runs if key in run.get(name, {})]
    return statistics.median(values) if values else float("nan")


def figures(name):
    """held bytes / requested bytes / allocations, per live subscription."""
    return (f"{median_of(name):.0f} / {median_of(name, 'requested'):.0f} / "
            f"{median_of(name, 'allocations'):.0f}")


print()
print("bytes per live subscription: held (glibc chunks) / requested / allocations")
print(f"{'':32} {'ours':>16} {'OpenCombine':>16} {'floor':>12} {'target':>7}  met")
for what, ours, opencombine, floor, target in BYTES:
    mine = median_of(ours)
    verdict = "" if mine != mine else ("yes" if mine <= target else "NO")
    print(f"{what:32} {figures(ours):>16} {figures(opencombine):>16} {figures(floor):>12} {target:7}  {verdict}")
