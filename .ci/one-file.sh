#!/usr/bin/env bash
# Writes the whole library — the Receiver and ReceiverSignalKit modules — as ONE Swift file on
# standard output, for apps that vendor it instead of using SwiftPM (an Xcode target, a Bazel
# swift_library; compiled as a module named SwiftSignalKit, it replaces Telegram's SwiftSignalKit):
#
#   bash .ci/one-file.sh > SwiftSignalKit.swift
#
# One file is one module, so: ReceiverSignalKit's re-export of the Receiver module, and its import
# of the core's debug-only leak-check hook, are dropped; every import gets the widest level any
# file gives it (the modules' files disagree, which one file may not); and the few `package`
# declarations (the hook the test-only ReceiverSignalKitTesting module uses, which is not vendored,
# and the actor checker's entry points) become `internal`, since a file compiled outside a package
# has no package name for them. `.ci/vendor-check.sh` compiles and
# runs what this writes, so the command above stays working.
set -euo pipefail
cd "$(dirname "$0")/.."

sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/Receiver Sources/ReceiverSignalKit -name '*.swift' -type f | LC_ALL=C sort)
if [ "${#sources[@]}" -eq 0 ]; then echo "one-file: no sources found" >&2; exit 1; fi
for file in "${sources[@]}"; do
    printf '// ---- %s\n' "$file"
    grep -vE '^(@_exported public|@_spi\(LeakCheck\) internal) import Receiver$' "$file" | sed -E \
        -e 's/^internal import /public import /' \
        -e 's/(^|[[:space:]])package ((let|var|func|init|final|protocol|struct|class|enum|convenience|static)[[:space:](<?])/\1internal \2/g'
    printf '\n'
done
