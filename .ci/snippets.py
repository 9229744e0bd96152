#!/usr/bin/env python3
"""Compiles every ```swift block of README.md and of every DocC article, runs the ones that say
what they print, and runs the docs' `@Test`s. `bash .ci/snippets.sh` calls it; CONTRIBUTING.md
("Code blocks in the docs") is the user's guide: the markers, the claim syntax, and how a block is
wrapped.

How: one throwaway package in .build-snippets/ that depends on this repository by path and uses
its products as users do (`import Receiver`, `import ReceiverSignalKit`, ...). Each Markdown file
becomes one test target (two if some blocks `import SwiftSignalKit`: those compile in the Swift 5
mode, as SwiftSignalKit's client code is written), and each block one file of it: its `import`s
at the top, its top-level declarations (types, extensions, functions, `@Test`s) at file scope, and
its statements in a function of their own, so that blocks never collide. A block marked
`<!-- snippet: file Module/Name.swift -->` is instead that file, word for word, of a test target of
that name, so that what its tests print names the file and lines a user's test would. The package
builds once; a compiler error is reported at the block's line in the Markdown file. Then three
runs of the tests: the blocks that claim output (`// prints ...`), one at a time, their printed
lines compared with the claims; the docs' `@Test`s, which must pass; and the tests of each
`file` block, whose output must contain the lines of the block marked `<!-- snippet: output -->`.

`--compile-marked REASON` (for the macOS job of .github/workflows/ci.yml): also compiles the blocks
marked `<!-- snippet: skip (REASON) -->`, SwiftUI views say, with the other blocks of their files,
and runs nothing.
"""
import argparse
import json
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
CLAIMS_TEST = "snippetClaims"  # the generated test that runs a target's blocks that claim output

# ---------------------------------------------------------------------------------------------
# Reading the Markdown

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*(\S*)")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(skip|setup|prelude|file|output)\b(.*)$")
NAMED_FILE = re.compile(r"^(\w+)/(\w+\.swift)$")  # file AppTests/SettingsScreenTests.swift


class Block:
    def __init__(self, path, line, code, prelude, setup, skip, file=None):
        self.path, self.line, self.code, self.skip = path, line, code, skip
        self.prelude, self.setup = prelude, setup  # (Markdown line, text) pairs
        self.file = file  # (target, file name) of a `file` block, else None
        self.claims = []  # (Markdown line, expected printed line)
        self.output = None  # (Markdown line, lines) of the `output` block that follows a `file` block

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
                pending = (kind, argument, code, index)
            continue
        fence = FENCE.match(line)
        if fence:
            indent, ticks, language = fence.groups()
            start, body, index = index + 1, [], index + 1
            while index < len(lines) and not lines[index].strip().startswith(ticks):
                body.append((index + 1, lines[index][len(indent):] if lines[index].startswith(indent) else lines[index]))
                index += 1
            index += 1
            kind = pending[0] if pending else None
            if kind == "output":
                named = [block for block in blocks if block.file]
                if not named or named[-1].output is not None:
                    sys.exit(f"{rel(path)}:{start}: an output block follows no `snippet: file` block of its own")
                named[-1].output = (start, [text for _, text in body])
            elif language == "swift":
                skip = pending[1] if kind == "skip" else None
                setup = pending[2] if kind == "setup" else []
                file = None
                if kind == "file":
                    file = NAMED_FILE.match(pending[1])
                    if not file:
                        sys.exit(f"{rel(path)}:{pending[3]}: `snippet: file` names Module/Name.swift, not {pending[1]!r}")
                    file = file.groups()
                blocks.append(Block(rel(path), start, body, prelude, setup, skip, file))
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
    out, origin = [] if header is None else [header], {}
    for number, text in parts:
        out.append(text)
        if number is not None:
            origin[len(out)] = number
    return "\n".join(out) + "\n", origin


def wrap(block, name):
    """(file text, {generated line: Markdown line}) for one block; its statements in `name()`.
    The prelude's declarations are not here: its target has them once, in Prelude.swift."""
    if block.file:  # the block as it reads, so that its line numbers are the Markdown block's
        return render(None, block.code)
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


RUNNER = """// Records what the blocks print, and runs the blocks that claim output in turn (the test named
// CLAIMS_TEST), printing what each printed.
import Synchronization
import Testing

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


def short_name(path):
    """A name for a Markdown file unique in the package: README, Receiver_SwiftUIAndObservation."""
    parts = Path(path).parts
    stem = Path(path).stem
    return f"{parts[1]}_{stem}" if len(parts) == 4 and parts[0] == "Sources" else re.sub(r"\W", "_", stem)


def target_name(path, swift5):
    stem = re.sub(r"\W", "_", str(Path(path).with_suffix("")))
    return "Snippets_" + stem + ("_swift5" if swift5 else "")


# ---------------------------------------------------------------------------------------------
# Running the tests

ISSUE = re.compile(r"^\S+ Test (.+?) recorded an issue at ([^:\s]+):(\d+):(\d+): (.*)$")


def swift_test(arguments, timeout):
    """(output, exit status or "timeout") of `swift test` on the built package."""
    command = ["swift", "test", "--skip-build", "--package-path", str(PACKAGE), "--scratch-path", str(SCRATCH)]
    try:
        run = subprocess.run(command + arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=timeout, stdin=subprocess.DEVNULL)
        return run.stdout, run.returncode
    except subprocess.TimeoutExpired as expired:
        output = expired.stdout or ""
        return (output.decode() if isinstance(output, bytes) else output), "timeout"


def issues_in(output, files):
    """The issues Swift Testing reports in `output`, each at its Markdown line where known:
    [(where, test, message and detail lines)]."""
    issues, lines = [], output.splitlines()
    for index, line in enumerate(lines):
        match = ISSUE.match(line)
        if not match:
            continue
        test, name, row, message = match.group(1), match.group(2), int(match.group(3)), match.group(5)
        detail = []
        for after in lines[index + 1:]:
            if not after.startswith("↳"):
                break
            detail.append(after[1:].strip())
        where = name
        if name in files:
            block, origin = files[name]
            where = f"{block.path}:{origin.get(row, block.line)}"
        issues.append((where, test, " ".join([message] + detail)))
    return issues


def contains_run(output, expected):
    """Whether the lines `expected` appear in `output` in order, one after another."""
    lines = [line.rstrip() for line in output.splitlines()]
    expected = [line.rstrip() for line in expected]
    return any(lines[start:start + len(expected)] == expected for start in range(len(lines) - len(expected) + 1))


def main():
    options = argparse.ArgumentParser(description="Compiles and runs the Swift code blocks of the docs.")
    options.add_argument("--compile-marked", metavar="REASON", default=None,
                         help="also compile the blocks marked `skip (REASON)`, with the other blocks of their "
                              "files only, and run nothing (SwiftUI views, on macOS)")
    arguments = options.parse_args()

    files = [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/*.md"))
    blocks = [block for path in files for block in blocks_of(path)]
    for block in blocks:
        for number, text in block.code:
            claimed = claims_of(text)
            if claimed is not None:
                block.claims.extend((number, line) for line in claimed)
        if block.file and block.claims:
            sys.exit(f"{block.where}: a `snippet: file` block is run as tests, so it claims no output")

    def reason(block):
        return re.sub(r"^\((.*)\)$", r"\1", block.skip or "") or "no reason given"

    marked = arguments.compile_marked
    if marked:
        chosen = {block.path for block in blocks if block.skip is not None and reason(block) == marked}
        if not chosen:
            sys.exit(f"snippets: no block is marked `skip ({marked})`")
        blocks = [block for block in blocks if block.path in chosen]
        for block in blocks:
            if block.skip is not None and reason(block) == marked:
                block.skip = None
            block.claims = []  # nothing runs
    compiled = [block for block in blocks if block.skip is None]
    skipped = [block for block in blocks if block.skip is not None]

    # The throwaway package: one target per Markdown file and language mode, and one per `file` target.
    targets = {}
    for block in compiled:
        swift5 = any(re.match(r"import SwiftSignalKit\b", text) for _, text in block.prelude + block.setup + block.code)
        name = block.file[0] if block.file else target_name(block.path, swift5)
        members = targets.setdefault(name, (swift5, []))[1]
        if block.file and members and members[0].path != block.path:
            sys.exit(f"{block.where}: the target {name} is named by {members[0].where} too; give each file's its own name")
        members.append(block)

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
            file = directory / (block.file[1] if block.file else f"{short_name(block.path)}_L{block.line}.swift")
            write(file, text)
            origins[str(file.resolve())] = (block, origin)
            if block.claims:
                calls.append(f'    await runSnippet("{block.where}", expecting: {len(block.claims)}) {{ '
                             f"try await {function}() }}")
        text, origin = prelude_file(members)
        write(directory / "Prelude.swift", text)
        origins[str((directory / "Prelude.swift").resolve())] = (members[0], origin)
        runner = RUNNER.replace("WAIT", str(WAIT_SECONDS)).replace("CLAIMS_TEST", CLAIMS_TEST)
        if calls:
            runner += f"\n@Test @MainActor func {CLAIMS_TEST}() async {{\n" + "\n".join(calls) + "\n}\n"
        write(directory / "Runner.swift", runner)
    for old in sources.rglob("*.swift"):  # blocks since removed or marked
        if old not in written:
            old.unlink()

    identity = ROOT.name
    manifest = [
        "// swift-tools-version: 6.0",
        "// Written by .ci/snippets.py: the code blocks of the docs, one test target per Markdown file.",
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
        manifest.append(f'        .testTarget(name: "{name}", dependencies: [{products}], path: "Sources/{name}",')
        manifest.append(f'            swiftSettings: [{settings}.unsafeFlags(["-suppress-warnings"])]),')
    manifest += ["    ]", ")", ""]
    write(PACKAGE / "Package.swift", "\n".join(manifest))

    failures = []
    build = subprocess.run(["swift", "build", "--build-tests", "--package-path", str(PACKAGE),
                            "--scratch-path", str(SCRATCH)],
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

    reasons = {}
    for block in skipped:
        reasons[reason(block)] = reasons.get(reason(block), 0) + 1
    counts = ", ".join(f"{count} {why}" for why, count in sorted(reasons.items(), key=lambda r: -r[1]))
    if marked:
        print(f"snippets: the blocks marked {marked} compiled, with the other blocks of their files "
              f"({len(compiled)} blocks of {len(chosen)} files; {len(skipped)} marked otherwise: {counts or 'none'})")
        return

    by_name = {Path(file).name: origin for file, origin in origins.items()}  # Swift Testing names files so

    # 1. The blocks that claim output, one at a time.
    claimed = {block.where: block for block in compiled if block.claims}
    ran = 0
    if claimed:
        output, status = swift_test(["--no-parallel", "--filter", CLAIMS_TEST], 120 + WAIT_SECONDS * len(claimed))
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

    # 2. The docs' tests, which must pass; the `file` blocks' tests run on their own, below.
    named = sorted({block.file[0] for block in compiled if block.file})
    skips = ["--skip", CLAIMS_TEST] + [argument for name in named for argument in ("--skip", f"^{name}\\.")]
    output, status = swift_test(skips, 300)
    tests = len(re.findall(r"^\S+ Test (?!run ).+ (?:passed|failed) after", output, re.M))
    if status != 0:
        issues = issues_in(output, by_name)
        for where, test, message in issues:
            print(f"FAIL: {where}: the test {test} recorded an issue: {message}")
        if not issues:
            print(f"FAIL: the docs' tests ended with exit status {status}; output:\n{output[-3000:]}")
        failures.append("tests")

    # 3. Each `file` block's tests: what they print must contain its `output` block.
    shown = 0
    for name in named:
        output, status = swift_test(["--filter", f"^{name}\\."], 120)
        for block in (block for block in compiled if block.file and block.file[0] == name):
            if block.output is None:
                continue
            shown += 1
            line, expected = block.output
            if not contains_run(output, expected):
                print(f"FAIL: {block.path}:{line}: the output shown is not what the tests of the block at "
                      f"{block.where} print (exit status {status}); they print:\n{output[-3000:]}")
                failures.append(block.where)

    if failures:
        print(f"FAIL: snippets: {len(failures)} code block(s) or test runs differ from what the docs say")
        sys.exit(1)
    print(f"snippets: {ran} blocks run, their printed lines as claimed; {tests} of the docs' tests passed; "
          f"{shown} test outputs as shown")
    print(f"snippets: {len(compiled)} of {len(compiled) + len(skipped)} Swift code blocks compiled "
          f"({len(skipped)} marked not to: {counts or 'none'})")


if __name__ == "__main__":
    main()
