#!/usr/bin/env bash
# steps/train.sh: trains a raw nnet3 network on dumped egs the way Kaldi's
# steps/nnet3/train_raw_dnn.py does (parallel SGD with model averaging).
#
#   steps/train.sh [options] <config> <egs-dir> <exp-dir>
#
# <exp-dir>/0.raw comes from nnet3-init <config>. Training runs
# num_iters = num_epochs * num_archives / num_jobs iterations; iteration i
# runs --num-jobs nnet3-train jobs side by side (through $cmd, one log each:
# log/train.i.JOB.log), job j on archive ((i * num_jobs + j - 1) mod
# num_archives) + 1, shuffled again with --srand=i and merged into
# minibatches of --minibatch-size. The jobs' models are averaged with
# nnet3-average into (i+1).raw. So every epoch each archive is seen once.
#
# Learning rate: the effective rate decays exponentially from
# --initial-effective-lrate to --final-effective-lrate over the archives
# processed; as Kaldi, the rate given to nnet3-train is the effective rate
# times num_jobs (averaging num_jobs models divides each one's step).
#
# --train-opts adds options to nnet3-train, e.g. for recurrent models
# Kaldi's derivative truncation: --optimization.min-deriv-time=-8
# --optimization.max-deriv-time-relative=21 (for chunks of 14 frames).
#
# Diagnostics, as Kaldi: nnet3-compute-prob of each model i on the validation
# and train-diagnostic egs (log/compute_prob_{valid,train}.i.log, and .final),
# and nnet3-show-progress between consecutive models (log/progress.i.log),
# run in the background while iteration i trains. The last model is copied to
# final.raw.
set -euo pipefail

cmd=utils/run.pl
num_epochs=5
num_jobs=2
initial_effective_lrate=0.002
final_effective_lrate=0.0002
minibatch_size=128
max_param_change=2.0
momentum=0.0
shuffle_buffer_size=5000
srand=0
image_augmentation_opts=  # e.g. "--horizontal-shift=0.1 --vertical-shift=0.1":
                          # nnet3-egs-augment-image on the training egs, as
                          # train_raw_dnn.py's --image.augmentation-opts
cleanup=true          # remove the per-job models after averaging them
stage=-1              # -1: start with nnet3-init; i >= 0: resume at iteration i
train_opts=""         # more nnet3-train options, e.g. "--optimizer=adam" or
                      # derivative truncation
help_message="Usage: $0 [options] <config> <egs-dir> <exp-dir>
Options (default):
  --cmd ($cmd)  --num-epochs ($num_epochs)  --num-jobs ($num_jobs)
  --initial-effective-lrate ($initial_effective_lrate)
  --final-effective-lrate ($final_effective_lrate)
  --minibatch-size ($minibatch_size)  --max-param-change ($max_param_change)
  --momentum ($momentum)  --shuffle-buffer-size ($shuffle_buffer_size)
  --srand ($srand)  --cleanup ($cleanup)  --stage ($stage)
  --image-augmentation-opts (\"$image_augmentation_opts\")
  --train-opts (\"$train_opts\")"
. utils/parse_options.sh

if [ $# -ne 3 ]; then printf "%s\n" "$help_message" >&2; exit 1; fi
config=$1 egs=$2 dir=$3
for f in $config $egs/info/num_archives $egs/egs.1.ark $egs/valid_diagnostic.egs \
         $egs/train_diagnostic.egs; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done
num_archives=$(cat $egs/info/num_archives)
if [ $num_archives -lt $num_jobs ]; then
  echo "$0: $num_archives egs archives, fewer than --num-jobs=$num_jobs" >&2; exit 1
fi
num_archives_to_process=$(( num_epochs * num_archives ))
num_iters=$(( num_archives_to_process / num_jobs ))
[ $num_iters -ge 1 ] || { echo "$0: no iterations to run" >&2; exit 1; }
mkdir -p $dir/log
echo $num_iters > $dir/num_iters

if [ $stage -le -1 ]; then
  echo "$0: initializing $dir/0.raw from $config"
  $cmd $dir/log/nnet_init.log nnet3-init --srand=$srand $config $dir/0.raw
  stage=0
fi

# Diagnostics of model $1 (an iteration number or "final"), and of the change
# from the model before it when $2 names that one.
diagnostics() {
  local it=$1 prev=${2:-}
  $cmd $dir/log/compute_prob_valid.$it.log nnet3-compute-prob $dir/$it.raw \
    "ark:nnet3-merge-egs --minibatch-size=1:512 ark:$egs/valid_diagnostic.egs ark:- |" &
  $cmd $dir/log/compute_prob_train.$it.log nnet3-compute-prob $dir/$it.raw \
    "ark:nnet3-merge-egs --minibatch-size=1:512 ark:$egs/train_diagnostic.egs ark:- |" &
  if [ -n "$prev" ] && command -v nnet3-show-progress > /dev/null; then
    $cmd $dir/log/progress.$it.log nnet3-show-progress $dir/$prev.raw $dir/$it.raw &
  fi
}

lrate() {  # the learning rate of iteration $1, as Kaldi computes it
  awk -v i=$1 -v j=$num_jobs -v n=$num_archives_to_process \
      -v a=$initial_effective_lrate -v b=$final_effective_lrate \
      'BEGIN { printf "%.6g", j * a * exp(i * j * log(b / a) / n) }'
}

echo "$0: $num_iters iterations ($num_epochs epochs of $num_archives archives, $num_jobs jobs per iteration)"
for iter in $(seq $stage $((num_iters - 1))); do
  next=$((iter + 1))
  lr=$(lrate $iter)
  prev=""; [ $iter -gt 0 ] && prev=$((iter - 1))
  diagnostics $iter $prev
  offset=$(( iter * num_jobs ))
  # As Kaldi: the augmentation's seed is the job's index k = offset+JOB-1
  # plus --srand, expanded in the job.
  augment=
  [ -n "$image_augmentation_opts" ] &&
    augment="nnet3-egs-augment-image --srand=\$(($offset+JOB-1+$srand)) $image_augmentation_opts ark:- ark:- |"
  # JOB's archive: $(((offset+JOB-1)%num_archives+1)), expanded in the job.
  $cmd JOB=1:$num_jobs $dir/log/train.$iter.JOB.log \
    nnet3-shuffle-egs --buffer-size=$shuffle_buffer_size --srand=$((srand + iter)) \
      "ark:$egs/egs.\$((($offset+JOB-1)%$num_archives+1)).ark" ark:- \| \
    $augment \
    nnet3-merge-egs --minibatch-size=$minibatch_size ark:- ark:- \| \
    nnet3-train --max-param-change=$max_param_change --momentum=$momentum \
      --srand=$((srand + iter)) $train_opts \
      "nnet3-copy --learning-rate=$lr $dir/$iter.raw - |" ark:- $dir/$next.JOB.raw
  models=$(for j in $(seq $num_jobs); do echo $dir/$next.$j.raw; done)
  $cmd $dir/log/average.$iter.log nnet3-average $models $dir/$next.raw
  [ $cleanup = true ] && rm -f $models
  wait  # for the diagnostics
  obj=$(grep -o "log-prob-per-frame=[-0-9.e]*" $dir/log/train.$iter.*.log | \
        awk -F= '{ s += $2 } END { if (NR) printf "%.4f", s / NR }' || true)
  acc=$(grep -o "Overall accuracy for 'output' is [-0-9.e]*" \
          $dir/log/compute_prob_valid.$iter.log | awk '{ print $NF }' || true)
  echo "$0: iteration $iter/$num_iters: lrate $lr, train objf $obj, valid accuracy of $iter.raw $acc"
done

cp $dir/$num_iters.raw $dir/final.raw
diagnostics final
wait
acc=$(grep -o "Overall accuracy for 'output' is [-0-9.e]*" \
        $dir/log/compute_prob_valid.final.log | awk '{ print $NF }' || true)
echo "$0: done; $dir/final.raw has validation accuracy $acc"
