#!/usr/bin/env bash
# The egs programs of Kaldi's raw-DNN scripts: nnet3-get-egs-dense-targets
# (golden egs from tests/data/recipes/make-golden.py), nnet3-compute-from-egs,
# nnet3-copy-egs --outputs / --weights (multitask egs) and
# nnet3-egs-augment-image; each with bad input.
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"
G=$DATA/recipes

# ---- nnet3-get-egs-dense-targets ----
DENSE="nnet3-get-egs-dense-targets --compress=false --left-context=1 --right-context=1 --num-frames=2"
expect_ok dense "$DENSE --num-targets=3 ark,t:$G/feats.txt ark,t:$G/targets.txt ark:dense.egs"
same_file dense-golden dense.egs "$G/dense.egs"
expect_ok dense-text "$DENSE ark,t:$G/feats.txt ark,t:$G/targets.txt ark,t:dense.egs.txt"
same_file dense-golden-text dense.egs.txt "$G/dense.egs.txt"
expect_ok dense-scp "copy-feats ark,t:$G/feats.txt ark,scp:feats.ark,feats.scp && copy-matrix ark,t:$G/targets.txt ark,scp:targets.ark,targets.scp && $DENSE --num-targets=3 scp:feats.scp 'scp,s,cs:cat targets.scp |' ark:dense-scp.egs"
same_file dense-scp-golden dense-scp.egs "$G/dense.egs"
# Compressed by default (input and targets), as Kaldi.
expect_ok dense-compressed "nnet3-get-egs-dense-targets --left-context=1 --right-context=1 --num-frames=2 scp:feats.scp scp:targets.scp ark:dense-c.egs"
[ "$(grep -c 'CM' dense-c.egs)" -ge 1 ] || fail "dense-compressed: no compressed matrix in the egs"
expect_error dense-num-targets "utt1.*3 columns but --num-targets=4" \
  "$DENSE --num-targets=4 scp:feats.scp scp:targets.scp ark:/dev/null"
# Targets 3 frames shorter than the features (tolerance 2) and missing
# targets: both utterances skipped with a warning, exit status 1.
echo 'utt1 [ 1 0 0 ]' > short.txt
expect_exit dense-nothing 1 "WARNING .*Supervision does not have expected length for utterance utt1: expected length = 4, got 1" \
  "$DENSE ark,t:$G/feats.txt 'ark:copy-matrix ark,t:short.txt ark:- |' ark:/dev/null"
grep -q 'WARNING .*No target matrix for key utt2$' "$TMP/err" || fail "dense-nothing: no warning for utt2"
grep -q 'successfully processed 0 feature files, wrote 0 examples, 2 files had errors' "$TMP/err" ||
  fail "dense-nothing: no summary line"
# Two arguments: the usage text, exit 1 (as Kaldi's).
expect_exit dense-usage 1 "^Usage: +nnet3-get-egs-dense-targets " "$DENSE ark:a ark:b"

# ---- nnet3-compute-from-egs: a network that doubles its input ----
cat > double.config <<'CFG'
input-node name=input dim=3
component name=scale type=FixedScaleComponent dim=3 scale=2.0
component-node name=scale component=scale input=input
output-node name=output input=scale objective=quadratic
CFG
expect_ok double-init "nnet3-init double.config double.raw"
expect_ok from-egs "nnet3-compute-from-egs double.raw ark:dense.egs ark,t:from-egs.txt"
# utt1-0's output rows are 2 x the features of frames 0 and 1.
[ "$(sed -n 2,3p from-egs.txt | tr -s ' ' | tr '\n' '|')" = " 2 4 1 | 3 -2 4 ]|" ] ||
  fail "nnet3-compute-from-egs: $(sed -n 1,3p from-egs.txt)"
[ "$(grep -c '\]' from-egs.txt)" = 5 ] || fail "nnet3-compute-from-egs: expected 5 matrices"
expect_ok from-egs-exp "nnet3-compute-from-egs --apply-exp=true double.raw ark:dense.egs ark:- | matrix-sum-rows ark:- ark,t:sums.txt"
python3 - sums.txt <<'PY' || fail "nnet3-compute-from-egs --apply-exp: wrong sums"
import math, re, sys
first = [float(v) for v in re.findall(r'[-0-9.e+]+', open(sys.argv[1]).readline().split('[')[1])]
want = [math.exp(2) + math.exp(3), math.exp(4) + math.exp(-2), math.exp(1) + math.exp(4)]
assert all(abs(a - b) < 1e-4 * b for a, b in zip(first, want)), first
PY
expect_error from-egs-output-name "no output node named 'foo'" \
  "nnet3-compute-from-egs --output-name=foo double.raw ark:dense.egs ark:/dev/null"
expect_error from-egs-dim "input 'input' has dimension 3 but the network's input node 'input' has dimension 4" \
  "sed 's/dim=3/dim=4/g' double.config > d4.config && nnet3-init d4.config d4.raw && nnet3-compute-from-egs d4.raw ark:dense.egs ark:/dev/null"

# ---- nnet3-copy-egs --outputs / --weights ----
printf 'utt1-0 output-a\nutt1-2 output-b\nutt2-0 output-a\nutt2-2 output-b\nutt2-4 output-a\n' > outputs.txt
printf 'utt1-0 0.5\nutt1-2 2\nutt2-0 1\nutt2-2 1\nutt2-4 0.25\n' > weights.txt
expect_ok multitask "nnet3-copy-egs --outputs=ark:outputs.txt --weights=ark:weights.txt ark:dense.egs ark,t:multi.txt"
[ "$(grep -o '<NnetIo> output[-a-z]*' multi.txt | tr '\n' ' ')" = \
  "<NnetIo> output-a <NnetIo> output-b <NnetIo> output-a <NnetIo> output-b <NnetIo> output-a " ] ||
  fail "--outputs: $(grep -o '<NnetIo> output[-a-z]*' multi.txt | tr '\n' ' ')"
# utt1-0's targets [1 0 0; 0 1 0] scaled by 0.5; utt1-2's [0 .5 .5; 0 0 1] by 2.
[ "$(grep -A2 'output-a' multi.txt | sed -n 2,3p | tr -s ' ' | tr '\n' '|')" = " 0.5 0 0 | 0 0.5 0 ]|" ] ||
  fail "--weights 0.5: $(grep -A2 'output-a' multi.txt | head -3)"
[ "$(grep -A2 'output-b' multi.txt | sed -n 2,3p | tr -s ' ' | tr '\n' '|')" = " 0 1 1 | 0 0 2 ]|" ] ||
  fail "--weights 2: $(grep -A2 'output-b' multi.txt | head -3)"
# With --frame the renaming comes after the selection.
expect_ok multitask-frame "nnet3-copy-egs --frame=1 --outputs=ark:outputs.txt ark:dense.egs ark,t:multi-frame.txt"
[ "$(grep -c '<NnetIo> output-[ab] <I1V> 1 <I1> 0 1 0' multi-frame.txt)" = 5 ] ||
  fail "--frame=1 --outputs: $(grep -o '<NnetIo> output[^[]*' multi-frame.txt | head -2)"
# A key missing from --outputs: a warning, that eg dropped.
expect_ok multitask-missing "sed 1d outputs.txt > outputs4.txt && nnet3-copy-egs --outputs=ark:outputs4.txt ark:dense.egs ark,t:multi4.txt 2> missing.log"
grep -q "WARNING.*No new output-name for example key utt1-0" missing.log || fail "--outputs: no warning for utt1-0"
[ "$(grep -c '<Nnet3Eg>' multi4.txt)" = 4 ] || fail "--outputs: expected 4 egs"
expect_error multitask-no-output "No io-node with name 'output' in the example with key utt1-0" \
  "nnet3-copy-egs --outputs=ark:outputs.txt ark,t:multi.txt ark:/dev/null"
echo 'utt1-0 abc' > bad-weights.txt
expect_error multitask-bad-weight "file 'bad-weights.txt', key 'utt1-0': Expected a number but found 'abc'" \
  "nnet3-copy-egs --weights=ark:bad-weights.txt ark:dense.egs ark:/dev/null"

# ---- nnet3-egs-augment-image ----
AUG="nnet3-egs-augment-image --srand=3"
expect_ok aug-none "$AUG ark:dense.egs ark:aug-none.egs"
same_file aug-none-unchanged aug-none.egs dense.egs
expect_ok aug-flip "$AUG --horizontal-flip-prob=1 ark:dense.egs ark,t:aug-flip.txt"
# The input rows (x positions) come in reverse order; the output is kept.
python3 - dense.egs.txt aug-flip.txt <<'PY' || fail "--horizontal-flip-prob=1: rows not reversed"
import re, sys
def inputs(f):
    return [[r.split() for r in m.strip().split('\n')]
            for m in re.findall(r'<NnetIo> input [^\[]*\[(.*?)\]', open(f).read(), re.S)]
a, b = inputs(sys.argv[1]), inputs(sys.argv[2])
assert len(a) == 5 and all(x[::-1] == y for x, y in zip(a, b)), (a[0], b[0])
PY
# Shifts: each image is its rows shifted by a whole k, edges filled with the
# nearest row, or with the mirror image about the edge row.
# 40 copies of the 5 egs, so that both edges are crossed.
for i in $(seq 40); do cat dense.egs.txt; done > many.egs.txt
for mode in nearest reflect; do
  expect_ok "aug-shift-$mode" "$AUG --srand=7 --horizontal-shift=0.5 --fill-mode=$mode ark,t:many.egs.txt ark,t:aug-shift-$mode.txt"
  python3 - many.egs.txt aug-shift-$mode.txt $mode <<'PY' || fail "--horizontal-shift, --fill-mode=$mode: not a shift"
import re, sys
def inputs(f):
    return [[r.split() for r in m.strip().split('\n')]
            for m in re.findall(r'<NnetIo> input [^\[]*\[(.*?)\]', open(f).read(), re.S)]
def src(i, w, mode):
    if mode == 'nearest':
        return min(max(i, 0), w - 1)
    if i < 0: i = -i
    if i >= w: i = 2 * w - 2 - i
    return i
up = down = 0
for x, y in zip(inputs(sys.argv[1]), inputs(sys.argv[2])):
    w = len(x)
    ks = [k for k in range(-w, w + 1)
          if all(y[r] == x[src(r + k, w, sys.argv[3])] for r in range(w))]
    assert ks, (x, y)
    up += min(ks) > 0
    down += max(ks) < 0
assert up > 0 and down > 0, (up, down)
PY
done
expect_ok aug-rotate "$AUG --rotation-prob=1 --rotation-degree=30 --vertical-shift=0.3 ark:dense.egs ark,t:aug-rot.txt"
cmp -s aug-rot.txt dense.egs.txt && fail "--rotation-prob=1: nothing changed"
expect_error aug-fill "Choices for --fill-mode are 'nearest' or 'reflect', got: wrap" \
  "$AUG --fill-mode=wrap ark:dense.egs ark:/dev/null"
expect_error aug-prob "--rotation-prob=2 must be in \\[0, 1\\]" \
  "$AUG --rotation-prob=2 ark:dense.egs ark:/dev/null"
expect_error aug-channels "3 columns, which is not a multiple of --num-channels=2" \
  "$AUG --num-channels=2 --horizontal-flip-prob=1 ark:dense.egs ark:/dev/null"
expect_error aug-no-input "no NnetIo object named 'input'" \
  "nnet3-copy-egs ark:dense.egs ark,t:- | sed 's/<NnetIo> input/<NnetIo> image/' | $AUG ark,t:- ark:/dev/null"

finish
