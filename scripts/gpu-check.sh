#!/usr/bin/env bash
# The one-command GPU check, for a machine with an NVIDIA GPU (see issue 17):
#  1. configures a CUDA build in its own directory (build-gpu; -Dcuda=enabled,
#     -Dgpu_arch from the GPU's compute capability, or GPU_ARCH) and builds;
#  2. runs the 'gpu' test suite (device-equivalence of every primitive, random
#     networks forward and backward, the trainer, the programs with
#     --use-gpu=yes against --use-gpu=no) and the opaque-device suite;
#  3. runs scripts/bench/gpu.sh with sizes that fit the time slice;
#  4. prints a short table last.
# Everything runs under one deadline (BUDGET seconds, default 480): the bench
# gets what the build and suite leave, and is skipped with a note when too
# little is left.
#
#   scripts/gpu-check.sh            # exit 0 when the suite passed
#
# It needs the build's Debian packages (OpenBLAS, spdlog, fmt, CLI11,
# Catch2) on the GPU machine. The device tool's machines lack them; there,
# build here and carry the build instead: scripts/gpu-pack.sh, then run
# `bash .gpucarry/run.sh` with carry [".gpucarry"] (scripts/gpu-run-prebuilt.sh).
#
# Environment: BUILD_DIR (build-gpu), BUDGET (480), GPU_ARCH (e.g. 90),
# BENCH_OPTS_UTTS (1500), JOBS (nproc).
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
BUILD_DIR=${BUILD_DIR:-build-gpu}
BUDGET=${BUDGET:-480}
JOBS=${JOBS:-$(nproc)}
LOG=$BUILD_DIR-check.log
left() { echo $((BUDGET - ($(date +%s) - start))); }
row() { printf '%-34s %s\n' "$1" "$2" >> "$BUILD_DIR.table"; }

if ! command -v nvidia-smi > /dev/null || ! nvidia-smi -L > /dev/null 2>&1; then
  echo "gpu-check: no NVIDIA GPU here (nvidia-smi -L failed); nothing to check" >&2
  exit 77
fi
gpu=$(nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total \
  --format=csv,noheader | head -1)
arch=${GPU_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader |
  head -1 | tr -d ' .')}
: > "$BUILD_DIR.table"
: > "$LOG"
row "GPU" "$gpu"

# ---- 1. configure and build ----
t0=$(date +%s)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  meson setup "$BUILD_DIR" --buildtype=release -Dcuda=enabled \
    -Dgpu_arch="$arch" >> "$LOG" 2>&1 ||
    { tail -20 "$LOG"; echo "gpu-check: meson setup failed" >&2; exit 1; }
fi
if ! ninja -C "$BUILD_DIR" -j "$JOBS" >> "$LOG" 2>&1; then
  grep -m20 -E "error|Error" "$LOG"
  echo "gpu-check: build failed (full log: $LOG)" >&2
  exit 1
fi
"$BUILD_DIR/bin/cuda-compiled" || { echo "gpu-check: built without CUDA" >&2; exit 1; }
row "build (sm_$arch)" "$(($(date +%s) - t0)) s"

# ---- 2. the GPU suite and the opaque-device suite ----
t0=$(date +%s)
meson test -C "$BUILD_DIR" --no-rebuild --print-errorlogs \
  --num-processes 2 --suite gpu >> "$LOG" 2>&1
suite=$?
meson test -C "$BUILD_DIR" --no-rebuild --print-errorlogs \
  opaque-equivalence >> "$LOG" 2>&1
opaque=$?
python3 - "$BUILD_DIR/meson-logs/testlog.json" >> "$BUILD_DIR.table" <<'PY'
import json, re, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    out = t.get("stdout", "") or ""
    m = re.search(r"All tests passed \((\d+) assertions? in (\d+) test cases?\)", out)
    s = re.search(r"^test cases:([^\n]*)", out, re.M)
    detail = (m and "%s cases, %s assertions" % (m.group(2), m.group(1))) or \
        (s and s.group(1).strip()) or ""
    print("%-34s %s %s" % ("test " + t["name"], t["result"], detail))
PY
row "suite time" "$(($(date +%s) - t0)) s"

# ---- 3. the benchmark, in what time is left ----
t0=$(date +%s)
remaining=$(left)
if [ "$remaining" -gt 120 ]; then
  UTTS=${BENCH_UTTS:-1500} TRAIN_MB=${TRAIN_MB:-30} \
    timeout $((remaining - 20)) scripts/bench/gpu.sh "$BUILD_DIR" \
    > "$BUILD_DIR-bench.txt" 2>> "$LOG"
  bench=$?
  row "bench (scripts/bench/gpu.sh)" "exit $bench, $(($(date +%s) - t0)) s"
else
  bench=skipped
  row "bench (scripts/bench/gpu.sh)" "skipped: only $remaining s left"
fi

# ---- 4. the table, last ----
[ -s "$BUILD_DIR-bench.txt" ] && cat "$BUILD_DIR-bench.txt"
echo
echo "== gpu-check: $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null)"
cat "$BUILD_DIR.table"
row_total="$(($(date +%s) - start)) s"
printf '%-34s %s\n' "total" "$row_total"
if [ "$suite" -ne 0 ] || [ "$opaque" -ne 0 ]; then
  echo "gpu-check: FAILED (suite exit $suite, opaque $opaque; log: $LOG)"
  exit 1
fi
echo "gpu-check: passed"
