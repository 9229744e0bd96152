#!/usr/bin/env python3
"""Compiles every ```swift block of README.md and of every DocC article, and runs the ones that say
what they print. `bash .ci/snippets.sh` calls it; CONTRIBUTING.md ("Code blocks in the docs") is
the user's guide: the markers, the claim syntax, and how a block is wrapped.

How: one throwaway package in .build-snippets/ that depends on this repository by path and uses
its products as users do (`import Receiver`, `import ReceiverSignalKit`, ...). Each Markdown file
becomes one executable target (two if some blocks `import SwiftSignalKit`: those compile in the
Swift 5 mode, as SwiftSignalKit's client code is written), and each block one file of it:
its `import`s at the top, its top-level declarations (types, extensions, functions, `@Test`s) at
file scope, and its statements in a function of their own, so that blocks never collide. The
package builds once; a compiler error is reported at the block's line in the Markdown file.
Blocks that claim output (`// prints ...`) are then run, each in turn, and the lines they print
compared with the claims.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".build-snippets"
PACKAGE = WORK / "package"
SCRATCH = WORK / "build"
PRODUCTS = ["Receiver", "ReceiverSignalKit", "SwiftSignalKit", "ReceiverSignalKitTesting"]
WAIT_SECONDS = 5  # how long a run waits for a block's asynchronous output to arrive

# ---------------------------------------------------------------------------------------------
# Reading the Markdown

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*(\S*)")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(skip|setup|prelude)\b(.*)$")


class Block:
    def __init__(self, path, line, code, prelude, setup, skip):
        self.path, self.line, self.code, self.skip = path, line, code, skip
        self.prelude, self.setup = prelude, setup  # (Markdown line, text) pairs
        self.claims = []  # (Markdown line, expected printed line)

    @property
    def where(self):
        return f"{self.path}:{self.line}"


def read_comment(path, lines, start):
    """The marker comment that starts at lines[start]: (kind, argument, code lines, index after)."""
    match = MARKER.match(lines[start])
    kind, rest = match.group(1), match.group(2)
    if "-->" in rest:  # one line: <!-- snippet: skip (SwiftUI) -->
        return kind, rest[: rest.index("-->")].strip(), [], start + 1
    code, index = [], start + 1
    while index < len(lines) and "-->" not in lines[index]:
        code.append((index + 1, lines[index]))
        index += 1
    if index == len(lines):
        sys.exit(f"{rel(path)}:{start + 1}: a snippet comment is not closed with -->")
    return kind, rest.strip(), code, index + 1


def rel(path):
    return str(Path(path).resolve().relative_to(ROOT))


def blocks_of(path):
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    blocks, prelude, pending, index = [], [], None, 0
    while index < len(lines):
        line = lines[index]
        if MARKER.match(line):
            kind, argument, code, index = read_comment(path, lines, index)
            if kind == "prelude":
                prelude = prelude + code
            else:
                pending = (kind, argument, code)
            continue
        fence = FENCE.match(line)
        if fence:
            indent, ticks, language = fence.groups()
            start, body, index = index + 1, [], index + 1
            while index < len(lines) and not lines[index].strip().startswith(ticks):
                body.append((index + 1, lines[index][len(indent):] if lines[index].startswith(indent) else lines[index]))
                index += 1
            index += 1
            if language == "swift":
                skip = pending[1] if pending and pending[0] == "skip" else None
                setup = pending[2] if pending and pending[0] == "setup" else []
                blocks.append(Block(rel(path), start, body, prelude, setup, skip))
            pending = None
            continue
        if line.strip():
            pending = None  # a marker applies only to the block right after it
        index += 1
    return blocks


# ---------------------------------------------------------------------------------------------
# Claims: `// prints 1`, `// prints 10, 20`, `// prints "a", then "done"`, `// prints nothing`

ITEM = r'"(?:[^"\\]|\\.)*"|[\w.+\-]+'
END = r"(?=\s*(?:$|[,:;(—]|\s-\s))"
CLAIM = re.compile(rf"//\s*prints\s+(nothing\b|(?:{ITEM}){END}(?:,\s*(?:then\s+)?(?:{ITEM}){END})*)")


def claims_of(text):
    """The lines a comment says are printed, or None if it makes no claim."""
    match = CLAIM.search(text)
    if not match:
        return None
    if match.group(1) == "nothing":
        return []
    return [json.loads(item) if item.startswith('"') else item for item in re.findall(ITEM, match.group(1))
            if item != "then"]


# ---------------------------------------------------------------------------------------------
# Wrapping a block as a file of its target

DECLARATION = re.compile(
    r"^(@[\w.]+(\([^)]*\))?\s+)*((public|private|fileprivate|internal|package|final|open|nonisolated|static)"
    r"(\(set\))?\s+)*(struct|class|enum|extension|protocol|actor|func|typealias)\b"
    r"|^(private|fileprivate)\s+(var|let)\b")
CONTINUATION = re.compile(r"^[\s})\].|?:]")


def split(source):
    """The lines of `source` as (imports, top-level declarations, statements)."""
    imports, declarations, statements = [], [], []
    chunk = None

    def flush():
        nonlocal chunk
        if chunk:
            first = next((text for _, text in chunk if not text.lstrip().startswith("//")), "")
            (declarations if DECLARATION.match(first) else statements).extend(chunk)
        chunk = None

    for number, text in source:
        if text.startswith("import "):
            flush()
            imports.append((number, text))
        elif text and not CONTINUATION.match(text):
            if chunk and all(line.lstrip().startswith("//") for _, line in chunk):
                chunk.append((number, text))  # comments belong to what follows them
            else:
                flush()
                chunk = [(number, text)]
        else:
            if chunk is None:
                chunk = []
            chunk.append((number, text))
    flush()
    return imports, declarations, statements


def render(header, parts):
    """(file text, {generated line: Markdown line}) of (line, text) parts; None: a line of ours."""
    out, origin = [header], {}
    for number, text in parts:
        out.append(text)
        if number is not None:
            origin[len(out)] = number
    return "\n".join(out) + "\n", origin


def wrap(block, name):
    """(file text, {generated line: Markdown line}) for one block; its statements in `name()`.
    The prelude's declarations are not here: its target has them once, in Prelude.swift."""
    prelude_imports, _, prelude_statements = split(block.prelude)
    imports, declarations, statements = split(block.setup + block.code)
    body = [(n, "    " + t if t else "") for n, t in prelude_statements + statements]
    return render(f"// {block.where}", prelude_imports + imports + declarations
                  + [(None, f"@MainActor func {name}() async throws {{")] + body + [(None, "}")])


def prelude_file(members):
    """Prelude.swift of a target: the declarations of every prelude its blocks use, once each."""
    lines = {}
    for block in members:
        imports, declarations, _ = split(block.prelude)
        if declarations:
            lines.update(imports + declarations)
    return render(f"// the hidden preludes of {members[0].path}", sorted(lines.items()))


MAIN = """// Runs the blocks that claim output, in turn, and prints what each printed.
import Synchronization

let snippetOutput = Mutex<[String]>([])

/// Shadows `Swift.print` in this module, so that each block's lines are recorded.
func print(_ items: Any..., separator: String = " ", terminator: String = "\\n") {
    let line = items.map { String(describing: $0) }.joined(separator: separator)
    snippetOutput.withLock { $0.append(line) }
}

@MainActor func runSnippet(_ id: String, expecting count: Int, _ body: () async throws -> Void) async {
    snippetOutput.withLock { $0 = [] }
    do { try await body() } catch { Swift.print("@@error \\(id) \\(error)") }
    // Asynchronous output (a main-queue hop, a task) arrives after the block returns: wait for
    // the claimed number of lines, then a moment more for any line beyond them.
    for _ in 0..<(WAIT * 200) where snippetOutput.withLock({ $0.count }) < count {
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    try? await Task.sleep(nanoseconds: 20_000_000)
    let lines = snippetOutput.withLock { $0 }
    Swift.print("@@snippet \\(id)")
    for line in lines { Swift.print("@@line " + line.debugDescription) }
}
"""


def target_name(path, swift5):
    stem = re.sub(r"\W", "_", str(Path(path).with_suffix("")))
    return "Snippets_" + stem + ("_swift5" if swift5 else "")


def main():
    files = [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/*.md"))
    blocks = [block for path in files for block in blocks_of(path)]
    for block in blocks:
        for number, text in block.code:
            claimed = claims_of(text)
            if claimed is not None:
                block.claims.extend((number, line) for line in claimed)

    compiled = [block for block in blocks if block.skip is None]
    skipped = [block for block in blocks if block.skip is not None]

    # The throwaway package: one target per Markdown file and language mode.
    targets = {}
    for block in compiled:
        swift5 = any(re.match(r"import SwiftSignalKit\b", text) for _, text in block.prelude + block.setup + block.code)
        targets.setdefault(target_name(block.path, swift5), (swift5, []))[1].append(block)

    sources = PACKAGE / "Sources"
    written = set()

    def write(file, text):
        """Writes only what changed, so that a second run rebuilds only the blocks that did."""
        written.add(file)
        if not file.exists() or file.read_text(encoding="utf-8") != text:
            file.write_text(text, encoding="utf-8")
    origins = {}  # generated file → (block, {line: Markdown line})
    for name, (swift5, members) in targets.items():
        directory = sources / name
        directory.mkdir(parents=True, exist_ok=True)
        calls = []
        for block in members:
            function = f"snippet_line_{block.line}"
            text, origin = wrap(block, function)
            file = directory / f"Block_L{block.line}.swift"
            write(file, text)
            origins[str(file.resolve())] = (block, origin)
            if block.claims:
                calls.append(f'await runSnippet("{block.where}", expecting: {len(block.claims)}) {{ '
                             f"try await {function}() }}")
        text, origin = prelude_file(members)
        write(directory / "Prelude.swift", text)
        origins[str((directory / "Prelude.swift").resolve())] = (members[0], origin)
        write(directory / "main.swift", MAIN.replace("WAIT", str(WAIT_SECONDS)) + "\n" + "\n".join(calls) + "\n")
    for old in sources.rglob("*.swift"):  # blocks since removed or marked
        if old not in written:
            old.unlink()

    identity = ROOT.name
    manifest = [
        "// swift-tools-version: 6.0",
        "// Written by .ci/snippets.py: the code blocks of the docs, one target per Markdown file.",
        "import PackageDescription",
        "",
        "let package = Package(",
        '    name: "Snippets",',
        "    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],",
        f'    dependencies: [.package(path: "{ROOT}")],',
        "    targets: [",
    ]
    for name, (swift5, _) in sorted(targets.items()):
        products = ", ".join(f'.product(name: "{p}", package: "{identity}")' for p in PRODUCTS)
        settings = '.swiftLanguageMode(.v5), ' if swift5 else ""
        manifest.append(f'        .executableTarget(name: "{name}", dependencies: [{products}],')
        manifest.append(f'            swiftSettings: [{settings}.unsafeFlags(["-suppress-warnings"])]),')
    manifest += ["    ]", ")", ""]
    write(PACKAGE / "Package.swift", "\n".join(manifest))

    failures = []
    build = subprocess.run(["swift", "build", "--package-path", str(PACKAGE), "--scratch-path", str(SCRATCH)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if build.returncode != 0:
        diagnostic = re.compile(r"^(/[^:]+\.swift):(\d+):(\d+): (error|warning|note): (.*)$")
        reported = set()
        for line in build.stdout.splitlines():
            match = diagnostic.match(line)
            if not match or match.group(4) != "error":
                continue
            file, row = match.group(1), int(match.group(2))
            if file in origins:
                block, origin = origins[file]
                where = f"{block.path}:{origin.get(row, block.line)}"
                message = f"{where}: error: {match.group(5)} (in the block at {block.where})"
                failures.append((block.path, block.line))
            else:
                message = line
            if message not in reported:
                reported.add(message)
                print(message)
        if not reported:
            print(build.stdout[-4000:])
        print("FAIL: snippets: code blocks that do not compile:",
              ", ".join(sorted({f"{p}:{n}" for p, n in failures})) or "(see the build output above)")
        sys.exit(1)

    # Run the blocks that claim output, and compare.
    binaries = subprocess.run(["swift", "build", "--package-path", str(PACKAGE), "--scratch-path", str(SCRATCH),
                               "--show-bin-path"], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
    ran = 0
    for name, (_, members) in sorted(targets.items()):
        claimed = {block.where: block for block in members if block.claims}
        if not claimed:
            continue
        try:
            run = subprocess.run([os.path.join(binaries, name)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, timeout=60 + WAIT_SECONDS * len(claimed), stdin=subprocess.DEVNULL)
            output, status = run.stdout, run.returncode
        except subprocess.TimeoutExpired as timeout:
            output, status = (timeout.stdout or b"").decode() if isinstance(timeout.stdout, bytes) else (
                timeout.stdout or ""), "timeout"
        printed, current = {}, None
        for line in output.splitlines():
            if line.startswith("@@snippet "):
                current = line[len("@@snippet "):]
                printed[current] = []
            elif line.startswith("@@line ") and current:
                printed[current].append(json.loads(line[len("@@line "):]))
            elif line.startswith("@@error "):
                print(f"FAIL: {line[len('@@error '):]}")
                failures.append(line)
        for where, block in claimed.items():
            ran += 1
            expected = [line for _, line in block.claims]
            if where not in printed:
                print(f"FAIL: {where}: the block did not finish (exit status {status}); output:\n{output[-2000:]}")
                failures.append(where)
            elif printed[where] != expected:
                print(f"FAIL: {where}: the block prints {printed[where]!r}; its comments say {expected!r} "
                      f"(claims on lines {', '.join(str(n) for n, _ in block.claims)})")
                failures.append(where)

    reasons = {}
    for block in skipped:
        reason = re.sub(r"^\((.*)\)$", r"\1", block.skip) or "no reason given"
        reasons[reason] = reasons.get(reason, 0) + 1
    if failures:
        print(f"FAIL: snippets: {len(failures)} code block(s) print other than their comments say")
        sys.exit(1)
    marked = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items(), key=lambda r: -r[1]))
    print(f"snippets: {ran} blocks run, their printed lines as claimed")
    print(f"snippets: {len(compiled)} of {len(blocks)} Swift code blocks compiled "
          f"({len(skipped)} marked not to: {marked or 'none'})")


if __name__ == "__main__":
    main()
