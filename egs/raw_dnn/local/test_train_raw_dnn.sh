#!/usr/bin/env bash
# Drives this toolkit's programs the way Kaldi's steps/nnet3/train_raw_dnn.py
# does, stage by stage, with the exact command lines that script (Kaldi
# commit f40076610, egs/wsj/s5) generated, and checks what each stage
# leaves behind. The command lines are copied from the run.pl logs of
#
#   steps/nnet3/train_raw_dnn.py --cmd run.pl --feat-dir data/train \
#     --targets-scp data/train/targets.scp --dir exp/dnn \
#     --egs.opts "--nj 1 --num-utts-subset 10 --num-train-frames-combine 400 \
#                 --num-frames-diagnostic 160" \
#     --trainer.samples-per-iter 100 --trainer.num-epochs 0.5 \
#     --trainer.optimization.num-jobs-final 2 \
#     --trainer.optimization.minibatch-size 64 --cleanup false
#   steps/nnet3/compute_output.sh --nj 1 data/train exp/dnn exp/dnn/output
#
# run on `local/make_data.sh data/train --num-utts 60 --num-speakers 6 --dim 5
# --num-classes 3 --min-len 20 --max-len 30` with the xconfig
#   input dim=5 name=input
#   fixed-affine-layer name=lda input=Append(-1,0,1) affine-transform-file=exp/dnn/configs/lda.mat
#   relu-batchnorm-layer name=tdnn1 dim=16
#   relu-batchnorm-layer name=tdnn2 input=Append(-1,0,1) dim=16
#   output-layer name=output dim=3 include-log-softmax=true
# (its init.config and final.config, as xconfig_to_configs.py wrote them,
# are below). Each command carries the file:line of Kaldi's script that
# generated it (T = steps/libs/nnet3/train/frame_level_objf/common.py,
# C = steps/libs/nnet3/train/common.py, E = steps/nnet3/get_egs_targets.sh,
# P = steps/nnet3/train_raw_dnn.py, O = steps/nnet3/compute_output.sh). The
# steps that are not our programs (utterance lists, data splitting, `cat`)
# are done here in plain shell, as noted.
#
# Usage: local/test_train_raw_dnn.sh <work-dir>   (this toolkit's programs on
# PATH). Exit status 0 when every check passes.
set -u
[ $# -eq 1 ] || { echo "Usage: $0 <work-dir>" >&2; exit 2; }
RECIPE=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1" && cd "$1" || exit 2
rm -rf data exp utils && mkdir -p exp/dnn/configs exp/dnn/log exp/dnn/egs/log exp/dnn/egs/info
ln -s "$RECIPE/local/kaldi-utils" utils  # our filter_scp.pl
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# The script's --use-gpu (default yes). A CUDA build on a machine without an
# NVIDIA device refuses --use-gpu=yes, as Kaldi's does, so there this is the
# run of train_raw_dnn.py --use-gpu=no.
GPU=yes
if cuda-compiled && ! ls /dev/nvidia[0-9]* > /dev/null 2>&1; then GPU=no; fi

# run LOG CMD: runs CMD (one command line of Kaldi's script) as run.pl does,
# its output in LOG with the command line on top; a failure is reported.
run() {
  local log=$1; shift
  { echo "# $*"; bash -c "$*"; } > "$log" 2>&1 || { fail "$log: $*"; tail -3 "$log"; }
}

# ---- the data directory ----
"$RECIPE/local/make_data.sh" data/train --num-utts 60 --num-speakers 6 --dim 5 \
  --num-classes 3 --min-len 20 --max-len 30 || { echo "FAIL: make_data.sh"; exit 1; }

cat > exp/dnn/configs/init.config <<'CFG'
input-node name=input dim=5
output-node name=output input=Append(Offset(input, -1), input, Offset(input, 1))
CFG
cat > exp/dnn/configs/final.config <<'CFG'
input-node name=input dim=5
component name=lda type=FixedAffineComponent matrix=exp/dnn/configs/lda.mat
component-node name=lda component=lda input=Append(Offset(input, -1), input, Offset(input, 1))
component name=tdnn1.affine type=NaturalGradientAffineComponent input-dim=15 output-dim=16  max-change=0.75
component-node name=tdnn1.affine component=tdnn1.affine input=lda
component name=tdnn1.relu type=RectifiedLinearComponent dim=16 self-repair-scale=1e-05
component-node name=tdnn1.relu component=tdnn1.relu input=tdnn1.affine
component name=tdnn1.batchnorm type=BatchNormComponent dim=16 target-rms=1.0
component-node name=tdnn1.batchnorm component=tdnn1.batchnorm input=tdnn1.relu
component name=tdnn2.affine type=NaturalGradientAffineComponent input-dim=48 output-dim=16  max-change=0.75
component-node name=tdnn2.affine component=tdnn2.affine input=Append(Offset(tdnn1.batchnorm, -1), tdnn1.batchnorm, Offset(tdnn1.batchnorm, 1))
component name=tdnn2.relu type=RectifiedLinearComponent dim=16 self-repair-scale=1e-05
component-node name=tdnn2.relu component=tdnn2.relu input=tdnn2.affine
component name=tdnn2.batchnorm type=BatchNormComponent dim=16 target-rms=1.0
component-node name=tdnn2.batchnorm component=tdnn2.batchnorm input=tdnn2.relu
component name=output.affine type=NaturalGradientAffineComponent input-dim=16 output-dim=3  max-change=1.5 param-stddev=0.0 bias-stddev=0.0
component-node name=output.affine component=output.affine input=tdnn2.batchnorm
component name=output.log-softmax type=LogSoftmaxComponent dim=3
component-node name=output.log-softmax component=output.log-softmax input=output.affine
output-node name=output input=output.log-softmax objective=linear
CFG

L=exp/dnn/log
EL=exp/dnn/egs/log
MERGE_DIAG="ark:- | nnet3-merge-egs --minibatch-size=1:64 ark:- ark:- |"

# ---- stage -4: the network that splices the input, for the LDA stats ----
run $L/nnet_init.log nnet3-init --srand=-2 exp/dnn/configs/init.config exp/dnn/init.raw  # P:240

# ---- stage -3: egs (get_egs_targets.sh, with --nj 1) ----
# Not our programs: feat-dim (common.py get_feat_dim_from_scp uses feat-to-dim),
# the utterance lists (E:117-134; the lists Kaldi's shuffle_list.pl chose),
# split_data.sh (E:113) and the per-job targets (E:255).
[ "$(feat-to-dim --print-args=false scp:data/train/targets.scp - 2> /dev/null)" = 3 ] ||
  fail "feat-to-dim of the targets is not 3"
printf '%s\n' spk000-utt00012 spk001-utt00055 spk002-utt00008 spk002-utt00044 \
  spk003-utt00021 spk003-utt00027 spk003-utt00039 spk003-utt00045 spk003-utt00057 \
  spk004-utt00040 > exp/dnn/egs/valid_uttlist
printf '%s\n' spk000-utt00018 spk002-utt00014 spk002-utt00026 spk003-utt00009 \
  spk004-utt00016 spk004-utt00022 spk004-utt00034 spk004-utt00046 spk004-utt00058 \
  spk005-utt00041 > exp/dnn/egs/train_subset_uttlist
mkdir -p data/train/split1/1
cp data/train/{feats.scp,cmvn.scp,utt2spk,spk2utt} data/train/split1/1/
utils/filter_scp.pl data/train/split1/1/utt2spk data/train/targets.scp > exp/dnn/egs/targets.1.scp
GET_EGS="nnet3-get-egs-dense-targets --num-targets=3 --frame-subsampling-factor=1 --length-tolerance=2 --left-context=2 --right-context=2 --compress=true --num-frames=8"
run $EL/create_valid_subset.log "$GET_EGS \"ark,s,cs:utils/filter_scp.pl exp/dnn/egs/valid_uttlist data/train/feats.scp | apply-cmvn --utt2spk=ark:data/train/utt2spk scp:data/train/cmvn.scp scp:- ark:- |\" \"scp,s,cs:utils/filter_scp.pl exp/dnn/egs/valid_uttlist data/train/targets.scp |\" ark:exp/dnn/egs/valid_all.egs"  # E:289
run $EL/create_train_subset.log "$GET_EGS \"ark,s,cs:utils/filter_scp.pl exp/dnn/egs/train_subset_uttlist data/train/feats.scp | apply-cmvn --utt2spk=ark:data/train/utt2spk scp:data/train/cmvn.scp scp:- ark:- |\" \"scp,s,cs:utils/filter_scp.pl exp/dnn/egs/train_subset_uttlist data/train/targets.scp |\" ark:exp/dnn/egs/train_subset_all.egs"  # E:295
run $EL/create_valid_subset_combine.log nnet3-subset-egs --n=0 ark:exp/dnn/egs/valid_all.egs ark:exp/dnn/egs/valid_combine.egs  # E:313
run $EL/create_valid_subset_diagnostic.log nnet3-subset-egs --n=20 ark:exp/dnn/egs/valid_all.egs ark:exp/dnn/egs/valid_diagnostic.egs  # E:316
run $EL/create_train_subset_combine.log nnet3-subset-egs --n=50 ark:exp/dnn/egs/train_subset_all.egs ark:exp/dnn/egs/train_combine.egs  # E:320
run $EL/create_train_subset_diagnostic.log nnet3-subset-egs --n=20 ark:exp/dnn/egs/train_subset_all.egs ark:exp/dnn/egs/train_diagnostic.egs  # E:323
cat exp/dnn/egs/valid_combine.egs exp/dnn/egs/train_combine.egs > exp/dnn/egs/combine.egs  # E:328 (shell)
run $EL/get_egs.1.log "$GET_EGS \"ark,s,cs:utils/filter_scp.pl --exclude exp/dnn/egs/valid_uttlist data/train/split1/1/feats.scp | apply-cmvn --utt2spk=ark:data/train/split1/1/utt2spk scp:data/train/split1/1/cmvn.scp scp:- ark:- |\" \"scp,s,cs:utils/filter_scp.pl --exclude exp/dnn/egs/valid_uttlist exp/dnn/egs/targets.1.scp |\" ark:- | nnet3-copy-egs --random=true --srand=\$[1+0] ark:- ark:exp/dnn/egs/egs_orig.1.1.ark ark:exp/dnn/egs/egs_orig.1.2.ark"  # E:351
run $EL/shuffle.1.log nnet3-shuffle-egs --srand=\$[1+0] '"ark:cat exp/dnn/egs/egs_orig.1.1.ark|"' ark:exp/dnn/egs/egs.1.ark  # E:377
run $EL/shuffle.2.log nnet3-shuffle-egs --srand=\$[2+0] '"ark:cat exp/dnn/egs/egs_orig.1.2.ark|"' ark:exp/dnn/egs/egs.2.ark  # E:377
# count_egs ARCHIVE: the number of egs (nnet3-copy-egs reports it).
count_egs() {
  nnet3-copy-egs "ark:$1" ark:/dev/null 2>&1 | sed -n 's/.*Read \([0-9]*\) neural-network training examples.*/\1/p'
}
n_valid=$(count_egs exp/dnn/egs/valid_all.egs)
n1=$(count_egs exp/dnn/egs/egs.1.ark) n2=$(count_egs exp/dnn/egs/egs.2.ark)
echo "egs: valid $n_valid, archives $n1 + $n2, combine $(count_egs exp/dnn/egs/combine.egs)"
[ "$n_valid" -ge 30 ] && [ "$((n1 + n2))" -ge 150 ] && [ "$n1" -ge 64 ] && [ "$n2" -ge 64 ] ||
  fail "too few egs (valid $n_valid, archives $n1 + $n2)"
[ "$(count_egs exp/dnn/egs/valid_diagnostic.egs)" = 20 ] || fail "valid_diagnostic.egs: not 20 egs"
# Dense targets: the egs' output is a (compressed) full matrix of 3 columns.
nnet3-copy-egs --frame=0 ark:exp/dnn/egs/egs.1.ark ark,t:- 2> /dev/null | head -20 |
  grep -q "<NnetIo> output <I1V> 1 <I1> 0 0 0  *\[" || fail "egs: no dense 'output' row"

# ---- stage -2: the LDA-like preconditioning matrix (T:320-377) ----
for j in 1 2; do
  run $L/get_lda_stats.$j.log nnet3-acc-lda-stats --rand-prune=4.0 exp/dnn/init.raw "\"ark:nnet3-copy-egs ark:exp/dnn/egs/egs.$j.ark ark:- |\"" exp/dnn/$j.lda_stats  # T:341
done
run $L/sum_transform_stats.log sum-lda-accs exp/dnn/lda_stats exp/dnn/1.lda_stats exp/dnn/2.lda_stats  # T:355
run $L/get_transform.log nnet-get-feature-transform exp/dnn/lda.mat exp/dnn/lda_stats  # T:372
ln -sf ../lda.mat exp/dnn/configs/lda.mat  # T:377 (force_symlink)
[ "$(copy-matrix --print-args=false --binary=false exp/dnn/lda.mat - 2> /dev/null | sed -n 2p | wc -w)" = 16 ] ||
  fail "lda.mat is not 15 x 16"

# ---- stage -1: the initial network (C:549) ----
run $L/add_first_layer.log nnet3-init --srand=0 exp/dnn/init.raw exp/dnn/configs/final.config exp/dnn/0.raw  # C:549

# ---- iterations 0..4 (P:393 train_one_iteration; T:239 raw model, T:121
# egs, T:140 nnet3-train, T:405/426 compute-prob, T:447 progress, C:158
# average, C:184 select) ----
# diag ITER: the background diagnostics of an iteration (T:405, T:426).
diag() {
  run $L/compute_prob_valid.$1.log nnet3-compute-prob exp/dnn/$1.raw "\"ark,bg:nnet3-copy-egs ark:exp/dnn/egs/valid_diagnostic.egs $MERGE_DIAG\""  # T:405
  run $L/compute_prob_train.$1.log nnet3-compute-prob exp/dnn/$1.raw "\"ark,bg:nnet3-copy-egs ark:exp/dnn/egs/train_diagnostic.egs $MERGE_DIAG\""  # T:426
}
# train ITER JOB LR L2 FRAME ARCHIVE MB CACHE_OPTS MAX_CHANGE (T:140 with the
# model of T:239 and the egs of T:121).
train() {
  run $L/train.$1.$2.log nnet3-train --use-gpu=$GPU $8 --print-interval=10 --momentum=0.0 --max-param-change=$9 --backstitch-training-scale=0.0 --l2-regularize-factor=$4 --backstitch-training-interval=1 --srand=$1 "\"nnet3-copy --learning-rate=$3 --scale=1.0 exp/dnn/$1.raw - |\"" "\"ark,bg:nnet3-copy-egs --frame=$5 ark:exp/dnn/egs/egs.$6.ark ark:- | nnet3-shuffle-egs --buffer-size=5000 --srand=$1 ark:- ark:- | nnet3-merge-egs --minibatch-size=$7 ark:- ark:- |\"" exp/dnn/$(($1 + 1)).$2.raw
}
diag 0
train 0 1 0.0003 1.0 1 1 32 --write-cache=exp/dnn/cache.1 1.414213562373095
run $L/select.0.log nnet3-copy exp/dnn/1.1.raw exp/dnn/1.raw  # C:184
diag 1
run $L/progress.1.log nnet3-info exp/dnn/1.raw '&&' nnet3-show-progress --use-gpu=no exp/dnn/0.raw exp/dnn/1.raw  # T:447
train 1 1 0.00022496826279973673 1.0 2 2 64 "--read-cache=exp/dnn/cache.1 --write-cache=exp/dnn/cache.2" 2.0
run $L/average.1.log nnet3-average exp/dnn/2.1.raw exp/dnn/2.raw  # C:158
diag 2
run $L/progress.2.log nnet3-info exp/dnn/2.raw '&&' nnet3-show-progress --use-gpu=no exp/dnn/1.raw exp/dnn/2.raw
train 2 1 0.0001687023975571047 1.0 2 1 64 "--read-cache=exp/dnn/cache.2 --write-cache=exp/dnn/cache.3" 2.0
run $L/average.2.log nnet3-average exp/dnn/3.1.raw exp/dnn/3.raw
diag 3
run $L/progress.3.log nnet3-info exp/dnn/3.raw '&&' nnet3-show-progress --use-gpu=no exp/dnn/2.raw exp/dnn/3.raw
train 3 1 0.0002530179020571493 0.5 3 2 64 "--read-cache=exp/dnn/cache.3 --write-cache=exp/dnn/cache.4" 2.0
train 3 2 0.0002530179020571493 0.5 3 1 64 --read-cache=exp/dnn/cache.3 2.0
run $L/average.3.log nnet3-average exp/dnn/4.1.raw exp/dnn/4.2.raw exp/dnn/4.raw
diag 4
run $L/progress.4.log nnet3-info exp/dnn/4.raw '&&' nnet3-show-progress --use-gpu=no exp/dnn/3.raw exp/dnn/4.raw
train 4 1 6e-05 0.5 4 2 64 "--read-cache=exp/dnn/cache.4 --write-cache=exp/dnn/cache.5" 2.0
train 4 2 6e-05 0.5 4 1 64 --read-cache=exp/dnn/cache.4 2.0
run $L/average.4.log nnet3-average exp/dnn/5.1.raw exp/dnn/5.2.raw exp/dnn/5.raw
# What the script parses after each iteration (C:get_successful_models): the
# average objective of each job.
for f in $L/train.*.log; do
  grep -Eq "LOG .* Overall average objective function for 'output' is ([0-9e.+= -]+) over ([0-9e.+-]+) frames" $f ||
    fail "$f: no line get_successful_models can parse"
done

# ---- combination (P:444, T:529) and the final diagnostics ----
run $L/combine.log nnet3-combine --use-gpu=$GPU --max-objective-evaluations=30 --verbose=3 exp/dnn/5.raw exp/dnn/4.raw "\"ark,bg:nnet3-copy-egs ark:exp/dnn/egs/combine.egs ark:- | nnet3-merge-egs --minibatch-size=1:64 ark:- ark:- |\"" exp/dnn/final.raw  # T:529
diag final
# nnet3_dir_info.pl's regular expressions (steps/info/nnet3_dir_info.pl).
perl -ne '$ok = 1 if m/Combining (\S+) nnets, objective function changed from (\S+) to (\S+)/ && $3 >= $2; END { exit($ok ? 0 : 1) }' $L/combine.log ||
  fail "combine.log: no 'Combining N nnets, objective function changed from X to Y' with Y >= X"
grep -q "WARNING.*--use-gpu=yes: this build has no CUDA backend; running on the CPU" $L/combine.log ||
  cuda-compiled || fail "combine.log: no --use-gpu warning in a CPU-only build"
objf() { sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p" "$1"; }
v0=$(objf $L/compute_prob_valid.0.log) vf=$(objf $L/compute_prob_valid.final.log)
echo "valid objective: iteration 0 $v0, final $vf"
python3 -c "import sys; sys.exit(0 if float('$vf') > float('$v0') + 0.02 else 1)" ||
  fail "training did not improve the validation objective ($v0 -> $vf)"
grep -q "Overall accuracy for 'output' is" $L/compute_prob_valid.final.log || fail "no accuracy line"

# ---- steps/nnet3/compute_output.sh --nj 1 (O:83 features, O:99 output,
# O:115 nnet3-compute); cmvn_opts is empty ----
mkdir -p exp/dnn/output/log
run exp/dnn/output/log/compute_output.1.log nnet3-compute --use-gpu=no --frames-per-chunk=50 --extra-left-context=0 --extra-right-context=0 --extra-left-context-initial=-1 --extra-right-context-final=-1 exp/dnn/final.raw "\"ark,s,cs:apply-cmvn  --utt2spk=ark:data/train/split1/1/utt2spk scp:data/train/split1/1/cmvn.scp scp:data/train/split1/1/feats.scp ark:- |\"" "\"ark:| copy-feats --compress=false ark:- ark,scp:exp/dnn/output/output.1.ark,exp/dnn/output/output.1.scp\""  # O:115
[ "$(wc -l < exp/dnn/output/output.1.scp)" = 60 ] || fail "compute_output: not 60 utterances in output.1.scp"
[ "$(feat-to-len --print-args=false scp:exp/dnn/output/output.1.scp 2> /dev/null)" = \
  "$(feat-to-len --print-args=false scp:data/train/feats.scp 2> /dev/null)" ] ||
  fail "compute_output: not one output row per input frame"
# The outputs are log-posteriors: in every row of every utterance the exp
# of the 3 values sums to one (within 1e-3), and the rows are not all the
# same (a trained model tells the frames apart).
copy-matrix --print-args=false --apply-exp scp:exp/dnn/output/output.1.scp ark,t:- 2> /dev/null |
  python3 -c "
import sys
rows, bad = [], []
for line in sys.stdin:
    vals = line.replace(']', ' ').split()
    if not vals or line.rstrip().endswith('['): continue
    r = [float(x) for x in vals]
    rows.append(r)
    if len(r) != 3 or min(r) < 0 or abs(sum(r) - 1) > 1e-3: bad.append(r)
spread = max(max(r[0] for r in rows) - min(r[0] for r in rows), 0) if rows else 0
print('compute_output: %d rows, %d not posteriors, spread of column 0 %.3f' % (len(rows), len(bad), spread))
sys.exit(0 if rows and not bad and spread > 0.02 else 1)" ||
  fail "compute_output: the output is not log-posteriors (rows whose exp does not sum to one, or all rows the same)"

# Every command line above is the one Kaldi's scripts ran (their run.pl
# logs, local/kaldi-command-lines.txt).
for f in $(ls exp/dnn/egs/log/*.log exp/dnn/log/*.log exp/dnn/output/log/*.log | sort -V); do
  echo "$(basename $f .log): $(head -1 $f | tr -s ' ' | sed 's/^# //;s/ *$//')"
done > command-lines.txt
# (Kaldi's ran with --use-gpu=yes; a run with $GPU = no differs only there.)
diff <(grep -v '^#' "$RECIPE/local/kaldi-command-lines.txt" | sed "s/--use-gpu=yes/--use-gpu=$GPU/") \
  command-lines.txt > command-lines.diff ||
  { fail "command lines differ from Kaldi's:"; head -6 command-lines.diff; }

if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
