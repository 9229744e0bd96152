#!/usr/bin/env bash
# Builds the DocC documentation with the toolchain's own `docc` (no SwiftPM plugin, so no package
# dependency) and fails on any warning: a broken symbol link or a malformed article fails CI.
#
#   bash .ci/docs.sh                 # archive in .build-docs/Receiver.doccarchive
#   SCRATCH=.build-x OUT=/tmp/docs bash .ci/docs.sh
#
# Steps: compile only the Receiver module with `-emit-symbol-graph`, keep only its graphs
# (Receiver.symbols.json and Receiver@<Other>.symbols.json for extensions), then `docc convert`.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH="${SCRATCH:-.build-docs}"
OUT="${OUT:-$SCRATCH/Receiver.doccarchive}"
# Stable, so that an up-to-date build (which emits nothing) still leaves the last graphs here.
GRAPHS="$SCRATCH/symbol-graphs/all"
MODULE_GRAPHS="$SCRATCH/symbol-graphs/Receiver"

echo "=== Symbol graph of the Receiver module"
mkdir -p "$GRAPHS"
swift build --target Receiver --scratch-path "$SCRATCH" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$GRAPHS"

rm -rf "$MODULE_GRAPHS"
mkdir -p "$MODULE_GRAPHS"
shopt -s nullglob
graphs=("$GRAPHS"/Receiver.symbols.json "$GRAPHS"/Receiver@*.symbols.json)
if [ ! -f "$GRAPHS/Receiver.symbols.json" ]; then
    echo "FAIL: no $GRAPHS/Receiver.symbols.json (delete $SCRATCH and run again)" >&2
    exit 1
fi
cp "${graphs[@]}" "$MODULE_GRAPHS"/
ls "$MODULE_GRAPHS"

echo "=== docc convert"
log="$SCRATCH/docc.log"
rm -rf "$OUT"
set +e
docc convert Sources/Receiver/Receiver.docc \
    --additional-symbol-graph-dir "$MODULE_GRAPHS" \
    --output-path "$OUT" \
    --fallback-display-name Receiver \
    --fallback-bundle-identifier org.receiver.Receiver \
    --fallback-default-module-kind "Swift Package" \
    --warnings-as-errors >"$log" 2>&1
status=$?
set -e
cat "$log"

warnings=$(grep -cE "(warning|error):" "$log" || true)
if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
    echo "FAIL: docc exited $status with $warnings warning(s) or error(s)" >&2
    exit 1
fi
echo "docs: 0 warnings; archive at $OUT"
