#!/usr/bin/env bash
# The tests that touch a framework package, run once per peer set of
# tests/matrix/<name>/ (all of them, or the names given) with that folder's
# versions resolved instead of the root's (tests/matrix/peers.mjs). Each
# folder is installed with `npm ci` from its committed lock, only when
# node_modules was not installed from that lock already (a stamp, as in
# scripts/setup.sh). Its .npmrc sets engine-strict, so the install fails if
# any package of the set refuses the running Node.
#   bash tests/matrix/run.sh            # every set
#   bash tests/matrix/run.sh node20     # one
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/stage.sh
source scripts/suite.sh

tests=(
  tests/matrix/peers.test.mjs
  tests/matrix/types.test.mjs
  tests/js/adapter-ai.test.mjs
  tests/js/adapter-openai.test.mjs
  tests/js/supabase-session.test.mjs
  tests/js/mcp-stdio.test.mjs
)

if (($#)); then names=("$@"); else names=(); for dir in tests/matrix/*/; do names+=("$(basename "$dir")"); done; fi

for name in "${names[@]}"; do
  dir=tests/matrix/$name
  [[ -f $dir/package-lock.json ]] || { echo "matrix: $dir/package-lock.json is missing" >&2; exit 1; }
  lock_sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  stamp=$dir/node_modules/.installed-lock.sha256
  if [[ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]]; then
    stage "matrix $name: npm ci"
    (cd "$dir" && npm ci --no-audit --no-fund)
    echo "$lock_sum" >"$stamp"
  fi
  stage "matrix $name: $(cd "$dir" && node -p 'Object.entries(require("./package.json").dependencies).map(([n, v]) => `${n} ${v}`).join(", ")')"
  hook=$(node -p 'require("node:url").pathToFileURL(process.argv[1]).href' "$PWD/tests/matrix/peers.mjs")
  NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--import=$hook?matrix=$name" ALFRED_MATRIX=$name \
    node_suite 10m "${tests[@]}"
done
