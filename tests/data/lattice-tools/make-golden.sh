#!/usr/bin/env bash
# Writes the golden outputs of tests/cli/lattice-tools.sh with Kaldi's own
# programs (the test does not need Kaldi). Inputs:
#
#   lat.txt     six compact lattices of the Kaldi reference system
#               (/work/refsys/ref/small/lat.ark: nnet3-latgen-faster on the
#               tri1 small-LM graph), by
#               lattice-copy --include=<keys> ark:lat.ark ark,t:lat.txt
#   words.txt   the words of graph_small/words.txt those lattices and the
#               references use (same ids)
#   text        the references of the six utterances and of te01-0006,
#               which has no lattice
#   ../lat/raw-grid.txt, ../lat/raw-tie.txt   random state-level lattices
#               (det29's; their frames do not line up, so --write-compact=false
#               runs on raw-real.txt instead)
#   raw-real.txt  two of lat.txt's lattices as state-level lattices,
#               topologically sorted (made below by Kaldi's
#               lattice-determinize-non-compact, which sorts them)
#   ../train/hmm.mdl, ali.txt, phones.txt     a test transition model,
#               alignments written by hand for it (plain, reordered,
#               implausible, empty) and its phone symbols
#
# Outputs (see the commands below): *.txt text goldens, and golden.md5,
# the MD5 sums of the binary and larger archives (the test recomputes them
# from its own outputs of the same names); score-wer.txt, the %WER lines
# Kaldi's steps/score_kaldi.sh wrote for a decode directory holding
# lat.txt as lat.1.gz (every LM weight 7-17 and penalty 0.0/0.5/1.0, then
# the best_wer line), with the directory name replaced by DIR.
#
# Run from this directory with Kaldi's programs first on PATH, e.g.
#   PATH=/opt/kaldi/src/latbin:/opt/kaldi/src/bin:$PATH ./make-golden.sh \
#     /opt/kaldi/egs/wsj/s5
# (the argument: Kaldi's egs/wsj/s5, for steps/score_kaldi.sh and utils/).
set -euo pipefail
s5=$1
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
L=ark,t:lat.txt
md5=()
bin() { md5+=("$1"); }  # archives compared by MD5 sum

# Lattices.
lattice-copy $L ark:$tmp/lat.ark; bin lat.ark
lattice-copy --write-compact=false $L ark:$tmp/copy-lattice.ark; bin copy-lattice.ark
printf 'te01-0007\nte03-0001 x\n' > $tmp/keys
lattice-copy --include=$tmp/keys $L ark,t:$tmp/copy-include.ark; bin copy-include.ark
lattice-copy --exclude=$tmp/keys $L ark:$tmp/copy-exclude.ark; bin copy-exclude.ark
lattice-scale --inv-acoustic-scale=7 $L ark:$tmp/scale-inv7.ark; bin scale-inv7.ark
lattice-scale --lm-scale=0.5 --acoustic-scale=0.1 --acoustic2lm-scale=0.2 \
  --lm2acoustic-scale=0.3 $L ark:$tmp/scale-cross.ark; bin scale-cross.ark
lattice-scale --write-compact=false --inv-acoustic-scale=13 $L \
  ark:$tmp/scale-lattice.ark; bin scale-lattice.ark
lattice-add-penalty --word-ins-penalty=0.5 $L ark:$tmp/penalty.ark; bin penalty.ark
lattice-prune --inv-acoustic-scale=10 --beam=2 $L ark,t:$tmp/prune-b2.txt
bin prune-b2.txt
lattice-1best --acoustic-scale=0.1 --word-ins-penalty=1 $L ark,t:$tmp/1best.txt
bin 1best.txt
lattice-best-path --acoustic-scale=0.1 $L ark,t:best-words.txt ark:$tmp/best-ali.ark
bin best-ali.ark
lattice-determinize-pruned --acoustic-scale=0.5 --beam=3 \
  ark,t:../lat/raw-grid.txt ark,t:$tmp/det-grid-b3.txt
bin det-grid-b3.txt
lattice-determinize-pruned --acoustic-scale=0.5 --beam=4 --minimize=true \
  ark,t:../lat/raw-tie.txt ark:$tmp/det-tie-min.ark
bin det-tie-min.ark
printf 'te02-0001\nte03-0001\n' > $tmp/two
lattice-determinize-non-compact --acoustic-scale=0.1 --beam=100 \
  "ark:lattice-copy --include=$tmp/two --write-compact=false $L ark:- |" \
  ark,t:raw-real.txt
lattice-determinize-pruned --acoustic-scale=0.1 --beam=3 --write-compact=false \
  ark,t:raw-real.txt ark,t:det-real-lattice.txt

# Transcripts and error rates.
lattice-best-path --acoustic-scale=0.1 $L ark,t:- |
  "$s5/utils/int2sym.pl" -f 2- words.txt > hyp10.txt
lattice-scale --inv-acoustic-scale=17 $L ark:- |
  lattice-add-penalty --word-ins-penalty=1.0 ark:- ark:- |
  lattice-best-path ark:- ark,t:- |
  "$s5/utils/int2sym.pl" -f 2- words.txt > hyp17.txt
compute-wer --text --mode=present ark:text ark,p:hyp10.txt > wer-present.txt
compute-wer --mode=all ark:text ark:hyp17.txt > wer-all.txt
align-text ark:text ark:hyp17.txt ark,t:align.txt
compute-wer-bootci --mode=present --replications=1000 ark:text \
  ark:hyp10.txt ark:hyp17.txt > bootci.txt

# Alignments.
M=../train/hmm.mdl
ali-to-phones $M ark:ali.txt ark,t:ali-phones.txt
ali-to-phones --per-frame=true $M ark:ali.txt ark,t:ali-phones-frames.txt
ali-to-phones --write-lengths=true $M ark:ali.txt ark,t:ali-lengths.txt
ali-to-phones --ctm-output $M ark:ali.txt ali.ctm
ali-to-pdf $M ark:ali.txt ark,t:ali-pdfs.txt
ali-to-post ark:ali.txt ark,t:ali-post.txt
show-alignments phones.txt $M ark:ali.txt > show-alignments.txt

# Kaldi's scoring script on a decode directory of these lattices.
mkdir -p $tmp/s5/data $tmp/s5/graph $tmp/s5/decode $tmp/s5/local
ln -s "$s5/steps" "$s5/utils" $tmp/s5/
cp text $tmp/s5/data/; cp words.txt $tmp/s5/graph/
awk '{ split($1, a, "-"); print $1, a[1] }' text > $tmp/s5/data/utt2spk
lattice-copy $L "ark:|gzip -c > $tmp/s5/decode/lat.1.gz"
echo 1 > $tmp/s5/decode/num_jobs
(cd $tmp/s5 && PATH=$PWD/utils:$PATH steps/score_kaldi.sh data graph decode)
for wip in 0.0 0.5 1.0; do
  for lmwt in $(seq 7 17); do
    echo "wer_${lmwt}_$wip $(grep WER $tmp/s5/decode/wer_${lmwt}_$wip)"
  done
done > score-wer.txt
sed 's|decode/|DIR/|' $tmp/s5/decode/scoring_kaldi/best_wer >> score-wer.txt

(cd $tmp && md5sum "${md5[@]}") > golden.md5
