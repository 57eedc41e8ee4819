#!/usr/bin/env bash
# The egs tools end to end: nnet3-get-egs from a generated feature archive
# and Kaldi text posteriors; merge -> shuffle -> copy -> subset chains with
# the counts checked; golden archives copied byte for byte; shuffle
# determinism; and bad input (pdf >= --num-pdfs, length mismatch, empty
# archives).
BIN=$1 DATA=$2
EGS=$DATA/train
. "$(dirname "$0")/lib.sh"

# count ARCHIVE: the number of egs in an egs archive.
count() { nnet3-copy-egs "$1" ark,t:- 2> /dev/null | grep -o '<Nnet3Eg>' | wc -l; }
# keys ARCHIVE: the keys in order, one per line.
keys() { nnet3-copy-egs "$1" ark,t:- 2> /dev/null | grep -o '[^ ]* <Nnet3Eg>' | cut -d' ' -f1; }

# Features: utt1 20 frames, utt2 13, utt3 7, utt4 3 (dim 4, row r = r..r+3).
awk 'BEGIN {
  split("20 13 7 3", len, " ");
  for (u = 1; u <= 4; u++) {
    printf "utt%d  [", u;
    for (r = 0; r < len[u]; r++) printf "\n  %d %d %d %d ", r, r + 1, r + 2, r + 3;
    printf "]\n";
  } }' > feats.txt
# Posteriors in Kaldi text form: pdf (frame mod 5), one frame split 0.5/0.5.
awk 'BEGIN {
  split("20 13 7 3", len, " ");
  for (u = 1; u <= 4; u++) {
    printf "utt%d ", u;
    for (t = 0; t < len[u]; t++)
      if (t == 1) printf "[ 0 0.5 1 0.5 ] "; else printf "[ %d 1 ] ", t % 5;
    printf "\n";
  } }' > post.txt
expect_ok feats "copy-feats ark,t:feats.txt ark:feats.ark"

# nnet3-get-egs as Kaldi's: where Kaldi makes no random choice, the very
# bytes Kaldi writes (tests/data/train/make-golden-get-egs.py works them
# out from the format and Kaldi's splitting rule), whatever --srand.
expect_ok golden-feats "copy-feats ark,t:$EGS/get-egs-feats.txt ark:gfeats.ark"
for s in 0 3; do
  expect_ok "get-egs-golden-$s" "nnet3-get-egs --srand=$s --num-pdfs=3 --num-frames=8 --left-context=2 --right-context=1 --compress=false ark:gfeats.ark ark,t:$EGS/get-egs-post.txt ark:golden.egs"
  same_file "get-egs-golden-$s" golden.egs "$EGS/get-egs-kaldi.egs"
done
# Kaldi's end-of-run lines (overlaps: 2 + 2 in uttA, 3 in uttB, of 40).
grep -q 'Not producing egs for utterance uttC because it is too short: 7 frames.' "$TMP/err" ||
  fail "uttC not reported as too short"
grep -q 'Split 3 utts, with total length 40 frames (0.000111111 hours assuming 100 frames per second) into 5 chunks.$' "$TMP/err" ||
  fail "get-egs log: $(grep Split "$TMP/err")"
grep -q 'Average chunk length was 8 frames; overlap between adjacent chunks was 17.5% of input length; length of output was 100% of input length (minus overlap = 82.5%).$' "$TMP/err" ||
  fail "get-egs log: $(grep Average "$TMP/err")"
grep -q 'distributed among chunk-sizes' "$TMP/err" && fail "one chunk size: no distribution line"

# --num-frames=8,4 with --srand=0 (Kaldi's draws, as Kaldi's program makes
# them): utt1 (20 frames) is {4,8,8}, drawn in that order: [0,4) [4,12)
# [12,20); utt2 (13) draws {4,8} of {4,4,8}, {4,8}, {8,8}, its gap of 1
# frame last: [0,4) [4,12) (Kaldi puts that gap in any of its 3 places, from
# std::random_device); utt3 (7) can only be {4,4}: [0,4) [3,7); utt4 (3) is
# too short.
GET="nnet3-get-egs --srand=0 --num-pdfs=5 --left-context=3 --right-context=2 --num-frames=8,4"
expect_ok get-egs "$GET ark:feats.ark ark,t:post.txt ark:egs.ark"
grep -q 'Split 4 utts, with total length 43 frames (0.000119444 hours assuming 100 frames per second) into 7 chunks.$' "$TMP/err" ||
  fail "get-egs log: $(grep Split "$TMP/err")"
grep -q 'Output frames are distributed among chunk-sizes as follows: 4 = 40%, 8 = 60%$' "$TMP/err" ||
  fail "get-egs log: $(grep distributed "$TMP/err")"
grep -q 'utt4 because it is too short' "$TMP/err" || fail "utt4 not reported as too short"
[ "$(count ark:egs.ark)" -eq 7 ] || fail "get-egs wrote $(count ark:egs.ark) egs, expected 7"
[ "$(keys ark:egs.ark | tr '\n' ' ')" = "utt1-0 utt1-4 utt1-12 utt2-0 utt2-4 utt3-0 utt3-3 " ] ||
  fail "get-egs keys: $(keys ark:egs.ark | tr '\n' ' ')"
# Other seeds draw other splits, all among Kaldi's candidates.
for s in 1 2 3 4 5 6 7 8; do
  nnet3-get-egs --srand=$s --num-pdfs=5 --num-frames=8,4 ark:feats.ark ark,t:post.txt ark:s$s.ark 2> /dev/null
  k=$(keys ark:s$s.ark | tr '\n' ' ')
  case "$k" in
    "utt1-0 utt1-4 utt1-12 "*|"utt1-0 utt1-8 utt1-16 "*) ;;
    *) fail "--srand=$s: utt1 split $k" ;;
  esac
  case "$k" in
    *"utt3-0 utt3-3 ") ;;
    *) fail "--srand=$s: utt3 split $k" ;;
  esac
  echo "$k" >> seen.txt
done
[ "$(sort -u seen.txt | wc -l)" -gt 1 ] || fail "--srand: every seed gave the same splits"
# --num-frames=1: Kaldi's candidates for every length include one more
# chunk than frames, the extra one overlapping the first (weights 0.5);
# Kaldi's draws take it for utt1, utt2 and utt3 (Kaldi's program writes the
# same 46 egs).
expect_ok get-egs-one "nnet3-get-egs --srand=0 --num-pdfs=5 --num-frames=1 --compress=false ark:feats.ark ark,t:post.txt ark,t:one.txt"
[ "$(grep -c '<Nnet3Eg>' one.txt)" -eq 46 ] || fail "--num-frames=1: $(grep -c '<Nnet3Eg>' one.txt) egs for 43 frames, expected 46"
[ "$(grep -o '[^ ]* <Nnet3Eg>' one.txt | grep -c '^utt1-0 ')" -eq 2 ] || fail "--num-frames=1: no overlapping chunk at utt1-0"
grep -q 'rows=1 dim=5 \[ 0 0.5 \] $' one.txt || fail "--num-frames=1: no weight 0.5"
expect_ok get-egs-text "$GET --compress=false ark:feats.ark ark,t:post.txt ark,t:egs.txt"
grep -q '^utt1-0 <Nnet3Eg> <NumIo> 2 <NnetIo> input <I1V> 9 <I1> 0 -3 0 ' egs.txt ||
  fail "input indexes do not start at t=-3"
# utt1-12 is the end chunk: its last two input rows repeat frame 19.
grep -A13 '^</NnetIo> </Nnet3Eg> utt1-12 ' egs.txt | tail -3 | tr -s ' ' > end.txt
printf ' 19 20 21 22 \n 19 20 21 22 ]\n' > end-want.txt
tail -2 end.txt | cmp -s - end-want.txt || fail "end padding: $(cat end.txt)"
grep -q 'rows=4 dim=5 \[ 0 1 \] dim=5 \[ 0 0.5 1 0.5 \] ' egs.txt || fail "utt1-0 labels"
# utt3's chunks overlap on frame 3: weight 0.5 there (pdf 3).
grep -A14 '^</NnetIo> </Nnet3Eg> utt3-3 ' egs.txt | grep -q 'rows=4 dim=5 \[ 3 0.5 \] dim=5 \[ 4 1 \] ' ||
  fail "overlap weights of utt3-3"
# Frame subsampling 2: posteriors at half rate, output t = 0, 2.
awk '{ printf "%s ", $1; n = 0; for (i = 2; i <= NF; i++) { if ($i == "[") n++;
       if (n % 2 == 1) printf "%s ", $i; } printf "\n" }' post.txt > post2.txt
# Chunks of 2 output frames: utt1 (10 output frames) five; utt2 (7) {4,4}
# plus a principal one, or {4,4,4} plus one (Kaldi's draws take the
# former); utt3 (4) two; utt4 is too short.
expect_ok get-egs-fss "nnet3-get-egs --srand=0 --num-pdfs=5 --num-frames=4 --frame-subsampling-factor=2 ark:feats.ark ark,t:post2.txt ark,t:fss.txt"
[ "$(grep -c '<Nnet3Eg>' fss.txt)" -eq 10 ] || fail "fss: $(grep -c '<Nnet3Eg>' fss.txt) egs, expected 10"
grep -q '<NnetIo> output <I1V> 2 <I1> 0 0 0 <I1> 0 2 0 rows=2 ' fss.txt || fail "fss output indexes"
expect_ok get-egs-whole "$GET --num-frames=-1 ark:feats.ark ark,t:post.txt ark:whole.ark"
[ "$(count ark:whole.ark)" -eq 4 ] || fail "--num-frames=-1 wrote $(count ark:whole.ark) egs, expected 4"

# iVectors every 2 frames (utt3 has none: reported and skipped).
awk 'BEGIN { split("10 7 0 2", len, " ");
  for (u = 1; u <= 4; u++) if (len[u] > 0) { printf "utt%d  [", u;
    for (r = 0; r < len[u]; r++) printf "\n  %d -%d ", 100 * u + r, r; printf "]\n"; } }' > ivec.txt
expect_ok ivectors "copy-feats ark,t:ivec.txt ark:ivec.ark && $GET --online-ivectors=ark:ivec.ark --online-ivector-period=2 ark:feats.ark ark,t:post.txt ark,t:iv.txt"
[ "$(grep -c '<NnetIo> ivector <I1V> 1 <I1> 0 0 0 ' iv.txt)" -eq 5 ] || fail "ivector io: $(grep -c '<NnetIo> ivector' iv.txt), expected 5"
grep -q 'No iVectors for utterance utt3' "$TMP/err" || fail "missing iVectors not reported"
# Which row each eg gets (row r of utt u is [100u+r, -r]): Kaldi's rule is
# the row of a random frame in [s, s + T - 1], s the chunk's first input
# frame and T the utterance's length (not the chunk's), clamped to the
# matrix. Over seeds 0..7 every eg's row is its own utterance's and in
# that range; the rows vary; and utt1-0 (s = -3) draws a row past 4, the
# last one a range of the chunk's 13 input frames would allow.
for s in 0 1 2 3 4 5 6 7; do
  nnet3-get-egs --srand=$s --num-pdfs=5 --left-context=3 --right-context=2 --num-frames=8,4 \
    --online-ivectors=ark:ivec.ark --online-ivector-period=2 ark:feats.ark ark,t:post.txt ark,t:- \
    2> /dev/null >> iv-seeds.txt
done
python3 - iv-seeds.txt 2> iv-rows.err <<'PY' || fail "ivector rows: $(tail -1 iv-rows.err)"
import re, sys
lengths, rows = {1: 20, 2: 13, 4: 3}, {1: 10, 2: 7, 4: 2}
egs = re.findall(r'(utt(\d+)-(\d+)) <Nnet3Eg> <NumIo> 3 <NnetIo> input <I1V> \d+ <I1> 0 (-?\d+) '
                 r'.*?<NnetIo> ivector <I1V> 1 <I1> 0 0 0\s+\[\s*(\S+) (\S+) \]',
                 open(sys.argv[1]).read(), re.S)
assert len(egs) >= 8 * 5, 'only %d egs with an ivector' % len(egs)
drawn = {}
for key, u, first, t0, a, b in egs:
    u, start = int(u), int(first) + int(t0)
    r = -int(float(b))
    assert int(float(a)) == 100 * u + r, '%s got a row of another utterance: [%s %s]' % (key, a, b)
    lo = min(max(start // 2, 0), rows[u] - 1)
    hi = min(max((start + lengths[u] - 1) // 2, 0), rows[u] - 1)
    assert lo <= r <= hi, '%s (first input frame %d) got row %d, not in [%d, %d]' % (key, start, r, lo, hi)
    drawn.setdefault(key, set()).add(r)
assert len(set().union(*drawn.values())) > 3, 'rows drawn: %s' % drawn
assert max(drawn['utt1-0']) > 4, 'utt1-0 drew only rows %s' % sorted(drawn['utt1-0'])
print('ivector rows drawn over 8 seeds:', {k: sorted(v) for k, v in sorted(drawn.items())})
PY
expect_ok ivectors-alias "$GET --ivectors=ark:ivec.ark --online-ivector-period=2 ark:feats.ark ark,t:post.txt ark,t:iv2.txt"
[ "$(grep -c '<NnetIo> ivector' iv2.txt)" -eq 5 ] || fail "--ivectors alias"

# Merge -> shuffle -> copy -> subset chains.
expect_ok merge "nnet3-merge-egs --minibatch-size=2 ark:egs.ark ark:merged.ark"
# Size 8 (5 egs): 2 + 2, one discarded; size 4 (2 egs): 2.
[ "$(count ark:merged.ark)" -eq 3 ] || fail "merge wrote $(count ark:merged.ark) minibatches, expected 3"
grep -q 'Discarded 1 egs' "$TMP/err" || fail "discarded eg not reported"
[ "$(keys ark:merged.ark | tr '\n' ' ')" = "merged-0-2 merged-1-2 merged-2-2 " ] ||
  fail "merged keys: $(keys ark:merged.ark | tr '\n' ' ')"
expect_ok merge-deprecated "nnet3-merge-egs --minibatch-size=3,1 --measure-output-frames=false --discard-partial-minibatches=true --compress ark:egs.ark ark:m2.ark"
[ "$(count ark:m2.ark)" -eq 3 ] || fail "--minibatch-size=3,1 wrote $(count ark:m2.ark), expected 3"
expect_ok chain "nnet3-shuffle-egs --srand=3 ark:egs.ark ark:- | nnet3-copy-egs ark:- ark:c1.ark ark:c2.ark && nnet3-subset-egs --n=3 ark:c1.ark ark:sub.ark"
[ "$(count ark:c1.ark)" -eq 4 ] && [ "$(count ark:c2.ark)" -eq 3 ] ||
  fail "round-robin copy: $(count ark:c1.ark) + $(count ark:c2.ark), expected 4 + 3"
[ "$(count ark:sub.ark)" -eq 3 ] || fail "subset wrote $(count ark:sub.ark), expected 3"
expect_ok chain-random-frame "nnet3-copy-egs --frame=random --srand=2 ark:egs.ark ark:random.ark"
[ "$(count ark:random.ark)" -eq 7 ] || fail "--frame=random wrote $(count ark:random.ark), expected 7"
expect_ok chain-merge "nnet3-shuffle-egs --buffer-size=3 ark:egs.ark ark:- | nnet3-copy-egs --frame=0 --left-context=1 --right-context=1 ark:- ark:- | nnet3-merge-egs --minibatch-size=7 ark:- ark,t:single.txt"
[ "$(grep -c '<Nnet3Eg>' single.txt)" -eq 1 ] || fail "7 single-frame egs should merge into 1"
grep -q '<NnetIo> input <I1V> 21 ' single.txt || fail "single-frame egs should have 3 input rows each"
expect_ok keep-proportion "nnet3-copy-egs --keep-proportion=2 ark:egs.ark ark:double.ark"
[ "$(count ark:double.ark)" -eq 14 ] || fail "--keep-proportion=2 wrote $(count ark:double.ark)"

# Shuffle determinism.
expect_ok shuffle-a "nnet3-shuffle-egs --srand=5 ark:egs.ark ark:s5a.ark && nnet3-shuffle-egs --srand=5 ark:egs.ark ark:s5b.ark && nnet3-shuffle-egs --srand=6 ark:egs.ark ark:s6.ark"
same_file shuffle-same-seed s5a.ark s5b.ark
cmp -s s5a.ark s6.ark && fail "different --srand gave the same order"
[ "$(keys ark:s5a.ark | sort | tr '\n' ' ')" = "$(keys ark:egs.ark | sort | tr '\n' ' ')" ] ||
  fail "shuffle lost or duplicated egs"

# Golden archives copy byte for byte, binary <-> text.
for g in full-sparse ivector; do
  expect_ok "golden-$g" "nnet3-copy-egs ark:$EGS/$g.egs ark:$g.bin && nnet3-copy-egs ark:$EGS/$g.egs ark,t:$g.txt && nnet3-copy-egs ark:$EGS/$g.egs.txt ark:$g.bin2"
  same_file "golden-$g-binary" $g.bin "$EGS/$g.egs"
  same_file "golden-$g-text" $g.txt "$EGS/$g.egs.txt"
  same_file "golden-$g-text-to-binary" $g.bin2 "$EGS/$g.egs"
done

# Bad input.
sed 's/^utt2 \[ 0 1 \]/utt2 [ 7 1 ]/' post.txt > badpdf.txt
expect_error pdf-too-large "utt2.*pdf index 7.*--num-pdfs=5" "$GET ark:feats.ark ark,t:badpdf.txt ark:/dev/null"
awk '$1 == "utt3" { $0 = "utt3 [ 0 1 ] [ 1 1 ]" } { print }' post.txt > short.txt
expect_ok length-mismatch "$GET ark:feats.ark ark,t:short.txt ark:short.ark"
grep -q 'WARNING.*utterance utt3: expected length = 7, got 2' "$TMP/err" || fail "length mismatch not reported"
[ "$(count ark:short.ark)" -eq 5 ] || fail "length mismatch: wrote $(count ark:short.ark) egs, expected 5"
expect_error no-num-pdfs "num-pdfs" "nnet3-get-egs ark:feats.ark ark,t:post.txt ark:/dev/null"
expect_error bad-num-frames "num-frames=8,x" "nnet3-get-egs --num-pdfs=5 --num-frames=8,x ark:feats.ark ark,t:post.txt ark:/dev/null"
: > empty.ark
expect_error merge-empty "No examples were read" "nnet3-merge-egs ark:empty.ark ark:/dev/null"
expect_error copy-empty "No examples were read" "nnet3-copy-egs ark:empty.ark ark:/dev/null"
expect_error shuffle-empty "No examples were read" "nnet3-shuffle-egs ark:empty.ark ark:/dev/null"
expect_error copy-nothing-kept "No examples were written" "nnet3-copy-egs --keep-proportion=0 ark:egs.ark ark:/dev/null"
expect_error merge-all-discarded "all 7 examples were discarded" "nnet3-merge-egs ark:egs.ark ark:/dev/null"
expect_error bad-minibatch-size "minibatch-size=64/32" "nnet3-merge-egs --minibatch-size=64/32 ark:egs.ark ark:/dev/null"
expect_error merge-merged-frame "Too late" "nnet3-copy-egs --frame=0 ark:merged.ark ark:/dev/null"
head -c 100 egs.ark > truncated.ark
# The reader names the archive and the example it was reading.
expect_error truncated "truncated\.ark.*utt1-0.*truncated" "nnet3-copy-egs ark:truncated.ark ark:/dev/null"
for p in nnet3-get-egs nnet3-merge-egs nnet3-shuffle-egs nnet3-copy-egs nnet3-subset-egs; do
  $p > /dev/null 2> usage.txt
  [ $? -eq 1 ] || fail "$p without arguments should exit 1"
  grep -q "Usage: *$p" usage.txt || fail "$p usage text"
done

# Kaldi's draws (issue 28): for the same input, the bytes Kaldi's
# nnet3-get-egs writes (tests/data/train/get-egs-draws/README has Kaldi's
# commands): the split chosen for each utterance, its order and each eg's
# i-vector frame come from rand() as Kaldi's.
DRAWS="$EGS/get-egs-draws"
expect_ok draws-feats "copy-feats ark,t:$DRAWS/feats.txt ark:dfeats.ark"
expect_ok draws-one-frame "nnet3-get-egs --num-pdfs=5 --num-frames=1 --left-context=2 --right-context=1 --compress=false --online-ivectors=ark,t:$DRAWS/ivec.txt --online-ivector-period=3 ark:dfeats.ark ark,t:$DRAWS/post.txt ark:d1.egs"
same_file draws-one-frame d1.egs "$DRAWS/kaldi-one-frame.egs"
expect_ok draws-3-2 "nnet3-get-egs --num-pdfs=5 --num-frames=3,2 --left-context=1 --right-context=2 --compress=false ark:dfeats.ark ark,t:$DRAWS/post.txt ark:d32.egs"
same_file draws-3-2 d32.egs "$DRAWS/kaldi-3-2.egs"
# The same draws in Kaldi's nnet3-copy-egs (--keep-proportion, --random,
# --frame=random), nnet3-shuffle-egs --buffer-size and nnet3-subset-egs:
# Kaldi's egs listed by key and first output t (see the README).
sig() { nnet3-copy-egs "$1" ark,t:- 2> /dev/null | awk '/<Nnet3Eg>/ { for (i = 1; i <= NF; i++) if ($(i+1) == "<Nnet3Eg>") key = $i }
  { for (i = 1; i <= NF; i++) if ($i == "output" && $(i-1) == "<NnetIo>") print key, $(i+5) }'; }
expect_ok draws-sampling "nnet3-copy-egs --srand=3 --random=true --keep-proportion=1.5 --frame=random ark:d32.egs ark:c1.egs ark:c2.egs && nnet3-shuffle-egs --srand=2 --buffer-size=4 ark:d32.egs ark:sh.egs && nnet3-subset-egs --srand=1 --n=6 ark:d32.egs ark:su.egs"
{ echo "# nnet3-copy-egs output 1"; sig ark:c1.egs; echo "# nnet3-copy-egs output 2"; sig ark:c2.egs
  echo "# nnet3-shuffle-egs"; sig ark:sh.egs; echo "# nnet3-subset-egs"; sig ark:su.egs; } > sampling.txt
same_file draws-sampling sampling.txt "$DRAWS/kaldi-sampling.txt"
finish
