#!/usr/bin/env bash
# Fuzzes the library against its two reference models for the given number of seconds in all
# (default 30), under the address sanitizer: libFuzzer's bytes become programs for the core's
# model-based test (the threading contract and the operators, Tests/ReceiverTests/Model) for half
# the time, and for the adapter's (SwiftSignalKit's behaviour and the migration guide's listed
# differences, Tests/ReceiverSignalKitTests/Model) for the other half — one binary,
# Tests/Fuzz/FuzzMain.swift, whose RECEIVER_FUZZ_TARGET chooses (core, signalkit). Fails on a
# finding — the logs differ, a crash, a memory error, or a run longer than 10 s (a deadlock) — and
# leaves the input that found it in .build-fuzz/ (replay it:
# RECEIVER_FUZZ_TARGET=signalkit .build-fuzz/fuzz-receiver .build-fuzz/crash-…).
# The corpora grow in .build-fuzz/corpus (core) and .build-fuzz/corpus-signalkit across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
out=.build-fuzz
mkdir -p "$out/corpus" "$out/corpus-signalkit" "$out/sources"

# Both modules as one: the adapter's files without their import of the core (vendor-check.sh
# does the same for its one-file build).
rm -f "$out"/sources/*.swift
while IFS= read -r file; do
    copy="$out/sources/$(echo "${file#Sources/}" | tr '/' '_')"
    grep -vE '^@_exported public import Receiver$' "$file" >"$copy"
done < <(find Sources/Receiver Sources/ReceiverSignalKit -name '*.swift' -type f | LC_ALL=C sort)

swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -module-name ReceiverFuzz -package-name Receiver \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -enable-upcoming-feature MemberImportVisibility \
    "$out"/sources/*.swift Tests/TestSupport/ModelChoices.swift Tests/ReceiverTests/Model/*.swift \
    Tests/ReceiverSignalKitTests/Model/*.swift Tests/Fuzz/*.swift -o "$out/fuzz-receiver" > "$out/build-log.txt" 2>&1 || { cat "$out/build-log.txt"; exit 1; }
# Swift's diagnostics only: gold warns about ASan's local symbols, which is harmless.
if grep -E "\.swift:[0-9]+:[0-9]+: (warning|error)" "$out/build-log.txt"; then echo "FAIL: the fuzz target has warnings"; exit 1; fi

half=$(( (seconds + 1) / 2 ))
echo "=== the core's delivery contract, ${half} s"
RECEIVER_FUZZ_TARGET=core "$out/fuzz-receiver" "$out/corpus" -max_total_time="$half" -timeout=10 -max_len=512 \
    -artifact_prefix="$out/" -print_final_stats=1
echo "=== the adapter, $(( seconds - half > 0 ? seconds - half : 1 )) s"
# No leak check here: the reference model keeps a running start alive through cycles, as
# SwiftSignalKit does (a run's starts are left running when it ends). The library's own leaks are
# pinned by the trace suites' "No leak when a start's handle is dropped" (SignalMetaTraceTests) and
# by SignalReduceTests.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" RECEIVER_FUZZ_TARGET=signalkit "$out/fuzz-receiver" "$out/corpus-signalkit" \
    -max_total_time="$(( seconds - half > 0 ? seconds - half : 1 ))" -timeout=10 -max_len=1024 -detect_leaks=0 \
    -artifact_prefix="$out/" -print_final_stats=1
