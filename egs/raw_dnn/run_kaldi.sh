#!/usr/bin/env bash
# Runs Kaldi's own recipe scripts, unchanged, with this toolkit's programs:
# steps/nnet3/xconfig_to_configs.py, steps/nnet3/train_raw_dnn.py (with its
# defaults) and steps/nnet3/compute_output.sh, on a synthetic data directory
# (local/make_data.sh: 1300 utterances, 13-dim features, 4 classes, dense
# targets). Kaldi's scripts are not part of this toolkit: point --kaldi-s5
# at a Kaldi checkout's egs/wsj/s5 (its steps/ and utils/ are linked into the
# work directory). Kaldi's non-nnet3 helpers that the scripts call
# (feat-to-dim, feat-to-len, apply-cmvn, compute-cmvn-stats, matrix-sum-rows,
# vector-sum, copy-feats, copy-matrix, cuda-compiled) are this toolkit's.
#
# Usage: ./run_kaldi.sh --kaldi-s5 <kaldi>/egs/wsj/s5 [--dir <work-dir>]
#                       [--stage N] [--bin <toolkit bin dir>]
#   stage 0: data; 1: xconfig; 2: train_raw_dnn.py; 3: compute_output.sh
# The only options given to train_raw_dnn.py besides the required ones are
# --cmd run.pl (no grid engine), --use-gpu no in a CUDA build on a machine
# without a GPU, and --trainer.samples-per-iter 800: with the
# default 400000 a data set this small would give one archive, and the
# default --trainer.optimization.num-jobs-final=8 needs at least 8; 800 gives
# 13 archives of about 580 egs, enough for the default minibatch of 512.
set -e
kaldi_s5= dir= stage=0
bin=$(cd "$(dirname "$0")/../.." && pwd)/build/bin
while [ $# -gt 0 ]; do
  case $1 in
    --kaldi-s5) kaldi_s5=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --stage) stage=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    *) echo "$0: unknown option $1" >&2; exit 1 ;;
  esac
done
[ -n "$kaldi_s5" ] && [ -f "$kaldi_s5/steps/nnet3/train_raw_dnn.py" ] ||
  { echo "Usage: $0 --kaldi-s5 <kaldi>/egs/wsj/s5 [--dir D] [--stage N] [--bin B]" >&2; exit 1; }
[ -x "$bin/nnet3-combine" ] || { echo "$0: no programs in $bin (build first)" >&2; exit 1; }
recipe=$(cd "$(dirname "$0")" && pwd)
kaldi_s5=$(cd "$kaldi_s5" && pwd)
dir=${dir:-$recipe/kaldi-run}
mkdir -p "$dir" && cd "$dir"
ln -sfn "$kaldi_s5/steps" steps
ln -sfn "$kaldi_s5/utils" utils
cat > path.sh <<PATHSH
export PATH=$bin:\$PWD/utils:\$PATH
export LC_ALL=C
PATHSH
. ./path.sh
python=python3; [ -x /usr/bin/python3 ] && python=/usr/bin/python3

if [ $stage -le 0 ]; then
  rm -rf data/train
  "$recipe/local/make_data.sh" data/train --min-len 40 --max-len 80 --noise 1.5
fi
if [ $stage -le 1 ]; then
  rm -rf exp/dnn && mkdir -p exp/dnn/configs
  cat > exp/dnn/configs/network.xconfig <<XCONFIG
input dim=13 name=input
fixed-affine-layer name=lda input=Append(-2,-1,0,1,2) affine-transform-file=exp/dnn/configs/lda.mat
relu-batchnorm-layer name=tdnn1 dim=64
relu-batchnorm-layer name=tdnn2 input=Append(-1,0,1) dim=64
output-layer name=output dim=4 include-log-softmax=true
XCONFIG
  $python steps/nnet3/xconfig_to_configs.py --xconfig-file exp/dnn/configs/network.xconfig \
    --config-dir exp/dnn/configs
fi
if [ $stage -le 2 ]; then
  # The script's default --use-gpu=yes; a CUDA build on a machine without an
  # NVIDIA device refuses it (as Kaldi's does), so run with --use-gpu=no there.
  gpu=yes
  if cuda-compiled && ! ls /dev/nvidia[0-9]* > /dev/null 2>&1; then gpu=no; fi
  $python steps/nnet3/train_raw_dnn.py --cmd run.pl --feat-dir data/train \
    --targets-scp data/train/targets.scp --trainer.samples-per-iter 800 \
    --use-gpu $gpu --dir exp/dnn
fi
if [ $stage -le 3 ]; then
  steps/nnet3/compute_output.sh --cmd run.pl --nj 4 data/train exp/dnn exp/dnn/output
  echo "$0: wrote $(wc -l < exp/dnn/output/output.scp) outputs: $dir/exp/dnn/output/output.scp"
fi
