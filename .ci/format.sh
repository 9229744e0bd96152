#!/usr/bin/env bash
# Formats the Swift code with the toolchain's own formatter (`swift format`), configured by
# .swift-format at the repository root (4-space indent, 120 columns; CONTRIBUTING.md: "Day to day").
#
#   bash .ci/format.sh           # rewrites the files in place
#   bash .ci/format.sh --lint    # changes nothing; fails on any finding (what CI runs)
#
# Covers Package.swift and every .swift file under Sources, Tests, Examples and Benchmarks
# (Benchmarks/Package.swift included). Hidden directories such as .build are skipped. To leave
# one declaration alone, put `// swift-format-ignore: RuleName` above it, with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(Package.swift Sources Tests Examples Benchmarks)

case "${1:-}" in
"")
    swift format format --in-place --recursive --parallel "${paths[@]}"
    echo "format: done; review with git diff"
    ;;
--lint)
    # --strict turns every finding into an error, so the exit status is non-zero on any finding.
    if ! swift format lint --strict --recursive --parallel "${paths[@]}"; then
        echo "FAIL: swift format found the findings above; run 'bash .ci/format.sh' to fix what it can" >&2
        exit 1
    fi
    echo "format lint: 0 findings"
    ;;
*)
    echo "usage: bash .ci/format.sh [--lint]" >&2
    exit 2
    ;;
esac
