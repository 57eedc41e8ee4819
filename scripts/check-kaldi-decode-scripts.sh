#!/usr/bin/env bash
# Kaldi's decoding and scoring scripts, unchanged, on this toolkit's
# programs: steps/nnet3/decode.sh (nnet3-latgen-faster, then
# steps/diagnostic/analyze_lats.sh and local/score.sh ->
# steps/score_kaldi.sh) on the Kaldi-built reference system (/work/refsys:
# graph, nnet3 model, test data), compared with the decode directory that
# Kaldi's own programs made there. Not part of the test suite: it needs the
# reference system and a Kaldi checkout's egs/wsj/s5 (steps/ and utils/ are
# linked into the work directory, never copied into the project).
#
# Usage: scripts/check-kaldi-decode-scripts.sh [options]
#   --kaldi-s5 DIR   Kaldi's egs/wsj/s5 (/opt/kaldi/egs/wsj/s5)
#   --refsys DIR     the reference system (/work/refsys)
#   --graph NAME     small or big (small): exp/tri1/graph_NAME
#   --bin DIR        this toolkit's programs (build/bin)
#   --decoder DIR    where nnet3-latgen-faster is, when not in --bin
#   --dir DIR        work directory (/tmp/kaldi-decode-scripts)
#   --nj N           decoding jobs (2, as the reference decode)
#   --stage N        0: set up and decode; 1: only compare
#   --mbr            also score with steps/score_kaldi.sh --decode-mbr true
#                    and compare with Kaldi's programs on Kaldi's lattices
#   --decode-opts S  more options for steps/nnet3/decode.sh, e.g.
#                    "--use-gpu true --num-threads 2" (it then calls
#                    nnet3-latgen-faster-batch, whose --use-gpu defaults to
#                    yes as Kaldi's: without a GPU set
#                    NNET3_DEBUG_OPAQUE_DEVICE=1 to run its GPU path on the
#                    CPU's opaque stand-in)
#
# PATH while Kaldi's scripts run: --bin, --decoder, the work directory's
# utils/, then the caller's PATH without any directory of Kaldi's programs
# (.../src/*bin, the reference system's bin/): a program this toolkit lacks
# fails ("command not found") instead of silently running Kaldi's. The
# script prints where every program the scripts call resolves, what
# decode.sh printed, our best_wer and Kaldi's, and compares every wer_*
# file, the scoring details and the lattice diagnostics with Kaldi's.
# Exit status 0 when the best_wer lines (and with --mbr the MBR scoring) are
# equal and no program was missing or Kaldi's, 1 otherwise.
set -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kaldi_s5=/opt/kaldi/egs/wsj/s5 refsys=/work/refsys graph=small
bin=$root/build/bin decoder='' dir=/tmp/kaldi-decode-scripts nj=2 stage=0 mbr=false
decode_opts=''
while [ $# -gt 0 ]; do
  case $1 in
    --kaldi-s5) kaldi_s5=$2; shift 2 ;;
    --refsys) refsys=$2; shift 2 ;;
    --graph) graph=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --decoder) decoder=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --nj) nj=$2; shift 2 ;;
    --stage) stage=$2; shift 2 ;;
    --mbr) mbr=true; shift ;;
    --decode-opts) decode_opts=$2; shift 2 ;;
    *) sed -n "/^# Usage/,/^#  *CPU's opaque stand-in)/p" "$0" | sed 's/^# \{0,1\}//' >&2; exit 1 ;;
  esac
done
s5=$refsys/s5
kaldi_decode=$s5/exp/nnet3/tdnn/decode_test_$graph
for f in "$kaldi_s5/steps/nnet3/decode.sh" "$s5/exp/tri1/graph_$graph/HCLG.fst" \
  "$s5/exp/nnet3/tdnn/final.mdl" "$kaldi_decode/scoring_kaldi/best_wer" \
  "$bin/lattice-best-path"; do
  [ -e "$f" ] || { echo "$0: missing $f" >&2; exit 1; }
done
bin=$(cd "$bin" && pwd)
[ -n "$decoder" ] && decoder=$(cd "$decoder" && pwd)

# The caller's PATH without Kaldi's program directories.
clean_path=$(tr ':' '\n' <<< "$PATH" |
  grep -Ev "/src/[a-z0-9]*bin/?\$|^$refsys/|^/opt/kaldi/src" | paste -sd:)
run_path=$bin${decoder:+:$decoder}:$dir/utils:$clean_path

mkdir -p "$dir" && cd "$dir" || exit 1
if [ "$stage" -le 0 ]; then
  rm -rf data exp local
  ln -sfn "$kaldi_s5/steps" steps
  ln -sfn "$kaldi_s5/utils" utils
  mkdir -p local data/test_hires exp/tri1 exp/nnet3/tdnn
  ln -s ../steps/score_kaldi.sh local/score.sh  # the usual recipe hook
  for f in feats.scp cmvn.scp utt2spk spk2utt text utt2dur frame_shift; do
    [ -f "$s5/data/test_hires/$f" ] && cp "$s5/data/test_hires/$f" data/test_hires/
  done
  ln -s "$s5/exp/tri1/graph_$graph" "exp/tri1/graph_$graph"
  ln -s "$s5/exp/nnet3/tdnn/final.mdl" exp/nnet3/tdnn/final.mdl
  cp "$s5/exp/nnet3/tdnn/cmvn_opts" exp/nnet3/tdnn/
fi
cat > path.sh <<EOF
export PATH=$run_path
unset KALDI_ROOT
export LC_ALL=C OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
EOF

echo "== where the programs that Kaldi's scripts call resolve"
programs="apply-cmvn nnet3-latgen-faster nnet3-latgen-faster-batch lattice-depth-per-frame lattice-best-path
  ali-to-phones lattice-scale lattice-add-penalty compute-wer align-text
  compute-wer-bootci lattice-prune lattice-mbr-decode"
status=0
for p in $programs; do
  where=$(PATH=$run_path type -ap "$p" | paste -sd' ')
  echo "$p: ${where:-NOT FOUND}"
  case "$where" in
    "" | /opt/kaldi* | "$refsys"*) status=1 ;;
    *" /opt/kaldi"* | *" $refsys"*) echo "  (a Kaldi program is on PATH after ours)"; status=1 ;;
  esac
done
[ $status -eq 0 ] || { echo "$0: PATH resolution is not ours only" >&2; exit 1; }

decode=exp/nnet3/tdnn/decode_test_$graph
if [ "$stage" -le 0 ]; then
  rm -rf "$decode"
  echo "== steps/nnet3/decode.sh --nj $nj $decode_opts exp/tri1/graph_$graph data/test_hires $decode"
  # shellcheck disable=SC2086 # $decode_opts is a list of options
  (. ./path.sh && steps/nnet3/decode.sh --nj "$nj" $decode_opts \
    "exp/tri1/graph_$graph" data/test_hires "$decode") 2>&1 | tee decode.out
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "$0: decode.sh failed" >&2; exit 1; }
fi
if grep -rl "command not found" "$decode"/log "$decode"/scoring_kaldi 2>/dev/null; then
  echo "$0: a program was not found (above: the logs that say so)"
  status=1
fi

echo "== lattices, ours vs Kaldi's (as text, by lattice-copy)"
for who in ours kaldi; do
  d=$decode; [ $who = kaldi ] && d=$kaldi_decode
  PATH=$run_path lattice-copy "ark:gunzip -c $d/lat.*.gz|" ark,t:lat-$who.txt 2> /dev/null
done
python3 - lat-ours.txt lat-kaldi.txt <<'PY'
import sys
def load(path):  # utterance -> its arc and final lines, split
    lattices, key = {}, None
    for line in open(path):
        f = line.split()
        if len(f) == 1 and not f[0][0].isdigit():
            key = f[0]; lattices[key] = []
        elif f:
            lattices[key].append(f)
    return lattices
def weights(f):  # the weight field's two costs, and the rest of the line
    w = f[3].split(",") if len(f) > 3 else (f[1].split(",") if len(f) == 2 else [])
    head = f[:3] if len(f) > 3 else f[:1]
    return [float(x) for x in w[:2]], head + w[2:]
ours, kaldi = load(sys.argv[1]), load(sys.argv[2])
same = close = other = 0; largest = 0.0
for key, theirs in kaldi.items():
    mine = ours.get(key)
    if mine == theirs: same += 1; continue
    ok = mine is not None and len(mine) == len(theirs)
    for a, b in zip(mine or [], theirs):
        (wa, ra), (wb, rb) = weights(a), weights(b)
        if not ok or ra != rb or len(wa) != len(wb): ok = False; break
        largest = max([largest] + [abs(x - y) for x, y in zip(wa, wb)])
    close += ok; other += not ok
print("%d lattices: %d identical, %d same structure (costs within %.3g), "
      "%d different structure; %d not in Kaldi's" %
      (len(kaldi), same, close, largest, other, len(set(ours) - set(kaldi))))
PY

echo "== best_wer: ours, then Kaldi's"
cat "$decode/scoring_kaldi/best_wer"
cat "$kaldi_decode/scoring_kaldi/best_wer"
ours=$(sed 's| [^ ]*/wer_| wer_|' "$decode/scoring_kaldi/best_wer")
theirs=$(sed 's| [^ ]*/wer_| wer_|' "$kaldi_decode/scoring_kaldi/best_wer")
if [ "$ours" = "$theirs" ]; then echo "best_wer: same"
else echo "best_wer: DIFFERENT"; status=1; fi

# compare NAME FILE...: each file of our decode directory against Kaldi's.
compare() {
  local name=$1 same=0 differ=0 f
  shift
  for f in "$@"; do
    if cmp -s "$decode/$f" "$kaldi_decode/$f"; then same=$((same + 1))
    else differ=$((differ + 1)); echo "  differs: $f"; fi
  done
  echo "$name: $same identical, $differ different"
}
wers=$(cd "$kaldi_decode" && ls wer_*_*)
compare "wer_LMWT_WIP files" $wers
compare "hypotheses" $(cd "$kaldi_decode" && ls scoring_kaldi/penalty_*/*.txt)
compare "scoring details" scoring_kaldi/test_filt.txt \
  $(cd "$kaldi_decode" && ls scoring_kaldi/wer_details/*)
echo "== lattice diagnostics (analyze_lats.sh), ours vs Kaldi's"
for log in analyze_alignments.log analyze_lattice_depth_stats.log; do
  if diff <(grep -v '^#' "$decode/log/$log") <(grep -v '^#' "$kaldi_decode/log/$log") > /dev/null
  then echo "$log: same (apart from run.pl's lines)"
  else echo "$log: DIFFERENT"; diff <(grep -v '^#' "$decode/log/$log") \
    <(grep -v '^#' "$kaldi_decode/log/$log") | head -10; fi
done
grep Overall "$decode/log/analyze_lattice_depth_stats.log"

# Our own recipe scripts (egs/decode: steps/decode.sh, local/score.sh ->
# egs/utils/score.sh; no Kaldi script on PATH) on the same system, against
# Kaldi's decode directory.
echo "== egs/decode/steps/decode.sh --nj $nj exp/tri1/graph_$graph data/test_hires $decode"
if [ "$stage" -le 0 ]; then
  rm -rf ours && mkdir -p ours/data ours/exp/nnet3/tdnn || exit 1
  ln -s "$root/egs/decode/steps" "$root/egs/decode/local" ours/
  cp -r data/test_hires ours/data/ && rm -rf ours/data/test_hires/split*
  ln -s "$dir/exp/tri1" ours/exp/tri1
  ln -s "$dir"/exp/nnet3/tdnn/{final.mdl,cmvn_opts} ours/exp/nnet3/tdnn/
  printf 'NNET3_BUILD=%s\n. %s\nexport PATH=%s\n' "$(dirname "$bin")" \
    "$root/egs/decode/path.sh" "$bin${decoder:+:$decoder}:$clean_path" > ours/path.sh
  (cd ours && steps/decode.sh --nj "$nj" "exp/tri1/graph_$graph" data/test_hires \
    "$decode") 2>&1 | tee ours.out
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "$0: egs/decode/steps/decode.sh failed" >&2; status=1; }
fi
cat "ours/$decode/scoring_kaldi/best_wer"
if cmp -s "ours/$decode/scoring_kaldi/best_wer" "$kaldi_decode/scoring_kaldi/best_wer"
then echo "best_wer (egs/decode): same as Kaldi's"
else echo "best_wer (egs/decode): DIFFERENT"; status=1; fi
same=0 differ=0
for f in $wers; do
  if [ "$(grep WER "ours/$decode/$f")" = "$(grep WER "$kaldi_decode/$f")" ]; then
    same=$((same + 1))
  else differ=$((differ + 1)); echo "  differs: $f"; fi
done
echo "%WER lines (egs/decode): $same identical, $differ different"
compare_ours=$(cd "$kaldi_decode" && ls scoring_kaldi/penalty_*/*.txt)
same=0
for f in $compare_ours; do cmp -s "ours/$decode/$f" "$kaldi_decode/$f" && same=$((same + 1)); done
echo "hypotheses (egs/decode): $same of $(wc -w <<< "$compare_ours") identical"
if [ "$(cat "ours/$decode/log/analyze_lattice_depth_stats.log")" = \
  "$(grep Overall "$kaldi_decode/log/analyze_lattice_depth_stats.log")" ]; then
  echo "lattice depth line (egs/decode): same as Kaldi's analyze_lats.sh"
else echo "lattice depth line (egs/decode): DIFFERENT"; status=1; fi
[ $differ -eq 0 ] || status=1

if $mbr; then
  # Each in its own directory: Kaldi's scoring script sources ./path.sh.
  echo "== score_kaldi.sh --decode-mbr true on Kaldi's lattices: our programs, then Kaldi's"
  kaldi_bins=$(ls -d "${kaldi_s5%/egs/wsj/s5}"/src/*bin | paste -sd:)
  for who in ours kaldi; do
    d=mbr_$who
    rm -rf "$d" && mkdir -p "$d/decode" && cp "$kaldi_decode"/lat.*.gz "$d/decode/" &&
      ln -s ../steps ../utils ../data ../exp "$d/" || exit 1
    p=$run_path
    [ $who = kaldi ] && p=$kaldi_bins:$dir/utils:$clean_path
    printf 'export PATH=%s\nexport LC_ALL=C\n' "$p" > "$d/path.sh"
    (cd "$d" && steps/score_kaldi.sh --decode-mbr true data/test_hires \
      "exp/tri1/graph_$graph" decode) > "$d.out" 2>&1 ||
      { echo "$who: score_kaldi.sh failed, see $dir/$d.out"; status=1; }
    cat "$d/decode/scoring_kaldi/best_wer"
  done
  same=0 differ=0
  for f in $(cd mbr_kaldi/decode && ls wer_*_* scoring_kaldi/penalty_*/*.txt \
    scoring_kaldi/wer_details/*); do
    if cmp -s "mbr_ours/decode/$f" "mbr_kaldi/decode/$f"; then same=$((same + 1))
    else differ=$((differ + 1)); echo "  differs: $f"; fi
  done
  echo "MBR: wer files, hypotheses, details: $same identical, $differ different"
  [ $differ -eq 0 ] || status=1
fi
exit $status
