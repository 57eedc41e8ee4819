#!/usr/bin/env bash
# nnet3-compute end to end: the tdnn config on generated features through
# text and binary archives, scp with offsets and pipes; --apply-exp,
# --frames-per-chunk and --frame-subsampling-factor; i-vectors (per
# utterance, per speaker, online); and bad input.
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

# gen_feats FILE DIM [utt:frames ...]: a text archive of N(0,1) features
# (fixed seed); with frames "v", a vector instead of a matrix.
gen_feats() {
  python3 - "$@" <<'PY'
import random, sys
random.seed(17)
path, dim = sys.argv[1], int(sys.argv[2])
with open(path, 'w') as f:
    for spec in sys.argv[3:]:
        key, n = spec.split(':')
        row = lambda: ' '.join('%.4f' % random.gauss(0, 1) for _ in range(dim))
        if n == 'v':
            f.write(key + ' [ ' + row() + ' ]\n')
        else:
            rows = [row() for _ in range(int(n))]
            f.write(key + '  [\n  ' + '\n  '.join(rows) + ' ]\n')
PY
}
# check_archive NAME FILE REF|- TOL ROWS... : FILE (a text archive) has one
# matrix per expected row count, and matches REF within TOL; with
# --sum-to-one as REF, every row sums to 1.
check_archive() {
  python3 - "$@" <<'PY' || fail "$1: $(cat "$TMP/check.err")"
import sys
name, path, ref, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
want_rows = [int(r) for r in sys.argv[5:]]
def read(p):
    mats, cur = [], None
    for line in open(p):
        parts = line.split()
        if cur is None:
            if parts: mats.append((parts[0], [])); cur = mats[-1][1]
            continue
        end = parts and parts[-1] == ']'
        vals = [float(x) for x in (parts[:-1] if end else parts)]
        if vals: cur.append(vals)
        if end: cur = None
    return mats
def die(msg):
    sys.stderr.write(msg); sys.exit(1)
got = read(path)
if [len(m) for _, m in got] != want_rows:
    die('row counts %s, want %s' % ([len(m) for _, m in got], want_rows))
if ref == '--sum-to-one':
    for key, m in got:
        for r in m:
            if abs(sum(r) - 1) > tol: die('%s: a row sums to %g' % (key, sum(r)))
elif ref != '-':
    want = read(ref)
    if [k for k, _ in got] != [k for k, _ in want]: die('keys differ')
    for (key, a), (_, b) in zip(got, want):
        d = max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb))
        if d > tol: die('%s: max difference %g > %g' % (key, d, tol))
PY
}
gen_feats feats.txt 40 utt1:23 utt2:5 utt3:61
expect_ok copy-feats "copy-feats ark,t:feats.txt ark:feats.ark"
expect_ok init "nnet3-init '$CONFIGS/tdnn.config' tdnn.raw"
# The config's output layer starts at zero; a random one makes outputs differ.
sed 's/ param-stddev=0.0 bias-stddev=0.0//' "$CONFIGS/tdnn.config" > rand.config
expect_ok init-rand "nnet3-init rand.config rand.raw"

# The done-criterion, then the archive forms against it.
expect_ok compute "nnet3-init '$CONFIGS/tdnn.config' - | nnet3-compute - ark:feats.ark ark,t:- > out.txt"
check_archive compute out.txt - 0 23 5 61 2> "$TMP/check.err"
grep -q '^utt1  \[$' out.txt || fail "no utt1 in the output"
expect_ok log "nnet3-compute tdnn.raw ark:feats.ark ark:o.ark 2> log.txt; grep -q 'Done 3 utterances, failed for 0' log.txt && grep -q 'real-time factor assuming 100 frames/sec is' log.txt"
expect_ok rand "nnet3-compute rand.raw ark:feats.ark ark,t:rand.txt"
expect_ok binary-out "nnet3-compute rand.raw ark:feats.ark ark:rand.ark && copy-feats ark:rand.ark ark,t:rand2.txt"
same_file binary-out rand.txt rand2.txt
expect_ok text-in "nnet3-compute rand.raw ark,t:feats.txt ark,t:o-text.txt"
same_file text-in rand.txt o-text.txt
expect_ok scp "copy-feats ark:feats.ark ark,scp:f2.ark,f2.scp && grep -q 'f2.ark:[0-9]' f2.scp && nnet3-compute rand.raw scp:f2.scp ark,t:o-scp.txt"
same_file scp rand.txt o-scp.txt
expect_ok pipes "cat feats.ark | nnet3-compute rand.raw 'ark:copy-feats ark:- ark:- |' 'ark,t:| cat > o-pipe.txt'"
same_file pipes rand.txt o-pipe.txt

# Options.
expect_ok apply-exp "nnet3-compute --apply-exp rand.raw ark:feats.ark ark,t:exp.txt"
check_archive apply-exp exp.txt --sum-to-one 1e-4 23 5 61 2> "$TMP/check.err"
for fpc in 1 7 50 1000; do
  expect_ok fpc-$fpc "nnet3-compute --frames-per-chunk=$fpc rand.raw ark:feats.ark ark,t:fpc$fpc.txt"
  check_archive fpc-$fpc fpc$fpc.txt rand.txt 1e-4 23 5 61 2> "$TMP/check.err"
done
expect_ok extra "nnet3-compute --extra-left-context=3 --extra-right-context-final=2 --frames-per-chunk=8 rand.raw ark:feats.ark ark,t:extra.txt"
check_archive extra extra.txt rand.txt 1e-4 23 5 61 2> "$TMP/check.err"
expect_ok fss "nnet3-compute --frame-subsampling-factor=3 --frames-per-chunk=7 rand.raw ark:feats.ark ark,t:fss.txt"
check_archive fss fss.txt - 0 8 2 21 2> "$TMP/check.err"
expect_ok scale "nnet3-compute --acoustic-scale=0 rand.raw ark:feats.ark ark,t:zero.txt"
grep -v '\[$' zero.txt | grep -q '[1-9]' && fail "--acoustic-scale=0: non-zero output"

# I-vectors: per utterance, per speaker (--utt2spk), online.
expect_ok init-ivector "sed 's/ param-stddev=0.0 bias-stddev=0.0//' '$CONFIGS/ivector.config' > iv.config && nnet3-init iv.config iv.raw"
gen_feats ivecs.txt 100 utt1:v utt2:v utt3:v spkA:v
printf 'utt1 spkA\nutt2 spkA\nutt3 spkA\n' > utt2spk
expect_ok ivectors "nnet3-compute --ivectors=ark,t:ivecs.txt iv.raw ark:feats.ark ark,t:iv-out.txt"
check_archive ivectors iv-out.txt - 0 23 5 61 2> "$TMP/check.err"
expect_ok ivectors-fpc "nnet3-compute --frames-per-chunk=9 --ivectors=ark,t:ivecs.txt iv.raw ark:feats.ark ark,t:iv-out9.txt"
check_archive ivectors-fpc iv-out9.txt iv-out.txt 1e-4 23 5 61 2> "$TMP/check.err"
expect_ok utt2spk "nnet3-compute --ivectors=ark,t:ivecs.txt --utt2spk=ark:utt2spk iv.raw ark:feats.ark ark,t:spk-out.txt"
check_archive utt2spk spk-out.txt - 0 23 5 61 2> "$TMP/check.err"
cmp -s spk-out.txt iv-out.txt && fail "--utt2spk: per-speaker i-vectors gave the per-utterance output"
gen_feats online.txt 100 utt1:3 utt2:1 utt3:7
expect_ok online "nnet3-compute --online-ivectors=ark,t:online.txt --online-ivector-period=10 iv.raw ark:feats.ark ark,t:on-out.txt"
check_archive online on-out.txt - 0 23 5 61 2> "$TMP/check.err"
expect_ok missing-one "grep -v '^utt2' ivecs.txt > ivecs2.txt && nnet3-compute --ivectors=ark,t:ivecs2.txt iv.raw ark:feats.ark ark,t:iv2.txt 2> log2.txt; grep -q 'WARNING.*No iVector available for utterance utt2' log2.txt && grep -q 'Done 2 utterances, failed for 1' log2.txt"
check_archive missing-one iv2.txt - 0 23 61 2> "$TMP/check.err"

# Bad input: one ERROR line, exit 1.
gen_feats feats13.txt 13 utt7:9
expect_error dim-mismatch "utt7.*dimension 13.*dimension 40" "nnet3-compute tdnn.raw ark,t:feats13.txt ark,t:-"
expect_error no-ivectors "'ivector' input \(dimension 100\).*--ivectors" "nnet3-compute iv.raw ark:feats.ark ark,t:-"
: > empty.ark
expect_error all-ivectors-missing "No utterance succeeded \(3 failed\)" "nnet3-compute --ivectors=ark:empty.ark iv.raw ark:feats.ark ark,t:-"
expect_error empty-archive "No utterance succeeded \(0 failed\)" "nnet3-compute tdnn.raw ark:empty.ark ark,t:-"
expect_error use-priors "--use-priors needs an acoustic model" "nnet3-compute --use-priors tdnn.raw ark:feats.ark ark,t:-"
expect_error no-period "--online-ivector-period > 0" "nnet3-compute --online-ivectors=ark,t:online.txt iv.raw ark:feats.ark ark,t:-"
expect_error missing-features "feats-missing" "nnet3-compute tdnn.raw ark:feats-missing.ark ark,t:-"

# Usage.
expect_ok help "nnet3-compute --help 2> h.txt; grep -q 'Usage: nnet3-compute' h.txt && grep -q -- '--frames-per-chunk' h.txt && grep -q -- '--online-ivector-period' h.txt && grep -q -- '--use-gpu' h.txt"
nnet3-compute a b > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "wrong arg count must exit 1"
finish
