#!/usr/bin/env bash
# Compiles every ```swift code block of README.md and of every DocC article
# (Sources/*/*.docc/*.md) against the library as users import it, runs the blocks that say what
# they print (`// prints 1`) and checks the printed lines, and runs the blocks' `@Test`s. Fails
# naming the Markdown file and line of each block that does not compile, prints something else or
# fails its test. A block that cannot compile here is marked in the Markdown with
# `<!-- snippet: skip (reason) -->` on the line before it and counted. CONTRIBUTING.md ("Code
# blocks in the docs") says how to write and mark blocks.
#
#   bash .ci/snippets.sh                            # last line: snippets: N of M Swift code blocks compiled (...)
#   bash .ci/snippets.sh --compile-marked SwiftUI   # macOS: the SwiftUI views too, with their files; runs nothing
#
# The blocks build as one throwaway package in .build-snippets/ (one test target per Markdown
# file), which depends on this repository by path; later runs rebuild only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 .ci/snippets.py "$@"
