#!/usr/bin/env perl
# Our own minimal version of Kaldi's utils/filter_scp.pl, enough for the
# command lines of get_egs_targets.sh in local/test_train_raw_dnn.sh:
#   filter_scp.pl [--exclude] <id-list> [<input>]
# prints the lines of <input> (or stdin) whose first field is in the first
# column of <id-list> (with --exclude: is not).
use strict;
use warnings;

my $exclude = 0;
if (@ARGV && $ARGV[0] eq "--exclude") { $exclude = 1; shift @ARGV; }
die "Usage: filter_scp.pl [--exclude] <id-list> [<input>]\n"
  if @ARGV < 1 || @ARGV > 2;
my $list = shift @ARGV;
open(my $fh, "<", $list) or die "filter_scp.pl: cannot open $list: $!\n";
my %keep;
while (<$fh>) {
  my @f = split;
  $keep{$f[0]} = 1 if @f;
}
close($fh);
while (<>) {
  my @f = split;
  next unless @f;
  print if ($exclude xor exists $keep{$f[0]});
}
