# shellcheck shell=bash
# path.sh: puts the toolkit's programs (from scripts/setup.sh's build/, or
# the build directory in $NNET3_BUILD) and the recipe's utils/ on PATH.
NNET3_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export NNET3_ROOT
export NNET3_BUILD=${NNET3_BUILD:-$NNET3_ROOT/build}
export PATH=$PWD/utils:$NNET3_BUILD/bin:$PATH
# Parallelism comes from running jobs side by side (--num-jobs, --nj), so
# each program uses one BLAS thread.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export LC_ALL=C
# Debian's python3 (with python3-numpy) for the data preparation.
if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
export PYTHON
