#!/usr/bin/env bash
# local/make_feats.sh: MFCCs and per-speaker CMVN statistics of a data
# directory, as Kaldi's steps/make_mfcc.sh and steps/compute_cmvn_stats.sh.
#
#   local/make_feats.sh [--cmd CMD] [--nj N] [--mfcc-config conf/mfcc.conf] <data-dir>
#
# Reads <data-dir>/wav.scp and spk2utt; runs compute-mfcc-feats on --nj
# parts of wav.scp through CMD (log/make_mfcc.JOB.log), and writes
# <data-dir>/{feats.scp,cmvn.scp,utt2num_frames} and the archives in
# <data-dir>/mfcc/. Fails, naming the log, when any utterance fails.
set -euo pipefail
cmd=utils/run.pl
nj=2
mfcc_config=conf/mfcc.conf
. utils/parse_options.sh
[ $# -eq 1 ] || { echo "Usage: $0 [--cmd CMD] [--nj N] [--mfcc-config FILE] <data-dir>" >&2; exit 1; }
data=$1
for f in $data/wav.scp $data/spk2utt $mfcc_config; do
  [ -f $f ] || { echo "$0: no such file $f" >&2; exit 1; }
done
mkdir -p $data/mfcc $data/log
abs=$(cd $data && pwd)
for j in $(seq $nj); do
  awk -v nj=$nj -v j=$j '(NR - 1) % nj == j - 1' $data/wav.scp > $data/mfcc/wav.$j.scp
done
$cmd JOB=1:$nj $data/log/make_mfcc.JOB.log \
  compute-mfcc-feats --config=$mfcc_config scp:$data/mfcc/wav.JOB.scp \
    ark,scp:$abs/mfcc/raw_mfcc.JOB.ark,$abs/mfcc/raw_mfcc.JOB.scp
cat $data/mfcc/raw_mfcc.*.scp | sort > $data/feats.scp
have=$(wc -l < $data/feats.scp) want=$(wc -l < $data/wav.scp)
[ $have -eq $want ] ||
  { echo "$0: features for $have of $want utterances, see $data/log/make_mfcc.*.log" >&2; exit 1; }
feat-to-len scp:$data/feats.scp ark,t:$data/utt2num_frames 2> $data/log/feat_to_len.log
compute-cmvn-stats --spk2utt=ark:$data/spk2utt scp:$data/feats.scp \
  ark,scp:$abs/mfcc/cmvn.ark,$data/cmvn.scp 2> $data/log/cmvn.log
