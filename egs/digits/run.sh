#!/usr/bin/env bash
# Spoken digits: speech synthesized with espeak-ng, a TDNN acoustic model
# trained on alignments from espeak's own phoneme times, a digit-loop
# decoding graph, lattices and word error rates -- from audio to WER with
# this toolkit's programs only.
#
#   ./run.sh                 # everything: install, build, data ... plots
#   ./run.sh --stage 5       # from training on
#   ./run.sh --tiny true     # a few hundred utterances, a small net (the test suite's)
#   ./run.sh --cmd slurm     # the parallel jobs through utils/slurm.pl (cmd.sh)
#
# Stages:
#   0  install what is missing (Debian packages espeak-ng, sox, python3-numpy,
#      gnuplot-nox; then scripts/setup.sh builds, in ../../build, only the
#      programs the recipe runs)
#   1  data (local/make_data.py): data/{train,test,test_noisy} (wav.scp with
#      sox pipes to 16 kHz, text, utt2spk, spk2utt), data/train/segments.txt
#      (the phone alignment), data/local/dict (the lexicon espeak gives)
#   2  features: compute-mfcc-feats (conf/mfcc.conf), compute-cmvn-stats per
#      speaker: data/<set>/{feats,cmvn}.scp
#   3  lang, LM and tree: data/lang (prepare_lang.sh: position-dependent
#      phones, 2-state phones, 3-state silence), data/lang_test (format_lm.sh
#      on a digit-loop unigram ARPA), exp/tdnn/tree (local/make_tree.py, a
#      monophone tree: copy-tree, tree-info); the alignment as pdf ids
#      (local/segments_to_pdf.py) and posteriors (ali-to-post), CMVN applied
#      features; 1 in 20 training utterances held out for validation
#   4  egs (steps/get_egs.sh): exp/tdnn/egs
#   5  training (steps/train.sh, nnet3-train): exp/tdnn/final.raw
#   6  the acoustic model and the graph: exp/tdnn/final.mdl (nnet3-am-init,
#      priors from the training pdf counts by nnet3-am-adjust-priors),
#      exp/tdnn/graph (mkgraph.sh)
#   7  decoding (steps/decode.sh --batch true: nnet3-latgen-faster-batch) and
#      scoring of test and test_noisy: exp/tdnn/decode_<set>, lines
#      "tdnn <set> wer <WER%>" in exp/results.txt, and the CTM
#      exp/tdnn/decode_<set>/ctm (lattice-align-words, nbest-to-ctm)
#   8  plots (gnuplot): exp/tdnn/progress.png (training), exp/tdnn/wer.png
#      (WER against the LM weight)
# The last lines printed give the seconds spent in each stage and the total.
set -euo pipefail
cd "$(dirname "$0")"

stage=0
tiny=false
nj=2                  # feature and decoding jobs
num_jobs=2            # training jobs per iteration (parallel SGD + averaging)
num_train=2000        # training utterances (before the held-out 1 in 20)
num_test=300          # test utterances (test_noisy is the same with noise)
train_variants="m1 m2 m3 m4 m5 f1 f2 f3 klatt"   # espeak-ng voice variants
test_variants="m6 m7 f4 f5"                      # (held out from training)
languages="en-us en"  # each voice is <language>+<variant>
snr=10                # dB, of test_noisy
train_noise_prob=0.5  # the part of the training set with white noise (5-20 dB)
decode_opts="--beam 13 --lattice-beam 5"
num_epochs=4
hidden_dim=256
seed=1
cmd=""                # run | slurm: the job launcher (cmd.sh); "" keeps cmd.sh's
help_message="Usage: $0 [--stage N] [--tiny true|false] [--cmd run|slurm] [--nj N]
  [--num-jobs N] [--num-train N] [--num-test N] [--train-variants \"m1 m2 ...\"]
  [--test-variants \"m6 ...\"] [--languages \"en-us en\"] [--snr DB]
  [--train-noise-prob P] [--decode-opts \"--beam 13 ...\"]
  [--num-epochs N] [--hidden-dim N] [--seed N]
Runs the spoken-digits recipe; see the comment at the top of $0."
. ./path.sh
. utils/parse_options.sh
[ -z "$cmd" ] || launcher=$cmd
. ./cmd.sh
[ $# -eq 0 ] || { printf "%s\n" "$help_message" >&2; exit 1; }
last_stage=8
if ! [[ "$stage" =~ ^[0-9]+$ ]] || [ "$stage" -gt $last_stage ]; then
  echo "$0: --stage must be 0 .. $last_stage, not '$stage'" >&2; exit 1
fi

if [ $tiny = true ]; then
  num_train=240 num_test=60 num_epochs=2 hidden_dim=64
fi
dir=exp/tdnn
lrates="--initial-effective-lrate 0.003 --final-effective-lrate 0.0003"

start_time=$(date +%s)
log() { echo "$0: [$(( $(date +%s) - start_time ))s] $*"; }
declare -A stage_secs=()
stage_order="" current_stage="" stage_start=$start_time
stage_begin() {  # closes the running stage and starts $1 ("end": only closes)
  local now; now=$(date +%s)
  if [ -n "$current_stage" ]; then
    stage_secs[$current_stage]=$(( ${stage_secs[$current_stage]:-0} + now - stage_start ))
  fi
  current_stage=$1 stage_start=$now
  [ "$1" = end ] || stage_order="$stage_order $1"
}

programs="compute-mfcc-feats compute-cmvn-stats apply-cmvn copy-feats feat-to-len
  copy-tree tree-info ali-to-post arpa2fst fstaddselfloops fstisstochastic
  fsttablecompose fstdeterminizestar fstminimizeencoded fstpushspecial
  fstcomposecontext make-h-transducer fstrmsymbols fstrmepslocal add-self-loops
  nnet3-init nnet3-get-egs nnet3-shuffle-egs nnet3-copy-egs nnet3-merge-egs
  nnet3-train nnet3-average nnet3-copy nnet3-compute-prob nnet3-show-progress
  nnet3-am-init nnet3-am-adjust-priors am-info nnet3-latgen-faster-batch
  lattice-depth-per-frame lattice-scale lattice-add-penalty lattice-best-path
  compute-wer lattice-1best lattice-align-words nbest-to-ctm"

if [ $stage -le 0 ]; then
  stage_begin 0
  log "stage 0: checking packages and the build"
  missing=""
  for p in espeak-ng sox python3-numpy gnuplot-nox; do
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
    targets=""
    for p in $programs; do targets="$targets bin/$p"; done
    $NNET3_ROOT/scripts/setup.sh --targets "$targets"
  fi
  for p in $programs; do
    command -v $p > /dev/null || { echo "$0: $p is not in $NNET3_BUILD/bin" >&2; exit 1; }
  done
fi

if [ $stage -le 1 ]; then
  stage_begin 1
  log "stage 1: synthesizing the data (seed $seed)"
  rm -rf data
  $PYTHON local/make_data.py --num-train $num_train --num-test $num_test \
    --languages "$languages" --train-variants "$train_variants" \
    --test-variants "$test_variants" --snr $snr --train-noise-prob $train_noise_prob \
    --seed $seed data
fi

if [ $stage -le 2 ]; then
  stage_begin 2
  for set in train test test_noisy; do
    log "stage 2: features of $set"
    local/make_feats.sh --cmd "$train_cmd" --nj $nj data/$set
  done
fi

if [ $stage -le 3 ]; then
  stage_begin 3
  log "stage 3: lang, LM, tree and alignments"
  local/prepare_lang_tree.sh data $dir
  local/prepare_targets.sh data $dir
fi

if [ $stage -le 4 ]; then
  stage_begin 4
  log "stage 4: egs"
  steps/get_egs.sh --cmd "$train_cmd" --num-pdfs $(cat $dir/num_pdfs) \
    --num-frames 8 --left-context 9 --right-context 9 \
    --egs-per-archive 400 --min-archives $num_jobs --num-train-diagnostic 100 \
    data/train_tr data/train_cv $dir/egs
fi

if [ $stage -le 5 ]; then
  stage_begin 5
  log "stage 5: training"
  sed "s/@DIM@/$hidden_dim/g; s/@DIM3@/$((3 * hidden_dim))/g; s/@NUM_PDFS@/$(cat $dir/num_pdfs)/g" \
    configs/tdnn.config > $dir/tdnn.config
  train_start=$(date +%s)
  # shellcheck disable=SC2086  # the learning rate options are words
  steps/train.sh --cmd "$train_cmd" --num-epochs $num_epochs --num-jobs $num_jobs \
    $lrates --minibatch-size 256 $dir/tdnn.config $dir/egs $dir
  echo $(( $(date +%s) - train_start )) > $dir/train_seconds
fi

if [ $stage -le 6 ]; then
  stage_begin 6
  log "stage 6: final.mdl and the graph"
  nnet3-am-init $dir/tree data/lang/topo $dir/final.raw - 2> $dir/log/am_init.log |
    nnet3-am-adjust-priors - $dir/pdf_counts.vec $dir/final.mdl 2> $dir/log/adjust_priors.log
  mkgraph.sh data/lang_test $dir $dir/graph > $dir/log/mkgraph.log 2>&1 ||
    { echo "$0: mkgraph.sh failed, see $dir/log/mkgraph.log" >&2; exit 1; }
fi

if [ $stage -le 7 ]; then
  stage_begin 7
  [ -f exp/results.txt ] && grep -v "^tdnn " exp/results.txt > exp/results.new || true
  for set in test test_noisy; do
    log "stage 7: decoding $set"
    # shellcheck disable=SC2086  # the options are words
    steps/decode.sh --nj $nj --batch true --cmd "$decode_cmd" $decode_opts \
      $dir/graph data/$set $dir/decode_$set > $dir/log/decode_$set.log 2>&1 ||
      { echo "$0: decoding $set failed, see $dir/log/decode_$set.log" >&2; exit 1; }
    wer=$(awk '{ print $2 }' $dir/decode_$set/scoring_kaldi/best_wer)
    echo "tdnn $set wer $wer" >> exp/results.new
    local/get_ctm.sh data/lang_test $dir/final.mdl $dir/decode_$set
  done
  mv exp/results.new exp/results.txt
fi

if [ $stage -le 8 ]; then
  stage_begin 8
  log "stage 8: plots"
  local/plot_progress.sh $dir
  local/plot_wer.sh $dir/decode_test $dir/decode_test_noisy $dir/wer.png
fi

stage_begin end
summary=""
for st in $stage_order; do summary="$summary stage $st ${stage_secs[$st]}s,"; done
log "done. Time per stage:${summary% ,} total $(( $(date +%s) - start_time ))s"
log "Word error rates (exp/results.txt):"
cat exp/results.txt
