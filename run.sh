#!/usr/bin/env bash
# The README's two commands:  ./run.sh demo   and   ./run.sh test
# Each sets everything up on first use (system libraries, .venv, the project) and then runs.
#   ./run.sh demo [app options]   start the app on the bundled demo (no camera, no printed board)
#   ./run.sh test [pytest args]   run the whole test suite: the type checks, the unit tests, then the
#                                 tests marked accuracy or slow (pyproject.toml), each step timed and
#                                 on both cores; with pytest arguments, one pytest run with them instead
#   ./run.sh bench [rules|vision|app|all]   print the benchmark figures
#   ./run.sh setup                only set up
set -euo pipefail
cd "$(dirname "$0")"
VENV=.venv
PY="$VENV/bin/python"
STAMP="$VENV/.installed"

setup() {
  bash scripts/ensure-system-libs.sh
  if [ ! -x "$PY" ]; then
    echo "Creating the Python environment $VENV ..."
    python3 -m venv "$VENV"
  fi
  if [ ! -f "$STAMP" ] || [ pyproject.toml -nt "$STAMP" ] || [ scripts/ensure-system-libs.sh -nt "$STAMP" ]; then
    echo "Installing the project and its dependencies into $VENV (a few minutes the first time; log: $VENV/install.log) ..."
    if ! { "$PY" -m pip install -q --upgrade pip && "$PY" -m pip install -q -e '.[test]'; } \
        > "$VENV/install.log" 2>&1; then
      cat "$VENV/install.log" >&2
      exit 1
    fi
    touch "$STAMP"
    echo "Installed."
  fi
}

UNIT="not accuracy and not slow"
MARKED="accuracy or slow"

step_done() {  # step_done LABEL STARTED STATUS: say how long a step took and how it ended
  echo "== $1: $(( (SECONDS - $2) / 60 )) min $(( (SECONDS - $2) % 60 )) s, $([ "$3" -eq 0 ] && echo passed || echo "FAILED (pytest exit code $3)") =="
}

timed_pytest() {  # timed_pytest LABEL MARKERS: run one step on both cores (pytest-xdist), timed
  local started=$SECONDS status=0
  echo "== $1 (pytest -m \"$2\" on 2 workers) =="
  "$PY" -m pytest -q -n 2 --dist loadfile -m "$2" || status=$?
  step_done "$1" "$started" "$status"
  return $status
}

# Type checks (pyproject.toml's [tool.mypy]): the pure packages strictly, the lower layers in default mode.
type_checks() {
  local started=$SECONDS status=0
  echo "== step 1 of 3: type checks (mypy) =="
  "$PY" -m mypy --strict companion/rules companion/game companion/cards safeio || status=$?
  "$PY" -m mypy boards calibration || status=$?
  step_done "step 1 of 3: type checks" "$started" "$status"
  return $status
}

run_tests() {
  if [ $# -gt 0 ]; then exec "$PY" -m pytest -q "$@"; fi
  local started=$SECONDS types=0 unit=0 marked=0
  type_checks || types=$?
  timed_pytest "step 2 of 3: unit tests" "$UNIT" || unit=$?
  timed_pytest "step 3 of 3: accuracy over photo sets and slow tests" "$MARKED" || marked=$?
  echo "== all tests: $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s =="
  [ $types -eq 0 ] && [ $unit -eq 0 ] && [ $marked -eq 0 ]
}

command=${1:-help}
[ $# -gt 0 ] && shift
case "$command" in
  setup) setup ;;
  demo)  setup; KIVY_NO_ARGS=1 exec "$VENV/bin/tactical" app --demo "$@" ;;
  test)  setup; run_tests "$@" ;;
  bench) setup; exec "$VENV/bin/tactical" bench "${@:-all}" ;;
  *) sed -n '2,9p' "$0"; exit 2 ;;
esac
