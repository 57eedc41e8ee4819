# Helpers for command-line tests. Source it after setting BIN and DATA:
#   BIN=$1 DATA=$2; . "$(dirname "$0")/lib.sh"
# Each check prints what failed and sets failures; end the script with `finish`.
set -u
export PATH="$BIN:$PATH"
failures=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 99

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# need PACKAGE CHECK...: the check (run by bash -c) succeeds, or this test
# cannot run because Debian's PACKAGE is missing. scripts/setup.sh installs
# every package the suite needs; no test installs anything itself. Under
# CI=true a missing package fails the test (exit 1), naming it; elsewhere the
# test is skipped (77) with the reason, which scripts/test.sh lists.
need() {
  local package=$1; shift
  bash -c "$*" > /dev/null 2>&1 && return 0
  if [ "${CI:-}" = true ]; then
    echo "FAIL: $package is not installed (scripts/setup.sh installs it; check: $*)"
    exit 1
  fi
  echo "SKIP: $package is not installed (scripts/setup.sh installs it)"
  exit 77
}

# expect_ok NAME CMD...: the command (run by bash -c) exits 0.
expect_ok() {
  local name=$1; shift
  if ! bash -c "$*" > "$TMP/out" 2> "$TMP/err"; then
    fail "$name: expected success: $*"; sed 's/^/  stderr: /' "$TMP/err" | tail -5
  fi
}

# expect_error NAME REGEX CMD...: exit status 1, exactly one ERROR line on
# stderr, matching REGEX (grep -E), and no crash.
expect_error() {
  local name=$1 pattern=$2; shift 2
  bash -c "$*" > "$TMP/out" 2> "$TMP/err"
  local status=$?
  local n
  n=$(grep -c '^ERROR (' "$TMP/err")
  if [ "$status" -ne 1 ]; then
    fail "$name: expected exit 1, got $status: $*"; sed 's/^/  stderr: /' "$TMP/err" | tail -5
  elif [ "$n" -ne 1 ]; then
    fail "$name: expected one ERROR line, got $n"; sed 's/^/  stderr: /' "$TMP/err" | tail -5
  elif ! grep '^ERROR (' "$TMP/err" | grep -Eq -- "$pattern"; then
    fail "$name: ERROR line does not match /$pattern/"; grep '^ERROR (' "$TMP/err" | sed 's/^/  /'
  fi
}

# expect_exit NAME STATUS REGEX CMD...: the command (run by bash -c) exits
# with STATUS (so a crash or a kill fails) and a line of its stderr matches
# REGEX (grep -E); for the programs that, as Kaldi's, fail with a warning or
# the usage text and no ERROR line. Its stderr stays in $TMP/err.
expect_exit() {
  local name=$1 want=$2 pattern=$3; shift 3
  bash -c "$*" > "$TMP/out" 2> "$TMP/err"
  local status=$?
  if [ "$status" -ne "$want" ]; then
    fail "$name: expected exit $want, got $status: $*"; sed 's/^/  stderr: /' "$TMP/err" | tail -5
  elif ! grep -Eq -- "$pattern" "$TMP/err"; then
    fail "$name: no stderr line matches /$pattern/"; sed 's/^/  stderr: /' "$TMP/err" | tail -5
  fi
}

# step_learns NAME MODEL MINIBATCH LR MARGIN PATTERN...: one nnet3-train
# step of MODEL on MINIBATCH (an archive of one merged eg) in which only the
# components matching the PATTERNs learn (learning rate LR, all others 0)
# lowers that minibatch's objective (nnet3-compute-prob in training mode,
# the computation the step saw) by at least MARGIN. With the layers above
# the PATTERNs fixed (the output layer included, so its bias cannot help),
# only correct derivatives through them make the step a descent.
step_learns() {
  local name=$1 model=$2 mb=$3 lr=$4 margin=$5 edits='set-learning-rate name=* learning-rate=0' p
  shift 5
  for p in "$@"; do edits="$edits;set-learning-rate name=$p learning-rate=$lr"; done
  if ! nnet3-copy --edits="$edits" "$model" "$TMP/step0.raw" 2> "$TMP/err" ||
     ! nnet3-train --srand=1 "$TMP/step0.raw" "$mb" "$TMP/step1.raw" 2> "$TMP/err"; then
    fail "$name: the training step failed"; tail -3 "$TMP/err" | sed 's/^/  stderr: /'
    return
  fi
  local before after
  before=$(nnet3-compute-prob --batchnorm-test-mode=false "$model" "$mb" 2>&1 |
    sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p")
  after=$(nnet3-compute-prob --batchnorm-test-mode=false "$TMP/step1.raw" "$mb" 2>&1 |
    sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p")
  echo "$name: one step with only [$*] learning: $before -> $after"
  [ -n "$before" ] && [ -n "$after" ] &&
    awk -v a="$after" -v b="$before" -v m="$margin" 'BEGIN { exit !(a > b + m) }' ||
    fail "$name: one step with only [$*] learning took the objective from '$before' to '$after', not $margin higher"
}

# same_file NAME A B: byte-identical.
same_file() {
  cmp -s "$2" "$3" || fail "$1: $2 and $3 differ"
}

finish() {
  if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all checks passed"
  exit 0
}
