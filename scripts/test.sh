#!/usr/bin/env bash
# The one test command: set-up, build, native and wasm doctest, every fuzz
# target briefly, then the JS tests (binding, packed package in Node, Deno,
# workerd and Chromium, types).
# Stops at the first failure; each suite has a time limit and fails when it
# ran no test (scripts/suite.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/suite.sh

bash scripts/setup.sh
# The C++ tree is kept clang-formatted (.clang-format, Google base).
git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
bash scripts/build.sh
# Each native doctest case is its own ctest test (a few ms each); the wasm
# binary runs every case at once.
ctest_suite 10m 120 build/native
ctest_suite 10m 600 build/wasm
# Every fuzz target for 12 s (ASan + UBSan), from its seeds and regression
# inputs: about two and three quarter minutes for the twelve targets.
bash scripts/fuzz.sh 12
# About 15 minutes on a busy 2-core machine.
node_suite 40m tests/js/
# The tests that touch ai, openai, supabase-js and the MCP SDK again on each
# peer set of tests/matrix/ (what Node 20 resolves; the oldest majors the peer
# ranges accept): about a minute, plus an npm ci per set the first time.
bash tests/matrix/run.sh
