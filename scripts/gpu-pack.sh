#!/usr/bin/env bash
# Packs this machine's CUDA build for a lent GPU machine whose image cannot
# build the project (it has nvcc, meson and ninja, but not OpenBLAS, spdlog,
# fmt, CLI11 or Catch2): the programs, libnnet3.so, the gpu suite's test
# binaries and the shared libraries they need, in .gpucarry/g.tar.xz (about
# 16 MB), beside scripts/gpu-run-prebuilt.sh's copy in .gpucarry/run.sh.
# Then, with the device tool, from the repository root:
#   run  command: bash .gpucarry/run.sh      carry: [".gpucarry"]
# (.gpucarry is ignored through .git/info/exclude, which this script sets.)
#
#   scripts/gpu-pack.sh [build-dir]     # default: build (needs -Dcuda, sm_90)
#
# DECODE=DIR also packs a decoding set for nnet3-latgen-faster-batch's GPU
# figures (issue 32) into .gpucarry/decode: DIR/final.mdl, DIR/HCLG.fst and
# DIR/feats.ark (features as the model wants them, CMVN applied), e.g. from
# /work/refsys: exp/nnet3/tdnn/final.mdl, exp/tri1/graph_small/HCLG.fst and
# test_hires through apply-cmvn (scripts/bench/decode.sh's FEATS). The
# carry must stay under 64 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
"$BUILD/bin/cuda-compiled" || { echo "gpu-pack: $BUILD has no CUDA backend" >&2; exit 1; }
ninja -C "$BUILD" > /dev/null
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE"/build/bin "$STAGE"/build/lib "$STAGE"/build/tests/gpu "$STAGE"/deps
find "$BUILD/bin" -maxdepth 1 -type f -perm -u+x -exec cp {} "$STAGE/build/bin/" \;
cp "$BUILD/lib/libnnet3.so" "$STAGE/build/lib/"
cp "$BUILD/tests/gpu/gpu-equivalence-test" "$BUILD/tests/gpu/gpu-bench" "$STAGE/build/tests/gpu/"
# Every shared library the programs and tests use, except the C runtime's.
for f in "$STAGE"/build/bin/* "$STAGE"/build/tests/gpu/*; do ldd "$f"; done |
  awk '$3 ~ /^\// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s)\.so' |
  grep -v -e "$BUILD" -e "$STAGE" | while read -r lib; do cp -L "$lib" "$STAGE/deps/"; done
# The binaries read configs from the source tree they were built in.
echo "$(cd "$BUILD/.." && pwd)" > "$STAGE/build/source-dir"
mkdir -p .gpucarry .git/info
grep -qx '/.gpucarry/' .git/info/exclude 2> /dev/null || echo '/.gpucarry/' >> .git/info/exclude
tar cJf .gpucarry/g.tar.xz -C "$STAGE" build deps
cp scripts/gpu-run-prebuilt.sh .gpucarry/run.sh
rm -rf .gpucarry/decode
if [ -n "${DECODE:-}" ]; then
  mkdir -p .gpucarry/decode
  for f in final.mdl HCLG.fst feats.ark; do
    [ -f "$DECODE/$f" ] || { echo "gpu-pack: $DECODE/$f not found" >&2; exit 1; }
    cp "$DECODE/$f" .gpucarry/decode/
  done
fi
ls -l .gpucarry
