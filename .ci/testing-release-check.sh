#!/usr/bin/env bash
# ReceiverSignalKitTesting seen from a client package (.ci/testing-release/), in both builds:
#
#   debug    `TestScheduler.withMainQueue` (each form) makes `Queue.mainQueue()` the scheduler's:
#            the program prints that its body ran with the scheduler's main queue, and exits 0;
#   release  the library checks nothing in `Queue.mainQueue()`, so the scope cannot work: the
#            program stops with the message that names the problem and the fix, before the body
#            runs (it never silently runs on the real main queue).
#
# The build folder .build-testing-release is kept between runs.
set -euo pipefail
cd "$(dirname "$0")/testing-release"
scratch=../../.build-testing-release
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
message='TestScheduler.withMainQueue(_:): Queue.mainQueue() cannot stand for a TestScheduler'"'"'s main queue in a release build of ReceiverSignalKit'
fix='Run the tests in a debug build (swift test without -c release; Xcode'"'"'s Debug configuration), or pass scheduler.mainQueue to the code under test.'

for configuration in debug release; do
    echo "--- swift build -c $configuration (.ci/testing-release)"
    swift build -c "$configuration" --scratch-path "$scratch" 2>&1 | tee "$work/build.txt" | grep -E 'error|warning:|Build' || true
    if grep -q 'warning:' "$work/build.txt"; then echo "FAIL: the client package builds with warnings" >&2; exit 1; fi
    for form in sync async; do
        status=0
        # (braces: so that the shell's own line about the program's signal stays out of the log)
        { "$scratch/$configuration/MainQueueScope" "$form" >"$work/out.txt" 2>"$work/err.txt"; } 2>/dev/null || status=$?
        if [ "$configuration" = debug ]; then
            if [ "$status" -ne 0 ] || [ "$(cat "$work/out.txt")" != "body ran; the scheduler's main queue: true" ]; then
                echo "FAIL: withMainQueue ($form, debug) did not run its body on the scheduler's main queue" >&2
                cat "$work/out.txt" "$work/err.txt" >&2
                exit 1
            fi
        elif [ "$status" -eq 0 ] || [ -s "$work/out.txt" ] || ! grep -qF "$message" "$work/err.txt" \
            || ! grep -qF "$fix" "$work/err.txt"; then
            echo "FAIL: withMainQueue ($form, release) did not stop with its message before its body" >&2
            cat "$work/out.txt" "$work/err.txt" >&2
            exit 1
        fi
        if [ "$configuration" = debug ]; then
            echo "withMainQueue ($form, debug): ran its body on the scheduler's main queue"
        else
            echo "withMainQueue ($form, release): stopped (status $status) before its body: $(grep -oF "$message" "$work/err.txt")…"
        fi
    done
done
echo "testing-release-check: ok"
