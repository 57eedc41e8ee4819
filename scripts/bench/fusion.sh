#!/usr/bin/env bash
# CPU measure of the fusions of memory-bound passes (issue 32): for the TDNN
# and the TDNN-F of scripts/bench/gpu.sh (bench_nets.py), prepared for test
# as nnet3-compute prepares them, the computation-only speed of one
# minibatch's forward pass on the CPU as a fraction of its GEMM bound: the
# frames/s of the same matrix products alone, replayed with the same shapes
# (gpu-bench --cpu, which times a forward pass and a replay alternately and
# takes the medians). With the optimizer's fusions on (the default) and off
# (--optimization.fuse-relu-affine=false, fuse-scale-add, fuse-zeroing), and
# with BASELINE=<build dir> also that build's gpu-bench (one built without
# the fusions, e.g. main's), interleaved, RUNS times each; medians. Pinned
# to one core (taskset -c CORE, one BLAS thread), so that the figures compare
# with the single-core FP32 peak and OpenBLAS sgemm printed beside the table
# (scripts/bench/peak_flops.c). On a shared machine compare the fractions,
# not the frames/s.
#
#   scripts/bench/fusion.sh [build-dir]     # default: build
#
# Environment: MB (minibatch, default 128), RUNS (default 5), REPEATS
# (gpu-bench --repeats per run, default 7), CORE (default 0), BASELINE.
# Prints a table, then one JSON line {"benchmark": "fusion-cpu", ...}.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ -d "$BUILD" ] || BUILD=$ROOT/$1
MB=${MB:-128}
RUNS=${RUNS:-5}
REPEATS=${REPEATS:-7}
CORE=${CORE:-0}
BASELINE=${BASELINE:-}
BENCH=$BUILD/tests/gpu/gpu-bench
for p in "$BUILD/bin/nnet3-init" "$BENCH"; do
  [ -x "$p" ] || { echo "fusion.sh: $p not found; build it first" >&2; exit 1; }
done
if [ -n "$BASELINE" ] && [ ! -x "$BASELINE/tests/gpu/gpu-bench" ]; then
  echo "fusion.sh: $BASELINE/tests/gpu/gpu-bench not found" >&2
  exit 1
fi
command -v python3 > /dev/null || { echo "fusion.sh: python3 is needed" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
pin=()
command -v taskset > /dev/null && pin=(taskset -c "$CORE")

python3 "$ROOT/scripts/bench/bench_nets.py" "$TMP"
for net in tdnn tdnnf; do
  "$BUILD/bin/nnet3-init" "$TMP/$net.config" "$TMP/$net.raw" 2> "$TMP/init.log" ||
    { tail -3 "$TMP/init.log" >&2; exit 1; }
done

peak="-"
if command -v cc > /dev/null &&
   cc -O2 -mavx2 -mfma "$ROOT/scripts/bench/peak_flops.c" -o "$TMP/peak_flops" -lopenblas 2> /dev/null; then
  "${pin[@]}" "$TMP/peak_flops" 1 > "$TMP/peak.txt"
  peak=$(tr '\n' ' ' < "$TMP/peak.txt")
fi

off=(--optimization.fuse-relu-affine=false --optimization.fuse-scale-add=false
     --optimization.fuse-zeroing=false)
: > "$TMP/results"
for run in $(seq "$RUNS"); do
  for net in tdnn tdnnf; do
    for mode in on off ${BASELINE:+baseline}; do
      case $mode in
        on) cmd=("$BENCH") ;;
        off) cmd=("$BENCH" "${off[@]}") ;;
        baseline) cmd=("$BASELINE/tests/gpu/gpu-bench") ;;
      esac
      "${pin[@]}" "${cmd[@]}" --cpu --repeats="$REPEATS" "$TMP/$net.raw" "$MB" \
        2> "$TMP/bench.log" > "$TMP/bench.out" ||
        { echo "fusion.sh: gpu-bench failed:" >&2; tail -3 "$TMP/bench.log" >&2; exit 1; }
      echo "$net $mode $(grep '^{' "$TMP/bench.out")" >> "$TMP/results"
    done
  done
done

python3 - "$TMP/results" "$MB" "$RUNS" "$peak" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    net, mode, js = line.split(' ', 2)
    r = json.loads(js)['results'][0]
    rows.setdefault((net, mode), []).append(r)
mb, runs, peak = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
med = lambda rs, k: statistics.median(r[k] for r in rs)
print('CPU, one core; single-core peak and sgemm (GFLOP/s): %s' % peak)
print('minibatch %d, %d runs, medians' % (mb, runs))
print('%-6s %-9s %12s %12s %9s %9s' % ('net', 'fusions', 'comp fr/s', 'GEMM bound', 'fraction', 'GEMM GF/s'))
out = {'benchmark': 'fusion-cpu', 'minibatch': mb, 'runs': runs, 'peak': peak, 'results': []}
for (net, mode), rs in sorted(rows.items()):
    fr = med(rs, 'fraction')
    print('%-6s %-9s %12.0f %12.0f %9.3f %9.1f' % (
        net, mode, med(rs, 'computation_fps'), med(rs, 'gemm_bound_fps'), fr,
        1000 * med(rs, 'gemm_tflops')))
    out['results'].append({'net': net, 'fusions': mode, 'fraction': fr,
                           'fractions': [r['fraction'] for r in rs],
                           'computation_fps': med(rs, 'computation_fps'),
                           'gemm_bound_fps': med(rs, 'gemm_bound_fps')})
print(json.dumps(out))
PY
