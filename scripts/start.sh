#!/usr/bin/env bash
# The main job: set up, build, start the backend (the embedded local stack
# unless SUPABASE_URL is set), run a scripted tool-call session against it,
# then serve the demo page and the worker on 127.0.0.1 until Ctrl-C.
# `--session-only` stops after the session.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
node scripts/main.mjs "$@"
