#!/usr/bin/env bash
# The main job: set up, build, start the backend (the embedded local stack
# unless SUPABASE_URL is set), run a scripted tool-call session against it,
# then serve the demo page and the worker on 127.0.0.1 until Ctrl-C.
# `--session-only` stops after the session. Each stage prints a line with the
# time since the start; a first run takes several minutes (mostly the build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stage.sh

stage "start: checking what is installed (Debian packages, npm packages from the lock)"
bash scripts/setup.sh
# Only what the session and the demo run: the wasm module and web/dist. The
# native core and the doctests are scripts/test.sh's (on two cores they are
# most of a first build).
stage "start: building (the wasm module and web/dist; a no-op when up to date)"
bash scripts/build.sh package
stage "start: starting the backend and the session"
node scripts/main.mjs "$@"
