#!/usr/bin/env bash
# The LDA-like preconditioning path of Kaldi's scripts (xconfigs with a
# fixed-affine-layer): nnet3-acc-lda-stats -> sum-lda-accs ->
# nnet-get-feature-transform, against golden LdaEstimate stats written from
# Kaldi's format (tests/data/recipes/make-golden.py), and the transform
# checked against the definition (it whitens the within-class covariance up
# to the --within-class-factor scaling and removes the mean).
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"
G=$DATA/recipes

# compare_text A B: the numbers of two text files agree to 1e-5 (relative).
compare_text() {
  python3 - "$1" "$2" <<'PY'
import re, sys
num = r'-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?'
a, b = (re.findall(num, open(f).read()) for f in sys.argv[1:])
assert len(a) == len(b), (len(a), len(b))
for x, y in zip(a, b):
    assert abs(float(x) - float(y)) <= 1e-5 * max(1.0, abs(float(y))), (x, y)
PY
}

# The egs of every frame (chunks of 2, context 0) and the identity network
# that Kaldi's xconfig writes as init.raw (an output node on the input).
expect_ok egs "nnet3-get-egs-dense-targets --compress=false --num-frames=2 ark,t:$G/feats.txt ark,t:$G/targets.txt ark:egs.ark"
printf 'input-node name=input dim=3\noutput-node name=output input=input\n' > init.config
expect_ok init "nnet3-init init.config init.raw"

expect_ok acc "nnet3-acc-lda-stats --rand-prune=0 init.raw ark:egs.ark 1.acc 2> acc.log"
grep -q "Accumulated stats, soft frame count = 10.  Wrote to 1.acc" acc.log ||
  fail "acc: no count line: $(tail -1 acc.log)"
expect_ok golden-text "sum-lda-accs --binary=false golden.txt $G/lda.acc && sum-lda-accs --binary=false ours.txt 1.acc"
compare_text ours.txt golden.txt || fail "nnet3-acc-lda-stats: stats differ from the golden ones"
compare_text "$G/lda.acc.txt" golden.txt || fail "sum-lda-accs: binary golden read differently from text golden"
expect_ok text-golden "sum-lda-accs --binary=false from-text.txt $G/lda.acc.txt"
compare_text from-text.txt golden.txt || fail "sum-lda-accs: text golden read wrong"
# Summing two halves gives the whole.
expect_ok halves "nnet3-copy-egs ark:egs.ark ark:a.ark ark:b.ark && nnet3-acc-lda-stats init.raw ark:a.ark a.acc && nnet3-acc-lda-stats init.raw ark:b.ark b.acc && sum-lda-accs --binary=false sum.txt a.acc b.acc"
compare_text sum.txt golden.txt || fail "sum-lda-accs a+b differs from the whole"
# Randomized pruning keeps the expected counts: over many copies of the
# data, each class count is close to the unpruned one.
expect_ok prune "for i in \$(seq 40); do cat egs.ark; done > many.ark && nnet3-acc-lda-stats --rand-prune=4 init.raw ark:many.ark pruned.acc && sum-lda-accs --binary=false pruned.txt pruned.acc"
python3 - pruned.txt <<'PY' || fail "--rand-prune=4: class counts far from 40 x (3.25 3.25 3.5)"
import re, sys
zero = [float(v) for v in re.search(r'<ZERO_ACCS>\s*\[([^\]]*)\]', open(sys.argv[1]).read()).group(1).split()]
assert all(v % 4 == 0 for v in zero), zero  # every kept weight is 4
assert all(abs(v - 40 * w) < 40 for v, w in zip(zero, [3.25, 3.25, 3.5])), zero
PY

expect_error acc-no-output "no io named 'output'" \
  "nnet3-copy-egs ark:egs.ark ark,t:- | sed 's/<NnetIo> output/<NnetIo> foo/' | nnet3-acc-lda-stats init.raw ark,t:- x.acc"
expect_error acc-empty "Accumulated no stats" "nnet3-acc-lda-stats init.raw ark:/dev/null x.acc"
[ -e x.acc ] && fail "acc-empty: wrote x.acc"
expect_error sum-mismatch "dimension or classes count mismatch, 3, 3, vs. 3, 4" \
  "sed 's/<VECSIZE> 3/<VECSIZE> 4/' $G/lda.acc.txt > bad.txt; sum-lda-accs out.acc $G/lda.acc bad.txt"
expect_error sum-truncated "lda.cut" "head -c 100 $G/lda.acc > lda.cut; sum-lda-accs out.acc lda.cut"

# ---- nnet-get-feature-transform ----
# check_transform MAT F [DIM]: with W the within-class and B the
# between-class covariance of the golden stats, the transform M (its first
# DIM rows) must diagonalize both, M W M^T = diag(w) and M B M^T = diag(b),
# with d = b / w decreasing and w = (F + d) / (1 + d), and M mean + offset =
# 0: the definition in lib/train/feature-transform-estimate.h (Kaldi's LDA
# rows scaled by sqrt((F + d) / (1 + d))), checked without an eigensolver.
check_transform() {
  python3 - "$1" "$2" "${3:-3}" "$G/feats.txt" "$G/targets.txt" <<'PY'
import re, sys
def table(f):
    return [[[float(v) for v in r.split()] for r in m.strip().split('\n')]
            for m in re.findall(r'\[(.*?)\]', open(f).read(), re.S)]
def mat3(rows, a, b):
    return [[sum(rows[i][k] * a[k][l] * rows[j][l] for k in range(3) for l in range(3))
             for j in range(len(rows))] for i in range(len(rows))]
m = table(sys.argv[1])[0]
f, dim = float(sys.argv[2]), int(sys.argv[3])
x = [r for u in table(sys.argv[4]) for r in u]
w = [r for u in table(sys.argv[5]) for r in u]
n = sum(map(sum, w))
mean = [sum(sum(wr) * xr[d] for xr, wr in zip(x, w)) / n for d in range(3)]
total = [[sum(sum(wr) * xr[i] * xr[j] for xr, wr in zip(x, w)) / n - mean[i] * mean[j]
          for j in range(3)] for i in range(3)]
between = [[-mean[i] * mean[j] for j in range(3)] for i in range(3)]
for c in range(3):
    nc = sum(wr[c] for wr in w)
    mc = [sum(wr[c] * xr[d] for xr, wr in zip(x, w)) / nc for d in range(3)]
    for i in range(3):
        for j in range(3):
            between[i][j] += nc / n * mc[i] * mc[j]
within = [[total[i][j] - between[i][j] for j in range(3)] for i in range(3)]
assert len(m) == dim and all(len(r) == 4 for r in m), m
lin = [r[:3] for r in m]
mw, mb = mat3(lin, within, within), mat3(lin, between, between)
for i in range(dim):
    for j in range(dim):
        if i != j:
            assert abs(mw[i][j]) < 1e-4 and abs(mb[i][j]) < 1e-4, (mw, mb)
d = [mb[i][i] / mw[i][i] for i in range(dim)]
assert all(d[i] >= d[i + 1] - 1e-6 for i in range(dim - 1)), d
assert all(abs(mw[i][i] - (f + d[i]) / (1 + d[i])) < 1e-4 for i in range(dim)), (mw, d)
assert all(abs(sum(r[k] * mean[k] for k in range(3)) + r[3]) < 1e-5 for r in m)
PY
}
expect_ok transform "nnet-get-feature-transform --binary=false --max-singular-value=0 lda.mat $G/lda.acc 2> transform.log"
check_transform lda.mat 0.001 || fail "nnet-get-feature-transform: wrong transform"
grep -q "Data count is 10" transform.log || fail "no data count line"
grep -q "LDA singular values are \[" transform.log || fail "no singular values line"
expect_ok transform-conventional "nnet-get-feature-transform --binary=false --within-class-factor=1 --max-singular-value=0 --dim=2 lda2.mat $G/lda.acc"
check_transform lda2.mat 1 2 || fail "--within-class-factor=1 --dim=2: wrong transform"
expect_ok transform-text-stats "nnet-get-feature-transform --binary=false --max-singular-value=0 lda-t.mat $G/lda.acc.txt"
compare_text lda-t.mat lda.mat || fail "transform from the text stats differs"
expect_ok transform-halves "nnet-get-feature-transform --binary=false --max-singular-value=0 lda-h.mat a.acc b.acc"
python3 - lda.mat lda-h.mat <<'PY' || fail "transform from two stats files differs (up to row signs)"
import re, sys
a, b = ([[float(v) for v in r.split()] for r in re.search(r'\[(.*)\]', open(f).read(), re.S).group(1).strip().split('\n')] for f in sys.argv[1:])
for ra, rb in zip(a, b):
    s = 1 if ra[0] * rb[0] >= 0 else -1
    assert all(abs(x - s * y) < 1e-4 * max(1, abs(x)) for x, y in zip(ra, rb)), (ra, rb)
PY
# --max-singular-value: the largest singular value becomes the cap.
expect_ok transform-cap "nnet-get-feature-transform --binary=false --max-singular-value=0.5 capped.mat $G/lda.acc 2> cap.log"
grep -q "Applied ceiling to [1-3] out of 3 singular values of transform using ceiling 0.5" cap.log ||
  fail "no ceiling line: $(grep -i ceil cap.log)"
python3 - capped.mat <<'PY' || fail "capped transform: largest singular value is not 0.5"
import re, sys
m = [[float(v) for v in r.split()[:3]] for r in re.search(r'\[(.*)\]', open(sys.argv[1]).read(), re.S).group(1).strip().split('\n')]
a = [[sum(m[i][k] * m[j][k] for k in range(3)) for j in range(3)] for i in range(3)]
v = [1.0, 0.3, 0.7]
for _ in range(500):  # power iteration: the largest eigenvalue of M M^T
    u = [sum(a[i][j] * v[j] for j in range(3)) for i in range(3)]
    norm = sum(x * x for x in u) ** 0.5
    v = [x / norm for x in u]
assert abs(norm ** 0.5 - 0.5) < 1e-4, norm ** 0.5
PY
# --write-cholesky / --write-within-covar: L L^T = W.
expect_ok cholesky "nnet-get-feature-transform --binary=false --write-cholesky=chol.tp --write-within-covar=wc.sp x.mat $G/lda.acc"
python3 - chol.tp wc.sp <<'PY' || fail "--write-cholesky / --write-within-covar disagree"
import re, sys
def packed(f):
    v = [float(x) for x in re.findall(r'[-0-9.e+]+', open(f).read())]
    n = int((2 * len(v)) ** 0.5)
    m = [[0.0] * n for _ in range(n)]
    k = 0
    for i in range(n):
        for j in range(i + 1):
            m[i][j] = v[k]; k += 1
    return m
l, w = packed(sys.argv[1]), packed(sys.argv[2])
for i in range(3):
    for j in range(i + 1):
        assert abs(sum(l[i][k] * l[j][k] for k in range(3)) - w[i][j]) < 1e-4
PY
expect_error transform-dim "--dim=4 is larger than the feature dimension 3" \
  "nnet-get-feature-transform --dim=4 x.mat $G/lda.acc"
expect_error transform-missing "no-such.acc" "nnet-get-feature-transform x.mat no-such.acc"

finish
