#!/usr/bin/env bash
# nnet3-combine on models trained a few iterations: the combined model's
# objective on the combination egs is at least that of every input model
# (and equals what nnet3-compute-prob finds for it); the log lines Kaldi's
# scripts parse; --max-objective-evaluations; batch-norm stats recomputed on
# the egs; bad input.
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"

python3 - <<'PY'
import random
random.seed(11)
dim, ncls = 8, 4
w = [[random.gauss(0, 1) for _ in range(dim)] for _ in range(ncls)]
with open('feats.txt', 'w') as feats, open('post.txt', 'w') as post:
    for u in range(40):
        rows, labels = [], []
        for t in range(30):
            x = [random.gauss(0, 1) for _ in range(dim)]
            s = [sum(a * b for a, b in zip(wr, x)) + random.gauss(0, 1.5) for wr in w]
            labels.append(max(range(ncls), key=lambda c: s[c]))
            rows.append(' '.join('%.4f' % v for v in x))
        feats.write('utt%d  [\n  %s ]\n' % (u, '\n  '.join(rows)))
        post.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % l for l in labels)))
PY
cat > bn.config <<'CFG'
input-node name=input dim=8
component name=affine1 type=NaturalGradientAffineComponent input-dim=8 output-dim=24 max-change=0.75 learning-rate=0.02
component-node name=affine1 component=affine1 input=input
component name=relu1 type=RectifiedLinearComponent dim=24
component-node name=relu1 component=relu1 input=affine1
component name=bn1 type=BatchNormComponent dim=24
component-node name=bn1 component=bn1 input=relu1
component name=final_affine type=NaturalGradientAffineComponent input-dim=24 output-dim=4 param-stddev=0.0 bias-stddev=0.0 max-change=1.5 learning-rate=0.02
component-node name=final_affine component=final_affine input=bn1
component name=final_log_softmax type=LogSoftmaxComponent dim=4
component-node name=final_log_softmax component=final_log_softmax input=final_affine
output-node name=output input=final_log_softmax objective=linear
CFG
expect_ok data "copy-feats ark,t:feats.txt ark:feats.ark && nnet3-get-egs --num-pdfs=4 ark:feats.ark ark,t:post.txt ark:egs.ark"
expect_ok combine-egs "nnet3-subset-egs --n=300 ark:egs.ark ark:combine.egs"
expect_ok init "nnet3-init --srand=1 bn.config 0.raw"
for i in 0 1 2 3 4 5; do
  expect_ok "train-$i" "nnet3-shuffle-egs --srand=$i ark:egs.ark ark:- | nnet3-merge-egs --minibatch-size=16 ark:- ark:- | nnet3-train --srand=$i $i.raw ark:- $((i + 1)).raw"
done

# As Kaldi's combine_models: the freshest model first, minibatches of up to
# the training size (train_raw_dnn.py: nnet3-merge-egs --minibatch-size=1:512).
EGS="ark,bg:nnet3-copy-egs ark:combine.egs ark:- | nnet3-merge-egs --minibatch-size=1:64 ark:- ark:- |"
expect_ok combine "nnet3-combine --use-gpu=no --max-objective-evaluations=30 --verbose=3 6.raw 5.raw 4.raw 3.raw 2.raw '$EGS' final.raw 2> combine.log"
line=$(grep -o "Combining [0-9]* nnets, objective function changed from [-0-9.e]* to [-0-9.e]*" combine.log)
[ -n "$line" ] || fail "no 'Combining N nnets, objective function changed from X to Y' line"
echo "$line"
grep -q "objective function using the last model is" combine.log || fail "no 'using the last model' line"
[ "$(grep -c 'Combining last [2-5] models, objective function is' combine.log)" = 4 ] ||
  fail "expected 4 'Combining last n models' lines"
grep -q "Recomputing stats on nnet (affects batch-norm)" combine.log || fail "batch-norm stats not recomputed"

# objf MODEL: the objective as nnet3-combine computes it (batch-norm in
# training mode, dropout in test mode) on the same minibatches.
objf() {
  nnet3-compute-prob --batchnorm-test-mode=false --collapse-model=false "$1" "$EGS" 2>&1 |
    sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p"
}
combined=$(objf final.raw)
to=$(echo "$line" | awk '{print $NF}')
python3 -c "import sys; a, b = float('$combined'), float('$to'); sys.exit(0 if abs(a - b) <= 1e-4 * abs(b) else 1)" ||
  fail "the combined model's objective $combined is not the logged $to"
for m in 2 3 4 5 6; do
  o=$(objf $m.raw)
  echo "$m.raw: $o; combined: $combined"
  python3 -c "import sys; sys.exit(0 if float('$combined') >= float('$o') - 1e-6 else 1)" ||
    fail "combined objective $combined is below $m.raw's $o"
done
# Averaging did happen (this setup is noisy enough for it to help).
n=$(echo "$line" | awk '{print $2}')
[ "$n" -gt 1 ] || fail "the last model alone was best: nothing was averaged"

# --max-objective-evaluations=2 over 5 models: every 3rd model, and the last.
expect_ok max-evals "nnet3-combine --max-objective-evaluations=2 6.raw 5.raw 4.raw 3.raw 2.raw '$EGS' x.raw 2> evals.log"
[ "$(grep -o 'Combining last [0-9]* models' evals.log | tr '\n' ' ')" = "Combining last 4 models Combining last 5 models " ] ||
  fail "--max-objective-evaluations=2: $(grep -o 'Combining last [0-9]* models' evals.log | tr '\n' ' ')"
expect_ok max-evals-1 "nnet3-combine --max-objective-evaluations=1 6.raw 5.raw 4.raw 3.raw 2.raw '$EGS' x.raw 2> evals1.log"
[ "$(grep -c 'Combining last' evals1.log)" = 1 ] || fail "--max-objective-evaluations=1: not one evaluation"

# One model: itself, with its batch-norm stats recomputed on the 300 egs.
expect_ok single "nnet3-combine 6.raw '$EGS' single.raw 2> single.log"
grep -q "Combining 1 nnets, objective function changed from \([-0-9.e]*\) to \1\$" single.log ||
  fail "one model: $(grep 'Combining 1' single.log)"
nnet3-info single.raw 2> /dev/null | grep -q "name=bn1 type=BatchNormComponent,.* count=300," ||
  fail "one model: batch-norm count is not 300: $(nnet3-info single.raw 2> /dev/null | grep bn1)"
nnet3-info 6.raw 2> /dev/null | grep -q "name=bn1 type=BatchNormComponent,.* count=300," &&
  fail "6.raw already had count 300 (the test cannot tell)"
# The parameters are those of the input model (only stats changed).
expect_ok single-params "nnet3-copy --binary=false 6.raw 6.txt && nnet3-copy --binary=false single.raw single.txt"
python3 - 6.txt single.txt <<'PY' || fail "one model: the parameters changed"
import re, sys
a, b = (re.findall(r'<(?:LinearParams|BiasParams)>\s*\[([^\]]*)\]', open(f).read()) for f in sys.argv[1:])
assert len(a) == 4 and a == b
PY
# --batchnorm-test-mode=true evaluates with the stored stats.
expect_ok bn-test-mode "nnet3-combine --batchnorm-test-mode=true 6.raw 5.raw '$EGS' x.raw 2> bn.log"
t=$(sed -n 's/.*objective function using the last model is \([-0-9.e]*\).*/\1/p' bn.log)
t_ref=$(nnet3-compute-prob --collapse-model=false 6.raw "$EGS" 2>&1 | sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p")
[ "$t" = "$t_ref" ] || fail "--batchnorm-test-mode=true: $t, nnet3-compute-prob gives $t_ref"

# Bad input: one ERROR line, and no model written (none.raw never exists).
expect_error no-egs "No examples were read" "nnet3-combine 6.raw 5.raw ark:/dev/null none.raw"
[ -e none.raw ] && fail "no-egs: a model was written without egs"
sed 's/output-dim=24/output-dim=16/; s/dim=24/dim=16/g; s/input-dim=24/input-dim=16/' bn.config > small.config
expect_ok small "nnet3-init small.config small.raw"
expect_error mismatch "small.raw.*same structure" "nnet3-combine 6.raw small.raw '$EGS' none.raw"
[ -e none.raw ] && fail "mismatch: a model was written"
expect_error bad-evals "--max-objective-evaluations=0 must be > 0" \
  "nnet3-combine --max-objective-evaluations=0 6.raw '$EGS' none.raw"
expect_error missing-model "no-such.raw" "nnet3-combine 6.raw no-such.raw '$EGS' none.raw"
[ -e none.raw ] && fail "missing-model: a model was written"
nnet3-combine 6.raw x.raw 2> usage.txt; status=$?
[ $status -eq 1 ] && grep -q "^Usage:  nnet3-combine" usage.txt || fail "two arguments: expected the usage and status 1"

finish
