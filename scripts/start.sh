#!/usr/bin/env bash
# The main job: set up, build, and run the Act core over a sample turn.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
node scripts/demo.mjs "$@"
