# Progress lines for the long scripts (sourced): `stage "building wasm"`
# prints the stage with the time since the script started, and
# `ninja_progress LABEL` turns ninja's [n/N] lines on stdin into a line per
# tenth of the work, so a five-minute build shows that it is moving (compiler
# errors and FAILED lines pass through; build.sh prints the whole log when a
# build fails).
STAGE_START=${STAGE_START:-$SECONDS}
export STAGE_START

elapsed() {
  local seconds=$((SECONDS - STAGE_START))
  printf '%d:%02d' $((seconds / 60)) $((seconds % 60))
}

stage() {
  echo "[$(elapsed)] $*"
}

ninja_progress() {
  local label=$1 line done total shown=-1 tenth
  while IFS= read -r line; do
    if [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]]; then
      done=${BASH_REMATCH[1]}
      total=${BASH_REMATCH[2]}
      tenth=$((done * 10 / total))
      if ((tenth != shown)); then
        shown=$tenth
        echo "[$(elapsed)]   $label: $done/$total steps"
      fi
    elif [[ $line == *error:* || $line == FAILED* ]]; then
      echo "$line"
    fi
  done
}
