#!/usr/bin/env bash
# Benchmarks smoke test: builds the Benchmarks package (package-benchmark included, on a clean
# machine too) and runs every benchmark ONCE, without warm-up, so that the benchmarks cannot rot.
# Each benchmark checks what its listeners received, so a wrong result fails here too (W9,
# bytes per live subscription, keeps 1,000 alive instead of 10,000). The figures of a smoke run
# mean nothing; Benchmarks/README.md says how to measure.
#
# Needs only the Swift toolchain: package-benchmark's MallocInterposer trait counts mallocs
# without jemalloc. Exits non-zero if the build or any benchmark fails, or if a benchmark is
# missing from the output.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

output="$(mktemp)"
trap 'rm -f "$output"' EXIT

# RECEIVER_BENCH_SMOKE makes every benchmark's configuration one iteration, no warm-up. The
# build and the run together take a few minutes; the limit turns a hang (an AsyncChannel workload
# that lost a value leaves its producer waiting in `send` forever) into a failure.
if ! RECEIVER_BENCH_SMOKE=1 timeout 720 swift package benchmark --no-progress 2>&1 | tee "$output"; then
    echo "FAIL: bench-smoke: the build or a benchmark failed, or the whole took over 12 minutes" >&2
    exit 1
fi

expected="$(swift package benchmark list 2>/dev/null | grep -c '^W[0-9]')"
ran="$(grep -c '^W[0-9]' "$output" || true)"
echo "bench-smoke: $ran of $expected benchmarks ran"
if [ "$expected" -eq 0 ] || [ "$ran" -ne "$expected" ]; then
    echo "FAIL: bench-smoke: expected $expected benchmarks to report, $ran did" >&2
    exit 1
fi
echo "bench-smoke: ok"
