#!/usr/bin/env bash
# Writes a small synthetic Kaldi data directory for raw-DNN training with
# dense targets, with this toolkit's programs: feats.scp, targets.scp (one-hot
# rows, as nnet3-get-egs-dense-targets wants), cmvn.scp (per speaker),
# utt2spk, spk2utt, utt2dur.
# Usage: local/make_data.sh <dir> [options of local/make_data.py]
# e.g.:  local/make_data.sh data/train --num-utts 60 --dim 5
set -e
[ $# -ge 1 ] || { echo "Usage: $0 <dir> [make_data.py options]" >&2; exit 1; }
dir=$1; shift
python=python3; [ -x /usr/bin/python3 ] && python=/usr/bin/python3
$python "$(dirname "$0")/make_data.py" "$@" "$dir"
copy-feats --print-args=false ark,t:$dir/feats.txt ark,scp:$dir/feats.ark,$dir/feats.scp 2> $dir/log.txt
copy-matrix --print-args=false ark,t:$dir/targets.txt ark,scp:$dir/targets.ark,$dir/targets.scp 2>> $dir/log.txt
compute-cmvn-stats --print-args=false --spk2utt=ark:$dir/spk2utt scp:$dir/feats.scp \
  ark,scp:$dir/cmvn.ark,$dir/cmvn.scp 2>> $dir/log.txt
rm $dir/feats.txt $dir/targets.txt $dir/log.txt
