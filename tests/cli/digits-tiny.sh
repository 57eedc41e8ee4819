#!/usr/bin/env bash
# The spoken-digits recipe (egs/digits) in its tiny version (--tiny true: 240
# training and 60 test utterances, a 64-wide TDNN, two iterations), on a copy
# of the recipe in a temporary directory, from stage 1 (the suite's build has
# the programs). Checks the word error rates of both test sets, the CTM, that
# the alignments from espeak's phoneme events have the features' frame counts,
# the plots, and the one-line errors for a stage past the end and a voice
# espeak-ng does not have.
BIN=$(cd "$1" && pwd)  # ($2, the test data directory, is not needed)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

need espeak-ng "/usr/bin/python3 -c \"import ctypes; ctypes.CDLL('libespeak-ng.so.1')\""
need python3-numpy "/usr/bin/python3 -c 'import numpy'"
need sox 'command -v sox'
need gnuplot-nox 'command -v gnuplot'

cp -rL "$ROOT/egs/digits" recipe && rm -rf recipe/data recipe/exp
cd recipe || exit 99
export NNET3_ROOT=$ROOT NNET3_BUILD
NNET3_BUILD=$(dirname "$BIN")

# one_line_error NAME REGEX ARGS...: run.sh ARGS exits 1 with one line on
# stderr, matching REGEX.
one_line_error() {
  local name=$1 pattern=$2; shift 2
  ./run.sh "$@" > "$TMP/out" 2> "$TMP/err"
  local status=$?
  if [ $status -ne 1 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ] ||
     ! grep -Eq -- "$pattern" "$TMP/err"; then
    fail "$name: expected exit 1 and one line /$pattern/, got $status:"
    sed 's/^/  stderr: /' "$TMP/err" | tail -5
  fi
}
one_line_error stage-past-end 'stage must be 0 \.\. 8' --stage 9
one_line_error missing-voice "no voice 'en-us\+m99'" --stage 1 --tiny true --test-variants m99

if ! ./run.sh --tiny true --stage 1 > "$TMP/run.log" 2>&1; then
  fail "run.sh --tiny true failed"; tail -20 "$TMP/run.log" | sed 's/^/  /'
fi

# Word error rates. Chance: a system that knows the number of digits but
# guesses each (11 words) gets about 91% (10 in 11 substituted); one that
# says nothing gets 100%. The tiny run is deterministic and gets 3.83%
# (clean) and 4.60% (white noise at 10 dB); the bounds, 20% and 30%, are far
# below anything an untrained or misaligned model reaches.
for set_bound in test:20 test_noisy:30; do
  set=${set_bound%:*} bound=${set_bound#*:}
  wer=$(sed -n "s/^tdnn $set wer \([0-9.]*\)$/\1/p" exp/results.txt 2> /dev/null)
  if [ -z "$wer" ]; then
    fail "$set: no 'tdnn $set wer <value>' line in exp/results.txt"
  elif ! awk -v w="$wer" -v b="$bound" 'BEGIN { exit !(w <= b) }'; then
    fail "$set: WER $wer% is above $bound% (chance is about 91%)"
  fi
done

# The CTM: "<utt> 1 <start> <duration> <digit word>", inside the utterance
# (its frame count from the features), and about one line per reference word.
ctm=exp/tdnn/decode_test/ctm
if [ ! -s $ctm ]; then
  fail "no CTM $ctm"
else
  bad=$(awk 'NR == FNR { secs[$1] = $2 / 100 + 0.015; next }
    !(NF == 5 && ($1 in secs) && $2 == 1 && $3 >= 0 && $4 > 0 && $3 + $4 <= secs[$1] &&
      $5 ~ /^(zero|oh|one|two|three|four|five|six|seven|eight|nine)$/) { print; exit }' \
    data/test/utt2num_frames $ctm)
  [ -z "$bad" ] || fail "bad CTM line: $bad"
  words=$(awk '{ n += NF - 1 } END { print n }' data/test/text)
  lines=$(wc -l < $ctm)
  awk -v l="$lines" -v w="$words" 'BEGIN { exit !(l >= 0.8 * w && l <= 1.2 * w) }' ||
    fail "$lines CTM lines for $words reference words"
fi

# The alignment (one pdf per frame) has each training utterance's feature
# frame count (feat-to-len of the features themselves, not the recipe's
# utt2num_frames), and the pdfs are the tree's.
feat-to-len scp:data/train/feats.scp ark,t:"$TMP/len" 2> /dev/null
bad=$(awk -v n="$(cat exp/tdnn/num_pdfs 2> /dev/null)" 'NR == FNR { len[$1] = $2; next }
  !bad && (!($1 in len) || NF - 1 != len[$1]) { print $1 ": " NF - 1 " frames"; bad = 1 }
  !bad { for (i = 2; i <= NF; i++) if ($i >= n) { print $1 ": pdf " $i " of " n; bad = 1; break } }
  END { if (!bad && FNR != length(len)) print FNR " aligned utterances of " length(len) }' \
  "$TMP/len" exp/tdnn/ali.pdf 2>&1)
[ -z "$bad" ] || fail "alignment: $bad"

for f in exp/tdnn/progress.png exp/tdnn/wer.png exp/tdnn/graph/HCLG.fst exp/tdnn/final.mdl; do
  [ -s $f ] || fail "no $f"
done
grep -q "nnet3-latgen-faster-batch" exp/tdnn/decode_test/log/decode.1.log 2> /dev/null ||
  fail "the test set was not decoded with nnet3-latgen-faster-batch"
finish
