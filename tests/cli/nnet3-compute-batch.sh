#!/usr/bin/env bash
# nnet3-compute-batch end to end: its output equals nnet3-compute's on a
# feed-forward TDNN for an archive mixing short and long utterances, under
# many options (minibatch sizes, partial minibatches, chunk sizes, frame
# subsampling, extra contexts, exact final context, utterances in flight);
# i-vectors per utterance, per speaker and online (Kaldi's batch rule)
# against a python re-computation; output order; log lines; bad input
# (warnings for bad utterances, exit 1 only when none succeeded).
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/lib.sh"
. "$HERE/inference-lib.sh"

# Lengths: 1 frame, shorter than the context (6), shorter than a chunk,
# exactly a chunk, one more, and longer; keys out of sorted order.
gen_feats feats.txt 40 zz:23 b:1 yy:5 c:50 a:51 x:61 d:130
shapes="23x100 1x100 5x100 50x100 51x100 61x100 130x100"
expect_ok copy-feats "copy-feats ark,t:feats.txt ark:feats.ark"
sed 's/ param-stddev=0.0 bias-stddev=0.0//' "$CONFIGS/tdnn.config" > rand.config
expect_ok init "nnet3-init rand.config rand.raw"
expect_ok simple "nnet3-compute rand.raw ark:feats.ark ark,t:simple.txt"
check_archive simple simple.txt - 0 $shapes 2> "$TMP/check.err"

expect_ok batch "nnet3-compute-batch rand.raw ark:feats.ark ark,t:batch.txt 2> log.txt"
check_archive batch batch.txt simple.txt 1e-4 $shapes 2> "$TMP/check.err"
for o in "--minibatch-size=2" "--minibatch-size=3 --partial-minibatch-factor=0" \
         "--frames-per-chunk=7 --minibatch-size=5" \
         "--extra-left-context=3 --extra-right-context=2 --extra-left-context-initial=0 --extra-right-context-final=1 --edge-minibatch-size=2" \
         "--ensure-exact-final-context" "--max-utterances-in-flight=1" \
         "--max-utterances-in-flight=2 --minibatch-size=64"; do
  name="opts[$o]"
  expect_ok "$name" "nnet3-compute-batch $o rand.raw ark:feats.ark ark,t:o.txt"
  check_archive "$name" o.txt simple.txt 1e-4 $shapes 2> "$TMP/check.err"
done
expect_ok fss-simple "nnet3-compute --frame-subsampling-factor=3 --frames-per-chunk=9 rand.raw ark:feats.ark ark,t:fss-simple.txt"
expect_ok fss "nnet3-compute-batch --frame-subsampling-factor=3 --frames-per-chunk=9 --minibatch-size=4 rand.raw ark:feats.ark ark,t:fss.txt"
check_archive fss fss.txt fss-simple.txt 1e-4 8x100 1x100 2x100 17x100 17x100 21x100 44x100 2> "$TMP/check.err"
expect_ok apply-exp "nnet3-compute-batch --apply-exp rand.raw ark:feats.ark ark,t:exp.txt"
check_archive apply-exp exp.txt --sum-to-one 1e-4 $shapes 2> "$TMP/check.err"
expect_ok scale "nnet3-compute-batch --acoustic-scale=0.5 rand.raw ark:feats.ark ark,t:half.txt && nnet3-compute --acoustic-scale=0.5 rand.raw ark:feats.ark ark,t:half-simple.txt"
check_archive scale half.txt half-simple.txt 1e-4 $shapes 2> "$TMP/check.err"
expect_ok forms "copy-feats ark:feats.ark ark,scp:f.ark,f.scp && cat f.ark | nnet3-compute-batch rand.raw 'ark:copy-feats scp:f.scp ark:- |' 'ark:| copy-feats ark:- ark,t:forms.txt'"
check_archive forms forms.txt simple.txt 1e-4 $shapes 2> "$TMP/check.err"

# Log lines (Kaldi's, plus frames per second and the compile cache).
for pat in 'Done 7 utterances, failed for 0' 'real-time factor assuming 100 frames/sec is' \
           'frames per second' 'Minibatch stats: seconds-taken,frames-in:frames-out\*minibatch-size=num-done\(percent-full%\)  [0-9.]+,62:50\*' \
           'Did 11 tasks in [0-9]+ minibatches' 'cache: [0-9]+ hits, [0-9]+ misses'; do
  grep -Eq "^LOG .*$pat" log.txt || fail "log: no line matching /$pat/"
done

# I-vectors against the python re-computation (Kaldi's batch rule for
# online i-vectors: row ((begin + P/2) * fss) / period, clamped).
expect_ok init-ivector "$REF config > iv.config && nnet3-init iv.config iv.raw && nnet3-copy --binary=false iv.raw iv.txt"
gen_feats ivfeats.txt 3 utt1:23 utt2:5 utt3:61
gen_feats ivecs.txt 2 utt1:v utt2:v utt3:v spkA:v
printf 'utt1 spkA\nutt2 spkA\nutt3 spkA\n' > utt2spk
ivshapes="23x3 5x3 61x3"
expect_ok ivectors "nnet3-compute-batch --ivectors=ark,t:ivecs.txt iv.raw ark,t:ivfeats.txt ark,t:iv-out.txt && $REF compute iv.txt ivfeats.txt iv-ref.txt --ivectors=ivecs.txt"
check_archive ivectors iv-out.txt iv-ref.txt 1e-4 $ivshapes 2> "$TMP/check.err"
expect_ok utt2spk "nnet3-compute-batch --minibatch-size=2 --ivectors=ark,t:ivecs.txt --utt2spk=ark:utt2spk iv.raw ark,t:ivfeats.txt ark,t:spk-out.txt && $REF compute iv.txt ivfeats.txt spk-ref.txt --ivectors=ivecs.txt --utt2spk=utt2spk"
check_archive utt2spk spk-out.txt spk-ref.txt 1e-4 $ivshapes 2> "$TMP/check.err"
gen_feats online.txt 2 utt1:3 utt2:1 utt3:5
for o in "50 1" "7 1" "20 1" "9 3" "8 2"; do
  set -- $o
  expect_ok online-$1-$2 "nnet3-compute-batch --minibatch-size=3 --frames-per-chunk=$1 --frame-subsampling-factor=$2 --online-ivectors=ark,t:online.txt --online-ivector-period=10 iv.raw ark,t:ivfeats.txt ark,t:on-out.txt && $REF compute iv.txt ivfeats.txt on-ref.txt --online-ivectors=online.txt --period=10 --frames-per-chunk=$1 --fss=$2 --rule=batch"
  check_archive online-$1-$2 on-out.txt on-ref.txt 1e-4 $(python3 -c "print(' '.join('%dx3' % ((n + $2 - 1) // $2) for n in (23, 5, 61)))") 2> "$TMP/check.err"
done
# Kaldi's batch rule differs from nnet3-compute's there.
expect_ok online-simple "nnet3-compute --frames-per-chunk=20 --online-ivectors=ark,t:online.txt --online-ivector-period=10 iv.raw ark,t:ivfeats.txt ark,t:on-simple.txt && nnet3-compute-batch --frames-per-chunk=20 --online-ivectors=ark,t:online.txt --online-ivector-period=10 iv.raw ark,t:ivfeats.txt ark,t:on-batch.txt"
archives_differ on-simple.txt on-batch.txt 1e-3 || fail "online: the batch rule gave nnet3-compute's output"

# Bad input: bad utterances are skipped with a warning naming them.
gen_feats feats13.txt 13 bad1:9
cat feats.txt feats13.txt > mixed.txt
gen_feats feats40b.txt 40 last:7
cat feats40b.txt >> mixed.txt
expect_ok dim-mismatch "nnet3-compute-batch rand.raw ark,t:mixed.txt ark,t:mixed-out.txt 2> mlog.txt; grep -q \"^WARNING .*Utterance 'bad1': the features have dimension 13 but the network's 'input' needs dimension 40; skipping it\" mlog.txt && grep -q 'Done 8 utterances, failed for 1' mlog.txt"
expect_ok dim-mismatch-keys "grep -q '^last  \\[' mixed-out.txt && ! grep -q '^bad1' mixed-out.txt"
expect_ok missing-ivector "grep -v '^utt2' ivecs.txt > ivecs2.txt && nnet3-compute-batch --ivectors=ark,t:ivecs2.txt iv.raw ark,t:ivfeats.txt ark,t:iv2.txt 2> log2.txt; grep -q 'WARNING.*No iVector available for utterance utt2' log2.txt && grep -q 'Done 2 utterances, failed for 1' log2.txt"
awk '/^utt2 /{skip=1} !skip{print} skip&&/\]$/{skip=0}' iv-ref.txt > iv2-ref.txt
check_archive missing-ivector iv2.txt iv2-ref.txt 1e-4 23x3 61x3 2> "$TMP/check.err"
gen_feats online-empty.txt 2 utt1:3 utt3:5
printf 'utt2 [\n  ]\n' >> online-empty.txt
expect_ok empty-online "nnet3-compute-batch --online-ivectors=ark,t:online-empty.txt --online-ivector-period=10 iv.raw ark,t:ivfeats.txt ark,t:- > /dev/null 2> elog.txt; grep -q \"^WARNING .*Utterance 'utt2': the online i-vector matrix is empty\" elog.txt && grep -q 'Done 2 utterances, failed for 1' elog.txt"
expect_error all-bad "No utterance succeeded \(1 failed\) from 'ark,t:feats13.txt'" "nnet3-compute-batch rand.raw ark,t:feats13.txt ark,t:-"
: > empty.ark
expect_error empty-archive "No utterance succeeded \(0 failed\)" "nnet3-compute-batch rand.raw ark:empty.ark ark,t:-"
expect_error use-priors "rand\.raw.*--use-priors needs an acoustic model" "nnet3-compute-batch --use-priors rand.raw ark:feats.ark ark,t:-"
expect_error missing-features "Cannot open 'feats-missing.ark' for reading: No such file or directory" "nnet3-compute-batch rand.raw ark:feats-missing.ark ark,t:-"
expect_error bad-minibatch "--minibatch-size \(0\) and --edge-minibatch-size \(32\) must be >= 1" "nnet3-compute-batch --minibatch-size=0 rand.raw ark:feats.ark ark,t:-"
expect_error bad-factor "--partial-minibatch-factor must be in \[0, 1\), got 1" "nnet3-compute-batch --partial-minibatch-factor=1 rand.raw ark:feats.ark ark,t:-"
printf 'x  [\n  1 2 3\n' > truncated.txt
expect_error truncated-archive "file 'truncated.txt', key 'x': Text matrix ended without '\]'" "nnet3-compute-batch rand.raw ark,t:truncated.txt ark,t:/dev/null"

# Usage.
expect_ok help "nnet3-compute-batch --help 2> h.txt; grep -q 'Usage: nnet3-compute-batch' h.txt && grep -q -- '--minibatch-size' h.txt && grep -q -- '--edge-minibatch-size' h.txt && grep -q -- '--partial-minibatch-factor' h.txt && grep -q -- '--ensure-exact-final-context' h.txt && grep -q -- '--online-ivector-period' h.txt && grep -q -- '--use-priors' h.txt && grep -q -- '--use-gpu=yes computes the' h.txt && ! grep -q 'no CUDA backend yet' h.txt"
nnet3-compute-batch a b > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "wrong arg count must exit 1"

# Output nodes that read the input node directly, spliced or not (issue 28):
# the bytes Kaldi's nnet3-compute writes (tests/data/nnet/direct-io/README).
DIO="$DATA/nnet/direct-io"
for n in direct append offset; do
  for o in "" "--frames-per-chunk=3"; do
    expect_ok "direct-io-$n[$o]" "nnet3-init '$DIO/$n.config' dio.raw && nnet3-compute-batch $o dio.raw ark,t:'$DIO/feats.txt' ark,t:dio-$n.txt"
    same_file "direct-io-$n[$o]" dio-$n.txt "$DIO/kaldi-$n.txt"
  done
done
finish
