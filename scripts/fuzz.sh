#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz (tests/fuzz/targets.txt) for
# SECONDS each, one after the other, and prints per target the executions,
# crashes, timeouts (hangs) and out-of-memory stops, then a total line.
# Builds build-sanitize/ first (scripts/sanitize-setup.sh: clang,
# AddressSanitizer and UndefinedBehaviorSanitizer, -Dfuzz=true; the same
# directory `scripts/test.sh --sanitize` uses). New corpus inputs go to
# build-sanitize/fuzz-corpus/NAME (not checked in); inputs that crash go to
# build-sanitize/fuzz-artifacts/NAME/: make each a file of
# tests/fuzz/corpus/NAME/ (the replay tests then keep it fixed) and fix it.
# Exit status 1 when anything crashed, hung or ran out of memory.
#
# Usage: scripts/fuzz.sh [--prebuilt DIR] [SECONDS] [TARGET...]
#                                                   (default 60 s, all)
#   nice scripts/fuzz.sh 600                        # the release check
#   scripts/fuzz.sh 30 matrix egs
# Do not rebuild build-sanitize/ while it runs: the fuzzers load its
# libnnet3.so, and every job would then fail. To go on editing (and
# building) meanwhile, fuzz a copy: `cp -a build-sanitize /tmp/fz` after a
# build, then `scripts/fuzz.sh --prebuilt /tmp/fz 600` (no build step; the
# corpus, artifacts and logs then go under the copy).
set -uo pipefail
cd "$(dirname "$0")/.."
B=build-sanitize
prebuilt=0
if [ "${1:-}" = "--prebuilt" ]; then
  [ -d "${2:-}" ] || { echo "fuzz: --prebuilt needs a build directory" >&2; exit 1; }
  B=$2 prebuilt=1
  shift 2
fi
seconds=${1:-60}
[ $# -gt 0 ] && shift
case $seconds in '' | *[!0-9]*) echo "Usage: scripts/fuzz.sh [--prebuilt DIR] [SECONDS] [TARGET...]" >&2; exit 1 ;; esac

# Targets and their seed directories.
declare -A seeds
all=()
while read -r name rest; do
  case $name in '' | '#'*) continue ;; esac
  all+=("$name")
  seeds[$name]=$rest
done < tests/fuzz/targets.txt
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  [ -n "${seeds[$t]+x}" ] || { echo "fuzz: no target '$t' (tests/fuzz/targets.txt)" >&2; exit 1; }
done

# Only the fuzzers: the rest of build-sanitize/ is for test.sh --sanitize.
if [ $prebuilt -eq 0 ]; then
  scripts/sanitize-setup.sh "${targets[@]/#/tests/fuzz/fuzz-}" ||
    { echo "fuzz: build failed" >&2; exit 1; }
fi
for t in "${targets[@]}"; do
  [ -x "$B/tests/fuzz/fuzz-$t" ] || { echo "fuzz: $B/tests/fuzz/fuzz-$t is not built" >&2; exit 1; }
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
printf '%-12s %12s %8s %8s %8s\n' target executions crashes timeouts ooms
total_bad=0
for t in "${targets[@]}"; do
  work=$B/fuzz-corpus/$t art=$B/fuzz-artifacts/$t log=$B/fuzz-logs/$t.log
  mkdir -p "$work" "$art" "$(dirname "$log")"
  dirs=(tests/fuzz/corpus/"$t")
  for s in ${seeds[$t]}; do dirs+=("$s"); done
  # timeout: libFuzzer's fork mode can loop without counting time when
  # every job dies at once (e.g. its library was rebuilt under it).
  timeout -k 10 $((seconds + 120)) nice "$B/tests/fuzz/fuzz-$t" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -artifact_prefix="$art/" "$work" "${dirs[@]}" > "$log" 2>&1
  # Fork mode's status lines: "#N: cov: ... oom/timeout/crash: a/b/c ...".
  last=$(grep -E '^#[0-9]+: cov' "$log" | tail -1)
  execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<< "$last")
  otc=$(sed -E 's|.*oom/timeout/crash: ([0-9]+)/([0-9]+)/([0-9]+).*|\1 \2 \3|' <<< "$last")
  read -r ooms timeouts crashes <<< "${otc:-? ? ?}"
  [ -n "$last" ] || { execs=?; ooms=?; timeouts=?; crashes=?; }
  printf '%-12s %12s %8s %8s %8s\n' "$t" "${execs:-?}" "$crashes" "$timeouts" "$ooms"
  if [ "$crashes$timeouts$ooms" != "000" ]; then
    total_bad=$((total_bad + 1))
    ls "$art" | sed "s|^|  $art/|" | head -5
  fi
done
echo "$total_bad target(s) with crashes, timeouts or ooms; logs in $B/fuzz-logs/"
[ $total_bad -eq 0 ]
