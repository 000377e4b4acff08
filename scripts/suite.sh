# Test suites with a time limit that fail when they ran no test (sourced by
# scripts/test.sh and tests/matrix/run.sh). A suite over its limit is killed
# and fails; so does one that ran nothing (a wrong path or filter, every test
# skipped), which the runners themselves count as a pass.
#   ctest_suite 10m 120 build/native      # whole-suite limit, seconds per test, build dir
#   node_suite 40m tests/js/              # whole-suite limit, then node --test's arguments

# The limits are far above what each suite takes on a busy 2-core machine and,
# added up with the build, within CI's 90 minutes. --test-timeout bounds each
# test file (Node 20 runs each file as one test) and each test that sets no
# `timeout` of its own.
NODE_TEST_TIMEOUT_MS=${NODE_TEST_TIMEOUT_MS:-900000}

# Runs "$@" under `timeout LIMIT`, saying so when the limit ended it.
run_limited() {
  local label=$1 limit=$2 status=0
  shift 2
  timeout --kill-after=30s "$limit" "$@" || status=$?
  if ((status == 124 || status == 137)); then
    echo "$label: stopped after its time limit of $limit" >&2
  fi
  return "$status"
}

# ctest with a limit per test and for the whole suite; no test found is an
# error (--no-tests=error), and each doctest case fails when its name selects
# no case (tests/core/main.cpp).
ctest_suite() {
  local limit=$1 per_test=$2 dir=$3
  run_limited "ctest $dir" "$limit" ctest --test-dir "$dir" --output-on-failure --no-tests=error --timeout "$per_test"
}

# node --test (code generation from strings off, as in workerd and under a
# strict CSP) with a limit per file and for the whole suite. The spec report goes to the terminal; a TAP copy is
# read for the count of tests that passed, which must not be zero.
node_suite() {
  local limit=$1 counts status=0 passed
  shift
  counts=$(mktemp)
  run_limited "node --test $*" "$limit" node --disallow-code-generation-from-strings --test \
    --test-timeout="$NODE_TEST_TIMEOUT_MS" \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$counts" "$@" || status=$?
  passed=$(sed -n 's/^# pass \([0-9][0-9]*\)$/\1/p' "$counts" | tail -1)
  rm -f "$counts"
  ((status == 0)) || return "$status"
  if [[ -z $passed || $passed -eq 0 ]]; then
    echo "node --test $*: no test ran (passed: ${passed:-none reported})" >&2
    return 1
  fi
}
