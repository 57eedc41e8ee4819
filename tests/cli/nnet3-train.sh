#!/usr/bin/env bash
# nnet3-train end to end on generated data: features + posteriors ->
# nnet3-get-egs -> nnet3-shuffle-egs -> nnet3-merge-egs -> nnet3-train, three
# iterations on a small spliced MLP, with nnet3-compute-prob showing the
# objective improving; determinism (same command, same model); the log
# lines; nnet3-average; nnet3-show-progress; and bad input (egs of another
# feature dimension, an empty archive, no supervision weight).
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"

# gen_data DIM NUM_UTTS PREFIX: PREFIX.feats.txt (N(0,1) features) and
# PREFIX.post.txt (labels: the argmax of a fixed linear map of the frame),
# seed 5.
gen_data() {
  python3 - "$@" <<'PY'
import random, sys
dim, num_utts, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
random.seed(5)
ncls = 5
w = [[random.gauss(0, 1) for _ in range(dim)] for _ in range(ncls)]
with open(prefix + '.feats.txt', 'w') as feats, open(prefix + '.post.txt', 'w') as post:
    for u in range(num_utts):
        rows, labels = [], []
        for t in range(40 + u % 7):
            x = [random.gauss(0, 1) for _ in range(dim)]
            s = [sum(a * b for a, b in zip(wr, x)) for wr in w]
            labels.append(max(range(ncls), key=lambda c: s[c]))
            rows.append(' '.join('%.4f' % v for v in x))
        feats.write('utt%d  [\n  %s ]\n' % (u, '\n  '.join(rows)))
        post.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % l for l in labels)))
PY
}

cat > mlp.config <<'EOF'
input-node name=input dim=10
component name=affine1 type=NaturalGradientAffineComponent input-dim=30 output-dim=32 max-change=0.75 learning-rate=0.002
component-node name=affine1 component=affine1 input=Append(Offset(input,-1),input,Offset(input,1))
component name=relu1 type=RectifiedLinearComponent dim=32
component-node name=relu1 component=relu1 input=affine1
component name=final_affine type=NaturalGradientAffineComponent input-dim=32 output-dim=5 param-stddev=0.0 bias-stddev=0.0 max-change=1.5 learning-rate=0.002
component-node name=final_affine component=final_affine input=relu1
component name=final_log_softmax type=LogSoftmaxComponent dim=5
component-node name=final_log_softmax component=final_log_softmax input=final_affine
output-node name=output input=final_log_softmax objective=linear
EOF

gen_data 10 30 train
expect_ok data "copy-feats ark,t:train.feats.txt ark:feats.ark"
expect_ok init "nnet3-init --srand=1 mlp.config 0.raw"
expect_ok get-egs "nnet3-get-egs --num-pdfs=5 --left-context=1 --right-context=1 ark:feats.ark ark,t:train.post.txt ark:egs.ark"
expect_ok valid-egs "nnet3-merge-egs --minibatch-size=1:256 ark:egs.ark ark:valid.ark"

# objf MODEL: the log-likelihood that nnet3-compute-prob prints.
objf() {
  nnet3-compute-prob "$1" ark:valid.ark 2>&1 |
    sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p"
}
train_cmd() {  # train_cmd ITER OUT
  echo "nnet3-shuffle-egs --srand=$1 ark:egs.ark ark:- | nnet3-merge-egs --minibatch-size=64 ark:- ark:- | nnet3-train --srand=$1 $1.raw ark:- $2"
}

prev=$(objf 0.raw)
echo "iteration 0: valid objf $prev"
[ -n "$prev" ] || fail "no objective from nnet3-compute-prob 0.raw"
for iter in 0 1 2; do
  next=$((iter + 1))
  expect_ok "train-$iter" "$(train_cmd $iter $next.raw) 2> train.$iter.log"
  cur=$(objf $next.raw)
  echo "iteration $next: valid objf $cur ($(grep -o 'log-prob-per-frame=.*' train.$iter.log))"
  python3 -c "import sys; sys.exit(0 if float('$cur') > float('$prev') + 0.01 else 1)" ||
    fail "iteration $next: objective $cur did not improve on $prev"
  prev=$cur
done

# The log lines scripts parse, and no progress display off a terminal.
# (Frames are weights: nnet3-get-egs --num-frames=1 gives, as Kaldi's, some
# utterances an extra chunk overlapping the first, both weighted 0.5.)
grep -q "Overall average objective function for 'output' is -[0-9.e]* over [0-9.]* frames." train.0.log ||
  fail "train log: no 'Overall average objective function' line"
grep -q "^LOG (nnet3-train.*\[this line is to be parsed by a script:\] log-prob-per-frame=-" train.0.log ||
  fail "train log: no log-prob-per-frame line"
grep -q $'\r' train.0.log && fail "train log: progress line written to a non-terminal"
expect_ok phases "nnet3-merge-egs --minibatch-size=32 ark:egs.ark ark:- | nnet3-train --print-interval=10 0.raw ark:- phases.raw 2> phases.log"
grep -q "Average objective function for 'output' for minibatches 0-9 is -[0-9.e]* over 3[0-2][0-9]\(\.5\)\? frames." phases.log ||
  fail "--print-interval=10: no phase line for minibatches 0-9"
# Accuracy after 3 iterations: 0.747 here. The most frequent of the 5
# classes is 31% of the frames (the untrained model scores 0.288), so
# 0.6 is far above what a model that learned nothing reaches.
acc=$(nnet3-compute-prob 3.raw ark:valid.ark 2>&1 |
  sed -n "s/.*Overall accuracy for 'output' is \([0-9.e-]*\) per frame, over 1285 frames.$/\1/p")
echo "accuracy after 3 iterations: $acc"
awk -v a="${acc:-0}" 'BEGIN { exit !(a >= 0.6 && a <= 1) }' ||
  fail "accuracy: '$acc' (want >= 0.6 over 1285 frames)"

# Determinism: the same command again gives the same bytes.
expect_ok retrain "$(train_cmd 0 1b.raw) 2> /dev/null"
same_file determinism 1.raw 1b.raw

# Component stats as Kaldi stores them after training: log-softmax keeps
# output-derivative stats only (<ValueAvg> [ ], <Count> 0); ReLU value
# stats are stored on the first minibatch and about half of the others, so
# its count is below the frames trained on (the train log's total).
expect_ok stats-text "nnet3-copy --binary=false 1.raw 1.txt"
python3 - <<'PY' || fail "component stats after nnet3-train are not Kaldi's"
import re
text = open('1.txt').read()
frames = float(re.search(r"Overall average objective function for 'output' is \S+ over ([0-9.]+) frames",
                       open('train.0.log').read()).group(1))
ls = re.search(r'<LogSoftmaxComponent>(.*?)</LogSoftmaxComponent>', text, re.S).group(1)
assert re.search(r'<ValueAvg>\s*\[\s*\]', ls), ls
assert re.search(r'<Count> 0 ', ls), ls
assert float(re.search(r'<OderivCount> (\S+)', ls).group(1)) > 0, ls
relu = re.search(r'<RectifiedLinearComponent>(.*?)</RectifiedLinearComponent>', text, re.S).group(1)
count = float(re.search(r'<Count> (\S+)', relu).group(1))
assert 64 <= count < frames, (count, frames)
PY

# nnet3-average: the mean of the parameters; a model averaged with itself is
# itself.
expect_ok average "nnet3-average 2.raw 3.raw avg.raw"
expect_ok average-self "nnet3-average 3.raw 3.raw self.raw"
same_file average-self 3.raw self.raw
expect_ok average-weights "nnet3-average --weights=1:3 --binary=false 2.raw 3.raw wavg.txt"
for m in 2 3 avg; do nnet3-copy --binary=false $m.raw $m.txt 2> /dev/null; done
python3 - <<'PY' || fail "nnet3-average: parameters are not the (weighted) means"
import re, sys
def params(path):
    text = open(path).read()
    return [float(v) for blk in re.findall(r'<(?:LinearParams|BiasParams)>\s*\[([^\]]*)\]', text)
            for v in blk.split()]
a, b, avg, wavg = params('2.txt'), params('3.txt'), params('avg.txt'), params('wavg.txt')
assert len(a) == len(b) == len(avg) == len(wavg) > 0
for x, y, m, w in zip(a, b, avg, wavg):
    assert abs(m - 0.5 * (x + y)) <= 1e-5 * (1 + abs(m)), (x, y, m)
    assert abs(w - (0.25 * x + 0.75 * y)) <= 1e-5 * (1 + abs(w)), (x, y, w)
PY
expect_error average-bad-weights "--weights option must be a colon-separated list with 2 elements" \
  "nnet3-average --weights=1:2:3 2.raw 3.raw x.raw"
# --num-threads: the models are read by that many threads (Kaldi's rule caps
# it at half the number of models); the mean is the same up to rounding.
expect_ok average-threads "nnet3-average --verbose=1 --num-threads=2 --binary=false 2.raw 3.raw 3.raw 2.raw avg4.txt"
grep -q "Reading 4 models with 2 thread(s)" "$TMP/err" || fail "nnet3-average --num-threads=2 did not use 2 threads"
expect_ok average-threads-capped "nnet3-average --verbose=1 --num-threads=8 2.raw 3.raw /dev/null"
grep -q "Reading 2 models with 1 thread(s)" "$TMP/err" || fail "nnet3-average --num-threads=8 with 2 models should use 1 thread"
nnet3-copy --binary=false avg.raw avg.txt 2> /dev/null
python3 - <<'PY' || fail "nnet3-average --num-threads=2: not the mean"
import re
def params(path):
    text = open(path).read()
    return [float(v) for blk in re.findall(r'<(?:LinearParams|BiasParams)>\s*\[([^\]]*)\]', text)
            for v in blk.split()]
a, b = params('avg.txt'), params('avg4.txt')
assert len(a) == len(b) > 0
assert all(abs(x - y) <= 1e-5 * (1 + abs(x)) for x, y in zip(a, b))
PY

# nnet3-show-progress.
expect_ok show-progress "nnet3-show-progress 1.raw 2.raw ark:valid.ark 2> progress.log"
for pattern in "At position 0.5, objf per frame is" "Total objf change per component is \[ affine1:" \
    "Parameter differences per layer are \[ affine1:[0-9.e-]* final_affine:[0-9.e-]* \]" \
    "Norms of parameter matrices from <new-nnet-in> are \[" "Relative parameter differences per layer are \["; do
  grep -q "$pattern" progress.log || fail "nnet3-show-progress: no '$pattern'"
done

# Bad input.
gen_data 13 2 bad
expect_ok bad-data "copy-feats ark,t:bad.feats.txt ark:bad.ark && nnet3-get-egs --num-pdfs=5 --left-context=1 --right-context=1 ark:bad.ark ark,t:bad.post.txt ark:bad-egs.ark"
expect_error wrong-dim "input 'input' has dimension 13 but the network's input node 'input' has dimension 10" \
  "nnet3-train 0.raw ark:bad-egs.ark x.raw"
expect_error wrong-dim-prob "input 'input' has dimension 13 but the network's input node 'input' has dimension 10" \
  "nnet3-compute-prob 0.raw ark:bad-egs.ark"
: > empty.ark
expect_error empty "No examples were read from 'ark:empty.ark'" "nnet3-train 0.raw ark:empty.ark x.raw"
[ -e x.raw ] && fail "a model was written although no examples were read"
expect_error empty-prob "No examples were read" "nnet3-compute-prob 0.raw ark:empty.ark"
# Supervision of zero weight (empty posterior rows): a warning, the model
# written, exit status 1 (as Kaldi).
python3 -c "print('utt0 ' + ' '.join(['[ ]'] * 40))" > zero.post.txt
expect_ok zero-egs "nnet3-get-egs --num-pdfs=5 --left-context=1 --right-context=1 ark:feats.ark ark,t:zero.post.txt ark:zero-egs.ark 2> /dev/null"
nnet3-train 0.raw ark:zero-egs.ark zero.raw 2> zero.log; status=$?
[ $status -eq 1 ] && [ -s zero.raw ] && grep -q "^WARNING.*total weight of the supervision was zero" zero.log ||
  fail "zero-weight supervision: expected a warning, a model and status 1, got status $status"
nnet3-train 0.raw ark:egs.ark 2> usage.txt; status=$?
[ $status -eq 1 ] && grep -q "^Usage:  nnet3-train" usage.txt ||
  fail "two arguments: expected the usage and status 1, got status $status"
finish
