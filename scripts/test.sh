#!/usr/bin/env bash
# The one test command: set-up, build, native and wasm doctest, every fuzz
# target briefly, then the JS tests (binding, packed package in Node, Deno,
# workerd and Chromium, types).
# Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
# The C++ tree is kept clang-formatted (.clang-format, Google base).
git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
bash scripts/build.sh
ctest --test-dir build/native --output-on-failure
ctest --test-dir build/wasm --output-on-failure
# Every fuzz target for 12 s (ASan + UBSan), from its seeds and regression
# inputs: about two and a half minutes for the eleven targets.
bash scripts/fuzz.sh 12
# Code generation from strings is off, as in workerd and under a strict CSP.
node --disallow-code-generation-from-strings --test tests/js/
# The tests that touch ai, openai, supabase-js and the MCP SDK again on each
# peer set of tests/matrix/ (what Node 20 resolves; the oldest majors the peer
# ranges accept): about a minute, plus an npm ci per set the first time.
bash tests/matrix/run.sh
