#!/usr/bin/env bash
# The recipe's Slurm launcher on a real (one-node) Slurm cluster that this test
# starts with scripts/slurm-local.sh and stops at the end: the tiny
# Fashion-MNIST recipe run through utils/slurm.pl gives the same models and
# results as through utils/run.pl; a failing task, a task the scheduler
# cancels, Ctrl-C, a bad option and a machine without sbatch each give the
# documented exit status and message. Needs Slurm, MUNGE and the data set
# (scripts/setup.sh installs them; see need in lib.sh).
BIN=$1  # ($2, the test data directory, is not needed)
TOP=$(cd "$(dirname "$0")/../.." && pwd)
RECIPE=$TOP/egs/fashion_mnist
. "$(dirname "$0")/lib.sh"

need dataset-fashion-mnist '[ -d /usr/share/datasets/fashion-mnist ]'
need gnuplot-nox 'command -v gnuplot'
for p in slurmctld slurmd slurm-client munge; do
  need $p "dpkg-query -W -f='\${Status}' $p | grep -q 'install ok installed'"
done

# Our own ports, so that a system Slurm on the default ones is not disturbed.
export SLURMCTLD_PORT=$((20000 + RANDOM % 20000))
export SLURMD_PORT=$((SLURMCTLD_PORT + 1))
cluster=$TMP/cluster
trap '"$TOP/scripts/slurm-local.sh" stop "$cluster" 2> /dev/null; rm -rf "$TMP"' EXIT
start_out=$("$TOP/scripts/slurm-local.sh" start "$cluster" 2> "$TMP/start.err")
status=$?
if [ $status -ne 0 ]; then
  echo "FAIL: slurm-local.sh start exited $status"; cat "$TMP/start.err"
  tail -5 "$cluster"/log/*.log 2> /dev/null
  exit 1
fi
eval "$start_out"
export PATH="$PATH:/usr/sbin"
sinfo -h -o %t | grep -q idle || fail "the node is not idle after start"

export NNET3_BUILD
NNET3_BUILD=$(dirname "$BIN")
for launcher in run slurm; do
  cp -r "$RECIPE" $launcher && rm -rf $launcher/data $launcher/exp
  (cd $launcher && ./run.sh --tiny true --cmd $launcher > ../$launcher.log 2>&1) ||
    { fail "run.sh --tiny true --cmd $launcher failed"; tail -20 $launcher.log | sed 's/^/  /'; }
done
for m in mlp tdnn; do
  for f in final.raw 1.raw egs/egs.1.ark; do
    [ -s run/exp/$m/$f ] || { fail "$m: no $f from the run.pl run"; continue; }
    same_file "$m-$f" run/exp/$m/$f slurm/exp/$m/$f
  done
  [ -s slurm/exp/$m/q/train.0.sh ] || fail "$m: no Slurm job script slurm/exp/$m/q/train.0.sh"
  grep -q "Slurm job" slurm/exp/$m/log/train.0.1.log || fail "$m: train.0.1.log was not written by a Slurm task"
  grep -q '^# Ended (code 0)' slurm/exp/$m/log/train.0.2.log || fail "$m: no '# Ended (code 0)' in train.0.2.log"
done
# (The training times, wall-clock, may differ.)
for launcher in run slurm; do
  sed 's/ training-time [0-9]*s$//' $launcher/exp/results.txt > $launcher.results.txt
done
same_file results run.results.txt slurm.results.txt

cd slurm || exit 99
# A failing task: exit status 1, how many failed and which log to read.
utils/slurm.pl JOB=1:3 exp/fail/log/t.JOB.log test JOB -ne 2 2> fail.err
[ $? -eq 1 ] || fail "a failing task must make slurm.pl exit 1"
grep -q '^slurm.pl: 1 / 3 failed, log is in exp/fail/log/t.2.log$' fail.err ||
  { fail "no '1 / 3 failed' line"; sed 's/^/  /' fail.err; }
grep -q 'task 2 (Slurm job [0-9_]*) exited with code 1' fail.err || fail "the failing task is not named"
grep -q '^# Ended (code 1)' exp/fail/log/t.2.log || fail "t.2.log does not end with '# Ended (code 1)'"
grep -q '^# test 2 -ne 2' exp/fail/log/t.2.log || fail "t.2.log does not start with its command"

# A task the scheduler ends (here: cancelled) is a failure with Slurm's reason.
utils/slurm.pl JOB=1:2 exp/cancel/log/c.JOB.log sleep 30 2> cancel.err &
launcher_pid=$!
for _ in $(seq 1 50); do
  task=$(squeue -h -n c.log -o '%i %T' | awk '$2 == "RUNNING" && $1 ~ /_2$/ { print $1 }')
  [ -n "$task" ] && break
  sleep 0.2
done
if [ -z "$task" ]; then fail "cancel: task 2 never ran"; else scancel "$task"; fi
scancel -n c.log --state=RUNNING -q 2> /dev/null; true  # end task 1 early as well
wait $launcher_pid
[ $? -eq 1 ] || fail "cancel: slurm.pl must exit 1"
grep -q 'task 2 (Slurm job [0-9_]*) ended by the scheduler: CANCELLED' cancel.err ||
  { fail "cancel: no 'ended by the scheduler: CANCELLED'"; sed 's/^/  /' cancel.err; }

# Ctrl-C cancels the job it submitted.
utils/slurm.pl exp/int/log/i.log sleep 60 2> int.err &
launcher_pid=$!
for _ in $(seq 1 50); do [ -n "$(squeue -h -n i.log)" ] && break; sleep 0.2; done
kill -INT $launcher_pid
wait $launcher_pid
[ $? -eq 130 ] || fail "Ctrl-C: slurm.pl must exit 130"
grep -q 'interrupted; cancelled Slurm job' int.err || fail "Ctrl-C: no 'cancelled' message"
sleep 1
[ -z "$(squeue -h -n i.log -t PENDING,RUNNING)" ] || fail "Ctrl-C: the job is still queued or running"

# Options that the config does not describe, and no sbatch on PATH.
utils/slurm.pl --colour blue exp/x.log true 2> opt.err
[ $? -ne 0 ] && grep -q 'option --colour blue is not described in the built-in config' opt.err ||
  fail "an undescribed option must be refused by name"
env PATH=/usr/bin:/bin bash -c 'mkdir -p nob && ln -sf /usr/bin/perl nob/perl && PATH=$PWD/nob utils/slurm.pl exp/y.log true' 2> nosbatch.err
grep -q "'sbatch' is not on PATH" nosbatch.err || { fail "no sbatch: no clear message"; sed 's/^/  /' nosbatch.err; }
cd ..

# stop ends exactly the daemons start started.
pids=$(cat "$cluster"/slurmctld.pid "$cluster"/slurmd.pid "$cluster"/munge/munged.pid 2> /dev/null)
"$TOP/scripts/slurm-local.sh" stop "$cluster" 2> /dev/null
for p in $pids; do kill -0 "$p" 2> /dev/null && fail "daemon $p is still running after stop"; done
finish
