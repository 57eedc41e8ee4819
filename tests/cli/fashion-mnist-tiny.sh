#!/usr/bin/env bash
# The Fashion-MNIST recipe (egs/fashion_mnist) in its tiny version: 400
# training images, one iteration of two parallel jobs, every model (the
# default ones and --models cnn-tdnn tdnnf), on a copy
# of the recipe in a temporary directory. Checks the results line of each
# model, the per-job and diagnostics logs, the plots, and utils/run.pl.
# Needs the data set package (scripts/setup.sh installs it; see need in lib.sh).
BIN=$1  # ($2, the test data directory, is not needed)
RECIPE=$(cd "$(dirname "$0")/../../egs/fashion_mnist" && pwd)
. "$(dirname "$0")/lib.sh"

need dataset-fashion-mnist '[ -d /usr/share/datasets/fashion-mnist ]'
need gnuplot-nox 'command -v gnuplot'

cp -r "$RECIPE" recipe && rm -rf recipe/data recipe/exp
cd recipe || exit 99
export NNET3_BUILD
NNET3_BUILD=$(dirname "$BIN")
# Every model: the default ones and the CNN-TDNN and TDNN-F.
if ! ./run.sh --tiny true --models "mlp tdnn mlp-adam tdnn-lstm cnn-tdnn tdnnf" \
     > "$TMP/run.log" 2>&1; then
  fail "run.sh --tiny true failed"; tail -20 "$TMP/run.log" | sed 's/^/  /'
fi
# Accuracy on the 200 test images must be clearly better than chance (10
# classes: 0.10, with a standard deviation of 0.021 over 200 images). The
# tiny run is deterministic and gets 0.715 (mlp), 0.675 (tdnn), 0.670
# (cnn-tdnn) and 0.680 (tdnnf); 0.5 is
# far above anything an untrained or broken model reaches (~0.1) and leaves
# room for small numeric differences between machines.
# The TDNN-LSTM sees each image in chunks of 14 rows and is scored on the
# last row only, so its tiny run is weaker (0.310); its bound is 0.2, still
# almost 5 standard deviations above chance.
# Each line also has the training time (stage 3) of the model.
for m in mlp tdnn tdnn-lstm cnn-tdnn tdnnf; do
  min_accuracy=0.5
  [ $m = tdnn-lstm ] && min_accuracy=0.2
  acc=$(sed -n "s/^$m test-accuracy \([01]\.[0-9]*\) training-time [0-9]*s$/\1/p" \
    exp/results.txt 2> /dev/null)
  if [ -z "$acc" ]; then
    fail "$m: no '$m test-accuracy <value> training-time <N>s' line in exp/results.txt"
  elif ! awk -v a="$acc" -v m="$min_accuracy" 'BEGIN { exit !(a >= m) }'; then
    fail "$m: test accuracy $acc is below $min_accuracy (chance is 0.10)"
  fi
  grep -Eq "^$m test-accuracy" "$TMP/run.log" || fail "$m: accuracy not printed"
  for f in final.raw log/train.0.1.log log/train.0.2.log log/average.0.log \
           log/compute_prob_valid.0.log log/compute_prob_train.final.log progress.png; do
    [ -s exp/$m/$f ] || fail "$m: no exp/$m/$f"
  done
  grep -q "Overall accuracy for 'output' is" exp/$m/log/compute_prob_valid.final.log ||
    fail "$m: no accuracy in compute_prob_valid.final.log"
  # One output row per test image.
  n=$(cat exp/$m/decode_test/output.*.ark | grep -c '\]$')
  [ "$n" -eq 200 ] || fail "$m: $n output rows for 200 test images"
done
# The MLP trained with Adam (nnet3-train --optimizer=adam) and the NetBuilder
# example (stage 6, local/builder_mlp: two epochs of two minibatches). The
# tiny run gets 0.730 (mlp-adam) and 0.56 (mlp-builder): bounds 0.5 and
# 0.4, 19 and 14 standard deviations above chance.
accuracy_at_least() {  # accuracy_at_least MODEL MIN LINE-REST-REGEX
  local acc
  acc=$(sed -n "s/^$1 test-accuracy \([01]\.[0-9]*\)$3$/\1/p" exp/results.txt 2> /dev/null)
  if [ -z "$acc" ]; then
    fail "$1: no '$1 test-accuracy <value>' line of the expected form in exp/results.txt"
  elif ! awk -v a="$acc" -v m="$2" 'BEGIN { exit !(a >= m) }'; then
    fail "$1: test accuracy $acc is below $2 (chance is 0.10)"
  fi
}
accuracy_at_least mlp-adam 0.5 ' training-time [0-9]*s'
accuracy_at_least mlp-builder 0.4 ''
grep -q "epoch 1: average loss" exp/mlp-builder/train.log 2> /dev/null ||
  fail "mlp-builder: no loss line in exp/mlp-builder/train.log"
grep -q "Overall average objective function for 'output'" exp/tdnn/log/train.0.1.log ||
  fail "no objective in the tdnn training log"
# The TDNN-LSTM: derivative truncation in training, looped inference.
grep -q -- '--optimization.min-deriv-time=-10' exp/tdnn-lstm/log/train.0.1.log ||
  fail "tdnn-lstm: training without derivative truncation"
grep -q 'seconds in looped compilation' exp/tdnn-lstm/decode_test/log/compute.1.log ||
  fail "tdnn-lstm: the test set was not computed with --looped=true"

# The job launcher: per-job logs, JOB substitution, failure reporting.
expect_ok run-pl "utils/run.pl JOB=1:3 l/a.JOB.log echo job JOB && grep -q 'job 2' l/a.2.log && grep -q '^# Ended (code 0)' l/a.3.log"
expect_ok run-pl-fail "! utils/run.pl JOB=1:2 l/b.JOB.log test JOB -eq 1 2> err && grep -q '1 / 2 failed' err && grep -q '^# Ended (code 1)' l/b.2.log"
finish
