#!/usr/bin/env bash
# steps/get_egs.sh: dumps training examples (egs) for frame-level
# classification, as Kaldi's steps/nnet3/get_egs.sh does.
#
#   steps/get_egs.sh [options] <train-data-dir> <valid-data-dir> <egs-dir>
#
# Reads <data>/<feats> (e.g. feats.scp) and <data>/<post> (per-frame pdf
# posteriors, default post.ark) and writes to <egs-dir>:
#   egs.1.ark .. egs.N.ark   the training egs, shuffled over the whole set,
#                            then dealt round-robin into N archives of about
#                            --egs-per-archive egs each (nnet3-get-egs |
#                            nnet3-shuffle-egs | nnet3-copy-egs);
#   valid_diagnostic.egs     all of <valid-data-dir>;
#   train_diagnostic.egs     --num-train-diagnostic utterances of the
#                            training data (every k-th), for the train objective;
#   info/                    num_archives, num_egs, num_pdfs, left_context,
#                            right_context, left_context_initial,
#                            right_context_final, frames_per_eg,
#                            frame_subsampling_factor, feat_dim;
#   log/                     one log per step.
set -euo pipefail

cmd=utils/run.pl
feats=feats.scp                 # feature scp inside the data dirs
num_pdfs=10
num_frames=1                    # --num-frames of nnet3-get-egs
frame_subsampling_factor=1
left_context=0
right_context=0
left_context_initial=-1         # recurrent models: the context of the first
right_context_final=-1          # and last chunk of an utterance (-1: as others)
post=post.ark                   # posteriors inside the data dirs
egs_per_archive=7500
min_archives=2                  # at least this many archives (>= training jobs)
num_train_diagnostic=1000
compress=true
srand=0
stage=0
help_message="Usage: $0 [options] <train-data-dir> <valid-data-dir> <egs-dir>
Options (default):
  --cmd ($cmd)  --feats ($feats)  --num-pdfs ($num_pdfs)
  --num-frames ($num_frames)  --frame-subsampling-factor ($frame_subsampling_factor)
  --left-context ($left_context)  --right-context ($right_context)
  --left-context-initial ($left_context_initial)
  --right-context-final ($right_context_final)  --post ($post)
  --egs-per-archive ($egs_per_archive)  --min-archives ($min_archives)
  --num-train-diagnostic ($num_train_diagnostic)  --compress ($compress)
  --srand ($srand)  --stage ($stage)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then printf "%s\n" "$help_message" >&2; exit 1; fi
data=$1 valid=$2 dir=$3
for f in $data/$feats $data/$post $valid/$feats $valid/$post; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done
mkdir -p $dir/log $dir/info

num_utts=$(wc -l < $data/$feats)
num_archives=$(( (num_utts + egs_per_archive / 2) / egs_per_archive ))
[ $num_archives -lt $min_archives ] && num_archives=$min_archives
opts="--num-pdfs=$num_pdfs --num-frames=$num_frames --frame-subsampling-factor=$frame_subsampling_factor --left-context=$left_context --right-context=$right_context --compress=$compress"
opts="$opts --left-context-initial=$left_context_initial --right-context-final=$right_context_final"

if [ $stage -le 0 ]; then
  echo "$0: dumping $num_utts utterances into $num_archives archives in $dir"
  outputs=""
  for n in $(seq $num_archives); do outputs="$outputs ark:$dir/egs.$n.ark"; done
  $cmd $dir/log/get_egs.log \
    nnet3-get-egs $opts --srand=$srand scp:$data/$feats ark:$data/$post ark:- \| \
    nnet3-shuffle-egs --srand=$srand ark:- ark:- \| \
    nnet3-copy-egs ark:- $outputs
fi

if [ $stage -le 1 ]; then
  echo "$0: dumping the diagnostic egs"
  step=$(( num_utts / num_train_diagnostic )); [ $step -lt 1 ] && step=1
  # (one awk, no head: head exiting first would kill awk with SIGPIPE,
  # which pipefail turns into a silent failure of this script.)
  awk -v s=$step -v n=$num_train_diagnostic 'NR % s == 0 && k++ < n' $data/$feats \
    > $dir/train_diagnostic.scp
  $cmd $dir/log/get_valid_egs.log \
    nnet3-get-egs $opts scp:$valid/$feats ark:$valid/$post ark:$dir/valid_diagnostic.egs
  $cmd $dir/log/get_train_diagnostic_egs.log \
    nnet3-get-egs $opts scp:$dir/train_diagnostic.scp ark:$data/$post \
      ark:$dir/train_diagnostic.egs
fi

echo $num_archives > $dir/info/num_archives
echo $num_utts > $dir/info/num_egs
echo $num_pdfs > $dir/info/num_pdfs
echo $left_context > $dir/info/left_context
echo $right_context > $dir/info/right_context
echo $left_context_initial > $dir/info/left_context_initial
echo $right_context_final > $dir/info/right_context_final
echo $num_frames > $dir/info/frames_per_eg
echo $frame_subsampling_factor > $dir/info/frame_subsampling_factor
# (awk reads to the end: exiting early would kill copy-feats with SIGPIPE,
# which pipefail turns into a failure of this script.)
head -n 1 $data/$feats | copy-feats scp:- ark,t:- 2> /dev/null |
  awk 'NR == 2 { n = NF; if ($NF == "]") n--; print n }' > $dir/info/feat_dim
echo "$0: finished dumping egs in $dir"
