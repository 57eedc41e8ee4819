#!/usr/bin/env bash
# steps/decode.sh: decodes a data directory into lattices with an nnet3
# acoustic model and a decoding graph, then reports the lattices' depth and
# scores them with local/score.sh. Called as Kaldi's steps/nnet3/decode.sh
# is, from a recipe directory (one with path.sh and local/score.sh):
#
#   steps/decode.sh [options] <graph-dir> <data-dir> <decode-dir>
#
# Reads <graph-dir>/HCLG.fst and words.txt; <data-dir>/feats.scp, cmvn.scp
# and utt2spk (each speaker's utterances stay in one job); the model
# <decode-dir>/../<iter>.mdl with, when present, ../cmvn_opts (apply-cmvn's
# options; without it the features are not normalized) and
# ../frame_subsampling_factor. Writes <data-dir>/split<nj>/<job>/ (the
# job's feats.scp, cmvn.scp, utt2spk, spk2utt),
#   <decode-dir>/lat.<job>.gz        nnet3-latgen-faster's lattices
#   <decode-dir>/num_jobs
#   <decode-dir>/log/decode.<job>.log
#   <decode-dir>/log/analyze_lattice_depth_stats.log   (stage 2)
# and whatever local/score.sh writes (stage 3; egs/utils/score.sh: wer_*,
# scoring_kaldi/best_wer). Exits 1 with one line naming the problem or the
# failed jobs' logs.
#
# Options (--name value or --name=value; Kaldi's names and defaults):
#   --nj N                      jobs (4)
#   --cmd CMD                   job launcher called as "CMD JOB=1:N LOG
#                               program args" (run.pl, slurm.pl); default:
#                               the jobs run here, side by side
#   --stage N                   1: decode, 2: lattice depth, 3: score (1)
#   --iter NAME                 the model <iter>.mdl (final)
#   --acwt X                    acoustic scale of the search (0.1)
#   --post-decode-acwt X        acoustic scale applied to the lattices (1.0)
#   --beam X  --lattice-beam X  search and lattice beams (15.0, 8.0)
#   --max-active N  --min-active N   active state limits (7000, 200)
#   --frames-per-chunk N        (50)
#   --extra-left-context N  --extra-right-context N   (0, 0)
#   --extra-left-context-initial N  --extra-right-context-final N  (-1, -1)
#   --minimize BOOL             minimize the lattices (false)
#   --num-threads N             >1: nnet3-latgen-faster-parallel (1)
#   --use-gpu BOOL              true: nnet3-latgen-faster-batch on the GPU,
#                               searching on --num-threads threads (false)
#   --batch BOOL                true: nnet3-latgen-faster-batch on the CPU
#                               (--use-gpu=no), as --use-gpu true otherwise;
#                               not in Kaldi's script (false)
#   --online-ivector-dir DIR    its ivector_online.scp and ivector_period
#   --scoring-opts STRING       options for local/score.sh
#   --skip-diagnostics BOOL  --skip-scoring BOOL   (false, false)
set -o pipefail
nj=4 cmd="" stage=1 iter=final acwt=0.1 post_decode_acwt=1.0
beam=15.0 lattice_beam=8.0 max_active=7000 min_active=200 frames_per_chunk=50
extra_left_context=0 extra_right_context=0
extra_left_context_initial=-1 extra_right_context_final=-1
minimize=false num_threads=1 online_ivector_dir="" scoring_opts=""
use_gpu=false batch=false
skip_diagnostics=false skip_scoring=false
options=" nj cmd stage iter acwt post_decode_acwt beam lattice_beam max_active
  min_active frames_per_chunk extra_left_context extra_right_context
  extra_left_context_initial extra_right_context_final minimize num_threads
  use_gpu batch online_ivector_dir scoring_opts skip_diagnostics skip_scoring "
# shellcheck disable=SC2086,SC2116  # one blank between the names
options=" $(echo $options) "

usage() {
  sed -n '/^#   steps/p; /^# Options/,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 1
}
die() { echo "$0: $*" >&2; exit 1; }

echo "$0 $*"
[ -f ./path.sh ] && . ./path.sh
while [[ "${1:-}" == --* ]]; do
  name=${1#--}; name=${name%%=*}; name=${name//-/_}
  if [[ "$1" == *=* ]]; then value=${1#*=}; shift
  else [ $# -ge 2 ] || usage; value=$2; shift 2; fi
  [[ "$options" == *" $name "* ]] || { echo "$0: unknown option --$name" >&2; usage; }
  printf -v "$name" '%s' "$value"
done
[ $# -eq 3 ] || usage
graph=$1 data=$2 dir=$3
srcdir=$(dirname "$dir")
model=$srcdir/$iter.mdl
[[ "$nj" =~ ^[1-9][0-9]*$ ]] || die "--nj must be a positive integer, not '$nj'"
for f in "$graph/HCLG.fst" "$graph/words.txt" "$data/feats.scp" "$data/cmvn.scp" \
  "$data/utt2spk" "$model"; do
  [ -f "$f" ] || die "no such file $f"
done

# split_data NJ: <data>/split<NJ>/<job>/ (utt2spk, spk2utt, feats.scp,
# cmvn.scp), whole speakers per job in utt2spk's order, each job about an
# NJ-th of the utterances and none empty. Kept while newer than the data.
split_data() {
  local n=$1 sdata=$data/split$1 j
  if [ -d "$sdata" ] && [ "$sdata" -nt "$data/feats.scp" ] &&
    [ "$sdata" -nt "$data/utt2spk" ]; then
    return 0
  fi
  rm -rf "$sdata"
  awk -v nj="$n" '
    { if (!($2 in count)) order[++num_spk] = $2; count[$2]++; total++ }
    END {
      if (num_spk < nj) {
        print "fewer speakers (" num_spk ") than jobs (" nj ")"; exit 1
      }
      job = 1; before = 0
      for (i = 1; i <= num_spk; i++) {
        share = int(before * nj / total) + 1  # the job whose share it starts
        if (i > 1) job = (share > job) ? ((share > job + 1) ? job + 1 : share) : job
        if (job < nj - (num_spk - i)) job = nj - (num_spk - i)
        print order[i], job; before += count[order[i]]
      }
    }' "$data/utt2spk" > "$dir/spk2job" || die "$data: $(cat "$dir/spk2job")"
  for ((j = 1; j <= n; j++)); do
    mkdir -p "$sdata/$j"
    awk -v j="$j" 'NR == FNR { if ($2 == j) want[$1]; next } $2 in want' \
      "$dir/spk2job" "$data/utt2spk" > "$sdata/$j/utt2spk"
    awk 'NR == FNR { want[$1]; next } $1 in want' \
      "$sdata/$j/utt2spk" "$data/feats.scp" > "$sdata/$j/feats.scp"
    awk 'NR == FNR { want[$2]; next } $1 in want' \
      "$sdata/$j/utt2spk" "$data/cmvn.scp" > "$sdata/$j/cmvn.scp"
    awk '{ if (!($2 in utts)) order[++n] = $2; utts[$2] = utts[$2] " " $1 }
      END { for (i = 1; i <= n; i++) print order[i] utts[order[i]] }' \
      "$sdata/$j/utt2spk" > "$sdata/$j/spk2utt"
  done
  rm -f "$dir/spk2job"
}

# run_jobs LOG PROGRAM ARGS...: the command once per job, JOB in LOG and in
# the arguments replaced by the job number, through $cmd when given, else
# here, all jobs side by side; fails naming the failed jobs' logs.
run_jobs() {
  local log=$1 j failed=()
  shift
  if [ -n "$cmd" ]; then
    $cmd "JOB=1:$nj" "$log" "$@"
    return
  fi
  local pids=()
  for ((j = 1; j <= nj; j++)); do
    (
      args=("${@//JOB/$j}")
      this_log=${log//JOB/$j}
      { printf '#'; printf ' %q' "${args[@]}"; echo; } > "$this_log"
      "${args[@]}" >> "$this_log" 2>&1
    ) &
    pids+=($!)
  done
  for ((j = 1; j <= nj; j++)); do
    wait "${pids[j - 1]}" || failed+=("${log//JOB/$j}")
  done
  [ ${#failed[@]} -eq 0 ] ||
    die "${#failed[@]} of $nj jobs failed, see ${failed[*]}"
}

mkdir -p "$dir/log"
if [ "$stage" -le 1 ]; then
  split_data "$nj"
  echo "$nj" > "$dir/num_jobs"
  sdata=$data/split$nj
  cmvn_opts=""
  [ -f "$srcdir/cmvn_opts" ] && cmvn_opts=$(cat "$srcdir/cmvn_opts")
  feats="ark,s,cs:apply-cmvn $cmvn_opts --utt2spk=ark:$sdata/JOB/utt2spk scp:$sdata/JOB/cmvn.scp scp:$sdata/JOB/feats.scp ark:- |"
  [ -f "$srcdir/cmvn_opts" ] || feats="scp:$sdata/JOB/feats.scp"
  extra=()
  if [ -n "$online_ivector_dir" ]; then
    for f in ivector_online.scp ivector_period; do
      [ -f "$online_ivector_dir/$f" ] || die "no such file $online_ivector_dir/$f"
    done
    extra+=(--online-ivectors="scp:$online_ivector_dir/ivector_online.scp"
      --online-ivector-period="$(cat "$online_ivector_dir/ivector_period")")
  fi
  [ -f "$srcdir/frame_subsampling_factor" ] &&
    extra+=(--frame-subsampling-factor="$(cat "$srcdir/frame_subsampling_factor")")
  program=nnet3-latgen-faster
  if [ "$use_gpu" = true ] || [ "$batch" = true ]; then
    program=nnet3-latgen-faster-batch
    gpu=no; [ "$use_gpu" = true ] && gpu=yes
    extra+=(--num-threads="$num_threads" --use-gpu=$gpu)
  elif [ "$num_threads" -gt 1 ]; then
    program=nnet3-latgen-faster-parallel
    extra+=(--num-threads="$num_threads")
  fi
  lats="ark:|gzip -c > $dir/lat.JOB.gz"
  [ "$post_decode_acwt" = 1.0 ] ||
    lats="ark:|lattice-scale --acoustic-scale=$post_decode_acwt ark:- ark:- | gzip -c > $dir/lat.JOB.gz"
  rm -f "$dir"/lat.*.gz
  run_jobs "$dir/log/decode.JOB.log" "$program" "${extra[@]}" \
    --frames-per-chunk="$frames_per_chunk" \
    --extra-left-context="$extra_left_context" \
    --extra-right-context="$extra_right_context" \
    --extra-left-context-initial="$extra_left_context_initial" \
    --extra-right-context-final="$extra_right_context_final" \
    --minimize="$minimize" --max-active="$max_active" \
    --min-active="$min_active" --beam="$beam" --lattice-beam="$lattice_beam" \
    --acoustic-scale="$acwt" --allow-partial=true \
    --word-symbol-table="$graph/words.txt" "$model" "$graph/HCLG.fst" \
    "$feats" "$lats" || exit 1
fi

# The distribution of lattice depth over all frames (the number of arcs
# crossing each frame): its 10th, 50th and 90th percentiles and its mean.
if [ "$stage" -le 2 ] && [ "$skip_diagnostics" != true ]; then
  [ -f "$dir/num_jobs" ] || die "no such file $dir/num_jobs (decode first)"
  lattice-depth-per-frame "ark:gunzip -c $dir/lat.*.gz |" ark,t:- \
    2> "$dir/log/lattice_depth.log" | awk '
      { for (i = 2; i <= NF; i++) {
          count[$i]++; sum += $i; frames++; if ($i > max) max = $i + 0 } }
      END {
        if (frames == 0) { print "no frames in the lattices"; exit 1 }
        split("0.1 0.5 0.9", fractions, " ")
        for (p = 1; p <= 3; p++) {
          cutoff = int(fractions[p] * frames); seen = 0
          for (d = 0; d <= max; d++) {
            seen += count[d]
            if (seen >= cutoff) { pct[p] = d; break }
          }
        }
        printf "Overall, lattice depth (10,50,90-percentile)=(%d,%d,%d) and mean=%.1f\n",
          pct[1], pct[2], pct[3], sum / frames
      }' > "$dir/log/analyze_lattice_depth_stats.log" ||
    die "lattice depth failed: $(tail -1 "$dir/log/analyze_lattice_depth_stats.log") (see $dir/log/lattice_depth.log)"
  cat "$dir/log/analyze_lattice_depth_stats.log"
fi

if [ "$stage" -le 3 ] && [ "$skip_scoring" != true ]; then
  [ -x local/score.sh ] || die "local/score.sh is missing or not executable"
  echo "$0: scoring"
  # shellcheck disable=SC2086  # the scoring options are words
  local/score.sh $scoring_opts --cmd "$cmd" "$data" "$graph" "$dir" || exit 1
fi
echo "$0: done"
