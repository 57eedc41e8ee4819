#!/usr/bin/env bash
# egs/decode's steps/decode.sh and local/score.sh (Kaldi's calling
# convention: steps/decode.sh [options] <graph-dir> <data-dir> <decode-dir>)
# on a small system: the golden model tests/data/train/hmm.mdl (3 phones,
# 2-dimensional input), a three-word graph built here with fstcompile, six
# utterances of random features from three speakers with per-speaker CMVN
# stats. Checks: the data split (whole speakers per job, every utterance
# once); the lattices equal one nnet3-latgen-faster run over all the data
# with the same options (default, changed beams and scales, no cmvn_opts,
# --num-threads, --cmd run.pl, --batch, --iter, --post-decode-acwt); the lattice
# depth line against its computation here; the scoring files, and a known
# word error rate (the reference is the decoder's own words at LM weight 10
# with one word removed: 1 insertion); --stage and --scoring-opts; bad
# input (more jobs than speakers, no model, a failing job, a bad option).
BIN=$1 DATA=$2
RECIPE=$(cd "$(dirname "$0")/../../egs/decode" && pwd)
RUNPL=$(cd "$(dirname "$0")/../../egs/fashion_mnist/utils" && pwd)/run.pl
. "$(dirname "$0")/lib.sh"
need libfst-tools "command -v fstcompile"
NNET3_BUILD=$(dirname "$BIN")
export NNET3_BUILD

# The recipe directory: the recipe's scripts and path.sh.
ln -s "$RECIPE/steps" steps && ln -s "$RECIPE/local" local
echo ". $RECIPE/path.sh" > path.sh

mkdir -p exp/graph exp/m data/test
cp "$DATA/decode/graph.txt" graph.txt  # three words (its README)
cp "$DATA/decode/words.txt" exp/graph/words.txt
expect_ok graph "fstcompile graph.txt exp/graph/HCLG.fst"
cp "$DATA/train/hmm.mdl" exp/m/final.mdl
echo "--norm-means=true --norm-vars=false" > exp/m/cmvn_opts
python3 - <<'PY' > feats.txt
import random
random.seed(31)
for utt, n in (("s1-u1", 23), ("s1-u2", 40), ("s2-u3", 31), ("s2-u4", 17),
               ("s3-u5", 28), ("s3-u6", 35)):
    rows = ["  " + " ".join("%.3f" % random.gauss(0.5, 1) for _ in range(2))
            for _ in range(n)]
    print(utt + "  [\n" + "\n".join(rows) + " ]")
PY
awk '/\[/ { print $1, substr($1, 1, 2) }' feats.txt > data/test/utt2spk
awk '{ u[$2] = u[$2] " " $1 } END { for (s in u) print s u[s] }' data/test/utt2spk |
  sort > data/test/spk2utt
expect_ok feats "copy-feats ark,t:feats.txt ark,scp:$PWD/feats.ark,data/test/feats.scp && compute-cmvn-stats --spk2utt=ark:data/test/spk2utt scp:data/test/feats.scp ark,scp:$PWD/cmvn.ark,data/test/cmvn.scp"

# direct NAME OPTIONS...: one nnet3-latgen-faster run over all the data
# (decode.sh's fixed options, then OPTIONS), its lattices as text in
# NAME.txt, its words (int2sym) in NAME.words.
direct() {
  local name=$1; shift
  nnet3-latgen-faster --frames-per-chunk=50 --minimize=false --max-active=7000 \
    --min-active=200 --beam=15.0 --lattice-beam=8.0 --acoustic-scale=0.1 \
    --allow-partial=true "$@" exp/m/final.mdl exp/graph/HCLG.fst \
    "ark:apply-cmvn --norm-means=true --norm-vars=false --utt2spk=ark:data/test/utt2spk scp:data/test/cmvn.scp scp:data/test/feats.scp ark:- |" \
    "ark,t:$name.txt" "ark,t:$name.words" 2> "$name.log"
}
# lattices DIR: a decode directory's lattices as text, jobs in order.
lattices() {
  local j
  for ((j = 1; j <= $(cat "$1/num_jobs"); j++)); do
    lattice-copy "ark:gunzip -c $1/lat.$j.gz |" ark,t:- 2> /dev/null
  done
}

# The reference: the decoder's words at acoustic scale 0.1 (LM weight 10),
# the first word of s1-u1 removed.
direct plain || fail "direct decoding failed: $(tail -3 plain.log)"
"$RECIPE/../utils/int2sym.sh" -f 2- exp/graph/words.txt < plain.words > hyp.txt
awk 'NR == 1 { $2 = "" } { $1 = $1; print }' hyp.txt > data/test/text
[ "$(awk 'NR == 1' hyp.txt | wc -w)" -ge 2 ] || fail "s1-u1 decodes to under one word: $(head -1 hyp.txt)"
words=$(awk '{ n += NF - 1 } END { print n }' data/test/text)

expect_ok decode "steps/decode.sh --nj 2 exp/graph data/test exp/m/decode > decode.out 2>&1"
d=exp/m/decode
[ "$(cat $d/num_jobs 2> /dev/null)" = 2 ] || fail "num_jobs: $(cat $d/num_jobs 2>&1)"
[ -f $d/lat.1.gz ] && [ -f $d/lat.2.gz ] && [ ! -e $d/lat.3.gz ] || fail "lattice files: $(ls $d)"
# The split: whole speakers, every utterance once, in order.
cat data/test/split2/1/utt2spk data/test/split2/2/utt2spk > split-utt2spk
same_file split-all split-utt2spk data/test/utt2spk
[ "$(cut -d' ' -f2 data/test/split2/1/utt2spk | sort -u | paste -sd' ')" = "s1 s2" ] ||
  fail "job 1's speakers: $(cut -d' ' -f2 data/test/split2/1/utt2spk | sort -u)"
for j in 1 2; do
  same_file "split-feats-$j" data/test/split2/$j/feats.scp \
    <(grep -F -f <(cut -d' ' -f1 data/test/split2/$j/utt2spk) data/test/feats.scp)
done
lattices $d > ours.txt
same_file lattices ours.txt plain.txt
grep -q "^# nnet3-latgen-faster .*--acoustic-scale=0.1 .*--word-symbol-table=exp/graph/words.txt" $d/log/decode.1.log ||
  fail "decode.1.log does not start with the command line"

# Lattice depth: the percentiles and mean computed here.
lattice-depth-per-frame "ark:gunzip -c $d/lat.*.gz |" ark,t:- 2> /dev/null | python3 -c '
import sys
depths = sorted(int(x) for line in sys.stdin for x in line.split()[1:])
def pct(f):
    cutoff, seen = int(f * len(depths)), 0
    for d in sorted(set(depths)):
        seen += depths.count(d)
        if seen >= cutoff: return d
print("Overall, lattice depth (10,50,90-percentile)=(%d,%d,%d) and mean=%.1f" %
      (pct(0.1), pct(0.5), pct(0.9), sum(depths) / len(depths)))' > depth.want
same_file depth $d/log/analyze_lattice_depth_stats.log depth.want
grep -qxF -f depth.want decode.out || fail "decode.sh did not print the depth line"

# Scoring: local/score.sh's files; at LM weight 10, penalty 0, one insertion.
n=$(ls $d/wer_*_* 2> /dev/null | wc -l)
[ "$n" = 33 ] || fail "expected 33 wer files (LM weights 7-17, 3 penalties), got $n"
grep -qF "[ 1 / $words, 1 ins, 0 del, 0 sub ]" $d/wer_10_0.0 ||
  fail "wer_10_0.0: $(grep WER $d/wer_10_0.0) (want 1 / $words, 1 ins)"
grep -Eq "^%WER [0-9.]+ \[ [0-9]+ / $words, .*\] $d/wer_[0-9]+_[0-9.]+$" $d/scoring_kaldi/best_wer ||
  fail "best_wer: $(cat $d/scoring_kaldi/best_wer)"
grep -qF "$(cat $d/scoring_kaldi/best_wer)" decode.out || fail "decode.sh did not print best_wer"

# --stage 3 with scoring options: only the scoring, with its options.
rm $d/wer_*
expect_ok stage3 "steps/decode.sh --nj 2 --stage 3 --scoring-opts '--min-lmwt 9 --max-lmwt 10 --word-ins-penalty 0.0' exp/graph data/test $d"
[ "$(cd $d && ls wer_* | paste -sd' ')" = "wer_10_0.0 wer_9_0.0" ] || fail "stage 3 wrote: $(cd $d && ls wer_*)"
lattices $d > ours.txt
same_file stage3-lattices ours.txt plain.txt

# Options reach the decoder (each of --beam, --lattice-beam and --acwt
# changes these lattices); --skip-scoring, --skip-diagnostics.
direct beam1 --beam=1
direct narrow --lattice-beam=2 --acoustic-scale=1.0 --max-active=300 --min-active=20
expect_ok beam "steps/decode.sh --nj 2 --beam 1 --skip-scoring true exp/graph data/test exp/m/beam1"
expect_ok options "steps/decode.sh --nj 2 --lattice-beam=2 --acwt 1.0 --max-active 300 --min-active=20 --skip-scoring true --skip-diagnostics true exp/graph data/test exp/m/narrow"
lattices exp/m/beam1 > ours.txt
same_file beam-lattices ours.txt beam1.txt
lattices exp/m/narrow > ours.txt
same_file options-lattices ours.txt narrow.txt
[ ! -e exp/m/narrow/scoring_kaldi ] && [ ! -e exp/m/narrow/log/analyze_lattice_depth_stats.log ] ||
  fail "--skip-scoring/--skip-diagnostics ignored"
# Threads, the run.pl launcher, three jobs (one speaker each).
expect_ok threads "steps/decode.sh --nj 3 --num-threads 2 --cmd $RUNPL --skip-scoring true exp/graph data/test exp/m/threads"
lattices exp/m/threads > ours.txt
same_file threads-lattices ours.txt plain.txt
grep -q "^# Accounting" exp/m/threads/log/decode.3.log && grep -q "nnet3-latgen-faster-parallel.*--num-threads=2" exp/m/threads/log/decode.3.log ||
  fail "decode.3.log: not run.pl's, or not the parallel decoder"
# --batch true: nnet3-latgen-faster-batch on the CPU, two search threads.
expect_ok batch "steps/decode.sh --nj 2 --batch true --num-threads 2 --skip-scoring true exp/graph data/test exp/m/batch"
lattices exp/m/batch > ours.txt
same_file batch-lattices ours.txt plain.txt
grep -q "nnet3-latgen-faster-batch.*--num-threads=2 --use-gpu=no" exp/m/batch/log/decode.1.log ||
  fail "decode.1.log: not the batch decoder on the CPU"
# --iter and --post-decode-acwt.
mkdir -p exp/m3 && cp exp/m/final.mdl exp/m3/3.mdl && cp exp/m/cmvn_opts exp/m3/
expect_ok iter "steps/decode.sh --nj 2 --iter 3 --post-decode-acwt 10.0 --skip-scoring true exp/graph data/test exp/m3/decode"
# (scaled from the binary lattices of the first decode, equal to plain.txt)
lattice-scale --acoustic-scale=10.0 "ark:gunzip -c $d/lat.1.gz $d/lat.2.gz |" ark,t:plain10.txt 2> /dev/null
lattices exp/m3/decode > ours.txt
same_file iter-post-decode-acwt ours.txt plain10.txt
# No cmvn_opts: the features as they are.
mkdir -p exp/raw && cp exp/m/final.mdl exp/raw/
nnet3-latgen-faster --beam=15.0 --lattice-beam=8.0 --acoustic-scale=0.1 --allow-partial=true \
  exp/m/final.mdl exp/graph/HCLG.fst scp:data/test/feats.scp ark,t:raw.txt 2> /dev/null
expect_ok no-cmvn "steps/decode.sh --nj 2 --skip-scoring true exp/graph data/test exp/raw/decode"
lattices exp/raw/decode > ours.txt
same_file no-cmvn-lattices ours.txt raw.txt

# Bad input: one line naming the problem, exit 1.
expect_exit too-many-jobs 1 "fewer speakers \(3\) than jobs \(4\)" \
  "steps/decode.sh --nj 4 exp/graph data/test exp/m/bad"
expect_exit no-model 1 "no such file exp/none/final.mdl" \
  "steps/decode.sh --nj 2 exp/graph data/test exp/none/decode"
expect_exit bad-option 1 "unknown option --bem" \
  "steps/decode.sh --bem 3 exp/graph data/test exp/m/bad"
cp -r data/test data/broken
sed -i 's/^s3-u6 .*/s3-u6 no-such-file.ark:0/' data/broken/feats.scp
expect_exit failed-job 1 "1 of 2 jobs failed, see exp/m/broken/log/decode.2.log" \
  "steps/decode.sh --nj 2 exp/graph data/broken exp/m/broken"
finish
