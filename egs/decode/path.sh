# shellcheck shell=bash
# path.sh: puts the toolkit's programs (from scripts/setup.sh's build/, or
# the build directory in $NNET3_BUILD) and egs/utils (score.sh, best_wer.sh,
# int2sym.sh) on PATH for the recipe's scripts.
NNET3_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export NNET3_ROOT
export NNET3_BUILD=${NNET3_BUILD:-$NNET3_ROOT/build}
export PATH=$NNET3_BUILD/bin:$NNET3_ROOT/egs/utils:$PATH
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export LC_ALL=C
