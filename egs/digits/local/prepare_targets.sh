#!/usr/bin/env bash
# local/prepare_targets.sh: the training targets and features, and the
# held-out validation part.
#
#   local/prepare_targets.sh <data-dir> <exp-dir>
#
# From <data-dir>/train/segments.txt (local/make_data.py) and
# <exp-dir>/pdf_map (local/make_tree.py): <exp-dir>/ali.pdf (one pdf id per
# frame; its length must equal the features' frame count, checked here),
# <exp-dir>/pdf_counts.vec (the pdfs' frame counts, the priors), and
# <data-dir>/train_{tr,cv}/{feats.scp,post.ark}: CMVN-applied features and
# ali-to-post's posteriors, 1 in 20 utterances in train_cv.
set -euo pipefail
[ $# -eq 2 ] || { echo "Usage: $0 <data-dir> <exp-dir>" >&2; exit 1; }
data=$1 dir=$2
train=$data/train
$PYTHON local/segments_to_pdf.py $data/lang/phones.txt $dir/pdf_map \
  $train/segments.txt $dir/ali.pdf
awk 'NR == FNR { n[$1] = $2; next }
     { if (!($1 in n)) { print "no features for " $1; exit 1 }
       if (NF - 1 != n[$1]) { print $1 ": " NF - 1 " aligned frames, " n[$1] " feature frames"; exit 1 } }' \
  $train/utt2num_frames $dir/ali.pdf > $dir/log/check_ali.log ||
  { echo "$0: the alignment does not fit the features: $(cat $dir/log/check_ali.log)" >&2; exit 1; }
awk -v n=$(cat $dir/num_pdfs) '{ for (i = 2; i <= NF; i++) c[$i]++ }
  END { printf "["; for (p = 0; p < n; p++) printf " %d", c[p]; print " ]" }' \
  $dir/ali.pdf > $dir/pdf_counts.vec

abs=$(cd $train && pwd)
apply-cmvn --utt2spk=ark:$train/utt2spk scp:$train/cmvn.scp scp:$train/feats.scp \
  ark,scp:$abs/feats_cmvn.ark,$abs/feats_cmvn.scp 2> $dir/log/apply_cmvn.log
: > $dir/cmvn_opts  # apply-cmvn's defaults (means only), for steps/decode.sh
for part in tr cv; do
  mkdir -p $data/train_$part
  awk -v p=$part '(NR % 20 == 0) == (p == "cv")' $train/feats_cmvn.scp > $data/train_$part/feats.scp
  awk 'NR == FNR { want[$1]; next } $1 in want' $data/train_$part/feats.scp $dir/ali.pdf |
    ali-to-post ark,t:- ark:$data/train_$part/post.ark 2> $dir/log/ali_to_post.$part.log
done
echo "$0: $(wc -l < $data/train_tr/feats.scp) training and $(wc -l < $data/train_cv/feats.scp) validation utterances"
