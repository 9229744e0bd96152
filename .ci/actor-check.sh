#!/usr/bin/env bash
# The actor checker, seen from client packages (.ci/actor-check/), built as users build them:
#
#   Swift6App             (Swift 6, main-actor default isolation) debug: each line marked
#                         `REPORTED` in its main.swift (handlers given to `start` or `listen`, and
#                         `observed(initial:)`) is reported once, with `main actor` and its call
#                         site, and nothing else is; release: nothing is reported.
#   SwiftSignalKitClient  (Swift 5, SwiftSignalKit style) debug: nothing is reported; with
#                         `controller`, its main-actor controller's start is reported once.
#
# Each program must exit 0. The build folder .build-actor-check is kept between runs.
set -euo pipefail
cd "$(dirname "$0")/actor-check"
scratch=../../.build-actor-check
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# expect CONFIGURATION PROGRAM [ARGUMENT]: runs the program, then compares the call sites its
# standard error reports with the lines of its main.swift marked REPORTED (none in release, and
# none for SwiftSignalKitClient unless it runs its controller).
expect() {
    local configuration="$1" program="$2" argument="${3:-}"
    local source="Sources/$program/main.swift"
    "$scratch/$configuration/$program" $argument >"$work/out.txt" 2>"$work/err.txt"
    if grep -v '^Receiver actor check: ' "$work/err.txt" | grep -q .; then
        echo "FAIL: $program ($configuration) wrote more than reports to standard error:" >&2
        cat "$work/err.txt" >&2
        exit 1
    fi
    grep -oE '(given to|made by) `[A-Za-z():]*` at [^ ]* on the main actor' "$work/err.txt" \
        | sed -E 's/.* at ([^ ]*) .*/\1/' \
        >"$work/reported.txt" || true
    : >"$work/expected.txt"
    if [ "$configuration" = debug ] && { [ "$program" = Swift6App ] || [ -n "$argument" ]; }; then
        grep -n '// REPORTED' "$source" | cut -d: -f1 | sed "s|^|$program/main.swift:|" >"$work/expected.txt"
    fi
    if ! diff -u "$work/expected.txt" "$work/reported.txt"; then
        echo "FAIL: $program $argument ($configuration): the call sites reported differ from those expected" >&2
        cat "$work/err.txt" >&2
        exit 1
    fi
    echo "$program $argument ($configuration): $(wc -l <"$work/reported.txt") report(s), as expected"
}

for configuration in debug release; do
    echo "--- swift build -c $configuration (.ci/actor-check)"
    swift build -c "$configuration" --scratch-path "$scratch" 2>&1 | tee "$work/build.txt" | grep -E 'error|warning:|Compiling|Build' || true
    if grep -q 'warning:' "$work/build.txt"; then echo "FAIL: the client packages build with warnings" >&2; exit 1; fi
    expect "$configuration" Swift6App
    expect "$configuration" SwiftSignalKitClient
    expect "$configuration" SwiftSignalKitClient controller
done
echo "actor-check: ok"
