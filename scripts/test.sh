#!/usr/bin/env bash
# Runs set-up (install, configure, build), then every test suite; prints the
# logs of failing tests, each skipped test with its reason, and ends with one
# line "N passed, N failed" counting
# test cases: each Catch2 test case, and each other test program (the
# command-line scripts) as one.
# Exit status is non-zero when anything failed. Usage: scripts/test.sh
# [--sanitize] [meson test options, e.g. --suite unit].
#
# --sanitize: builds build-sanitize/ (scripts/sanitize-setup.sh: clang,
# AddressSanitizer + UndefinedBehaviorSanitizer, any finding fails the
# test) and runs the unit, command-line and fuzz-corpus suites there, or the
# suites given (e.g. --suite unit). See README.md for how long it takes.
set -uo pipefail
cd "$(dirname "$0")/.."

build=build
timeout_multiplier=1
suites=()
if [ "${1:-}" = "--sanitize" ]; then
  shift
  build=build-sanitize
  timeout_multiplier=4
  # Leaks and every UBSan finding fail the test; ASan's own checks always do.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  case " $* " in *" --suite "*) ;; *) suites=(--suite unit --suite cli --suite fuzz) ;; esac
  setup=scripts/sanitize-setup.sh
else
  setup=scripts/setup.sh
fi

if ! $setup; then
  echo "setup or build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

stdout_was_link=0
[ -L /dev/stdout ] && stdout_was_link=1
meson test -C "$build" --print-errorlogs --num-processes "$(nproc)" \
  --timeout-multiplier "$timeout_multiplier" "${suites[@]}" "$@"
status=$?

# No test may replace /dev/null (a writer renaming a temporary file over it
# breaks every later '> /dev/null' on the machine): check, and fail loudly.
null_broken=0
if [ ! -c /dev/null ]; then
  null_broken=1
  echo "FATAL: /dev/null is no longer a character device: a test replaced it." >&2
  echo "FATAL: restore it (rm -f /dev/null; mknod -m 666 /dev/null c 1 3) and find the writer." >&2
fi
if [ "$stdout_was_link" -eq 1 ] && [ ! -L /dev/stdout ]; then
  null_broken=1
  echo "FATAL: /dev/stdout is no longer a link: a test replaced it." >&2
  echo "FATAL: restore it (rm -f /dev/stdout; ln -s /proc/self/fd/1 /dev/stdout) and find the writer." >&2
fi

# meson's summary is not a line CI recognises; count from its JSON log.
python3 - "$build/meson-logs/testlog.json" "$null_broken" <<'PY'
import json, os, re, sys
ci = os.environ.get("CI") == "true"
passed = failed = skipped = 0
skip_reasons = []
failed += int(sys.argv[2])  # /dev/null or /dev/stdout replaced
for line in open(sys.argv[1]):
    t = json.loads(line)
    result = t.get("result", "")
    out = t.get("stdout", "") or ""
    # A Catch2 executable counts its test cases; anything else counts one.
    ok_all = re.search(r"All tests passed \(\d+ assertions? in (\d+) test cases?\)", out)
    summary = re.search(r"^test cases:([^\n]*)", out, re.M)
    if ok_all and result == "OK":
        passed += int(ok_all.group(1))
    elif summary:
        p = re.search(r"(\d+) passed", summary.group(1))
        f = re.search(r"(\d+) failed", summary.group(1))
        passed += int(p.group(1)) if p else 0
        failed += max(int(f.group(1)) if f else 0, 1 if result != "OK" else 0)
    elif result == "SKIP":
        why = [l for l in out.splitlines() if l.startswith("SKIP")]
        why = why[0] if why else "(no reason printed)"
        if ci and not why.startswith("SKIP: no GPU"):
            # Under CI only an absent GPU may skip a test.
            failed += 1
            why += " -- counted as failed: CI=true"
        else:
            skipped += 1
        skip_reasons.append(f"  {t.get('name', '?')}: {why}")
    elif result in ("OK", "EXPECTEDFAIL"):
        passed += 1
    else:
        failed += 1  # crashed, timed out, or a failing script
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
if skip_reasons:
    # Each skip and why; then the summary again, so that it stays the last line.
    print("skipped:")
    print("\n".join(skip_reasons))
    print(line)
sys.exit(1 if failed else 0)
PY
count_status=$?
if [ $status -ne 0 ] || [ $count_status -ne 0 ]; then exit 1; fi
exit 0
