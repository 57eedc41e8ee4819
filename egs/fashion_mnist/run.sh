#!/usr/bin/env bash
# Fashion-MNIST with nnet3: an MLP on whole images, a TDNN and a TDNN-LSTM
# over image rows.
#
#   ./run.sh                 # everything: install, build, data, egs, train, test
#   ./run.sh --stage 3       # from training on
#   ./run.sh --models tdnn   # one model only
#   ./run.sh --tiny true     # a few hundred images, one iteration (the test suite's)
#   ./run.sh --cmd slurm     # every parallel stage through utils/slurm.pl (cmd.sh)
#
# Stages:
#   0  install what is missing (Debian packages dataset-fashion-mnist,
#      python3-numpy, gnuplot-nox; then scripts/setup.sh builds ../../build)
#   1  data preparation (local/prepare_data.py): data/{train,valid,test}
#   2  egs for each model (steps/get_egs.sh): exp/<model>/egs
#   3  training (steps/train.sh): exp/<model>/{0..N,final}.raw, logs in exp/<model>/log
#   4  nnet3-compute on the test set and scoring (local/score.py):
#      exp/<model>/decode_test, exp/results.txt ("<model> test-accuracy <value>")
#   5  plots of the diagnostics (local/plot_progress.sh): exp/<model>/progress.png
#   6  the network-design seed's example from C++ alone (--builder true):
#      local/builder_mlp (built by Meson) builds the MLP with NetBuilder and
#      trains it with Adam; its line "mlp-builder test-accuracy" goes to
#      exp/results.txt
#
# The models read the same images differently:
#   mlp:  each image is one frame of 784 dims (data/*/feats_flat.scp); one eg
#         per image (--num-frames=1, no context).
#   tdnn: each image is 28 frames (its rows) of 28 dims (data/*/feats.scp),
#         with one label. The egs use --frame-subsampling-factor=28 with
#         --num-frames=28: one output frame (t=0) per image, whose context is
#         the image's 28 rows (the network's output node reads its centred
#         last layer at t+14, see configs/tdnn.config), so no padding is
#         needed (--left-context=0 --right-context=0). nnet3-compute with
#         --frame-subsampling-factor=28 likewise writes one row per image.
#   tdnn-lstm: the rows as a sequence, every row labelled with the image's
#         class (data/*/post_rows.ark); the prediction is the output at the
#         last row (local/score.py --row last). Trained as Kaldi trains
#         recurrent models: chunks of 14 rows (--num-frames 14) with 7 rows
#         of extra left context for the recurrence (none before row 0:
#         --left-context-initial), derivatives truncated 8 frames beyond
#         the chunk and the model context (Kaldi's train_rnn.py with
#         --trainer.deriv-truncate-margin=8: --optimization.min-deriv-time
#         and --optimization.max-deriv-time-relative);
#         tested with nnet3-compute --looped=true, one computation that
#         carries the LSTM state through each image.
set -euo pipefail
cd "$(dirname "$0")"

stage=0
models="mlp tdnn mlp-adam tdnn-lstm"
tiny=false
num_jobs=2            # training jobs per iteration (parallel SGD + averaging)
nj=2                  # nnet3-compute jobs on the test set
num_epochs=5
minibatch_size=128
# nnet3-egs-augment-image options for the tdnn's training egs (its rows are
# the image's rows, so Kaldi's "horizontal" is vertical here); "" for none.
tdnn_augmentation_opts=""
idx_dir=/usr/share/datasets/fashion-mnist
builder=true          # stage 6: local/builder_mlp (NetBuilder + Adam in C++)
cmd=""                # run | slurm: the job launcher (cmd.sh); "" keeps cmd.sh's
help_message="Usage: $0 [--stage N] [--models \"mlp tdnn mlp-adam tdnn-lstm\"] [--tiny true|false]
  [--cmd run|slurm] [--num-jobs N] [--nj N] [--num-epochs N] [--minibatch-size N]
  [--idx-dir DIR] [--builder true|false] [--tdnn-augmentation-opts \"--horizontal-shift=0.1 ...\"]
Runs the Fashion-MNIST recipe; see the comment at the top of $0."
. ./path.sh
. utils/parse_options.sh
[ -z "$cmd" ] || launcher=$cmd
. ./cmd.sh
[ $# -eq 0 ] || { printf "%s\n" "$help_message" >&2; exit 1; }

start_time=$(date +%s)
log() { echo "$0: [$(( $(date +%s) - start_time ))s] $*"; }

# The data set's size: everything, or the tiny version for the test suite.
prep_opts="--num-valid 1000"
egs_per_archive=7400
num_train_diagnostic=1000
if [ $tiny = true ]; then
  prep_opts="--num-train 400 --num-valid 100 --num-test 200"
  egs_per_archive=150
  num_train_diagnostic=100
  num_epochs=1
fi

# Per-model settings: which features, how egs are cut, learning rates, and
# (defaults: configs/<model>.config, plain SGD) the config and nnet3-train
# options.
model_settings() {
  # Defaults, for the frame-level models.
  config=$1.config post=post.ark train_opts="" compute_opts="" score_opts=""
  epochs=$num_epochs aug_opts=
  case $1 in
    mlp)
      feats=feats_flat.scp egs_opts="--num-frames 1" fss=1 aug_opts=
      initial_lrate=0.003 final_lrate=0.0003 ;;
    mlp-adam)  # the MLP trained with nnet3-train --optimizer=adam
      feats=feats_flat.scp egs_opts="--num-frames 1" fss=1 config=mlp.config
      aug_opts= train_opts="--optimizer=adam" initial_lrate=0.0005 final_lrate=0.00005 ;;
    tdnn)
      feats=feats.scp egs_opts="--num-frames 28 --frame-subsampling-factor 28" fss=28
      aug_opts=$tdnn_augmentation_opts
      initial_lrate=0.003 final_lrate=0.0003 ;;
    tdnn-lstm)
      # Model context: 2 rows each side; chunks of 14 rows with 7 more of
      # left context (Kaldi's chunk-left-context); min-deriv-time
      # -(8 + 2), max-deriv-time-relative 8 + 2 (Kaldi's train_rnn.py).
      feats=feats.scp post=post_rows.ark fss=1
      egs_opts="--num-frames 14 --left-context 9 --right-context 2"
      egs_opts="$egs_opts --left-context-initial 2 --right-context-final 2"
      train_opts="--optimization.min-deriv-time=-10"
      train_opts="$train_opts --optimization.max-deriv-time-relative=10"
      compute_opts="--looped=true" score_opts="--row last"
      epochs=$(( num_epochs < 2 ? num_epochs : 2 ))
      initial_lrate=0.003 final_lrate=0.0003 ;;
    *) echo "$0: unknown model '$1' (known: mlp tdnn mlp-adam tdnn-lstm)" >&2; exit 1 ;;
  esac
}
for m in $models; do model_settings $m; done

if [ $stage -le 0 ]; then
  log "stage 0: checking packages and the build"
  missing=""
  for p in dataset-fashion-mnist python3-numpy gnuplot-nox; do
    dpkg-query -W -f='${Status}' $p 2> /dev/null | grep -q 'install ok installed' ||
      missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    log "installing$missing"
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
  fi
  if [ "$NNET3_BUILD" = "$NNET3_ROOT/build" ]; then
    $NNET3_ROOT/scripts/setup.sh
  fi
  for p in nnet3-init nnet3-get-egs nnet3-shuffle-egs nnet3-copy-egs nnet3-merge-egs \
           nnet3-train nnet3-average nnet3-compute-prob nnet3-compute copy-feats; do
    command -v $p > /dev/null || { echo "$0: $p is not in $NNET3_BUILD/bin" >&2; exit 1; }
  done
fi

if [ $stage -le 1 ]; then
  log "stage 1: data preparation from $idx_dir"
  $PYTHON local/prepare_data.py $prep_opts $idx_dir data
  for d in train valid test; do $PYTHON local/make_row_posts.py data/$d; done
fi

if [ $stage -le 2 ]; then
  for m in $models; do
    model_settings $m
    log "stage 2: egs for $m"
    steps/get_egs.sh --cmd "$train_cmd" --feats $feats --post $post $egs_opts \
      --egs-per-archive $egs_per_archive --min-archives $num_jobs \
      --num-train-diagnostic $num_train_diagnostic \
      data/train data/valid exp/$m/egs
  done
fi

if [ $stage -le 3 ]; then
  for m in $models; do
    model_settings $m
    log "stage 3: training $m"
    steps/train.sh --cmd "$train_cmd" --num-epochs $epochs --num-jobs $num_jobs \
      --initial-effective-lrate $initial_lrate --final-effective-lrate $final_lrate \
      --minibatch-size $minibatch_size --image-augmentation-opts "$aug_opts" \
      --train-opts "$train_opts" configs/$config exp/$m/egs exp/$m
  done
fi

if [ $stage -le 4 ]; then
  for m in $models; do
    model_settings $m
    log "stage 4: testing $m"
    steps/compute_output.sh --cmd "$decode_cmd" --nj $nj --feats $feats \
      --frame-subsampling-factor $fss --frames-per-chunk 28 \
      --compute-opts "$compute_opts" \
      data/test exp/$m/final.raw exp/$m/decode_test
    $PYTHON local/score.py --results exp/results.txt $score_opts $m data/test/labels \
      exp/$m/decode_test/output.*.ark
  done
fi

if [ $stage -le 5 ]; then
  for m in $models; do
    log "stage 5: plotting $m"
    local/plot_progress.sh exp/$m
  done
fi

if [ $stage -le 6 ] && [ $builder = true ]; then
  log "stage 6: the NetBuilder MLP (local/builder_mlp), trained with Adam"
  builder_mlp=$NNET3_BUILD/egs/fashion_mnist/local/builder_mlp
  [ -x $builder_mlp ] || { echo "$0: $builder_mlp is not built" >&2; exit 1; }
  mkdir -p exp/mlp-builder
  $builder_mlp --num-epochs=$num_epochs --results=exp/results.txt data \
    2> exp/mlp-builder/train.log
  grep "^mlp-builder" exp/results.txt
fi

log "done. Test accuracies (exp/results.txt):"
cat exp/results.txt
