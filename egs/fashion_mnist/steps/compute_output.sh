#!/usr/bin/env bash
# steps/compute_output.sh: runs a trained network over a data set with
# nnet3-compute, split into --nj parallel jobs.
#
#   steps/compute_output.sh [options] <data-dir> <model> <out-dir>
#
# Writes <out-dir>/output.JOB.ark (text archives: one row of log-posteriors
# per output frame of each utterance) and log/compute.JOB.log.
# --compute-opts adds nnet3-compute options (e.g. --looped=true for
# recurrent models).
set -euo pipefail

cmd=utils/run.pl
nj=2
feats=feats.scp
frame_subsampling_factor=1
frames_per_chunk=50
compute_opts=""
help_message="Usage: $0 [options] <data-dir> <model> <out-dir>
Options (default):
  --cmd ($cmd)  --nj ($nj)  --feats ($feats)
  --frame-subsampling-factor ($frame_subsampling_factor)
  --frames-per-chunk ($frames_per_chunk)  --compute-opts ($compute_opts)"
. utils/parse_options.sh

if [ $# -ne 3 ]; then printf "%s\n" "$help_message" >&2; exit 1; fi
data=$1 model=$2 dir=$3
for f in $data/$feats $model; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done
mkdir -p $dir/log $dir/split$nj
num_utts=$(wc -l < $data/$feats)
[ $nj -gt $num_utts ] && nj=$num_utts
# Contiguous pieces, as Kaldi's split_scp.pl.
awk -v nj=$nj -v n=$num_utts -v d=$dir/split$nj \
  '{ j = int((NR - 1) * nj / n) + 1; print > (d "/feats." j ".scp") }' $data/$feats
rm -f $dir/output.*.ark
$cmd JOB=1:$nj $dir/log/compute.JOB.log \
  nnet3-compute --frame-subsampling-factor=$frame_subsampling_factor \
    --frames-per-chunk=$frames_per_chunk $compute_opts $model \
    scp:$dir/split$nj/feats.JOB.scp \
    ark,t:$dir/output.JOB.ark
echo $nj > $dir/num_jobs
