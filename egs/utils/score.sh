#!/usr/bin/env bash
# score.sh: word error rates of a decode directory's lattices over a grid of
# language-model weights and word insertion penalties, and the best of them.
# Called as Kaldi's steps/score_kaldi.sh is (decode scripts call
# local/score.sh this way), and writes the same files:
#
#   egs/utils/score.sh [options] <data-dir> <lang-or-graph-dir> <decode-dir>
#
#   <decode-dir>/wer_<lmwt>_<wip>              compute-wer's report
#   <decode-dir>/scoring_kaldi/best_wer        the best %WER line and file
#   <decode-dir>/scoring_kaldi/test_filt.txt   the reference transcripts
#   <decode-dir>/scoring_kaldi/penalty_<wip>/<lmwt>.txt   the hypotheses
#   <decode-dir>/scoring_kaldi/penalty_<wip>/log/*.log    the programs' logs
#
# For each penalty wip and LM weight lmwt, the lattices (lat.*.gz) have
# their acoustic costs divided by lmwt (lattice-scale
# --inv-acoustic-scale), wip added to the graph cost of every word
# (lattice-add-penalty), and their best paths (lattice-best-path) turned
# into words (int2sym.sh with <lang-or-graph-dir>/words.txt) and scored
# against <data-dir>/text (compute-wer --mode=present). Executable filters
# local/wer_output_filter, local/wer_ref_filter, local/wer_hyp_filter are
# applied to the transcripts as Kaldi's scoring applies them.
#
# Options (--name value or --name=value):
#   --cmd CMD                 job launcher called as "CMD LMWT=a:b LOG command"
#                             (utils/run.pl, slurm.pl); default: run here, one
#                             LM weight after another
#   --stage N                 0: everything; 1: only pick the best (0)
#   --min-lmwt N, --max-lmwt N   the LM weights (7, 17)
#   --word-ins-penalty LIST   comma-separated penalties (0.0,0.5,1.0)
set -o pipefail
cmd=""
stage=0
min_lmwt=7
max_lmwt=17
word_ins_penalty=0.0,0.5,1.0
utils=$(cd "$(dirname "$0")" && pwd)

usage() {
  sed -n '/^#   egs/p; /^# Options/,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 1
}

while [[ "${1:-}" == --* ]]; do
  name=${1#--}; name=${name%%=*}; name=${name//-/_}
  if [[ "$1" == *=* ]]; then value=${1#*=}; shift
  else [ $# -ge 2 ] || usage; value=$2; shift 2; fi
  case $name in
    cmd|stage|min_lmwt|max_lmwt|word_ins_penalty) printf -v "$name" '%s' "$value" ;;
    help) usage ;;
    *) echo "$0: unknown option --$name" >&2; usage ;;
  esac
done
[ $# -eq 3 ] || usage
data=$1; lang=$2; dir=$3
symtab=$lang/words.txt
for f in "$symtab" "$dir/lat.1.gz" "$data/text"; do
  [ -f "$f" ] || { echo "$0: no such file $f" >&2; exit 1; }
done

echo "$0 $*"
echo "$0: scoring with word insertion penalty=$word_ins_penalty"

# The filters, when the recipe has them (cat otherwise).
ref_filter="cat"; hyp_filter="cat"
[ -x local/wer_output_filter ] && ref_filter=local/wer_output_filter &&
  hyp_filter=local/wer_output_filter
[ -x local/wer_ref_filter ] && ref_filter=local/wer_ref_filter
[ -x local/wer_hyp_filter ] && hyp_filter=local/wer_hyp_filter

# run_jobs LMWT=a:b LOG COMMAND: runs COMMAND (a bash -c string) once per
# LM weight, LMWT replaced by it in LOG and COMMAND, through $cmd if given.
run_jobs() {
  local range=$1 log=$2 command=$3
  if [ -n "$cmd" ]; then
    $cmd "$range" "$log" bash -c "$command"
    return
  fi
  local lmwt from=${range#LMWT=}
  local to=${from#*:}; from=${from%:*}
  for lmwt in $(seq "$from" "$to"); do
    local this_log=${log//LMWT/$lmwt}
    mkdir -p "$(dirname "$this_log")"
    echo "# ${command//LMWT/$lmwt}" > "$this_log"
    bash -c "${command//LMWT/$lmwt}" >> "$this_log" 2>&1 || {
      echo "$0: failed, see $this_log" >&2; return 1; }
  done
}

out=$dir/scoring_kaldi
mkdir -p "$out"
$ref_filter < "$data/text" > "$out/test_filt.txt" || exit 1
if [ "$stage" -le 0 ]; then
  for wip in ${word_ins_penalty//,/ }; do
    mkdir -p "$out/penalty_$wip/log"
    run_jobs "LMWT=$min_lmwt:$max_lmwt" "$out/penalty_$wip/log/best_path.LMWT.log" \
      "set -o pipefail; lattice-scale --inv-acoustic-scale=LMWT 'ark:gunzip -c $dir/lat.*.gz|' ark:- | lattice-add-penalty --word-ins-penalty=$wip ark:- ark:- | lattice-best-path --word-symbol-table=$symtab ark:- ark,t:- | $utils/int2sym.sh -f 2- $symtab | $hyp_filter > $out/penalty_$wip/LMWT.txt" ||
      exit 1
    run_jobs "LMWT=$min_lmwt:$max_lmwt" "$out/penalty_$wip/log/score.LMWT.log" \
      "compute-wer --text --mode=present ark:$out/test_filt.txt ark,p:$out/penalty_$wip/LMWT.txt > $dir/wer_LMWT_$wip 2>&1" ||
      exit 1
  done
fi

for wip in ${word_ins_penalty//,/ }; do
  for lmwt in $(seq "$min_lmwt" "$max_lmwt"); do
    grep WER "$dir/wer_${lmwt}_$wip" /dev/null
  done
done | "$utils/best_wer.sh" > "$out/best_wer" || exit 1
if [ ! -s "$out/best_wer" ]; then
  echo "$0: no %WER line in $dir/wer_*; see the logs in $out/penalty_*/log" >&2
  exit 1
fi
cat "$out/best_wer"
