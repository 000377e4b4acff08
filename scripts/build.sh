#!/usr/bin/env bash
# Builds the C++ core natively (for doctest) and to WebAssembly, and stages
# the package's generated files in web/dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
# NodeSource's node does not search Debian's module dir; emcc -O1+ needs acorn from it.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native

# emcmake presets an emulator flag that Node 20 rejects; the wasm test sets its own.
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR= >/dev/null
cmake --build build/wasm

mkdir -p web/dist
cp build/wasm/alfred_core.mjs build/wasm/alfred_core.wasm web/dist/
node scripts/generate-kitchen.mjs
node scripts/generate-decision-schema.mjs
