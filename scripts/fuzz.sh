#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/, clang with ASan + UBSan) into
# build/fuzz and runs each one for the given number of seconds (default 25),
# starting from its committed seeds and regression inputs. Fails on any
# finding: a crash, a broken invariant, a leak, undefined behaviour, an input
# slower than 10 s or a run over 2 GB.
#   bash scripts/fuzz.sh [seconds per target] [target ...]
# New corpus entries go to build/fuzz/corpus/<target>, findings to
# build/fuzz/findings/<target>/ (docs/fuzzing.md says what to do with one).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-25}
shift || true

cmake -S . -B build/fuzz -G Ninja -DALFRED_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/fuzz

targets=("$@")
((${#targets[@]})) || mapfile -t targets <build/fuzz/fuzz-targets.txt

# Leaks are findings; UBSan stops at the first report (the build also says
# -fno-sanitize-recover) and prints the stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
for target in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$target
  findings=build/fuzz/findings/$target
  mkdir -p "$corpus" "$findings"
  inputs=("$corpus" "tests/fuzz/corpus/$target")
  [[ -d tests/fuzz/regressions/$target ]] && inputs+=("tests/fuzz/regressions/$target")
  echo "fuzz: $target for ${seconds}s"
  log=build/fuzz/findings/$target.log
  if build/fuzz/"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -dict=tests/fuzz/json.dict -artifact_prefix="$findings/" -print_final_stats=1 \
    "${inputs[@]}" >"$log" 2>&1; then
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|^#[0-9]+[[:space:]]+DONE' "$log" | tr '\n' ' ' | sed 's/^/  /'
    echo
  else
    echo "fuzz: $target FOUND A PROBLEM (log: $log, input in $findings/):" >&2
    grep -E 'ERROR|BROKEN|runtime error|SUMMARY|^FUZZ' -A6 "$log" | head -40 >&2
    failed+=("$target")
  fi
done

if ((${#failed[@]})); then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, no findings"
