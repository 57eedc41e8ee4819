#!/usr/bin/env bash
# nnet3-xvector-compute end to end, on a network whose output node is
# already segment level (its output at t = 0 reads input frames 0..3):
# x-vectors for --chunk-size / --min-chunk-size / --pad-input settings
# against a python re-computation of Kaldi's chunking and averaging
# (inference-reference.py), batching options, the compile cache files,
# log lines and bad input.
BIN=$1 DATA=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/lib.sh"
. "$HERE/inference-lib.sh"

# check_vectors NAME GOT WANT TOL: two text archives of vectors with the
# same keys (in order), dimensions and values within TOL.
check_vectors() {
  python3 - "$2" "$3" "$4" <<'PY' || fail "$1: $(cat "$TMP/check.err")"
import sys
def read(p):
    out = []
    for line in open(p):
        parts = line.split()
        if parts:
            out.append((parts[0], [float(x) for x in parts[2:-1]]))
    return out
got, want, tol = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
def die(msg):
    sys.stderr.write(msg); sys.exit(1)
if [k for k, _ in got] != [k for k, _ in want]:
    die('keys %s, want %s' % ([k for k, _ in got], [k for k, _ in want]))
for (k, a), (_, b) in zip(got, want):
    if len(a) != len(b): die('%s: dimension %d, want %d' % (k, len(a), len(b)))
    d = max(abs(x - y) for x, y in zip(a, b))
    if d > tol: die('%s: max difference %g > %g' % (k, d, tol))
PY
}

expect_ok init "$REF xvector-config > xv.config && nnet3-init xv.config xv.raw && nnet3-copy --binary=false xv.raw xv.txt"
gen_feats feats.txt 3 s1:23 s2:5 s3:61 s4:130 s5:8 s6:30
expect_ok copy-feats "copy-feats ark,t:feats.txt ark:feats.ark"
for o in "" "--min-chunk-size=10" "--chunk-size=10 --min-chunk-size=6" \
         "--chunk-size=10 --min-chunk-size=6 --pad-input=false" \
         "--chunk-size=50 --min-chunk-size=4" "--chunk-size=7 --min-chunk-size=12" \
         "--min-chunk-size=25 --pad-input=false"; do
  name="xvector[$o]"
  expect_ok "$name" "nnet3-xvector-compute --minibatch-size=3 $o xv.raw ark:feats.ark ark,t:xv-out.txt && $REF xvector xv.txt feats.txt xv-ref.txt $o"
  check_vectors "$name" xv-out.txt xv-ref.txt 1e-5 2> "$TMP/check.err"
done
# The chunking matters for this network (so the comparison above can fail).
$REF xvector xv.txt feats.txt a.txt --chunk-size=10 --min-chunk-size=6
$REF xvector xv.txt feats.txt b.txt --chunk-size=7 --min-chunk-size=6
archives_differ a.txt b.txt 1e-3 || fail "reference: the chunk size changes nothing"

# Batching options give the same vectors; the log lines.
$REF xvector xv.txt feats.txt ref10.txt --chunk-size=10 --min-chunk-size=6
for o in "--minibatch-size=1" "--minibatch-size=128 --partial-minibatch-factor=0" "--max-utterances-in-flight=1"; do
  expect_ok "batch[$o]" "nnet3-xvector-compute $o --chunk-size=10 --min-chunk-size=6 xv.raw ark:feats.ark ark,t:b.txt 2> log.txt"
  check_vectors "batch[$o]" b.txt ref10.txt 1e-5 2> "$TMP/check.err"
done
for pat in 'Done 6 utterances, failed for 0' 'real-time factor assuming 100 frames/sec is' \
           'Did 28 tasks in [0-9]+ minibatches' 'cache: [0-9]+ hits, [0-9]+ misses'; do
  grep -Eq "^LOG .*$pat" log.txt || fail "log: no line matching /$pat/"
done
expect_ok short-log "nnet3-xvector-compute --chunk-size=50 --min-chunk-size=4 xv.raw ark:feats.ark ark:/dev/null 2> l2.txt; grep -q 'Chunk size of 50 is greater than the number of rows in utterance: s1, using chunk size  of 23' l2.txt"

# Compile cache files: written, then read back (and used: no new misses).
expect_ok cache-out "nnet3-xvector-compute --chunk-size=10 --min-chunk-size=6 --cached-compiler-out=cache.bin xv.raw ark:feats.ark ark,t:c1.txt 2> c1.log && grep -q 'Writing cache to cache.bin' c1.log && [ -s cache.bin ]"
expect_ok cache-in "nnet3-xvector-compute --chunk-size=10 --min-chunk-size=6 --cached-compiler-in=cache.bin xv.raw ark:feats.ark ark,t:c2.txt 2> c2.log && grep -q 'Reading cache from cache.bin' c2.log && grep -Eq 'cache: [1-9][0-9]* hits, 0 misses' c2.log"
same_file cache-in c1.txt c2.txt

# Bad input: warnings for bad utterances, exit 1 only if none succeeded.
gen_feats feats5.txt 5 bad:20
cat feats.txt feats5.txt > mixed.txt
expect_ok dim-mismatch "nnet3-xvector-compute xv.raw ark,t:mixed.txt ark,t:m.txt 2> m.log; grep -q \"^WARNING .*Utterance 'bad': the features have dimension 5 but the network's 'input' needs dimension 3; skipping it\" m.log && grep -q 'Done 6 utterances, failed for 1' m.log"
expect_ok too-short "nnet3-xvector-compute --pad-input=false --min-chunk-size=25 xv.raw ark:feats.ark ark:/dev/null 2> s.log; grep -q '^WARNING .*Minimum chunk size of 25 is greater than the number of rows in utterance: s1' s.log && grep -q 'Done 3 utterances, failed for 3' s.log"
expect_ok no-chunk "nnet3-xvector-compute --pad-input=false --chunk-size=3 --min-chunk-size=4 xv.raw ark:feats.ark ark:/dev/null 2> n.log; grep -q '^WARNING .*No chunk of utterance s2 (5 frames, --chunk-size=3) has --min-chunk-size=4 frames; skipping it' n.log"
expect_error none-succeeded "No utterance succeeded \(1 failed\)" "nnet3-xvector-compute xv.raw ark,t:feats5.txt ark,t:-"
expect_error bad-chunk-size "--chunk-size must be -1 or > 0" "nnet3-xvector-compute --chunk-size=0 xv.raw ark:feats.ark ark,t:-"
expect_error missing-model "Cannot open 'missing.raw' for reading" "nnet3-xvector-compute missing.raw ark:feats.ark ark,t:-"

# Usage.
expect_ok help "nnet3-xvector-compute --help 2> h.txt; grep -q 'Usage: nnet3-xvector-compute' h.txt && grep -q -- '--chunk-size' h.txt && grep -q -- '--min-chunk-size' h.txt && grep -q -- '--pad-input' h.txt && grep -q -- '--cache-capacity' h.txt && grep -q -- '--cached-compiler-in' h.txt"
nnet3-xvector-compute a b > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "wrong arg count must exit 1"

# Against Kaldi's own x-vectors (issue 28; tests/data/nnet/xvector-kaldi/README):
# a network with batch-norm and mean+stddev pooling on features whose
# variances are small differences of large numbers. Within 5e-5 (1e-5 of
# the largest value); the pooled sums in double, or batch-norm's scale and
# offset rounded otherwise than Kaldi's, gave 1e-4 to 1e-3.
XK="$DATA/nnet/xvector-kaldi"
expect_ok kaldi-xvectors "nnet3-xvector-compute '$XK/xvector-small.raw' ark:'$XK/feats.ark' ark,t:kx.txt"
check_vectors kaldi-xvectors kx.txt "$XK/kaldi-xvectors.txt" 5e-5 2> "$TMP/check.err"
expect_ok kaldi-xvectors-chunks "nnet3-xvector-compute --chunk-size=150 --min-chunk-size=100 '$XK/xvector-small.raw' ark:'$XK/feats.ark' ark,t:kx150.txt"
check_vectors kaldi-xvectors-chunks kx150.txt "$XK/kaldi-xvectors-chunk150.txt" 5e-5 2> "$TMP/check.err"
finish
