#!/usr/bin/env bash
# The lattice and scoring programs against golden outputs of Kaldi's own
# programs (tests/data/lattice-tools/make-golden.sh: lattices of the Kaldi
# reference system, the test HMM model's alignments), our scoring script
# (egs/utils/score.sh) against the WERs of Kaldi's steps/score_kaldi.sh on
# the same lattices, and bad input: a truncated archive, a missing
# hypothesis, bad options, one-line errors naming the key.
BIN=$1 DATA=$2
UTILS=$(cd "$(dirname "$0")/../../egs/utils" && pwd)
. "$(dirname "$0")/lib.sh"
G=$DATA/lattice-tools
L=ark,t:$G/lat.txt
M=$DATA/train/hmm.mdl

# --- Lattice archives, compared by their MD5 sums (golden.md5).
printf 'te01-0007\nte03-0001 x\n' > keys
expect_ok copy "lattice-copy $L ark:lat.ark"
expect_ok copy-lattice "lattice-copy --write-compact=false $L ark:copy-lattice.ark"
expect_ok copy-include "lattice-copy --include=keys $L ark,t:copy-include.ark"
expect_ok copy-exclude "lattice-copy --exclude=keys $L ark:copy-exclude.ark"
expect_ok scale-inv7 "lattice-scale --inv-acoustic-scale=7 $L ark:scale-inv7.ark"
expect_ok scale-cross "lattice-scale --lm-scale=0.5 --acoustic-scale=0.1 \
  --acoustic2lm-scale=0.2 --lm2acoustic-scale=0.3 $L ark:scale-cross.ark"
expect_ok scale-lattice "lattice-scale --write-compact=false \
  --inv-acoustic-scale=13 $L ark:scale-lattice.ark"
expect_ok penalty "lattice-add-penalty --word-ins-penalty=0.5 $L ark:penalty.ark"
expect_ok prune "lattice-prune --inv-acoustic-scale=10 --beam=2 $L ark,t:prune-b2.txt"
expect_ok 1best "lattice-1best --acoustic-scale=0.1 --word-ins-penalty=1 $L ark,t:1best.txt"
expect_ok best-path "lattice-best-path --acoustic-scale=0.1 $L \
  ark,t:best-words.txt ark:best-ali.ark"
expect_ok det-grid "lattice-determinize-pruned --acoustic-scale=0.5 --beam=3 \
  ark,t:$DATA/lat/raw-grid.txt ark,t:det-grid-b3.txt"
expect_ok det-tie-min "lattice-determinize-pruned --acoustic-scale=0.5 --beam=4 \
  --minimize=true ark,t:$DATA/lat/raw-tie.txt ark:det-tie-min.ark"
while read -r sum name; do
  if [ "$(md5sum < "$name" 2> /dev/null | cut -d' ' -f1)" != "$sum" ]; then
    fail "$name differs from Kaldi's (MD5 in $G/golden.md5)"
  fi
done < "$G/golden.md5"
# Exactly what copy-include should hold, beyond its sum.
[ "$(grep -c '^te' copy-include.ark)" = 2 ] || fail "copy-include: not 2 lattices"

# --- Text outputs.
expect_ok det-lattice "lattice-determinize-pruned --acoustic-scale=0.1 --beam=3 \
  --write-compact=false ark,t:$G/raw-real.txt ark,t:det-real-lattice.txt"
same_file det-lattice det-real-lattice.txt "$G/det-real-lattice.txt"
same_file best-words best-words.txt "$G/best-words.txt"
lattice-best-path --acoustic-scale=0.1 "$L" ark,t:- 2> /dev/null |
  "$UTILS/int2sym.sh" -f 2- "$G/words.txt" > hyp10.txt
same_file int2sym hyp10.txt "$G/hyp10.txt"
expect_ok wer-present "compute-wer --text --mode=present ark:$G/text \
  ark,p:$G/hyp10.txt > wer-present.txt"
same_file wer-present wer-present.txt "$G/wer-present.txt"
expect_ok wer-all "compute-wer --mode=all ark:$G/text ark:$G/hyp17.txt > wer-all.txt"
same_file wer-all wer-all.txt "$G/wer-all.txt"
expect_ok align-text "align-text ark:$G/text ark:$G/hyp17.txt ark,t:align.txt"
same_file align-text align.txt "$G/align.txt"
expect_ok bootci "compute-wer-bootci --mode=present --replications=1000 \
  ark:$G/text ark:$G/hyp10.txt ark:$G/hyp17.txt > bootci.txt"
same_file bootci bootci.txt "$G/bootci.txt"

# --- Alignments.
A=ark:$G/ali.txt
expect_ok ali-phones "ali-to-phones $M $A ark,t:ali-phones.txt"
expect_ok ali-frames "ali-to-phones --per-frame=true $M $A ark,t:ali-phones-frames.txt"
expect_ok ali-lengths "ali-to-phones --write-lengths=true $M $A ark,t:ali-lengths.txt"
expect_ok ali-ctm "ali-to-phones --ctm-output $M $A ali.ctm"
expect_ok ali-pdf "ali-to-pdf $M $A ark,t:ali-pdfs.txt"
expect_ok ali-post "ali-to-post $A ark,t:ali-post.txt"
expect_ok show-ali "show-alignments $G/phones.txt $M $A > show-alignments.txt"
for f in ali-phones.txt ali-phones-frames.txt ali-lengths.txt ali.ctm \
         ali-pdfs.txt ali-post.txt show-alignments.txt; do
  same_file "$f" "$f" "$G/$f"
done

# --- Our scoring script: Kaldi's WERs at every LM weight and penalty, and
# the same best one.
mkdir -p s/data s/graph s/decode
cp "$G/text" s/data/; cp "$G/words.txt" s/graph/
lattice-copy "$L" "ark:|gzip -c > s/decode/lat.1.gz" 2> /dev/null
expect_ok score "$UTILS/score.sh s/data s/graph s/decode > score.log"
for wip in 0.0 0.5 1.0; do
  for lmwt in $(seq 7 17); do
    echo "wer_${lmwt}_$wip $(grep WER "s/decode/wer_${lmwt}_$wip")"
  done
done > score-wer.txt
sed 's|s/decode/|DIR/|' s/decode/scoring_kaldi/best_wer >> score-wer.txt
same_file score score-wer.txt "$G/score-wer.txt"
tail -1 score.log | grep -q 'DIR' && fail "score: the log shows DIR"
grep -q '^%WER 7.69 .* s/decode/wer_9_0.0$' score.log ||
  fail "score: the best WER line is not printed"
expect_ok score-range "$UTILS/score.sh --min-lmwt 10 --max_lmwt=11 \
  --word-ins-penalty 1.0 s/data s/graph s/decode > /dev/null &&
  grep -q 'wer_10_1.0\$' s/decode/scoring_kaldi/best_wer"
expect_exit score-missing 1 'no such file s/decode/lat.1.gz' \
  "mv s/decode/lat.1.gz s/lat.gz; $UTILS/score.sh s/data s/graph s/decode"
expect_exit score-option 1 'unknown option --beam' \
  "$UTILS/score.sh --beam 4 s/data s/graph s/decode"
echo '%WER 3.00 [ 3 / 100 ] x' > w1; echo 'b:%WER 2.50 [ 5 / 200 ]' > w2
[ "$(cat w1 w2 w2 | "$UTILS/best_wer.sh")" = '%WER 2.50 [ 5 / 200 ] b' ] ||
  fail "best_wer.sh: not the lowest line with its file at the end"
expect_exit int2sym-unknown 1 'id 99 .field 2 of line 1' \
  "echo 'u 99' | $UTILS/int2sym.sh -f 2- $G/words.txt"

# --- Exit statuses as Kaldi's: nothing done is 1.
expect_exit copy-none 1 'Wrote 0 out of 6 utterances' \
  "echo nobody > none; lattice-copy --include=none $L ark:/dev/null"
expect_exit copy-none-ignore 0 'Wrote 0 out of 6' \
  "lattice-copy --include=none --ignore-missing $L ark:/dev/null"
expect_exit best-path-empty 1 'Done 0 lattices, failed for 0' \
  "lattice-best-path ark:/dev/null ark,t:/dev/null"
expect_exit usage 1 'Usage: lattice-scale' "lattice-scale ark:a"

# --- Bad input: one ERROR line naming the file and key, exit 1.
# Cut 40 bytes before te03-0001's key: te02-0001's lattice is cut short.
cut=$(grep -abo 'te03-0001 ' lat.ark | cut -d: -f1)
head -c $((cut - 40)) lat.ark > truncated.ark
expect_error truncated "file 'truncated.ark', key 'te02-0001': .*truncated" \
  "lattice-scale --inv-acoustic-scale=10 ark:truncated.ark ark:/dev/null"
expect_error truncated-best "key 'te02-0001'" \
  "lattice-best-path ark:truncated.ark ark,t:/dev/null"
expect_error strict "No hypothesis for key te01-0006" \
  "compute-wer --mode=strict ark:$G/text ark:$G/hyp10.txt"
expect_error strict-bootci "No hypothesis for key te01-0006" \
  "compute-wer-bootci ark:$G/text ark:$G/hyp10.txt"
# A hypothesis whose key the reference lacks is not scored, as by Kaldi's
# compute-wer (no message, exit 0, the same report, in strict mode too);
# align-text, reading the hypotheses first, warns naming the key (Kaldi too).
{ cat "$G/hyp17.txt"; echo "zz-0001 extra words"; } > hyp-extra.txt
expect_ok extra-key "compute-wer --mode=all ark:$G/text ark:hyp-extra.txt > wer-extra.txt"
same_file extra-key wer-extra.txt "$G/wer-all.txt"
{ cat "$G/text"; echo "zz-0001 extra words"; } > ref-extra.txt
expect_ok extra-key-strict "compute-wer --mode=strict ark:$G/text ark:ref-extra.txt > wer-strict.txt"
grep -q '^%WER 0.00 \[ 0 / [1-9][0-9]*, 0 ins, 0 del, 0 sub \]$' wer-strict.txt &&
  grep -q '^Scored 7 sentences, 0 not present in hyp.$' wer-strict.txt ||
  fail "extra-key-strict: $(cat wer-strict.txt)"
expect_exit extra-key-align 0 "Key zz-0001 is in ark:hyp-extra.txt, but not in ark:$G/text" \
  "align-text ark:hyp-extra.txt ark:$G/text ark:/dev/null"
expect_error bad-mode 'expected "present"\|"all"\|"strict", got some' \
  "compute-wer --mode=some ark:$G/text ark:$G/hyp10.txt"
expect_error both-scales 'not both' \
  "lattice-scale --acoustic-scale=0.1 --inv-acoustic-scale=10 $L ark:/dev/null"
expect_error include-exclude 'both --exclude and --include' \
  "lattice-copy --include=keys --exclude=keys $L ark:/dev/null"
expect_error zero-beam 'beam must be positive' \
  "lattice-prune --beam=0 $L ark:/dev/null"
expect_error zero-scale 'zero acoustic scale' \
  "lattice-determinize-pruned --acoustic-scale=0 ark,t:$G/raw-real.txt ark:/dev/null"
expect_error per-frame-lengths 'cannot be used together' \
  "ali-to-phones --per-frame --write-lengths $M $A ark:/dev/null"
expect_error bad-tid 'alignment of u1 has transition-id 15 at frame 1' \
  "echo 'u1 1 15' | ali-to-phones $M ark:- ark:/dev/null"
expect_error special-symbol "utterance te01-0003 contains the special symbol 'rumbas'" \
  "align-text --special-symbol=rumbas ark:$G/text ark:$G/hyp17.txt ark:/dev/null"
finish
