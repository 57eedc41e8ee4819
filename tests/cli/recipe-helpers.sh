#!/usr/bin/env bash
# The small Kaldi programs that Kaldi's recipe scripts call around the nnet3
# ones: cuda-compiled, feat-to-dim, feat-to-len, compute-cmvn-stats,
# apply-cmvn, matrix-sum-rows, vector-sum; and --use-gpu in a build without
# the CUDA backend. Golden files: tests/data/recipes (make-golden.py).
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"
G=$DATA/recipes

# ---- cuda-compiled: 0 with the CUDA backend, 1 without ----
cuda-compiled; status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
  fail "cuda-compiled: exit status $status, expected 0 or 1"
fi
expect_ok cuda-compiled-usage "cuda-compiled --help 2>&1 | grep -q 'Usage: cuda-compiled'"

# ---- --use-gpu: without the CUDA backend, yes/wait/optional run on the CPU
# with one warning (Kaldi's scripts pass --use-gpu=yes) ----
expect_ok feats "copy-feats ark,t:$G/feats.txt ark,scp:feats.ark,feats.scp"
expect_ok targets "copy-matrix ark,t:$G/targets.txt ark,scp:targets.ark,targets.scp"
cat > id.config <<'CFG'
input-node name=input dim=3
component name=scale type=FixedScaleComponent dim=3 scale=2.0
component-node name=scale component=scale input=input
output-node name=output input=scale objective=quadratic
CFG
expect_ok id-init "nnet3-init id.config id.raw"
if [ "$status" -eq 1 ]; then
  for v in yes wait optional; do
    expect_ok "use-gpu-$v" "nnet3-compute --use-gpu=$v id.raw scp:feats.scp ark,t:out.$v.txt 2> err.$v"
    n=$(grep -c "WARNING.*--use-gpu=$v: this build has no CUDA backend; running on the CPU" err.$v)
    [ "$n" -eq 1 ] || fail "use-gpu-$v: expected one warning, got $n"
    cmp -s out.$v.txt out.yes.txt || fail "use-gpu-$v: output differs from --use-gpu=yes"
  done
  expect_ok use-gpu-no "nnet3-compute --use-gpu=no id.raw scp:feats.scp ark,t:out.no.txt 2> err.no"
  grep -q "WARNING" err.no && fail "use-gpu-no: unexpected warning"
  cmp -s out.no.txt out.yes.txt || fail "use-gpu-no: output differs"
fi
expect_error use-gpu-bad "--use-gpu=maybe: invalid value" \
  "nnet3-compute --use-gpu=maybe id.raw scp:feats.scp ark:/dev/null"

# ---- feat-to-dim / feat-to-len ----
[ "$(feat-to-dim --print-args=false scp:feats.scp - 2> /dev/null)" = 3 ] ||
  fail "feat-to-dim: expected 3"
[ "$(feat-to-dim --print-args=false scp:targets.scp - 2> /dev/null)" = 3 ] ||
  fail "feat-to-dim targets: expected 3"
expect_ok feat-to-dim-table "feat-to-dim scp:feats.scp ark,t:dims.txt"
[ "$(awk '{print $1, $2}' dims.txt | tr '\n' ' ')" = "utt1 3 utt2 3 " ] || fail "feat-to-dim table: $(cat dims.txt)"
[ "$(feat-to-len scp:feats.scp 2> /dev/null)" = 10 ] || fail "feat-to-len total: expected 10"
expect_ok feat-to-len-table "feat-to-len scp:feats.scp ark,t:lens.txt"
[ "$(awk '{print $1, $2}' lens.txt | tr '\n' ' ')" = "utt1 4 utt2 6 " ] || fail "feat-to-len table: $(cat lens.txt)"
expect_error feat-to-dim-empty "Could not read any features" \
  "feat-to-dim ark:/dev/null -"
expect_error feat-to-dim-missing "no-such" "feat-to-dim scp:no-such.scp -"

# ---- compute-cmvn-stats (golden: double sums of float products) ----
expect_ok cmvn-spk "compute-cmvn-stats --spk2utt=ark:$G/spk2utt scp:feats.scp ark:cmvn.ark"
same_file cmvn-spk-golden cmvn.ark "$G/cmvn.ark"
expect_ok cmvn-global "compute-cmvn-stats scp:feats.scp cmvn-global.mat"
same_file cmvn-global-golden cmvn-global.mat "$G/cmvn-global.mat"
expect_ok cmvn-utt "compute-cmvn-stats scp:feats.scp ark,t:cmvn-utt.txt"
[ "$(grep -c '\[' cmvn-utt.txt)" = 2 ] || fail "cmvn per utterance: expected 2 entries"
expect_error cmvn-spk2utt-file "not compatible with wxfilename" \
  "compute-cmvn-stats --spk2utt=ark:$G/spk2utt scp:feats.scp out.mat"

# ---- apply-cmvn (golden: float arithmetic as Kaldi's) ----
expect_ok apply-cmvn "apply-cmvn --utt2spk=ark:$G/utt2spk ark:$G/cmvn.ark scp:feats.scp ark:applied.ark"
same_file apply-cmvn-golden applied.ark "$G/cmvn-applied.ark"
expect_ok apply-cmvn-global "apply-cmvn $G/cmvn-global.mat scp:feats.scp ark,t:applied-global.txt"
# Per-utterance stats with variance normalization: each utterance then has
# zero mean and unit variance in every dimension.
expect_ok apply-cmvn-vars "apply-cmvn --norm-vars=true ark,t:cmvn-utt.txt scp:feats.scp ark:- | compute-cmvn-stats ark:- ark,t:check.txt"
python3 - check.txt <<'PY' || fail "apply-cmvn --norm-vars: not zero-mean, unit-variance"
import re, sys
for block in open(sys.argv[1]).read().split(']')[:-1]:
    nums = [float(v) for v in re.findall(r'[-0-9.e+]+', block.split('[')[1])]
    dim = len(nums) // 2 - 1
    count = nums[dim]
    for d in range(dim):
        assert abs(nums[d] / count) < 1e-5, nums
        assert abs(nums[dim + 1 + d] / count - 1) < 1e-4, nums
PY
expect_ok apply-cmvn-reverse "apply-cmvn --reverse=true --utt2spk=ark:$G/utt2spk ark:$G/cmvn.ark ark:applied.ark ark,t:reversed.txt"
expect_ok reverse-check "copy-feats scp:feats.scp ark,t:orig.txt"
python3 - orig.txt reversed.txt <<'PY' || fail "apply-cmvn --reverse does not undo apply-cmvn"
import re, sys
a, b = (re.findall(r'[-0-9.e+]+(?=\s)', open(f).read()) for f in sys.argv[1:])
assert len(a) == len(b) and all(abs(float(x) - float(y)) < 1e-5 for x, y in zip(a, b))
PY
expect_ok apply-cmvn-skip "apply-cmvn --skip-dims=1 --utt2spk=ark:$G/utt2spk ark:$G/cmvn.ark scp:feats.scp ark,t:skip.txt"
[ "$(sed -n 2p skip.txt | awk '{print $2}')" = 2 ] || fail "--skip-dims=1 changed dimension 1: $(sed -n 2p skip.txt)"
expect_error apply-cmvn-dim "Dim mismatch: cmvn 2x4, feats 1x2" \
  "echo 'u [ 1 2 ]' | apply-cmvn ark:$G/cmvn.ark ark,t:- ark:/dev/null 2>&1 >/dev/null | grep -q 'No normalization' && echo 'u [ 1 2 ]' | apply-cmvn $G/cmvn-global.mat ark,t:- ark:/dev/null"
expect_error apply-cmvn-vars-only "cannot normalize the variance but not the mean" \
  "apply-cmvn --norm-means=false --norm-vars=true $G/cmvn-global.mat scp:feats.scp ark:/dev/null"
expect_error apply-cmvn-utt2spk-file "not compatible with rxfilename" \
  "apply-cmvn --utt2spk=ark:$G/utt2spk $G/cmvn-global.mat scp:feats.scp ark:/dev/null"
expect_error apply-cmvn-skip-bad "Bad --skip-dims" \
  "apply-cmvn --skip-dims=a:b $G/cmvn-global.mat scp:feats.scp ark:/dev/null"
# A missing speaker: a warning, no output for it, failure if nothing is left.
expect_exit apply-cmvn-nospk 1 "^WARNING .*No normalization statistics available for key utt1, producing no output for this utterance$" \
  "apply-cmvn --utt2spk=ark:$G/utt2spk 'ark:echo spkB [ 1 2 3 4 ] | copy-matrix ark,t:- ark:- |' scp:feats.scp ark:/dev/null"
grep -q "^WARNING .*No normalization statistics available for key utt2," "$TMP/err" ||
  fail "apply-cmvn-nospk: no warning for utt2"
grep -q "Applied cepstral mean normalization to 0 utterances, errors on 2$" "$TMP/err" ||
  fail "apply-cmvn-nospk: no summary line"

# ---- matrix-sum-rows | vector-sum (the priors pipeline of Kaldi's scripts) ----
expect_ok sum-rows "matrix-sum-rows scp:targets.scp ark,t:rowsums.txt"
[ "$(cat rowsums.txt)" = "$(printf 'utt1  [ 1 1.5 1.5 ]\nutt2  [ 2.25 1.75 2 ]')" ] ||
  fail "matrix-sum-rows: $(cat rowsums.txt)"
expect_ok vector-sum-table "matrix-sum-rows scp:targets.scp ark:- | vector-sum --binary=false ark:- total.vec"
[ "$(cat total.vec)" = " [ 3.25 3.25 3.5 ]" ] || fail "vector-sum (table to file): $(cat total.vec)"
expect_ok vector-sum-files "vector-sum --binary=false total.vec total.vec twice.vec"
[ "$(cat twice.vec)" = " [ 6.5 6.5 7 ]" ] || fail "vector-sum (files): $(cat twice.vec)"
expect_ok vector-sum-average "matrix-sum-rows scp:targets.scp ark:- | vector-sum --average=true --binary=false ark:- avg.vec"
[ "$(cat avg.vec)" = " [ 1.625 1.625 1.75 ]" ] || fail "vector-sum --average: $(cat avg.vec)"
expect_ok vector-sum-tables "vector-sum ark,t:rowsums.txt ark,t:rowsums.txt ark,t:doubled.txt"
[ "$(head -1 doubled.txt)" = "utt1  [ 2 3 3 ]" ] || fail "vector-sum (tables): $(head -1 doubled.txt)"
expect_error vector-sum-mixed "must not be tables" \
  "vector-sum total.vec ark:rowsums.txt out.vec"
# Nothing read: exit 1 after the summary line (as Kaldi's).
expect_exit sum-rows-empty 1 "^LOG .*Summed rows 0 matrices, 0 rows in total.$" "matrix-sum-rows ark:/dev/null ark:/dev/null"

finish
