#!/usr/bin/env perl
# run.pl: runs a command, or an array of jobs, on this machine, in the style
# of Kaldi's utils/run.pl.
#
#   utils/run.pl [--max-jobs-run N] JOB=1:4 exp/log/train.JOB.log cmd args...
#   utils/run.pl exp/log/single.log cmd args...
#
# Every occurrence of the variable name (JOB above; any name works), also
# inside a word (wer_LMWT_0.0, as Kaldi's scoring writes), in the log file
# name and in the command is replaced by the job number. Each job runs under
# "bash -c" with its stdout and stderr in its own log, which starts with the
# command line and ends with "# Accounting: time=S threads=1" and "# Ended
# (code C) at DATE, elapsed time S seconds". At most
# --max-jobs-run jobs (default: all) run at once. The exit status is 0 if all
# jobs succeeded; otherwise it prints how many failed and where their logs are,
# and exits 1.
#
# Arguments are joined as Kaldi's run.pl joins them: one without whitespace
# is taken as it is (so an escaped \| becomes a pipe), one with whitespace is
# single-quoted, or double-quoted if it has a single quote in it.
use strict;
use warnings;
use POSIX ();

my $max_jobs_run = -1;
my ($jobname, $jobstart, $jobend) = ("", 1, 1);
while (@ARGV > 0 && $ARGV[0] =~ m/^--/) {
  my $opt = shift @ARGV;
  if ($opt eq "--max-jobs-run" || $opt eq "--num-threads" || $opt eq "--mem" ||
      $opt eq "--gpu") {
    my $value = shift @ARGV;
    die "run.pl: option $opt needs a value\n" unless defined $value;
    $max_jobs_run = $value if $opt eq "--max-jobs-run";
  } elsif ($opt =~ m/^--max-jobs-run=(\d+)$/) {
    $max_jobs_run = $1;
  } else {
    die "run.pl: unknown option $opt\n";
  }
}
if (@ARGV > 0 && $ARGV[0] =~ m/^([\w_][\w\d_]*)=(\d+):(\d+)$/) {
  ($jobname, $jobstart, $jobend) = ($1, $2, $3);
  shift @ARGV;
  die "run.pl: invalid job range $jobstart:$jobend\n" if $jobend < $jobstart;
} elsif (@ARGV > 0 && $ARGV[0] =~ m/^([\w_][\w\d_]*)=(\d+)$/) {
  ($jobname, $jobstart, $jobend) = ($1, $2, $2);
  shift @ARGV;
}
if (@ARGV < 2) {
  die "Usage: run.pl [--max-jobs-run N] [JOB=1:N] <log-file> <command> [args...]\n" .
      "e.g.: run.pl JOB=1:4 exp/log/foo.JOB.log echo job JOB\n";
}
my $logfile = shift @ARGV;
my $cmd = "";
foreach my $x (@ARGV) {
  if ($x =~ m/^\S+$/) { $cmd .= $x . " "; }
  elsif ($x =~ m:':) { $cmd .= "\"$x\" "; }
  else { $cmd .= "'$x' "; }
}
$max_jobs_run = $jobend - $jobstart + 1 if $max_jobs_run <= 0;

my (%pid2job, %status);
my $running = 0;
sub wait_one {
  my $pid = wait();
  die "run.pl: wait() failed\n" if $pid < 0;
  $status{$pid2job{$pid}} = $?;
  delete $pid2job{$pid};
  $running--;
}

for (my $job = $jobstart; $job <= $jobend; $job++) {
  wait_one() while $running >= $max_jobs_run;
  my ($log, $job_cmd) = ($logfile, $cmd);
  if ($jobname ne "") {
    $log =~ s/$jobname/$job/g;  # anywhere, as Kaldi: wer_LMWT_0.0
    $job_cmd =~ s/$jobname/$job/g;
  }
  my $logdir = $log;
  $logdir =~ s:/[^/]*$::;
  system("mkdir", "-p", $logdir) if $logdir ne $log;
  my $pid = fork();
  die "run.pl: fork failed: $!\n" unless defined $pid;
  if ($pid == 0) {
    open(my $fh, ">", $log) or die "run.pl: cannot write log file $log: $!\n";
    print $fh "# $job_cmd\n# Started at " . localtime() . "\n#\n";
    close($fh);
    my $start = time();
    my $ret = system("bash", "-c", "( $job_cmd ) >>'$log' 2>&1");
    my $code = $ret == -1 ? 127 : ($ret & 127) ? 128 + ($ret & 127) : $ret >> 8;
    my $elapsed = time() - $start;
    open($fh, ">>", $log) or die "run.pl: cannot append to log file $log: $!\n";
    print $fh "# Accounting: time=$elapsed threads=1\n";
    print $fh "# Ended (code $code) at " . localtime() . ", elapsed time $elapsed seconds\n";
    close($fh);
    POSIX::_exit($code == 0 ? 0 : 1);
  }
  $pid2job{$pid} = $job;
  $running++;
}
wait_one() while $running > 0;

my @failed = grep { $status{$_} != 0 } sort { $a <=> $b } keys %status;
if (@failed) {
  my $njobs = $jobend - $jobstart + 1;
  if ($jobname eq "") {
    print STDERR "run.pl: job failed, log is in $logfile\n";
  } else {
    my $example = $logfile;
    $example =~ s/\b$jobname\b/$failed[0]/g;
    print STDERR "run.pl: " . scalar(@failed) . " / $njobs failed, log is in $example\n";
  }
  exit 1;
}
exit 0;
