#!/usr/bin/env bash
# The public API of each library module, checked in as a readable digest (.ci/api/<Module>.txt,
# one declaration a line), so that a change to the API shows in review and cannot land by accident.
#
#   bash .ci/api.sh --check      # fails, printing a unified diff, if the API differs from the baseline
#   bash .ci/api.sh --update     # rewrites the baseline: commit it with the change that made it
#
#   Options: --scratch-path DIR  the build directory to use (default .build)
#            --no-build          use the modules already built there (after `swift test`, as in CI)
#
# How: `swift build` the library modules, `swift-api-digester -dump-sdk` each one (public API only,
# no file paths), then a small Swift program below turns the JSON into sorted lines with no paths,
# USRs or mangled names. The digest does not depend on which file declares what, nor on the order.
#
# Semantic versioning: a release whose digest only gains lines is a minor version; one that
# loses or changes a line breaks someone's code and is a major version (CONTRIBUTING.md: "Versioning").
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Receiver ReceiverSignalKit SwiftSignalKit ReceiverSignalKitTesting)
mode="" scratch=".build" build=1
while [ $# -gt 0 ]; do
    case "$1" in
    --check | --update) mode="$1" ;;
    --scratch-path) scratch="$2"; shift ;;
    --no-build) build=0 ;;
    *) mode=""; break ;;
    esac
    shift
done
if [ -z "$mode" ]; then
    echo "usage: bash .ci/api.sh --check|--update [--scratch-path DIR] [--no-build]" >&2
    exit 2
fi

if [ "$build" -eq 1 ]; then
    for module in "${modules[@]}"; do swift build --scratch-path "$scratch" --target "$module"; done
fi
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
# SwiftPM 6 puts the .swiftmodule files in Modules/; older versions beside the products.
includes=(-I "$bin/Modules" -I "$bin")
triple="$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -1)"
# The digester ships next to `swift` (xcrun finds it on macOS).
if command -v xcrun >/dev/null 2>&1; then
    digester=(xcrun swift-api-digester)
else
    digester=("$(dirname "$(readlink -f "$(command -v swift)")")/swift-api-digester")
fi

work="$scratch/api"
mkdir -p "$work"
# The digest program, compiled once per version of its source and of the compiler.
source="$work/digest.swift"
cat >"$source" <<'SWIFT'
// Reads a `swift-api-digester -dump-sdk` JSON file and prints one line per public declaration,
// sorted by its qualified name, with no paths, USRs or mangled names: what a reviewer reads.
import Foundation

typealias Node = [String: Any]

@_silgen_name("swift_demangle")
func demangle(
    _ mangled: UnsafePointer<CChar>?, _ length: UInt, _ buffer: UnsafeMutablePointer<CChar>?,
    _ bufferLength: UnsafeMutablePointer<UInt>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

func children(_ node: Node) -> [Node] { node["children"] as? [Node] ?? [] }
func string(_ node: Node, _ key: String) -> String { node[key] as? String ?? "" }

// Keys rendered by the printer below, or noise (USRs, mangled names, storage details).
let handled: Set<String> = [
    "kind", "name", "printedName", "usr", "mangledName", "moduleName", "declKind", "children", "accessors",
    "declAttributes", "genericSig", "conformances", "isFromExtension", "static", "funcSelfKind", "throwing",
    "hasDefaultArg", "init_kind", "accessorKind", "isLet", "hasStorage", "isExternal", "typeAttributes",
    "json_format_version", "reqNewWitnessTableEntry", "isInternal",
]
// Attributes that say how a declaration is stored, not what a client can write.
let hiddenAttributes: Set<String> = ["HasStorage", "HasInitialValue"]

/// Whatever the digester records that this printer does not know yet, so that it still shows.
func extras(_ node: Node) -> [String] {
    node.keys.filter { !handled.contains($0) }.sorted().compactMap { key in
        switch node[key] {
        case let flag as Bool: return flag ? key : nil
        case let value as String: return "\(key)=\(value)"
        case let value as NSNumber: return "\(key)=\(value)"
        default: return nil
        }
    }
}

func attributes(_ node: Node, isType: Bool) -> [String] {
    let all = (node["declAttributes"] as? [String] ?? []).filter {
        !hiddenAttributes.contains($0) && (isType || $0 != "Final")
    }
    return all.sorted().map { "@\($0)" }
}

func type(_ node: Node) -> String {
    let attributes = (node["typeAttributes"] as? [String] ?? []).sorted().map { "@\($0) " }.joined()
    let more = extras(node).map { " [\($0)]" }.joined()
    return attributes + string(node, "printedName") + (node["hasDefaultArg"] as? Bool == true ? " = default" : "") + more
}

/// `start(next:error:completed:)` and its parameter types -> `start(next: T1, error: T2, completed: T3)`.
func call(_ printedName: String, _ parameters: [Node]) -> String {
    guard let open = printedName.firstIndex(of: "(") else { return printedName }
    let labels = printedName[printedName.index(after: open)...].dropLast().split(separator: ":", omittingEmptySubsequences: false).dropLast()
    let rendered = zip(labels, parameters).map { "\($0): \(type($1))" }
    return printedName[..<open] + "(" + rendered.joined(separator: ", ") + ")"
}

/// `async` is not a key of the dump: the demangled name has one more `) async` than its types do.
func isAsync(_ node: Node) -> Bool {
    let mangled = string(node, "mangledName")
    guard !mangled.isEmpty, let pointer = demangle(mangled, UInt(mangled.utf8.count), nil, nil, 0) else { return false }
    defer { free(pointer) }
    let occurrences = { (text: String) in text.components(separatedBy: ") async").count - 1 }
    return occurrences(String(cString: pointer)) > children(node).map { occurrences(string($0, "printedName")) }.reduce(0, +)
}

var lines: [(key: String, line: String)] = []

func emit(_ key: String, _ words: [String]) {
    lines.append((key, words.filter { !$0.isEmpty }.joined(separator: " ")))
}

func visit(_ node: Node, in path: String) {
    let kind = string(node, "declKind"), name = string(node, "name"), printed = string(node, "printedName")
    let qualified = path.isEmpty ? printed : "\(path).\(printed)"
    // A property's constraints (`where Wave: Sendable`) are recorded on its accessors only.
    let accessorGenerics = (node["accessors"] as? [Node] ?? []).map { string($0, "genericSig") }
    let generics = string(node, "genericSig").isEmpty ? accessorGenerics.first ?? "" : string(node, "genericSig")
    let modifiers = [
        node["static"] as? Bool == true ? "static" : "",
        string(node, "funcSelfKind") == "Mutating" ? "mutating" : "",
    ]
    let effects = (isAsync(node) ? " async" : "") + (node["throwing"] as? Bool == true ? " throws" : "")
    let tail = [generics] + attributes(node, isType: kind != "" && string(node, "kind") == "TypeDecl") + extras(node)
    let types = children(node)
    // Implicit declarations (a derived `==`) follow from a conformance, which has its own line.
    if node["implicit"] as? Bool == true { return }
    // `package` declarations (the dump's `isInternal`) are seen only by this package's modules.
    if node["isInternal"] as? Bool == true { return }
    if kind == "EnumElement" {
        // The payload with its labels: `(upTo: Swift.Int)`, the parameter of the case's constructor.
        let constructor = types.first.flatMap { children($0).first { string($0, "kind") == "TypeFunc" } }
        let payload = constructor.flatMap { children($0).dropFirst().first }.map { string($0, "printedName") } ?? ""
        emit(qualified, ["case", qualified + payload] + attributes(node, isType: false) + extras(node))
        return
    }
    switch string(node, "kind") {
    case "Root":
        for child in types { visit(child, in: "") }
    case "Import":
        // Only a re-export is API; the other imports are the implementation's (and per platform).
        if (node["declAttributes"] as? [String] ?? []).contains("Exported") { emit(name, ["@_exported import", name]) }
    case "TypeDecl":
        let external = node["isExternal"] as? Bool == true
        let typeName = path.isEmpty && external ? "\(string(node, "moduleName")).\(printed)" : qualified
        let conformances = (node["conformances"] as? [Node] ?? []).map { string($0, "printedName") }.sorted()
        emit(
            typeName,
            [external ? "extension" : kind.lowercased(), typeName + generics + (conformances.isEmpty ? "" : ":"),
             conformances.joined(separator: ", ")] + attributes(node, isType: true) + extras(node))
        for child in types { visit(child, in: typeName) }
    case "Function", "Constructor":
        let keyword = kind == "Constructor" ? "init" : "func"
        let result = types.first.map { " -> " + type($0) } ?? ""
        emit(qualified, modifiers + [keyword, (path.isEmpty ? "" : path + ".") + call(printed, Array(types.dropFirst())) + effects + result] + tail)
    case "Subscript":
        let result = types.first.map { " -> " + type($0) } ?? ""
        let accessors = (node["accessors"] as? [Node] ?? []).map { string($0, "accessorKind") }.sorted()
        emit(qualified, modifiers + ["subscript", (path.isEmpty ? "" : path + ".") + call(printed, Array(types.dropFirst())) + effects + result, "{ \(accessors.joined(separator: " ")) }"] + tail)
    case "Var":
        let accessors = (node["accessors"] as? [Node] ?? []).map { string($0, "accessorKind") }.sorted()
        let keyword = node["isLet"] as? Bool == true ? "let" : "var"
        emit(qualified, modifiers + [keyword, qualified + ":", types.first.map(type) ?? "", accessors.isEmpty ? "" : "{ \(accessors.joined(separator: " ")) }"] + tail)
    case "TypeAlias":
        emit(qualified, ["typealias", qualified + generics, "=", types.first.map(type) ?? ""] + attributes(node, isType: false) + extras(node))
    case "OperatorDecl":
        emit(printed, [kind, printed] + tail)
    default:
        // Associated types, enum cases, macros...: their kind, name and types as recorded.
        emit(qualified, [kind.isEmpty ? string(node, "kind") : kind, qualified] + types.map(type) + tail)
        for child in types where child["declKind"] != nil { visit(child, in: qualified) }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3,
    let data = FileManager.default.contents(atPath: arguments[2]),
    let root = (try JSONSerialization.jsonObject(with: data)) as? Node,
    let abiRoot = root["ABIRoot"] as? Node
else {
    FileHandle.standardError.write("usage: digest MODULE DUMP.json\n".data(using: .utf8)!)
    exit(2)
}
visit(abiRoot, in: "")
print("# The public API of \(arguments[1]), one declaration a line: bash .ci/api.sh --update rewrites it.")
for entry in lines.sorted(by: { ($0.key, $0.line) < ($1.key, $1.line) }) { print(entry.line) }
SWIFT
key="$( (cat "$source"; swiftc --version 2>&1) | cksum | cut -d' ' -f1)"
tool="$work/digest-$key"
if [ ! -x "$tool" ]; then
    swiftc -swift-version 5 "$source" -o "$tool.tmp"
    mv "$tool.tmp" "$tool"
fi

status=0
for module in "${modules[@]}"; do
    "${digester[@]}" -dump-sdk -module "$module" "${includes[@]}" -target "$triple" \
        -module-cache-path "$work/ModuleCache" -swift-only -avoid-location -avoid-tool-args \
        -o "$work/$module.json"
    "$tool" "$module" "$work/$module.json" >"$work/$module.txt"
    baseline=".ci/api/$module.txt"
    if [ "$mode" = --update ]; then
        mkdir -p .ci/api
        cp "$work/$module.txt" "$baseline"
        echo "$baseline: $(($(wc -l <"$baseline") - 1)) declarations"
    elif [ ! -f "$baseline" ]; then
        echo "FAIL: no baseline $baseline; run 'bash .ci/api.sh --update' and commit it" >&2
        status=1
    elif diff -u --label "$baseline (checked in)" --label "$module (this tree)" "$baseline" "$work/$module.txt"; then
        echo "$module: public API matches $baseline"
    else
        removed=$(diff "$baseline" "$work/$module.txt" | grep -c '^<' || true)
        echo "FAIL: the public API of $module differs from $baseline (lines: +$(diff "$baseline" "$work/$module.txt" | grep -c '^>' || true) -$removed)." >&2
        if [ "$removed" -gt 0 ]; then
            echo "  Lines removed or changed: code written against the released API may break (a major version)." >&2
        else
            echo "  Only additions: a minor version." >&2
        fi
        echo "  If the change is intended, run 'bash .ci/api.sh --update' and commit the baseline with it." >&2
        status=1
    fi
done
exit "$status"
