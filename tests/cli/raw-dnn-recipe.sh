#!/usr/bin/env bash
# egs/raw_dnn/local/test_train_raw_dnn.sh: this toolkit's programs driven
# stage by stage with the exact command lines of Kaldi's train_raw_dnn.py and
# compute_output.sh (egs with dense targets, LDA preconditioning, training
# iterations, combination, compute-prob, compute-output).
BIN=$1  # ($2, the test data directory, is not needed)
RECIPE=$(cd "$(dirname "$0")/../../egs/raw_dnn" && pwd)
. "$(dirname "$0")/lib.sh"

if ! bash "$RECIPE/local/test_train_raw_dnn.sh" "$TMP/work" > run.log 2>&1; then
  fail "egs/raw_dnn/local/test_train_raw_dnn.sh failed"; tail -20 run.log | sed 's/^/  /'
fi
finish
