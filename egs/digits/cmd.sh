# shellcheck shell=bash
# cmd.sh: how the recipe runs its jobs. Two launchers, with one calling
# convention (Kaldi's):
#   utils/run.pl    runs the jobs on this machine, in parallel, one log each;
#   utils/slurm.pl  submits them to a Slurm cluster as one array job and
#                   waits (options --mem, --num-threads, --gpu, --time,
#                   --max-jobs-run, --config conf/slurm.conf; see its header).
# `run.sh --cmd slurm` (or `--cmd run`) picks one for every stage; otherwise
# the value below is used. On a cluster, run the recipe from a directory the
# nodes share (the logs and exp/ must be visible to them), from a machine
# where sbatch works.
launcher=${launcher:-run}
case $launcher in
  run) export train_cmd="utils/run.pl" decode_cmd="utils/run.pl" ;;
  slurm) export train_cmd="utils/slurm.pl --mem 2G" decode_cmd="utils/slurm.pl --mem 2G" ;;
  *) echo "cmd.sh: unknown launcher '$launcher' (run or slurm)" >&2; return 1 ;;
esac
