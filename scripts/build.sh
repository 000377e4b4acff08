#!/usr/bin/env bash
# Builds the C++ core natively (for doctest) and to WebAssembly, and stages
# the package's generated files in web/dist/. Prints a line per stage and per
# tenth of each build; a failed build prints its whole log.
#   bash scripts/build.sh            everything: native core + doctest, wasm module + wasm doctest (test.sh)
#   bash scripts/build.sh package    only what the package runs: the wasm module and web/dist (start.sh)
set -euo pipefail
case "${1:-all}" in
  all | package) WHAT=${1:-all} ;;
  *)
    echo "usage: bash scripts/build.sh [package]   (no argument: everything, doctests included)" >&2
    exit 2
    ;;
esac
cd "$(dirname "$0")/.."
source scripts/stage.sh
source scripts/cmake-cache.sh
# NodeSource's node does not search Debian's module dir; emcc -O1+ needs acorn from it.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

# Runs "$@" (a build), showing ninja's progress as `label: n/N steps`.
build_step() {
  local label=$1 log
  shift
  log=$(mktemp)
  if ! "$@" 2>&1 | tee "$log" | ninja_progress "$label"; then
    cat "$log" >&2
    rm -f "$log"
    echo "build: $label failed" >&2
    return 1
  fi
  rm -f "$log"
}

drop_stale_cmake_cache build/native .
drop_stale_cmake_cache build/wasm .

if [[ $WHAT == all ]]; then
  stage "build: configuring native"
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  stage "build: building native (core + doctest)"
  build_step native cmake --build build/native
fi

# emcmake presets an emulator flag that Node 20 rejects; the wasm test sets its own.
stage "build: configuring wasm"
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR= >/dev/null
if [[ $WHAT == all ]]; then
  stage "build: building wasm (em++: the module and the wasm doctest)"
  build_step wasm cmake --build build/wasm
else
  # The module alone: the wasm doctest is test.sh's.
  stage "build: building wasm (em++: the module)"
  build_step wasm cmake --build build/wasm --target alfred_wasm
fi

mkdir -p web/dist
cp build/wasm/alfred_core.wasm web/dist/
node scripts/generate-wasm-names.mjs
node scripts/generate-kitchen.mjs
node scripts/generate-decision-schema.mjs
node scripts/generate-prompt-templates.mjs
node scripts/generate-error-codes.mjs
node scripts/generate-core-rules.mjs
node scripts/bundle.mjs
stage "build: done (web/dist staged)"
