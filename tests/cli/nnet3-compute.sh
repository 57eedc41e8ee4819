#!/usr/bin/env bash
# nnet3-compute end to end: the tdnn config on generated features through
# text and binary archives, scp with offsets and pipes; --apply-exp,
# --frames-per-chunk and --frame-subsampling-factor; i-vectors (per
# utterance, per speaker, online); and bad input.
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/lib.sh"
. "$HERE/inference-lib.sh"

gen_feats feats.txt 40 utt1:23 utt2:5 utt3:61
expect_ok copy-feats "copy-feats ark,t:feats.txt ark:feats.ark"
expect_ok init "nnet3-init '$CONFIGS/tdnn.config' tdnn.raw"
# The config's output layer starts at zero; a random one makes outputs differ.
sed 's/ param-stddev=0.0 bias-stddev=0.0//' "$CONFIGS/tdnn.config" > rand.config
expect_ok init-rand "nnet3-init rand.config rand.raw"

# The done-criterion, then the archive forms against it. (With the config's
# zero output layer every row would be log(1/100): the random one makes the
# rows differ.)
expect_ok compute "nnet3-init rand.config - | nnet3-compute - ark:feats.ark ark,t:- > out.txt"
check_archive compute out.txt - 0 23x100 5x100 61x100 2> "$TMP/check.err"
grep -q '^utt1  \[$' out.txt || fail "no utt1 in the output"
expect_ok log "nnet3-compute tdnn.raw ark:feats.ark ark:o.ark 2> log.txt; grep -q 'Done 3 utterances, failed for 0' log.txt && grep -q 'real-time factor assuming 100 frames/sec is' log.txt"
expect_ok rand "nnet3-compute rand.raw ark:feats.ark ark,t:rand.txt"
same_file rand-pipe out.txt rand.txt
# Log-probabilities (exp sums to 1 within 1e-4) that differ between the
# frames of an utterance and between utterances (by more than 0.01 in some
# column), no two rows the same.
python3 - rand.txt 2> "$TMP/check.err" <<'PY' || fail "rand: $(tail -1 "$TMP/check.err")"
import math, sys
utts, rows = [], None
for line in open(sys.argv[1]):
    parts = line.replace('[', ' ').replace(']', ' ').split()
    if line.rstrip().endswith('['):
        rows = []
        utts.append(rows)
    elif parts:
        rows.append([float(x) for x in parts])
assert [len(u) for u in utts] == [23, 5, 61], [len(u) for u in utts]
for u in utts:
    for r in u:
        assert abs(sum(math.exp(v) for v in r) - 1) < 1e-4, 'a row is not log-probabilities'
    assert max(max(c) - min(c) for c in zip(*u)) > 0.01, 'the frames of an utterance are all the same'
assert max(abs(a - b) for a, b in zip(utts[0][0], utts[1][0])) > 0.01, 'utt1 and utt2 start the same'
flat = [tuple(r) for u in utts for r in u]
assert len(set(flat)) == len(flat), 'two rows are the same'
PY
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
check_archive apply-exp exp.txt --sum-to-one 1e-4 23x100 5x100 61x100 2> "$TMP/check.err"
for fpc in 1 7 50 1000; do
  expect_ok fpc-$fpc "nnet3-compute --frames-per-chunk=$fpc rand.raw ark:feats.ark ark,t:fpc$fpc.txt"
  check_archive fpc-$fpc fpc$fpc.txt rand.txt 1e-4 23x100 5x100 61x100 2> "$TMP/check.err"
done
# Threads: with OMP_NUM_THREADS=3 (and oneDNN's products) three chunks
# of an utterance run side by side, each with one-thread products: the
# archive is the same, byte for byte, as with one thread.
expect_ok threads "OMP_NUM_THREADS=1 nnet3-compute --frames-per-chunk=7 rand.raw ark:feats.ark ark:t1.ark && OMP_NUM_THREADS=3 nnet3-compute --verbose=1 --frames-per-chunk=7 rand.raw ark:feats.ark ark:t3.ark 2> t3.log"
same_file threads t1.ark t3.ark
chunk_threads=1
ldd "$BIN/nnet3-compute" | grep -q libdnnl && [ "${NNET3_CPU_GEMM:-}" != openblas ] && chunk_threads=3
grep -q "Chunks computed $chunk_threads at a time" t3.log ||
  fail "threads: expected $chunk_threads chunk threads: $(grep 'Chunks computed' t3.log)"
expect_ok extra "nnet3-compute --extra-left-context=3 --extra-right-context-final=2 --frames-per-chunk=8 rand.raw ark:feats.ark ark,t:extra.txt"
check_archive extra extra.txt rand.txt 1e-4 23x100 5x100 61x100 2> "$TMP/check.err"
expect_ok fss "nnet3-compute --frame-subsampling-factor=3 --frames-per-chunk=7 rand.raw ark:feats.ark ark,t:fss.txt"
check_archive fss fss.txt - 0 8x100 2x100 21x100 2> "$TMP/check.err"
expect_ok scale "nnet3-compute --acoustic-scale=0 rand.raw ark:feats.ark ark,t:zero.txt"
grep -v '\[$' zero.txt | grep -q '[1-9]' && fail "--acoustic-scale=0: non-zero output"

# I-vectors: per utterance, per speaker (--utt2spk), online; the values
# against an independent re-computation in python (inference-reference.py:
# a small network with a 2-dim i-vector, its parameters read from the text
# model, edges padded by hand, Kaldi's online i-vector row per chunk).
expect_ok init-ivector "$REF config > iv.config && nnet3-init iv.config iv.raw && nnet3-copy --binary=false iv.raw iv.txt"
gen_feats ivfeats.txt 3 utt1:23 utt2:5 utt3:61
gen_feats ivecs.txt 2 utt1:v utt2:v utt3:v spkA:v
printf 'utt1 spkA\nutt2 spkA\nutt3 spkA\n' > utt2spk
ivshapes="23x3 5x3 61x3"
expect_ok ivectors "nnet3-compute --ivectors=ark,t:ivecs.txt iv.raw ark,t:ivfeats.txt ark,t:iv-out.txt && $REF compute iv.txt ivfeats.txt iv-ref.txt --ivectors=ivecs.txt"
check_archive ivectors iv-out.txt iv-ref.txt 1e-4 $ivshapes 2> "$TMP/check.err"
expect_ok ivectors-fpc "nnet3-compute --frames-per-chunk=9 --ivectors=ark,t:ivecs.txt iv.raw ark,t:ivfeats.txt ark,t:iv-out9.txt"
check_archive ivectors-fpc iv-out9.txt iv-ref.txt 1e-4 $ivshapes 2> "$TMP/check.err"
expect_ok utt2spk "nnet3-compute --ivectors=ark,t:ivecs.txt --utt2spk=ark:utt2spk iv.raw ark,t:ivfeats.txt ark,t:spk-out.txt && $REF compute iv.txt ivfeats.txt spk-ref.txt --ivectors=ivecs.txt --utt2spk=utt2spk"
check_archive utt2spk spk-out.txt spk-ref.txt 1e-4 $ivshapes 2> "$TMP/check.err"
archives_differ spk-ref.txt iv-ref.txt 1e-3 || fail "utt2spk: the per-speaker reference equals the per-utterance one"
# Online: period 10 (3, 1 and 7 rows: utt1 and utt3 have a row too few at
# their ends, within Kaldi's 50-frame margin); chunk sizes and subsampling.
gen_feats online.txt 2 utt1:3 utt2:1 utt3:7
for o in "50 1" "7 1" "20 1" "9 3" "7 2"; do
  set -- $o
  expect_ok online-$1-$2 "nnet3-compute --frames-per-chunk=$1 --frame-subsampling-factor=$2 --online-ivectors=ark,t:online.txt --online-ivector-period=10 iv.raw ark,t:ivfeats.txt ark,t:on-out.txt && $REF compute iv.txt ivfeats.txt on-ref.txt --online-ivectors=online.txt --period=10 --frames-per-chunk=$1 --fss=$2 --rule=simple"
  check_archive online-$1-$2 on-out.txt on-ref.txt 1e-4 $(python3 -c "import sys; print(' '.join('%dx3' % ((n + $2 - 1) // $2) for n in (23, 5, 61)))") 2> "$TMP/check.err"
done
# The chunking matters: one chunk per utterance reads other rows.
$REF compute iv.txt ivfeats.txt on-ref-whole.txt --online-ivectors=online.txt --period=10 --frames-per-chunk=100 2> /dev/null
archives_differ on-ref-whole.txt on-ref.txt 1e-3 || fail "online: the reference does not depend on the chunks"
expect_ok apply-exp-iv "nnet3-compute --apply-exp --ivectors=ark,t:ivecs.txt iv.raw ark,t:ivfeats.txt ark,t:iv-exp.txt && $REF compute iv.txt ivfeats.txt iv-exp-ref.txt --ivectors=ivecs.txt --exp"
check_archive apply-exp-iv iv-exp.txt iv-exp-ref.txt 1e-5 $ivshapes 2> "$TMP/check.err"
expect_ok missing-one "grep -v '^utt2' ivecs.txt > ivecs2.txt && nnet3-compute --ivectors=ark,t:ivecs2.txt iv.raw ark,t:ivfeats.txt ark,t:iv2.txt 2> log2.txt; grep -q 'WARNING.*No iVector available for utterance utt2' log2.txt && grep -q 'Done 2 utterances, failed for 1' log2.txt"
awk '/^utt2 /{skip=1} !skip{print} skip&&/\]$/{skip=0}' iv-ref.txt > iv2-ref.txt
check_archive missing-one iv2.txt iv2-ref.txt 1e-4 23x3 61x3 2> "$TMP/check.err"
# Online rows too few by far (120 frames, period 10, 1 row: the chunk
# [50,100) needs row (50 + 49/2)/10 = 7, 70 frames past row 0): an error
# naming the utterance.
gen_feats feats120.txt 3 utt9:120
gen_feats online-short.txt 2 utt9:1
expect_error online-too-short "Utterance 'utt9': no online i-vector for frame 74.*--online-ivector-period" "nnet3-compute --online-ivectors=ark,t:online-short.txt --online-ivector-period=10 iv.raw ark,t:feats120.txt ark,t:-"

# Bad input: one ERROR line, exit 1.
gen_feats feats13.txt 13 utt7:9
expect_error dim-mismatch "utt7.*dimension 13.*dimension 40" "nnet3-compute tdnn.raw ark,t:feats13.txt ark,t:-"
expect_error no-ivectors "'ivector' input \(dimension 2\).*--ivectors" "nnet3-compute iv.raw ark:feats.ark ark,t:-"
: > empty.ark
expect_error all-ivectors-missing "No utterance succeeded \(3 failed\)" "nnet3-compute --ivectors=ark:empty.ark iv.raw ark,t:ivfeats.txt ark,t:-"
expect_error empty-archive "No utterance succeeded \(0 failed\)" "nnet3-compute tdnn.raw ark:empty.ark ark,t:-"
expect_error use-priors "--use-priors needs an acoustic model" "nnet3-compute --use-priors tdnn.raw ark:feats.ark ark,t:-"
expect_error no-period "--online-ivector-period > 0" "nnet3-compute --online-ivectors=ark,t:online.txt iv.raw ark,t:ivfeats.txt ark,t:-"
expect_error missing-features "Cannot open 'feats-missing.ark' for reading: No such file or directory" "nnet3-compute tdnn.raw ark:feats-missing.ark ark,t:-"

# Usage.
expect_ok help "nnet3-compute --help 2> h.txt; grep -q 'Usage: nnet3-compute' h.txt && grep -q -- '--frames-per-chunk' h.txt && grep -q -- '--online-ivector-period' h.txt && grep -q -- '--use-gpu' h.txt"
nnet3-compute a b > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "wrong arg count must exit 1"

# Output nodes that read the input node directly, spliced or not (issue 28):
# the bytes Kaldi's nnet3-compute writes (tests/data/nnet/direct-io/README).
DIO="$DATA/nnet/direct-io"
for n in direct append offset; do
  for o in "" "--frames-per-chunk=3"; do
    expect_ok "direct-io-$n[$o]" "nnet3-init '$DIO/$n.config' dio.raw && nnet3-compute $o dio.raw ark,t:'$DIO/feats.txt' ark,t:dio-$n.txt"
    same_file "direct-io-$n[$o]" dio-$n.txt "$DIO/kaldi-$n.txt"
  done
done
finish
