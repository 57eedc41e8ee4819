#!/usr/bin/env bash
# Acoustic models (.mdl) end to end: nnet3-am-copy, nnet3-am-info,
# nnet3-am-init and nnet3-am-adjust-priors on the golden models of
# tests/data/train (make-golden-mdl.py writes them from Kaldi's format),
# byte for byte; nnet3-compute --use-priors; raw-nnet programs given a
# .mdl (they use its network, as Kaldi's do); and bad input.
BIN=$1 DATA=$2
G=$DATA/train
. "$(dirname "$0")/lib.sh"

# nnet3-am-copy: binary <-> text, byte for byte, both topology forms.
for m in hmm chain; do
  expect_ok "copy-$m-to-text" "nnet3-am-copy --binary=false $G/$m.mdl $m.txt"
  same_file "copy-$m-to-text" $m.txt "$G/$m.mdl.txt"
  expect_ok "copy-$m-to-binary" "nnet3-am-copy $G/$m.mdl.txt $m.bin"
  same_file "copy-$m-to-binary" $m.bin "$G/$m.mdl"
done
grep -q "^LOG (nnet3-am-copy.*Copied neural net from $G/chain.mdl.txt to chain.bin$" "$TMP/err" ||
  fail "nnet3-am-copy log line: $(grep Copied "$TMP/err")"
expect_ok copy-raw "nnet3-am-copy --raw=true --binary=false $G/hmm.mdl raw.txt"
same_file copy-raw raw.txt "$G/nnet.raw.txt"
grep -q 'to raw format as raw.txt' "$TMP/err" || fail "--raw=true log line"
expect_ok copy-stdio "nnet3-am-copy $G/hmm.mdl - | nnet3-am-copy --binary=false - - > stdio.txt"
same_file copy-stdio stdio.txt "$G/hmm.mdl.txt"

# Changes to the network keep the transition model and the priors.
expect_ok copy-lr "nnet3-am-copy --binary=false --learning-rate=0.5 --scale=2 $G/hmm.mdl lr.txt"
grep -q '<LearningRate> 0.5 ' lr.txt || fail "--learning-rate not applied"
grep -q '<BiasParams>  \[ 0 0.5 1 1.5 2 2.5 \]' lr.txt || fail "--scale=2 not applied: $(grep BiasParams lr.txt)"
head -c 700 lr.txt | cmp -s - <(head -c 700 "$G/hmm.mdl.txt") || fail "transition model changed"
tail -1 lr.txt | grep -q '<Priors>  \[ 0.0625 0.125 0.25 0.3125 0.1875 0.0625 \]' || fail "priors lost"
expect_ok copy-edits "nnet3-am-copy --binary=false --edits='set-learning-rate name=affine learning-rate=0.25' $G/hmm.mdl ed.txt"
grep -q '<LearningRate> 0.25 ' ed.txt || fail "--edits not applied"
printf 'set-learning-rate name=* learning-rate=0.125\n' > edits.config
expect_ok copy-edits-config "nnet3-am-copy --binary=false --edits-config=edits.config $G/hmm.mdl edc.txt"
grep -q '<LearningRate> 0.125 ' edc.txt || fail "--edits-config not applied"
expect_ok copy-prepare "nnet3-am-copy --prepare-for-test $G/hmm.mdl test.mdl && nnet3-am-info test.mdl > /dev/null"
# --set-raw-nnet (a network of 5 outputs): the priors no longer fit and go.
cat > small.config <<'EOF'
input-node name=input dim=2
component name=affine type=AffineComponent input-dim=2 output-dim=5
component-node name=affine component=affine input=input
output-node name=output input=affine
EOF
expect_ok set-raw "nnet3-init small.config small.raw && nnet3-am-copy --binary=false --set-raw-nnet=small.raw $G/hmm.mdl set.txt"
grep -q 'Removing priors since there is a dimension mismatch' "$TMP/err" || fail "--set-raw-nnet: no warning"
tail -1 set.txt | grep -q '<LeftContext> 0 <RightContext> 0 <Priors>  \[ \]$' || fail "--set-raw-nnet: $(tail -1 set.txt)"
# --nnet-config adds a layer; the context is recomputed.
printf 'component-node name=affine component=affine input=Append(Offset(input, -3), input, Offset(input, 1))\n' > ctx.config
expect_ok nnet-config "nnet3-am-copy --binary=false --nnet-config=ctx.config $G/hmm.mdl ctx.txt"
grep -q '<LeftContext> 3 <RightContext> 1 ' ctx.txt || fail "--nnet-config: context not recomputed"

# --convert-repeated-to-block: the same outputs from BlockAffineComponents.
cat > rep.config <<'EOF'
input-node name=input dim=2
component name=rep type=RepeatedAffineComponent input-dim=6 output-dim=6 num-repeats=3
component-node name=rep component=rep input=Append(Offset(input, -1), input, Offset(input, 1))
component name=sm type=LogSoftmaxComponent dim=6
component-node name=sm component=sm input=rep
output-node name=output input=sm
EOF
printf 'u1  [\n  0.5 -1\n  1 0.25\n  -0.5 2 ]\n' > rep-feats.txt
expect_ok convert-repeated "nnet3-init rep.config rep.raw && nnet3-am-init $G/hmm.mdl rep.raw rep.mdl && nnet3-am-copy --binary=false --convert-repeated-to-block rep.mdl block.txt && copy-feats ark,t:rep-feats.txt ark:rep-feats.ark && nnet3-compute rep.mdl ark:rep-feats.ark ark,t:rep-out.txt && nnet3-compute block.txt ark:rep-feats.ark ark,t:block-out.txt"
grep -q '<BlockAffineComponent>' block.txt && ! grep -q 'RepeatedAffineComponent' block.txt ||
  fail "--convert-repeated-to-block did not convert"
python3 - <<'PY' || fail "--convert-repeated-to-block changed the outputs"
def values(path):
    body = open(path).read().split('[', 1)[1].split(']', 1)[0]
    return [float(v) for v in body.split()]
a, b = values('rep-out.txt'), values('block-out.txt')
assert len(a) == len(b) == 18 and all(abs(x - y) < 1e-5 for x, y in zip(a, b)), (a, b)
PY

# nnet3-am-info: Kaldi's summary, then nnet3-info's.
expect_ok info "nnet3-am-info $G/hmm.mdl > info.txt"
printf 'input-dim: 2\nivector-dim: -1\nnum-pdfs: 6\nprior-dimension: 6\nprior-sum: 1\nprior-min: 0.0625\nprior-max: 0.3125\n# Nnet info follows.\nleft-context: 1\nright-context: 1\n' > info-head.txt
head -10 info.txt | cmp -s - info-head.txt || fail "nnet3-am-info: $(head -10 info.txt | tr '\n' '|')"
expect_ok info-chain "nnet3-am-info $G/chain.mdl.txt > chain-info.txt"
grep -qx 'prior-dimension: 0' chain-info.txt || fail "nnet3-am-info without priors"
grep -q 'prior-sum' chain-info.txt && fail "nnet3-am-info printed prior-sum without priors"

# nnet3-am-init: the transition model from the front of a GMM model.
expect_ok init "nnet3-am-init --binary=false $G/gmm-front.mdl $G/nnet.raw.txt init.txt"
same_file init init.txt "$G/hmm-noprior.mdl.txt"
expect_ok init-from-mdl "nnet3-am-init --binary=false $G/hmm.mdl $G/hmm.mdl init2.txt"
same_file init-from-mdl init2.txt "$G/hmm-noprior.mdl.txt"
expect_ok init-mismatch "nnet3-am-init $G/gmm-front.mdl small.raw mismatch.mdl"
grep -q "output dimension 5 differs from the transition model's number of pdfs 6" "$TMP/err" ||
  fail "nnet3-am-init: no warning for 5 outputs and 6 pdfs"

# nnet3-am-adjust-priors: normalized sums; Kaldi's log lines.
printf ' [ 1 2 3 4 5 5 ]\n' > post.vec
expect_ok adjust "nnet3-am-adjust-priors --binary=false $G/hmm.mdl post.vec adj.txt"
tail -1 adj.txt | grep -q '<Priors>  \[ 0.05 0.1 0.15 0.2 0.25 0.25 \]$' || fail "adjusted priors: $(tail -1 adj.txt)"
grep -q 'Adjusting priors: largest absolute difference was for pdf 5, 0.0625 -> 0.25$' "$TMP/err" ||
  fail "adjust log: $(grep largest "$TMP/err")"
grep -q 'Adjusting priors: K-L divergence from old to new is 0.1684' "$TMP/err" ||
  fail "adjust log: $(grep K-L "$TMP/err")"
expect_ok adjust-none "nnet3-am-adjust-priors $G/chain.mdl post.vec adj2.mdl"
grep -q 'Model did not previously have priors attached.' "$TMP/err" || fail "adjust log without old priors"
head -c 900 adj.txt | cmp -s - <(head -c 900 "$G/hmm.mdl.txt") || fail "adjust-priors changed the model"

# nnet3-compute --use-priors: outputs minus log-priors (no scale: 1).
printf 'u1  [\n  0.5 -1\n  1 0.25\n  -0.5 2 ]\n' > feats.txt
expect_ok compute "copy-feats ark,t:feats.txt ark:feats.ark && nnet3-compute $G/hmm.mdl ark:feats.ark ark,t:plain.txt && nnet3-compute --use-priors $G/hmm.mdl ark:feats.ark ark,t:priors.txt"
python3 - <<'PY' || fail "--use-priors: outputs are not log-probs minus log-priors"
import math, re
def rows(path):
    body = open(path).read().split('[', 1)[1].split(']', 1)[0]
    return [[float(v) for v in line.split()] for line in body.strip().split('\n')]
priors = [0.0625, 0.125, 0.25, 0.3125, 0.1875, 0.0625]
plain, with_priors = rows('plain.txt'), rows('priors.txt')
assert len(plain) == len(with_priors) == 3
for a, b in zip(plain, with_priors):
    assert abs(sum(math.exp(v) for v in a) - 1) < 1e-4, a   # log-softmax
    for i, (x, y) in enumerate(zip(a, b)):
        assert abs(y - (x - math.log(priors[i]))) < 1e-4, (i, x, y)
PY
expect_ok compute-scale "nnet3-compute --use-priors --acoustic-scale=0.5 $G/hmm.mdl ark:feats.ark ark,t:scaled.txt"
python3 - <<'PY' || fail "--use-priors --acoustic-scale=0.5: not (log-prob - log-prior) * 0.5"
def rows(path):
    body = open(path).read().split('[', 1)[1].split(']', 1)[0]
    return [[float(v) for v in line.split()] for line in body.strip().split('\n')]
for a, b in zip(rows('priors.txt'), rows('scaled.txt')):
    for x, y in zip(a, b):
        assert abs(y - 0.5 * x) < 1e-4, (x, y)
PY
# nnet3-compute-batch --use-priors: the same numbers as nnet3-compute's.
expect_ok batch-priors "nnet3-compute-batch --use-priors --acoustic-scale=0.5 $G/hmm.mdl ark:feats.ark ark,t:batch-scaled.txt"
python3 - <<'PY' || fail "nnet3-compute-batch --use-priors differs from nnet3-compute's"
def rows(path):
    body = open(path).read().split('[', 1)[1].split(']', 1)[0]
    return [[float(v) for v in line.split()] for line in body.strip().split('\n')]
a, b = rows('scaled.txt'), rows('batch-scaled.txt')
assert len(a) == len(b) == 3
for x, y in zip(a, b):
    for u, v in zip(x, y):
        assert abs(u - v) < 1e-4, (u, v)
PY
expect_error batch-raw-priors "--use-priors needs an acoustic model" "nnet3-compute-batch --use-priors $G/nnet.raw.txt ark:feats.ark ark,t:-"
expect_ok compute-no-priors "nnet3-compute --use-priors $G/chain.mdl ark:feats.ark ark,t:np.txt"
grep -q 'has no priors' "$TMP/err" || fail "--use-priors on a model without priors: no warning"

# Raw-nnet programs take the network of a .mdl, as Kaldi's Nnet::Read does.
expect_ok raw-info "nnet3-info $G/hmm.mdl > mdl-info.txt && nnet3-info $G/nnet.raw.txt > raw-info.txt"
same_file raw-info mdl-info.txt raw-info.txt
expect_ok raw-copy "nnet3-copy --binary=false $G/hmm.mdl copied.raw"
same_file raw-copy copied.raw "$G/nnet.raw.txt"
expect_ok raw-compile-info "nnet3-compile-info --show=stats $G/hmm.mdl > /dev/null"

# Bad input.
expect_error copy-raw-input "nnet.raw.txt.*not an acoustic model.*nnet3-am-init" "nnet3-am-copy $G/nnet.raw.txt x.mdl"
expect_error info-raw-input "nnet.raw.txt.*not an acoustic model" "nnet3-am-info $G/nnet.raw.txt"
expect_error copy-missing "no-such\.mdl" "nnet3-am-copy no-such.mdl x.mdl"
head -c 300 "$G/hmm.mdl" > truncated.mdl
expect_error copy-truncated "truncated\.mdl" "nnet3-am-copy truncated.mdl x.mdl"
[ -e x.mdl ] && fail "a failed nnet3-am-copy left x.mdl behind"
sed 's/^3 0 5 $/3 4 5 /' "$G/hmm.mdl.txt" > bad-tuple.mdl
expect_error copy-bad-tuple "bad-tuple\.mdl.*HMM state 4 of phone 3" "nnet3-am-copy bad-tuple.mdl x.mdl"
expect_error copy-bad-edits "set-learning-rat" "nnet3-am-copy --edits='set-learning-rat name=x' $G/hmm.mdl x.mdl"
expect_error init-tree-form "Cannot open 'no-tree'" "nnet3-am-init no-tree topo $G/nnet.raw.txt x.mdl"
expect_error init-raw-as-trans "nnet.raw.txt.*does not start with <TransitionModel>" "nnet3-am-init $G/nnet.raw.txt $G/nnet.raw.txt x.mdl"
printf ' [ 1 2 3 ]\n' > short.vec
expect_error adjust-dim "dimension 3 but the model has 6 pdfs" "nnet3-am-adjust-priors $G/hmm.mdl short.vec x.mdl"
printf ' [ 0 0 0 0 0 0 ]\n' > zero.vec
expect_error adjust-zero "add up to 0" "nnet3-am-adjust-priors $G/hmm.mdl zero.vec x.mdl"
expect_error compute-raw-priors "--use-priors needs an acoustic model" "nnet3-compute --use-priors $G/nnet.raw.txt ark:feats.ark ark,t:-"
[ -e x.mdl ] && fail "a failed program left x.mdl behind"
for p in nnet3-am-copy nnet3-am-info nnet3-am-init nnet3-am-adjust-priors; do
  $p > /dev/null 2> usage.txt
  [ $? -eq 1 ] || fail "$p without arguments should exit 1"
  grep -q "Usage: *$p" usage.txt || fail "$p usage text"
done

finish
