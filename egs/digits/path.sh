# shellcheck shell=bash
# path.sh: puts the toolkit's programs (from scripts/setup.sh's build/, or
# the build directory in $NNET3_BUILD), egs/utils (prepare_lang.sh,
# mkgraph.sh, score.sh ...) and the recipe's utils/ on PATH. $NNET3_ROOT
# (the repository) may be given, for a copy of the recipe made elsewhere.
if [ -z "${NNET3_ROOT:-}" ]; then
  NNET3_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fi
export NNET3_ROOT
export NNET3_BUILD=${NNET3_BUILD:-$NNET3_ROOT/build}
export PATH=$PWD/utils:$NNET3_ROOT/egs/utils:$NNET3_BUILD/bin:$PATH
# Parallelism comes from running jobs side by side (--nj), so each program
# uses one BLAS thread.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export LC_ALL=C
# Debian's python3 (with python3-numpy) for the data preparation.
if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
export PYTHON
