#!/usr/bin/env bash
# Checks that the library can be vendored by copying source into an app, without SwiftPM:
#
#   (a) the core, Sources/Receiver/Receiver.swift, compiled ALONE with a smoke program;
#   (b) every source file of both modules as ONE file, as `.ci/one-file.sh` writes it for users,
#       compiled alone with a smoke
#       program that uses the operators, async and the adapter (promises, |>, disposables); and
#       type-checked with the actor checker compiled in (-D RECEIVER_DIAGNOSTICS);
#   (c) that same file compiled as a module named SwiftSignalKit, and a client of it in SwiftSignalKit
#       style (Swift 5 mode, Foundation, `SwiftSignalKit.Timer`, `SwiftSignalKit.filter`): the way to
#       vendor the library in place of Telegram's SwiftSignalKit;
#   (d) that same file compiled with -O and a program of misuse cases: each must stop with its
#       message in an optimised build too (misuse stops with a message; `precondition` prints
#       nothing under -O).
#
# Each is compiled in the Swift 6 language mode with warnings as errors and the package's
# upcoming features, then run; its output must match .ci/vendor/<name>-expected.txt exactly.
# New source files are picked up by (b) automatically. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFTC="${SWIFTC:-swiftc}"
FLAGS=(
    -swift-version 6 -warnings-as-errors
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature InternalImportsByDefault
    -enable-upcoming-feature MemberImportVisibility
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# check NAME SOURCE: compiles SOURCE with .ci/vendor/NAME-main.swift (as main.swift, so that it
# may have top-level code), runs the program and compares its output with NAME-expected.txt.
check() {
    local name="$1" source="$2"
    local dir="$work/$name"
    mkdir -p "$dir"
    cp ".ci/vendor/$name-main.swift" "$dir/main.swift"
    echo "--- $name: swiftc ${FLAGS[*]} $source main.swift"
    "$SWIFTC" "${FLAGS[@]}" "$source" "$dir/main.swift" -o "$dir/smoke"
    "$dir/smoke" >"$dir/output.txt"
    if ! diff -u ".ci/vendor/$name-expected.txt" "$dir/output.txt"; then
        echo "FAIL: $name: the smoke program's output differs from .ci/vendor/$name-expected.txt" >&2
        exit 1
    fi
    cat "$dir/output.txt"
}

echo "=== (a) the core file alone"
check core Sources/Receiver/Receiver.swift

echo "=== (b) every source file, concatenated"
all="$work/ReceiverAll.swift"
bash .ci/one-file.sh >"$all"   # the command README and the migration guide give users
grep '^// ---- ' "$all" | cut -c9-
check all "$all"
echo "--- the same file with the actor checker compiled in, as a debug build defining it has it"
"$SWIFTC" "${FLAGS[@]}" -typecheck -D RECEIVER_DIAGNOSTICS "$all" "$work/all/main.swift"

echo "=== (c) that file as a module named SwiftSignalKit, and a SwiftSignalKit-style client of it"
dir="$work/swiftsignalkit"
mkdir -p "$dir"
echo "--- swiftc ${FLAGS[*]} -parse-as-library -emit-library -module-name SwiftSignalKit"
"$SWIFTC" "${FLAGS[@]}" -parse-as-library -emit-library -emit-module -module-name SwiftSignalKit \
    -emit-module-path "$dir/SwiftSignalKit.swiftmodule" -o "$dir/libSwiftSignalKit.so" "$all"
echo "--- swiftc -swift-version 5 -warnings-as-errors .ci/vendor/swiftsignalkit-client.swift"
"$SWIFTC" -swift-version 5 -warnings-as-errors -I "$dir" -L "$dir" -lSwiftSignalKit \
    -Xlinker -rpath -Xlinker "$dir" .ci/vendor/swiftsignalkit-client.swift -o "$dir/client"
"$dir/client" >"$dir/output.txt"
if ! diff -u .ci/vendor/swiftsignalkit-expected.txt "$dir/output.txt"; then
    echo "FAIL: swiftsignalkit: the client's output differs from .ci/vendor/swiftsignalkit-expected.txt" >&2
    exit 1
fi
cat "$dir/output.txt"

echo "=== (d) misuse stops with its message in an optimised build"
dir="$work/misuse"
mkdir -p "$dir"
cp .ci/vendor/misuse-main.swift "$dir/main.swift"
"$SWIFTC" "${FLAGS[@]}" -O "$all" "$dir/main.swift" -o "$dir/misuse"
# case|text the message must hold
while IFS='|' read -r name text; do
    # Run by a shell of its own, whose report of the signal goes to err.txt as well.
    if sh -c '"$0" "$1"' "$dir/misuse" "$name" >"$dir/out.txt" 2>"$dir/err.txt"; then
        echo "FAIL: misuse '$name' did not stop the program (-O)" >&2
        exit 1
    fi
    if ! grep -qF "$text" "$dir/err.txt"; then
        echo "FAIL: misuse '$name' stopped without its message (-O); standard error:" >&2
        head -5 "$dir/err.txt" >&2
        exit 1
    fi
    if grep -qF "CONTINUATION MISUSE" "$dir/err.txt"; then
        echo "FAIL: misuse '$name' leaked a continuation (-O)" >&2
        exit 1
    fi
    echo "misuse $name: stops with \"$text\""
done <<'CASES'
warm|Receiver.Strategy.warm(upTo:) needs a count of 0 or more, got -1
skip|Receiver.skip(count:) needs a count of 0 or more, got -2
take|Receiver.take(count:) needs a count of 0 or more, got -3
signal-skip|skip(_:) needs a count of 0 or more, got -4
thread-pool|ThreadPool(threadCount:threadPriority:) needs at least one thread, got 0
timer|needs a timeout that is a number, got nan
delay|got nan
get-never|Signal.get() needs a value, but the signal let go of its subscriber without sending one
restart-spin|started its source 100000 times in a row
CASES

echo "vendor-check: ok"
