#!/usr/bin/env bash
# Every program that writes, pointed at /dev/null, a FIFO, /dev/stdout and a
# symlink: /dev/null stays a character device, a FIFO's reader gets the
# bytes and the FIFO stays a FIFO, /dev/stdout works like '-', and a
# symlinked output has its target replaced while the link survives
# (util/output-target.h). If /dev/null is ever replaced, the test says which
# command did it and (as root) puts the device back, so that one failure
# cannot break the machine for everything that runs after it.
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"

# null_ok NAME CMD: CMD succeeds and /dev/null is still a character device.
null_ok() {
  local name=$1; shift
  expect_ok "$name" "$*"
  if [ ! -c /dev/null ]; then
    fail "$name replaced /dev/null with a regular file: $*"
    if [ "$(id -u)" -eq 0 ]; then rm -f /dev/null && mknod -m 666 /dev/null c 1 3; fi
  fi
}

cat > mlp.config <<'EOF'
input-node name=input dim=4
component name=affine1 type=AffineComponent input-dim=12 output-dim=6
component-node name=affine1 component=affine1 input=Append(Offset(input,-1),input,Offset(input,1))
component name=relu1 type=RectifiedLinearComponent dim=6
component-node name=relu1 component=relu1 input=affine1
component name=final type=AffineComponent input-dim=6 output-dim=3
component-node name=final component=final input=relu1
component name=lsm type=LogSoftmaxComponent dim=3
component-node name=lsm component=lsm input=final
output-node name=output input=lsm objective=linear
EOF
python3 - <<'PY'
import random
random.seed(3)
with open('feats.txt', 'w') as f, open('post.txt', 'w') as p:
    for u in range(4):
        n = 9 + u
        rows = [' '.join('%.3f' % random.gauss(0, 1) for _ in range(4)) for _ in range(n)]
        f.write('utt%d  [\n  %s ]\n' % (u, '\n  '.join(rows)))
        p.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % random.randrange(3) for _ in range(n))))
PY
expect_ok setup-feats "copy-feats ark,t:feats.txt ark:feats.ark"
expect_ok setup-model "nnet3-init --srand=1 mlp.config 0.raw"
expect_ok setup-egs "nnet3-get-egs --num-pdfs=3 --left-context=1 --right-context=1 ark:feats.ark ark,t:post.txt ark:egs.ark"
expect_ok setup-merged "nnet3-merge-egs --minibatch-size=16 ark:egs.ark ark:merged.ark"
expect_ok setup-matrix "copy-matrix 'ark:copy-feats ark:feats.ark ark:- |' ark,t:- | head -12 | sed '1s/utt0 //; \$s/\$/ ]/' > one.txt; test -s one.txt"

# Models, single objects and archives, each written to /dev/null.
null_ok init "nnet3-init mlp.config /dev/null"
null_ok init-text "nnet3-init --binary=false mlp.config /dev/null"
null_ok copy "nnet3-copy 0.raw /dev/null"
null_ok copy-matrix-object "copy-matrix --binary=false one.txt /dev/null"
null_ok copy-feats-ark "copy-feats ark:feats.ark ark:/dev/null"
null_ok copy-feats-ark-scp "copy-feats ark:feats.ark ark,scp:/dev/null,/dev/null"
null_ok copy-feats-scp-null "copy-feats ark:feats.ark ark,scp:c.ark,/dev/null"
null_ok num-frames "copy-feats --write-num-frames=ark,t:/dev/null ark:feats.ark ark:/dev/null"
null_ok compute "nnet3-compute 0.raw ark:feats.ark ark:/dev/null"
null_ok get-egs "nnet3-get-egs --num-pdfs=3 --left-context=1 --right-context=1 ark:feats.ark ark,t:post.txt ark:/dev/null"
null_ok merge-egs "nnet3-merge-egs --minibatch-size=16 ark:egs.ark ark:/dev/null"
null_ok shuffle-egs "nnet3-shuffle-egs ark:egs.ark ark:/dev/null"
null_ok copy-egs "nnet3-copy-egs ark:egs.ark ark:/dev/null"
null_ok subset-egs "nnet3-subset-egs --n=5 ark:egs.ark ark:/dev/null"
null_ok train "nnet3-train --write-cache=/dev/null 0.raw ark:merged.ark /dev/null"
null_ok compute-prob-cache "nnet3-compute-prob --write-cache=/dev/null 0.raw ark:merged.ark"
null_ok average "nnet3-average 0.raw 0.raw /dev/null"

# /dev/stdout behaves like '-' (and stays the link to /proc/self/fd/1).
stdout_kept() {
  if [ ! -L /dev/stdout ]; then
    fail "$1 replaced the link /dev/stdout with a file"
    if [ "$(id -u)" -eq 0 ]; then rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout; fi
  fi
}
expect_ok stdout-model "nnet3-copy 0.raw - > dash.raw && nnet3-copy 0.raw /dev/stdout > stdout.raw"
stdout_kept stdout-model
same_file stdout-model dash.raw stdout.raw
expect_ok stdout-ark "copy-feats ark:feats.ark ark,t:/dev/stdout > stdout.txt && copy-feats ark:feats.ark ark,t:- > dash.txt"
stdout_kept stdout-ark
same_file stdout-ark dash.txt stdout.txt
[ -c /dev/null ] || fail "/dev/null is not a character device after the stdout checks"

# A FIFO with a reader gets the whole model and stays a FIFO.
mkfifo model.fifo
timeout 30 cat model.fifo > from-fifo.raw &
reader=$!
expect_ok fifo-write "timeout 20 nnet3-copy 0.raw model.fifo"
wait "$reader" || fail "fifo: the reader failed"
same_file fifo-model 0.raw from-fifo.raw
[ -p model.fifo ] || fail "fifo: model.fifo is no longer a FIFO"
mkfifo ark.fifo
timeout 30 cat ark.fifo > from-fifo.ark &
reader=$!
expect_ok fifo-ark "timeout 20 copy-feats ark:feats.ark ark:ark.fifo"
wait "$reader" || fail "fifo-ark: the reader failed"
same_file fifo-ark feats.ark from-fifo.ark
[ -p ark.fifo ] || fail "fifo-ark: ark.fifo is no longer a FIFO"

# A symlinked model (final.raw -> 3.raw): the target is replaced, the link
# stays, and no temporary file is left beside either.
mkdir links
nnet3-copy --binary=false 0.raw links/3.raw 2> /dev/null
ln -s 3.raw links/final.raw
expect_ok symlink-write "nnet3-copy 0.raw links/final.raw"
[ -L links/final.raw ] || fail "symlink: links/final.raw is no longer a link"
same_file symlink-target 0.raw links/3.raw
[ "$(ls links | wc -l)" -eq 2 ] || fail "symlink: unexpected files in links/: $(ls links | tr '\n' ' ')"
# The same through an archive and its scp.
ln -s real.ark links/feats.ark
expect_ok symlink-ark "copy-feats ark:feats.ark ark,scp:links/feats.ark,links/feats.scp"
[ -L links/feats.ark ] || fail "symlink-ark: links/feats.ark is no longer a link"
same_file symlink-ark feats.ark links/real.ark
expect_ok symlink-ark-readback "copy-feats scp:links/feats.scp ark:readback.ark"
same_file symlink-ark-readback feats.ark readback.ark

[ -c /dev/null ] || fail "/dev/null is not a character device at the end"
finish
