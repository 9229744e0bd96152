#!/usr/bin/env bash
# Fuzzes the core's delivery contract for the given number of seconds (default 30): libFuzzer's
# bytes become programs for the model-based test (Tests/Fuzz/FuzzMain.swift), run on the reference
# model and on the library, under the address sanitizer. Fails on a finding — the logs differ,
# a crash, a memory error, or a run longer than 10 s (a deadlock) — and leaves the input that
# found it in .build-fuzz/ (replay it: .build-fuzz/fuzz-receiver .build-fuzz/crash-…).
# The corpus grows in .build-fuzz/corpus across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
out=.build-fuzz
mkdir -p "$out/corpus"

swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -module-name ReceiverFuzz \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -enable-upcoming-feature MemberImportVisibility \
    Sources/Receiver/*.swift Tests/ReceiverTests/Model/*.swift Tests/Fuzz/*.swift \
    -o "$out/fuzz-receiver" > "$out/build-log.txt" 2>&1 || { cat "$out/build-log.txt"; exit 1; }
# Swift's diagnostics only: gold warns about ASan's local symbols, which is harmless.
if grep -E "\.swift:[0-9]+:[0-9]+: (warning|error)" "$out/build-log.txt"; then echo "FAIL: the fuzz target has warnings"; exit 1; fi

"$out/fuzz-receiver" "$out/corpus" -max_total_time="$seconds" -timeout=10 -max_len=512 \
    -artifact_prefix="$out/" -print_final_stats=1
