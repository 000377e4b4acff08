#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian 12 machine.
# Idempotent: apt runs only when something is missing, npm only when
# node_modules was not installed from the current package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stage.sh

# clang and libclang-rt-14-dev build the libFuzzer targets (scripts/fuzz.sh).
apt_packages=(emscripten nlohmann-json3-dev libfmt-dev doctest-dev cmake ninja-build g++ clang-format chromium clang
  libclang-rt-14-dev)

# One probe per package: a command or a header it installs.
missing=()
command -v em++ >/dev/null || missing+=(emscripten)
[[ -f /usr/include/nlohmann/json.hpp ]] || missing+=(nlohmann-json3-dev)
[[ -f /usr/include/fmt/format.h ]] || missing+=(libfmt-dev)
[[ -f /usr/include/doctest/doctest.h ]] || missing+=(doctest-dev)
command -v cmake >/dev/null || missing+=(cmake)
command -v ninja >/dev/null || missing+=(ninja-build)
command -v g++ >/dev/null || missing+=(g++)
command -v clang-format >/dev/null || missing+=(clang-format)
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v clang++ >/dev/null || missing+=(clang)
compgen -G '/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null || missing+=(libclang-rt-14-dev)

if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    stage "setup: installing Debian packages: ${missing[*]} (and the rest of the list, already present ones are kept)"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${apt_packages[@]}"
  else
    echo "setup: missing ${missing[*]}. Install them as root with:" >&2
    echo "  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${apt_packages[*]}" >&2
    exit 1
  fi
fi

# Debian 12's nodejs is 18; the package and its tests need Node 20 (NodeSource or nvm).
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if ((node_major < 20)); then
  echo "setup: Node.js 20 or newer with npm is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# npm ci installs exactly the committed lock. The lock lists the other
# platforms' deno/workerd binaries without download addresses (this machine's
# registry serves only linux-x64 ones); npm skips them by os/cpu here and
# resolves them by version elsewhere.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.installed-lock.sha256
if [[ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]]; then
  stage "setup: npm ci (the packages of package-lock.json, the local stack's PGlite and PostgREST included)"
  npm ci --no-audit --no-fund
  echo "$lock_sum" >"$stamp"
  stage "setup: npm packages installed"
fi
