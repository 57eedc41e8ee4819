#!/usr/bin/env perl
# slurm.pl: runs a command, or an array of jobs, on a Slurm cluster, with the
# calling convention of Kaldi's utils/run.pl and utils/slurm.pl, so a recipe
# moves from one machine to a cluster by changing cmd.sh only:
#
#   utils/slurm.pl [options] JOB=1:4 exp/log/train.JOB.log cmd args...
#   utils/slurm.pl [options] exp/log/single.log cmd args...
#
# Options (each maps to sbatch options through the config file, below):
#   --mem 4G            memory (default config: --mem-per-cpu 4G)
#   --num-threads N     CPUs per task (--cpus-per-task N)
#   --gpu N             GPUs per task (--gres=gpu:N); 0 (the default) asks none
#   --time T            time limit (--time T)
#   --max-jobs-run N    at most N tasks of the array at once (--array=1-M%N)
#   --config FILE       the option-to-sbatch mapping (default conf/slurm.conf
#                       if it exists, else the built-in one below)
#   -X VALUE            any single-dash option is passed to sbatch as it is
#                       (e.g. -p gpu, -A myaccount)
# Any other --name VALUE must be described in the config file.
#
# The config file has Kaldi's format:
#   command sbatch --export=ALL --ntasks-per-node=1   # the submit command
#   option mem=* --mem-per-cpu $0    # --mem X adds "--mem-per-cpu X"
#   option mem=0                     # --mem 0 adds nothing
#   default gpu=0                    # as if --gpu 0 were given
#   option gpu=* --gres=gpu:$0
# The built-in config is Kaldi's default, except that the whole environment
# is exported (the recipes' path.sh variables reach the tasks) and no
# partition is named (a cluster's partition names are its own: add
# "option gpu=* -p gpu --gres=gpu:$0" in conf/slurm.conf where needed).
#
# Every occurrence of the variable (JOB above; any name works) in the log
# name and in the command is replaced by the task number. The tasks are one
# array job (one job without JOB=); each task runs the command under bash in
# the current directory, after sourcing ./path.sh when there is one, with
# stdout and stderr in its log, which starts with the command line and ends
# with "# Accounting: time=S threads=N" and "# Ended (code C) at DATE,
# elapsed time S seconds", as run.pl's do. Slurm's own output for the job
# goes to <log-dir>/q/. slurm.pl waits for every task, then exits 0 if all
# succeeded; otherwise it names how many failed and which logs to read, and
# exits 1. A task the scheduler ended (time limit, memory, node failure,
# cancellation) counts as failed, with the reason Slurm gives (scontrol,
# or sacct where accounting is on). Ctrl-C (SIGINT, SIGTERM, SIGHUP) cancels
# the submitted job before exiting. The log directory must be on a file
# system the nodes share with this machine, as on any Kaldi cluster set-up.
use strict;
use warnings;
use Cwd qw(getcwd);
use File::Basename qw(dirname basename);
use POSIX ();
use Time::HiRes qw(sleep);

my $me = "slurm.pl";
my $default_config = <<'EOF';
command sbatch --export=ALL --ntasks-per-node=1
option time=* --time $0
option mem=* --mem-per-cpu $0
option mem=0
option num_threads=* --cpus-per-task $0 --ntasks-per-node=1
option num_threads=1 --cpus-per-task 1 --ntasks-per-node=1
default gpu=0
option gpu=0
option gpu=* --gres=gpu:$0
EOF

sub usage {
  die "Usage: $me [options] [JOB=1:N] <log-file> <command> [args...]\n" .
      "e.g.: $me --mem 4G JOB=1:4 exp/log/foo.JOB.log echo job JOB\n" .
      "Options: --mem M, --num-threads N, --gpu N, --time T, --max-jobs-run N,\n" .
      "  --config FILE (default conf/slurm.conf), -X VALUE (passed to sbatch)\n";
}

# ---- command line: options, possibly interleaved with JOB=a:b (as Kaldi)
my (%cli, @sbatch_extra);
my ($jobname, $jobstart, $jobend, $array) = ("", 1, 1, 0);
for my $pass (1 .. 3) {
  while (@ARGV >= 2 && $ARGV[0] =~ m/^-/) {
    my $switch = shift @ARGV;
    my $value = shift @ARGV;
    if ($switch =~ m/^--([\w-]+)=(.*)$/) {  # --name=value form
      unshift @ARGV, $value;
      ($switch, $value) = ("--$1", $2);
    }
    if ($switch =~ m/^--(.+)$/) {
      (my $name = $1) =~ s/-/_/g;
      $cli{$name} = $value;
    } else {
      push @sbatch_extra, $switch, $value;
    }
  }
  if (@ARGV && $ARGV[0] =~ m/^([A-Za-z_]\w*)=(\d+):(\d+)$/) {
    ($jobname, $jobstart, $jobend, $array) = ($1, $2, $3, 1);
    shift @ARGV;
    die "$me: invalid job range $jobstart:$jobend\n" if $jobend < $jobstart;
    die "$me: invalid job range $jobstart:$jobend (must start at 1 or more)\n"
      if $jobstart < 1;
  } elsif (@ARGV && $ARGV[0] =~ m/^([A-Za-z_]\w*)=(\d+)$/) {
    ($jobname, $jobstart, $jobend, $array) = ($1, $2, $2, 1);
    shift @ARGV;
  }
}
usage() if @ARGV < 2;

# ---- the config file: options -> sbatch arguments
my $config = $cli{config} // "conf/slurm.conf";
my $config_text;
if (open(my $fh, "<", $config)) {
  local $/;
  $config_text = <$fh>;
  close($fh);
} elsif (exists $cli{config}) {
  die "$me: cannot read config file $config: $!\n";
} else {
  ($config_text, $config) = ($default_config, "the built-in config");
}
my ($submit, %with_value, %fixed, %defaults);
for my $line (split /\n/, $config_text) {
  (my $l = $line) =~ s/\s*#.*//;
  next if $l =~ m/^\s*$/;
  if ($l =~ m/^command\s+(.+)$/) { $submit = $1; }
  elsif ($l =~ m/^option\s+([^=\s]+)=\*\s+(.+)$/) { $with_value{$1} = $2; }
  elsif ($l =~ m/^option\s+([^=\s]+)=(\S+)\s*(.*)$/) { $fixed{"$1=$2"} = $3; }
  elsif ($l =~ m/^default\s+([^=\s]+)=(\S+)\s*$/) { $defaults{$1} = $2; }
  else { die "$me: cannot parse line '$line' in $config\n"; }
}
die "$me: $config has no 'command ...' line\n" unless defined $submit;
for my $name (keys %defaults) { $cli{$name} //= $defaults{$name}; }

my ($max_jobs_run, $num_threads) = (undef, $cli{num_threads} // 1);
my @opts;
for my $name (sort keys %cli) {
  next if $name eq "config";
  my $value = $cli{$name};
  if ($name eq "max_jobs_run") {
    die "$me: --max-jobs-run needs a positive integer, got '$value'\n"
      unless $value =~ m/^\d+$/ && $value > 0;
    $max_jobs_run = $value;
  } elsif (exists $fixed{"$name=$value"}) {
    push @opts, $fixed{"$name=$value"};
  } elsif (exists $with_value{$name}) {
    (my $o = $with_value{$name}) =~ s/\$0/$value/g;
    push @opts, $o;
  } else {
    (my $dashed = $name) =~ s/_/-/g;
    die "$me: option --$dashed $value is not described in $config\n";
  }
}

# ---- the command, quoted as run.pl quotes it
my $logfile = shift @ARGV;
if ($array && $jobend > $jobstart && $logfile !~ m/\b$jobname\b/) {
  die "$me: $jobend - $jobstart + 1 tasks would share one log file $logfile " .
      "(put $jobname in its name)\n";
}
my $cmd = "";
for my $x (@ARGV) {
  if ($x =~ m/^\S+$/) { $cmd .= $x . " "; }
  elsif ($x =~ m:':) { $cmd .= "\"$x\" "; }
  else { $cmd .= "'$x' "; }
}

my $sbatch = (split ' ', $submit)[0];
my $found = grep { -x "$_/$sbatch" } split(/:/, $ENV{PATH} // "");
$found ||= ($sbatch =~ m:/: && -x $sbatch);
die "$me: '$sbatch' is not on PATH: this machine cannot submit Slurm jobs " .
    "(use utils/run.pl here, or run on a cluster's login node)\n" unless $found;

# ---- the task script, in <log-dir>/q/
my $cwd = getcwd();
my $logdir = dirname($logfile);
system("mkdir", "-p", $logdir) unless -d $logdir;
die "$me: cannot make the log directory $logdir\n" unless -d $logdir;
my $qdir = "$logdir/q";
$qdir =~ s:/(log|LOG)/+q$:/q:;
system("mkdir", "-p", $qdir) unless -d $qdir;
die "$me: cannot make $qdir\n" unless -d $qdir;
my $base = basename($logfile);
$base =~ s/\.?\b$jobname\b// if $array;  # one q/ file for the whole array
(my $script = "$qdir/$base") =~ s/\.[A-Za-z]{1,5}$//;
$script .= ".sh";
$script = "$cwd/$script" unless $script =~ m:^/:;
my $queue_log = "$qdir/$base";
$queue_log = "$cwd/$queue_log" unless $queue_log =~ m:^/:;

sub single_quote { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'"; }
my ($task_cmd, $task_log, $shown) = ($cmd, $logfile, $cmd);
if ($array) {
  $task_cmd =~ s/\b$jobname\b/\${SLURM_ARRAY_TASK_ID}/g;
  $task_log =~ s/\b$jobname\b/\${SLURM_ARRAY_TASK_ID}/g;
  $shown =~ s/\b$jobname\b/\@\@TASK\@\@/g;
}
$task_log = "$cwd/$task_log" unless $task_log =~ m:^/:;
open(my $q, ">", $script) or die "$me: cannot write $script: $!\n";
print $q <<"EOS";
#!/bin/bash
# Written by $me; one Slurm task runs it (SLURM_ARRAY_TASK_ID is the task).
cd @{[single_quote($cwd)]} || exit 1
[ -f ./path.sh ] && . ./path.sh
log="$task_log"
shown=@{[single_quote($shown)]}
{ echo "# \${shown//\@\@TASK\@\@/\$SLURM_ARRAY_TASK_ID}"
  echo "# Started at \$(date) on \$(hostname) (Slurm job \${SLURM_JOB_ID:-?})"
  echo "#"; } > "\$log" || exit 1
start=\$(date +%s)
( $task_cmd ) >> "\$log" 2>&1
ret=\$?
elapsed=\$(( \$(date +%s) - start ))
echo "# Accounting: time=\$elapsed threads=$num_threads" >> "\$log"
echo "# Ended (code \$ret) at \$(date), elapsed time \$elapsed seconds" >> "\$log"
[ \$ret -eq 0 ]
EOS
close($q) or die "$me: cannot write $script (disk full?)\n";

# ---- submit
my @array_opt;
if ($array) {
  my $spec = "$jobstart-$jobend";
  $spec .= "%$max_jobs_run" if defined $max_jobs_run;
  @array_opt = ("--array=$spec");
}
my $submit_cmd = join(" ", $submit, @opts, map({ single_quote($_) } @sbatch_extra),
                      "--parsable", "--job-name=" . single_quote($base),
                      "--open-mode=append", "--output=" . single_quote($queue_log),
                      @array_opt, single_quote($script));
my $answer = `$submit_cmd 2>&1`;
if ($? != 0) {
  chomp $answer;
  die "$me: submitting failed: $submit_cmd\n$me: sbatch said: $answer\n";
}
my ($jobid) = $answer =~ m/^(\d+)/m;
die "$me: cannot read a job id from sbatch's answer: $answer\n" unless defined $jobid;

for my $sig (qw(INT TERM HUP)) {
  $SIG{$sig} = sub {
    system("scancel", $jobid);
    print STDERR "$me: interrupted; cancelled Slurm job $jobid\n";
    exit 130;
  };
}

# ---- wait until the job has left the queue
my ($delay, $errors) = (0.25, 0);
while (1) {
  my $out = `squeue -h -j $jobid -o %T 2>&1`;
  if ($? == 0) {
    last if $out =~ m/^\s*$/;
    $errors = 0;
  } elsif ($out =~ m/Invalid job id/i) {
    last;  # already purged: finished long ago
  } elsif (++$errors > 60) {
    die "$me: squeue keeps failing for job $jobid: $out";
  }
  sleep($delay);
  $delay = $delay * 1.5 > 3 ? 3 : $delay * 1.5;
}

# ---- collect: each task's log ends with "# Ended (code C)" unless killed
sub task_log {
  my ($t, $l) = (shift, $logfile);
  $l =~ s/\b$jobname\b/$t/g if $array;
  return $l;
}
sub ended_code {
  my $log = shift;
  open(my $fh, "<", $log) or return undef;
  my $code;
  while (<$fh>) { $code = $1 if m/^# Ended \(code (\d+)\)/; }
  close($fh);
  return $code;
}
sub scheduler_reason {
  my $id = shift;
  my $info = `scontrol -o show job $id 2>/dev/null`;
  if ($? == 0 && $info =~ m/JobState=(\S+)/) {
    my $state = $1;
    my ($reason) = $info =~ m/\bReason=(\S+)/;
    my ($exit) = $info =~ m/\bExitCode=(\S+)/;
    return "$state" . (defined $reason && $reason ne "None" ? " ($reason)" : "") .
           (defined $exit ? ", exit code $exit" : "");
  }
  my $acct = `sacct -n -P -X -j $id -o State,ExitCode 2>/dev/null`;
  if ($? == 0 && $acct =~ m/^(\S+)\|(\S+)/) { return "$1, exit code $2"; }
  return "no record in scontrol or sacct";
}

my @failed;
for my $t ($jobstart .. $jobend) {
  my $log = task_log($t);
  my $code = ended_code($log);
  # A shared file system can show the last lines late; give it a moment.
  for (my $i = 0; !defined $code && $i < 20; $i++) {
    sleep(0.5);
    $code = ended_code($log);
  }
  next if defined $code && $code == 0;
  my $id = $array ? "${jobid}_$t" : $jobid;
  my $why = defined $code ? "exited with code $code"
                          : "ended by the scheduler: " . scheduler_reason($id);
  push @failed, $t;
  print STDERR "$me: task $t (Slurm job $id) $why; log: $log\n";
}
if (@failed) {
  my $n = $jobend - $jobstart + 1;
  if (!$array) {
    print STDERR "$me: job failed, log is in $logfile\n";
  } else {
    print STDERR "$me: " . scalar(@failed) . " / $n failed, log is in " .
                 task_log($failed[0]) . "\n";
  }
  exit 1;
}
exit 0;
