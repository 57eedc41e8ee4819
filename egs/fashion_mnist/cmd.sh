# shellcheck shell=bash
# cmd.sh: how the recipe runs its jobs. utils/run.pl runs them on this
# machine, in parallel, one log per job; a grid would use queue.pl here.
export train_cmd="utils/run.pl"
export decode_cmd="utils/run.pl"
