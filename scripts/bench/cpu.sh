#!/usr/bin/env bash
# CPU benchmark: our programs against PyTorch on the same networks, data and
# initial weights, in one run on this machine, pinned to one core (taskset
# -c 0, one BLAS thread) and then two (taskset -c 0,1, two threads):
#   - training throughput (nnet3-train on merged egs, SGD with momentum 0.9,
#     minibatch 128, natural gradient off) on the Fashion-MNIST recipe's MLP
#     and TDNN over image rows, and on a full-size Kaldi-style TDNN (40-dim
#     input, 6 x 1024 spliced relu+batch-norm layers, 3000 outputs) on
#     random 128 x 8-frame minibatches;
#   - inference throughput: nnet3-compute (and nnet3-compute-batch when it is
#     built) at batch 512 on the recipe's networks, and the full-size TDNN on
#     150-frame chunks;
#   - per figure our GFLOP/s against the single-core FP32 peak measured in
#     the same run, and the share of our time inside OpenBLAS sgemm/sgemv
#     (perf record, where perf can sample);
#   - cold-compile times of a 64 x 8-frame training request and a 1 x
#     150-frame inference request of a 6 x 512 batch-norm TDNN.
# See scripts/bench/cpu_bench.py for how each figure is taken.
#
#   scripts/bench/cpu.sh [build-dir]          # default: build
#
# Environment: RUNS (paired runs per figure, default 5; medians are
# reported), THREADS (default "1 2"), QUICK=1 (tiny sizes, to test the
# script), FIGURES (only these, e.g. "infer:tdnn-full,train:mlp"), WORK (keep the work directory there instead of a temporary one),
# NNET3_CPU_GEMM=openblas (our products through OpenBLAS even in a build
# with oneDNN; the table's header says which library ran them).
# Installs Debian's python3-torch, python3-numpy, dataset-fashion-mnist and
# linux-perf when missing (as root or through sudo); without torch it exits
# 77. Keeps OPENBLAS_CORETYPE as it finds it (same for both sides). Prints a
# table, then one JSON line {"benchmark": "cpu", ..., "ratios": {...}}.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ -d "$BUILD" ] || BUILD=$ROOT/$1
BIN=$BUILD/bin
PY=/usr/bin/python3
for p in nnet3-init nnet3-get-egs nnet3-merge-egs nnet3-subset-egs nnet3-train \
         nnet3-compute nnet3-compile-info; do
  [ -x "$BIN/$p" ] ||
    { echo "cpu.sh: $BIN/$p not found; build it first (ninja -C $BUILD bin/$p)" >&2; exit 1; }
done

# What the benchmark needs from Debian.
missing=()
for p in python3-torch python3-numpy dataset-fashion-mnist linux-perf; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "cpu.sh: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  { $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing[@]}"; } >&2 || echo "cpu.sh: could not install ${missing[*]}" >&2
fi
$PY -c 'import torch, numpy' 2> /dev/null ||
  { echo "cpu.sh: $PY lacks torch or numpy (apt-get install python3-torch python3-numpy); skipping" >&2
    exit 77; }
command -v taskset > /dev/null || { echo "cpu.sh: taskset (util-linux) is needed" >&2; exit 1; }
command -v cc > /dev/null || { echo "cpu.sh: a C compiler (cc) is needed for the peak probe" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || THREADS=${THREADS:-1}

if [ -n "${WORK:-}" ]; then
  mkdir -p "$WORK"
else
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
quick=()
[ "${QUICK:-0}" = 1 ] && quick=(--quick)
$PY "$ROOT/scripts/bench/cpu_bench.py" --root "$ROOT" --bin "$BIN" --work "$WORK" \
  --runs "${RUNS:-5}" --threads "${THREADS:-1 2}" --figures "${FIGURES:-}" "${quick[@]}"
