#!/usr/bin/env bash
# Builds the DocC documentation with the toolchain's own `docc` (no SwiftPM plugin, so no package
# dependency) and fails on any warning: a broken symbol link or a malformed article fails CI.
#
#   bash .ci/docs.sh                 # archives in .build-docs/<Module>.doccarchive
#   SCRATCH=.build-x OUT=/tmp/docs bash .ci/docs.sh
#
# Steps: compile the modules with `-emit-symbol-graph`, then `docc convert` each module's
# catalog with only that module's graphs.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH="${SCRATCH:-.build-docs}"
OUT="${OUT:-$SCRATCH}"
# Stable, so that an up-to-date build (which emits nothing) still leaves the last graphs here.
GRAPHS="$SCRATCH/symbol-graphs/all"

echo "=== Symbol graphs of the modules"
mkdir -p "$GRAPHS"
for target in SwiftSignalKit ReceiverSignalKitTesting; do
    swift build --target "$target" --scratch-path "$SCRATCH" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$GRAPHS"
done

# convert MODULE [--article-only]: one catalog, Sources/MODULE/MODULE.docc, with that module's
# graphs only (MODULE.symbols.json and MODULE@Other.symbols.json for its extensions of other
# modules' types). --article-only: no graphs, for SwiftSignalKit, whose graph is ReceiverSignalKit's
# re-exported API again: its catalog is one article that points there.
convert() {
    local module="$1"
    local graphs="$SCRATCH/symbol-graphs/$module"
    rm -rf "$graphs"
    mkdir -p "$graphs"
    if [ "${2:-}" = "--article-only" ]; then
        :
    elif [ ! -f "$GRAPHS/$module.symbols.json" ]; then
        echo "FAIL: no $GRAPHS/$module.symbols.json (delete $SCRATCH and run again)" >&2
        exit 1
    else
        shopt -s nullglob
        cp "$GRAPHS/$module.symbols.json" "$GRAPHS/$module"@*.symbols.json "$graphs"/
        shopt -u nullglob
    fi

    echo "=== docc convert $module"
    local log="$SCRATCH/docc-$module.log" archive="$OUT/$module.doccarchive"
    rm -rf "$archive"
    set +e
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --output-path "$archive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.receiver.$module" \
        --fallback-default-module-kind "Swift Package" \
        --warnings-as-errors >"$log" 2>&1
    local status=$?
    set -e
    cat "$log"
    local warnings
    warnings=$(grep -cE "(warning|error):" "$log" || true)
    if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
        echo "FAIL: docc ($module) exited $status with $warnings warning(s) or error(s)" >&2
        exit 1
    fi
    echo "docs: $module: 0 warnings; archive at $archive"
}

convert Receiver
convert ReceiverSignalKit
convert ReceiverSignalKitTesting
convert SwiftSignalKit --article-only
