#!/usr/bin/env bash
# Runs on a lent GPU machine, from the repository root, as .gpucarry/run.sh
# (scripts/gpu-pack.sh puts it there with the prebuilt CUDA build): unpacks
# the build and its shared libraries, then runs the gpu suite's
# device-equivalence test, tests/gpu/gpu-programs.sh and scripts/bench/gpu.sh,
# each under its own time limit (T_EQ, T_PROG, T_BENCH seconds), and prints
# their tails; the whole outputs go to $OUT. Sizes: UTTS, TRAIN_MB.
# CASES (a Catch test spec) runs those equivalence cases first, in T_CASES s.
# With .gpucarry/decode (gpu-pack.sh's DECODE=) it also times
# nnet3-latgen-faster-batch on the GPU and the CPU at 1..all search threads.
set -u
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
REPO=$PWD
mkdir -p /tmp/g && tar xJf .gpucarry/g.tar.xz -C /tmp/g || exit 3
CUB=$(python3 -c 'import nvidia.cublas, os; print(os.path.dirname(nvidia.cublas.__file__) + "/lib")' 2>/dev/null)
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -e $d/libcublas.so.13 ] && CUB=$d:$CUB
done
export LD_LIBRARY_PATH=/tmp/g/deps:$CUB
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader
B=/tmp/g/build
# The test binaries read the example configs from the source tree they were
# built in (NNET3_SOURCE_DIR): point that path at this copy.
src=$(cat $B/source-dir 2> /dev/null || true)
if [ -n "$src" ] && [ ! -e "$src" ]; then
  mkdir -p "$(dirname "$src")" && ln -sfn "$REPO" "$src"
fi
if [ -n "${CASES:-}" ]; then
  # Chosen cases of the equivalence test first (e.g. CASES='equivalence: training*').
  echo "== cases $CASES ($(el) s)"
  timeout ${T_CASES:-120} $B/tests/gpu/gpu-equivalence-test --use-colour no "$CASES" > $OUT/cases.txt 2>&1
  echo "cases exit $? ($(el) s)"; grep -v '^LOG' $OUT/cases.txt | tail -n 60
fi
echo "== equivalence ($(el) s)"
timeout ${T_EQ:-170} $B/tests/gpu/gpu-equivalence-test --use-colour no > $OUT/equivalence.txt 2>&1
echo "gpu-equivalence exit $? ($(el) s)"; tail -n 25 $OUT/equivalence.txt
echo "== programs ($(el) s)"
timeout ${T_PROG:-120} bash $REPO/tests/gpu/gpu-programs.sh $B/bin $REPO/tests/data > $OUT/programs.txt 2>&1
echo "gpu-programs exit $? ($(el) s)"; tail -n 15 $OUT/programs.txt
echo "== bench ($(el) s)"
mkdir -p $B/tests/gpu
UTTS=${UTTS:-600} CPU_UTTS=40 TRAIN_MB=${TRAIN_MB:-200} CPU_TRAIN_MB=4 REPEATS=10 \
  timeout ${T_BENCH:-150} bash $REPO/scripts/bench/gpu.sh $B > $OUT/bench.txt 2>&1
echo "bench exit $? ($(el) s)"; tail -n 40 $OUT/bench.txt
if [ -d .gpucarry/decode ]; then
  # nnet3-latgen-faster-batch on the GPU and on the CPU at 1..all search
  # threads: frames per second from its Time taken line (issue 32's scaling).
  echo "== decode ($(el) s)"
  D=.gpucarry/decode
  for t in $(printf "%s\n" 1 2 4 8 "$(nproc)" | sort -nu); do
    for v in yes no; do
      timeout ${T_DECODE:-60} $B/bin/nnet3-latgen-faster-batch --use-gpu=$v --num-threads=$t \
        --max-active=7000 --beam=15 --lattice-beam=8 --acoustic-scale=0.1 --frames-per-chunk=50 \
        $D/final.mdl $D/HCLG.fst ark:$D/feats.ark ark:/dev/null > $OUT/decode-$v-$t.log 2>&1
      awk -v t=$t -v v=$v '/over [0-9]+ frames/ && /Overall/ {f = $(NF - 1)}
        /Time taken/ {s = $0; sub(/.*Time taken /, "", s); sub(/s:.*/, "", s)}
        /Time shares/ {sh = $0; sub(/.*Time shares of [^:]*: /, "", sh)}
        END {printf "gpu=%-3s threads=%-3d frames/s %8.0f  real-time x%7.0f  %s\n", v, t, f / s, f / s / 100, sh}' \
        $OUT/decode-$v-$t.log
    done
  done
fi
echo "total $(el) s"
