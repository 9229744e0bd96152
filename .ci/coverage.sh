#!/usr/bin/env bash
# Line coverage per library module, from the profile of the last coverage-enabled test run:
#
#   swift test --enable-code-coverage          # the README's `swift test`, instrumented
#   bash .ci/coverage.sh                       # each module >= 95% of its lines, or fail
#   bash .ci/coverage.sh Receiver=98 ReceiverSignalKit=96     # other thresholds (percent)
#   COVERAGE_MIN=90 bash .ci/coverage.sh       # one threshold for every module not named
#   SCRATCH=.build-x bash .ci/coverage.sh      # a run made with --scratch-path .build-x
#
# A module's figure counts only the files under Sources/<Module>/ (not the tests, not the other
# module's code). Below the table, every line no test ran, as file: line ranges.
# Uses the toolchain's llvm-cov (next to `swift`; `xcrun llvm-cov` on macOS), not whichever
# llvm-cov comes first on PATH: an older LLVM cannot read the toolchain's profile format.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Receiver ReceiverSignalKit ReceiverSignalKitTesting)
default_min="${COVERAGE_MIN:-95}"
declare -A min=()
for module in "${modules[@]}"; do min[$module]="$default_min"; done
for argument in "$@"; do
    module="${argument%%=*}" value="${argument#*=}"
    if [ -z "${min[$module]+set}" ] || ! [[ "$value" =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
        echo "usage: bash .ci/coverage.sh [Module=percent ...]  (modules: ${modules[*]})" >&2
        exit 2
    fi
    min[$module]="$value"
done

scratch=(); if [ -n "${SCRATCH:-}" ]; then scratch=(--scratch-path "$SCRATCH"); fi

if [ -n "${LLVM_COV:-}" ]; then
    llvm_cov=("$LLVM_COV")
elif command -v xcrun >/dev/null 2>&1; then
    llvm_cov=(xcrun llvm-cov)
else
    llvm_cov=("$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov")
fi

bin="$(swift build "${scratch[@]}" --show-bin-path)"
profile="$bin/codecov/default.profdata"
binary="$bin/ReceiverPackageTests.xctest"
if [ -f "$binary/Contents/MacOS/ReceiverPackageTests" ]; then binary="$binary/Contents/MacOS/ReceiverPackageTests"; fi
if [ ! -f "$profile" ] || [ ! -f "$binary" ]; then
    echo "FAIL: no coverage data in $bin; run 'swift test --enable-code-coverage ${scratch[*]}' first" >&2
    exit 1
fi
if [ -n "$(find Sources -name '*.swift' -newer "$profile" | head -1)" ]; then
    echo "note: some sources are newer than the profile; the figures are from the last test run"
fi

status=0
uncovered=""
printf '%-20s %8s %8s %9s %9s\n' Module Lines Missed Cover Minimum
for module in "${modules[@]}"; do
    files=()
    while IFS= read -r file; do files+=("$PWD/$file"); done < <(find "Sources/$module" -name '*.swift' -type f | LC_ALL=C sort)
    if [ "${#files[@]}" -eq 0 ]; then echo "FAIL: no Swift files under Sources/$module" >&2; exit 1; fi
    # The TOTAL row of the report over this module's files (a file's own row if it has one file):
    # Filename, Regions, Missed, Cover, Functions, Missed, Executed, Lines, Missed Lines, Cover...
    read -r lines missed <<<"$("${llvm_cov[@]}" report "$binary" -instr-profile="$profile" "${files[@]}" |
        awk '$1 == "TOTAL" { total = $8 " " $9 } /\.swift / { row = $8 " " $9 } END { print total ? total : row }')"
    cover="$(awk -v l="$lines" -v m="$missed" 'BEGIN { printf "%.2f", l ? 100 * (l - m) / l : 100 }')"
    verdict="$(awk -v c="$cover" -v t="${min[$module]}" 'BEGIN { print (c + 0 >= t + 0) ? "ok" : "FAIL" }')"
    printf '%-20s %8s %8s %8s%% %8s%%  %s\n' "$module" "$lines" "$missed" "$cover" "${min[$module]}" "$verdict"
    if [ "$verdict" != ok ]; then status=1; fi
    # What no test ran, from the annotated source: lines run 0 times, and lines that ran but hold
    # a region that did not (`^0` under the line: a precondition's message, the other side of ?:).
    # Such a region counts in the report's missed lines even though its line ran.
    uncovered+="$("${llvm_cov[@]}" show "$binary" -instr-profile="$profile" "${files[@]}" \
        -show-line-counts-or-regions -show-instantiations=false |
        awk -v root="$PWD/" -v name="${files[0]#"$PWD"/}" '
            function flush() { if (start) none = none (none ? ", " : "") (start == end ? start : start "-" end); start = 0 }
            function add(kind, n) {
                if (kind == "part") { part = part (part ? ", " : "") n; return }
                if (start && n == end + 1) end = n; else { flush(); start = end = n }
            }
            function file_done() {
                flush()
                if (none || part) print "  " name ":" (none ? " not run: " none : "") (none && part ? ";" : "") (part ? " partly run: " part : "")
                none = part = ""
            }
            # The header of each file (only when there are several): its absolute path, a colon.
            /^\/.*:$/ { file_done(); name = substr($0, 1, length($0) - 1)
                         if (index(name, root) == 1) name = substr(name, length(root) + 1); next }
            /^ *[0-9]+\|/ { split($0, f, "|"); line = f[1] + 0; count = f[2]; gsub(/ /, "", count)
                            if (count == "0") add("none", line); next }
            /^ +\^/ { if ($0 ~ /\^0([^.0-9kMG]|$)/ && line != reported) { add("part", line); reported = line } }
            END { file_done() }')"
    uncovered+=$'\n'
done

uncovered="$(printf '%s' "$uncovered" | grep -v '^$' || true)"
if [ -n "$uncovered" ]; then
    printf '\nWhat no test ran (line numbers):\n%s\n' "$uncovered"
fi
if [ "$status" -ne 0 ]; then
    echo "FAIL: a module's line coverage is under its minimum" >&2
fi
exit "$status"
