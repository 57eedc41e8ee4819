#!/usr/bin/env bash
# From lattices to word timings, posteriors and MBR: lattice-align-words,
# nbest-to-ctm, lattice-to-post, lattice-mbr-decode, lattice-to-ctm-conf,
# lattice-depth-per-frame against the outputs of Kaldi's programs on the
# same input (tests/data/lat/mbr, made by its make-golden.sh, which lists
# every command): three lattices worked by hand on a 9-phone model
# (hand-*) and three of the Kaldi-built reference system's decode lattices
# with its model (refsys-*). Lattice archives and CTMs must be the same
# bytes; posteriors, Bayes risks, sausages and times the same numbers (to
# 1e-5 relative: they agree exactly today).
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"
G=$DATA/lat/mbr
WB=$G/word_boundary.int MODEL=$G/model.txt
RWB=$G/refsys-word_boundary.int RMODEL="gunzip -c $G/refsys-trans.txt.gz |"

# same_numbers NAME A B: the same tokens on the same lines, numbers within
# 1e-5 relative (1e-5 absolute near zero).
same_numbers() {
  awk -v name="$1" 'NR == FNR { want[FNR] = $0; n = FNR; next }
    { got = FNR; m = split(want[FNR], w); k = split($0, g)
      if (m != k) { print name ": line " FNR ": " k " fields, want " m; bad = 1; exit }
      for (i = 1; i <= k; i++) {
        if (w[i] == g[i]) continue
        if (w[i] ~ /^[-+0-9.e]+$/ && g[i] ~ /^[-+0-9.e]+$/) {
          d = w[i] - g[i]; if (d < 0) d = -d; s = w[i] < 0 ? -w[i] : w[i]
          if (d <= 1e-5 * (s > 1 ? s : 1)) continue
        }
        print name ": line " FNR " field " i ": " g[i] ", want " w[i]; bad = 1; exit
      } }
    END { if (!bad && got != n) { print name ": " got " lines, want " n; bad = 1 }
          exit bad }' "$3" "$2" || fail "$1: $2 differs from $3"
}

# ---- lattice-align-words: Kaldi's aligned lattices ----
expect_ok align-hand "lattice-align-words $WB $MODEL ark,t:$G/hand-lat.txt ark,t:aligned.txt 2> align.log"
same_file align-hand aligned.txt $G/hand-aligned.txt
grep -q "Outputting partial lattice for utt-partial" align.log ||
  fail "align-hand: no warning for the forced-out utt-partial"
grep -q "Successfully aligned 2 lattices; 1 had errors." align.log ||
  fail "align-hand: wrong summary: $(tail -1 align.log)"
expect_ok align-labels "lattice-align-words --silence-label=9 --partial-word-label=10 $WB $MODEL ark,t:$G/hand-lat.txt ark,t:labels.txt"
same_file align-labels labels.txt $G/hand-aligned-labels.txt
expect_ok align-noerr "lattice-align-words --output-error-lats=false $WB $MODEL ark,t:$G/hand-lat.txt ark,t:noerr.txt"
same_file align-noerr noerr.txt $G/hand-aligned-noerr.txt
expect_ok align-refsys "lattice-align-words $RWB '$RMODEL' ark,t:$G/refsys-lat.txt ark:refsys-aligned.ark"
same_file align-refsys refsys-aligned.ark $G/refsys-aligned.ark
expect_ok align-test "lattice-align-words --test=true $RWB '$RMODEL' ark,t:$G/refsys-lat.txt ark:tested.ark"
same_file align-test tested.ark $G/refsys-aligned.ark
# Exit status as Kaldi's: 1 unless more lattices aligned than failed.
expect_exit align-mostly-errors 1 "Successfully aligned 0 lattices; 1 had errors" \
  "lattice-align-words $WB $MODEL 'ark,t:grep -A3 utt-partial $G/hand-lat.txt |' ark:/dev/null"

# ---- nbest-to-ctm: frame subsampling 3, and Kaldi's word-timing pipeline ----
expect_ok ctm-fs3 "lattice-align-words $WB $MODEL ark,t:$G/hand-lat.txt ark:- 2>/dev/null | nbest-to-ctm --frame-shift=0.03 ark:- fs3.ctm 2> ctm.log"
same_file ctm-fs3 fs3.ctm $G/hand-fs003.ctm
grep -q "Lattice is not linear: num-arcs = 2" ctm.log || fail "ctm-fs3: no warning for the non-linear utt-mbr"
expect_ok ctm-fs3-sil "lattice-align-words $WB $MODEL ark,t:$G/hand-lat.txt ark:- 2>/dev/null | nbest-to-ctm --frame-shift=0.03 --print-silence=true --precision=3 ark:- fs3-sil.ctm"
same_file ctm-fs3-sil fs3-sil.ctm $G/hand-fs003-sil.ctm
# refsys-1best.ark is Kaldi's lattice-1best output (lattice-1best is built
# by the lattice-programs branch); with ours when it is there.
expect_ok ctm-pipeline "lattice-align-words $RWB '$RMODEL' ark:$G/refsys-1best.ark ark:- | nbest-to-ctm ark:- refsys.ctm"
same_file ctm-pipeline refsys.ctm $G/refsys-1best.ctm
if [ -x "$BIN/lattice-1best" ]; then
  expect_ok ctm-pipeline-1best "lattice-1best --acoustic-scale=0.1 ark,t:$G/refsys-lat.txt ark:- | lattice-align-words $RWB '$RMODEL' ark:- ark:- | nbest-to-ctm ark:- refsys-1best.ctm"
  same_file ctm-pipeline-1best refsys-1best.ctm $G/refsys-1best.ctm
fi
expect_exit ctm-none 1 "Converted 0 linear lattices to ctm format; 1 had errors" \
  "nbest-to-ctm 'ark,t:grep -A7 utt-mbr $G/hand-lat.txt |' -"

# ---- lattice-to-post: Kaldi's posteriors; each frame's sum to one ----
for s in hand refsys; do
  expect_ok post-$s "lattice-to-post --acoustic-scale=0.1 ark,t:$G/$s-lat.txt ark,t:$s-post.txt ark,t:$s-loglikes.txt"
  same_numbers post-$s $s-post.txt $G/$s-post.txt
  same_numbers loglikes-$s $s-loglikes.txt $G/$s-loglikes.txt
  awk '{ for (i = 2; i <= NF; i++) {
           if ($i == "[") { sum = 0; odd = 1; continue }
           if ($i == "]") { if (sum < 0.9999 || sum > 1.0001) { print $1 ": a frame sums to " sum; exit 1 }; continue }
           if (!odd) sum += $i; odd = !odd } }' $s-post.txt ||
    fail "post-$s: posteriors of a frame do not sum to 1"
done

# ---- lattice-mbr-decode: MBR words, Bayes risk, sausages, times ----
expect_ok mbr-hand "lattice-mbr-decode --acoustic-scale=0.1 ark,t:$G/hand-aligned.txt ark,t:words.txt ark,t:risk.txt ark,t:sausage.txt ark,t:times.txt"
same_file mbr-hand-words words.txt $G/hand-mbr-words.txt
same_numbers mbr-hand-risk risk.txt $G/hand-mbr-risk.txt
same_numbers mbr-hand-sausage sausage.txt $G/hand-mbr-sausage.txt
same_numbers mbr-hand-times times.txt $G/hand-mbr-times.txt
expect_ok mbr-hand-1best-times "lattice-mbr-decode --acoustic-scale=0.1 --one-best-times=true ark,t:$G/hand-aligned.txt '' '' '' ark,t:1best-times.txt"
same_numbers mbr-hand-1best-times 1best-times.txt $G/hand-mbr-1best-times.txt
# The consensus "b d" (2 4) is not the best path "b c" (2 3).
grep -q "^utt-mbr 2 4 $" words.txt || fail "mbr-hand: utt-mbr is not decoded as 2 4"
for a in 0.05 0.1 0.2; do
  expect_ok mbr-refsys-$a "lattice-mbr-decode --acoustic-scale=$a ark:$G/refsys-aligned.ark ark,t:words-$a.txt ark,t:risk-$a.txt ark,t:sausage-$a.txt ark,t:times-$a.txt"
  same_file mbr-refsys-words-$a words-$a.txt $G/refsys-mbr-words-$a.txt
  same_numbers mbr-refsys-risk-$a risk-$a.txt $G/refsys-mbr-risk-$a.txt
  same_numbers mbr-refsys-sausage-$a sausage-$a.txt $G/refsys-mbr-sausage-$a.txt
  same_numbers mbr-refsys-times-$a times-$a.txt $G/refsys-mbr-times-$a.txt
done

# ---- lattice-to-ctm-conf: CTM lines with confidences ----
expect_ok conf-hand "lattice-to-ctm-conf --acoustic-scale=0.1 ark,t:$G/hand-aligned.txt conf.ctm"
same_file conf-hand conf.ctm $G/hand-conf.ctm
expect_ok conf-hand-map "lattice-to-ctm-conf --acoustic-scale=0.1 --decode-mbr=false --print-silence=true --confidence-digits=4 ark,t:$G/hand-aligned.txt conf-map.ctm"
same_file conf-hand-map conf-map.ctm $G/hand-conf-map.ctm
expect_ok conf-refsys "lattice-to-ctm-conf --inv-acoustic-scale=12 ark:$G/refsys-aligned.ark conf-refsys.ctm"
same_file conf-refsys conf-refsys.ctm $G/refsys-conf.ctm
expect_ok conf-refsys-1best "lattice-to-ctm-conf --acoustic-scale=0.1 --frame-shift=0.03 ark:$G/refsys-aligned.ark ark,t:$G/refsys-1best-words.txt conf-1best.ctm"
same_file conf-refsys-1best conf-1best.ctm $G/refsys-conf-1best.ctm

# ---- lattice-depth-per-frame: depths, and the lattices passed on ----
for s in hand refsys; do
  expect_ok depth-$s "lattice-depth-per-frame ark,t:$G/$s-lat.txt ark,t:depth-$s.txt ark,t:passed-$s.txt"
  same_file depth-$s depth-$s.txt $G/$s-depth.txt
done
# (sorted topologically first, as Kaldi does)
same_file depth-passed passed-refsys.txt $G/refsys-depth-lat.txt

# ---- bad input: one ERROR line, exit 1 (Kaldi's programs exit 255 on these
# errors, and abort, 134, on a truncated archive) ----
printf '1 nonword\n2 begin\n3 internal\n4 end\n' > short.int
expect_error wb-short "lattice for utt-linear: Phone 5 was not specified in word-boundary file" \
  "lattice-align-words short.int $MODEL ark,t:$G/hand-lat.txt ark:/dev/null"
printf '1 nonword\n2 middle\n' > bad.int
expect_error wb-bad-line "Invalid line 2 in word-boundary file" \
  "lattice-align-words bad.int $MODEL ark,t:$G/hand-lat.txt ark:/dev/null"
expect_error wrong-model "transition-id [0-9]+ but the model has transition-ids 1..24" \
  "lattice-align-words $WB $MODEL ark,t:$G/refsys-lat.txt ark:/dev/null"
head -c 3000 $G/refsys-aligned.ark > truncated.ark
for p in "lattice-align-words $RWB '$RMODEL'" nbest-to-ctm lattice-to-post \
         lattice-mbr-decode lattice-to-ctm-conf lattice-depth-per-frame; do
  out=ark:/dev/null
  case $p in nbest-to-ctm|lattice-to-ctm-conf) out=/dev/null ;; esac
  expect_error "truncated-${p%% *}" "key 'te01-00[0-9]*'.*(truncated|Cannot read)" \
    "$p ark:truncated.ark $out"
done
expect_error conf-wspecifier "should not be a wspecifier" \
  "lattice-to-ctm-conf ark,t:$G/hand-aligned.txt ark:-"
expect_error conf-two-scales "not both" \
  "lattice-to-ctm-conf --acoustic-scale=0.1 --inv-acoustic-scale=10 ark,t:$G/hand-aligned.txt -"
expect_error post-zero-scale "zero acoustic scale" \
  "lattice-to-post --acoustic-scale=0 ark,t:$G/hand-lat.txt ark:/dev/null"
for p in lattice-align-words nbest-to-ctm lattice-to-post lattice-mbr-decode \
         lattice-to-ctm-conf lattice-depth-per-frame; do
  expect_exit "usage-$p" 1 "Usage: $p" "$p ark:-"
done

finish
