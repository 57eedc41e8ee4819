#!/usr/bin/env bash
# Fault tests: what the programs do when the world misbehaves.
#  - a writer killed with SIGKILL halfway (an archive writer waiting on its
#    input, a model writer in the middle of its output): the old file is
#    intact and no temporary file is left;
#  - an input pipe whose producer dies mid-archive: the truncated entry and
#    the failing command are named, exit 1;
#  - a consumer that exits early (| head): the writer stops at once with a
#    write error, no crash, no hang;
#  - NaN / inf in training: the step is not applied (the model is
#    unchanged), the warning names the input or component where it started;
#    --max-param-change still bounds each step;
#  - a full disk (ulimit -f, /dev/full, a 1 MB tmpfs where mount works): a
#    clear error, no partial output;
#  - an address-space limit (ulimit -v) too small for the model: a clear
#    out-of-memory error naming what was being allocated, for nnet3-compute
#    and nnet3-train, at every limit tried, never a hang or a crash.
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"

# ok_or_oom NAME STATUS ERRFILE: exit 0, or exit 1 with one ERROR line that
# says "Out of memory"; anything else (a crash, a hang, an internal error)
# fails. Sets oom_seen when the ERROR line was seen.
oom_seen=0
ok_or_oom() {
  local name=$1 status=$2 err=$3
  [ "$status" -eq 0 ] && return
  if [ "$status" -ne 1 ]; then
    fail "$name: exit status $status (expected 0 or an out-of-memory error)"
    tail -3 "$err" | sed 's/^/  stderr: /'
  elif [ "$(grep -c '^ERROR (' "$err")" -ne 1 ] || ! grep -q '^ERROR (.*Out of memory' "$err"; then
    fail "$name: exit 1 without one 'Out of memory' ERROR line"
    tail -3 "$err" | sed 's/^/  stderr: /'
  else
    oom_seen=1
  fi
}

# no_leftovers NAME DIR EXPECTED...: DIR holds exactly the EXPECTED names.
no_leftovers() {
  local name=$1 dir=$2; shift 2
  local got want
  got=$(cd "$dir" && ls -A | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  [ "$got" = "$want" ] || fail "$name: $dir holds '$got', expected '$want'"
}

trap 'umount "$TMP/mnt" 2> /dev/null; rm -rf "$TMP"' EXIT
python3 - <<'PY'
import random
random.seed(7)
with open('feats.txt', 'w') as f, open('few.txt', 'w') as g, open('post.txt', 'w') as p:
    for u in range(60):
        rows = [' '.join('%.3f' % random.gauss(0, 1) for _ in range(40)) for _ in range(50)]
        text = 'utt%d  [\n  %s ]\n' % (u, '\n  '.join(rows))
        f.write(text)
        if u < 3:
            g.write(text)
        p.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % random.randrange(3) for _ in range(50))))
PY
expect_ok data "copy-feats ark,t:feats.txt ark:feats.ark && copy-feats ark,t:few.txt ark:few.ark"

cat > big.config <<'EOF'
input-node name=input dim=40
component name=affine1 type=NaturalGradientAffineComponent input-dim=40 output-dim=3000
component-node name=affine1 component=affine1 input=input
component name=relu1 type=RectifiedLinearComponent dim=3000
component-node name=relu1 component=relu1 input=affine1
component name=affine2 type=NaturalGradientAffineComponent input-dim=3000 output-dim=3000
component-node name=affine2 component=affine2 input=relu1
component name=final_affine type=NaturalGradientAffineComponent input-dim=3000 output-dim=3
component-node name=final_affine component=final_affine input=affine2
component name=final_log_softmax type=LogSoftmaxComponent dim=3
component-node name=final_log_softmax component=final_log_softmax input=final_affine
output-node name=output input=final_log_softmax objective=linear
EOF
expect_ok big-model "nnet3-init --srand=1 big.config big.raw"

# ---------------------------------------------------------------- SIGKILL
# wait_for_open_output PID DIR: waits (up to 20 s) until PID has a file of
# DIR open for writing that is either unnamed (O_TMPFILE, "(deleted)") or a
# temporary name; true when seen.
wait_for_open_output() {
  local pid=$1 dir=$2 i fd target
  for i in $(seq 1 2000); do
    kill -0 "$pid" 2> /dev/null || return 1
    for fd in /proc/"$pid"/fd/*; do
      target=$(readlink "$fd" 2> /dev/null) || continue
      case $target in "$dir"/*) [ "$(stat -c %s "$fd" 2> /dev/null || echo 0)" -gt 0 ] && return 0 ;; esac
    done
    sleep 0.01
  done
  return 1
}

mkdir -p kill1 && cp feats.ark kill1/out.ark && cp feats.ark old.ark
head -c 200000 feats.ark > part.ark
# The writer has written (part of) the archive and waits for more input.
copy-feats "ark:cat part.ark; sleep 30 |" ark:kill1/out.ark 2> kill1.err &
writer=$!
if wait_for_open_output "$writer" "$PWD/kill1"; then
  children=$(pgrep -P "$writer" | tr '\n' ' ')
  kill -9 "$writer"
  wait "$writer" 2> /dev/null
  for c in $children; do pkill -9 -P "$c" 2> /dev/null; kill -9 "$c" 2> /dev/null; done
  same_file sigkill-archive kill1/out.ark old.ark
  no_leftovers sigkill-archive kill1 out.ark
else
  fail "sigkill-archive: the archive writer never opened its output"
  kill -9 "$writer" 2> /dev/null
fi

mkdir -p kill2 && cp big.raw kill2/final.raw
# A model written in text: 9 million parameters, 108 MB, seconds of
# formatting (7 s on 2 cores), against a poll every 10 ms. The writer is
# stopped (SIGSTOP) as soon as its temporary output holds data, seen to
# still have that temporary open, and killed; a writer that finishes, or
# is not seen writing, first fails the check.
nnet3-copy --binary=false big.raw kill2/final.raw 2> kill2.err &
writer=$!
if wait_for_open_output "$writer" "$PWD/kill2" && kill -STOP "$writer" 2> /dev/null; then
  writing=0
  for fd in /proc/"$writer"/fd/*; do
    case $(readlink "$fd" 2> /dev/null) in
      "$PWD/kill2/"*" (deleted)"|"$PWD/kill2/final.raw.tmp."*) writing=1 ;;
    esac
  done
  kill -9 "$writer"
  wait "$writer" 2> /dev/null
  [ $writing = 1 ] || fail "sigkill-model: when stopped, the writer had no temporary output open"
  same_file sigkill-model kill2/final.raw big.raw
  no_leftovers sigkill-model kill2 final.raw
else
  kill -9 "$writer" 2> /dev/null
  wait "$writer" 2> /dev/null
  fail "sigkill-model: the writer finished before it was seen writing its output"
fi

# ---------------------------------------------------------------- pipes
expect_error producer-exit "key 'utt[0-9]+'.*truncated.*'head -c 100000 feats.ark; exit 3'.*exit status 3" \
  "copy-feats 'ark:head -c 100000 feats.ark; exit 3 |' ark:trunc.ark"
[ -e trunc.ark ] && fail "producer-exit: a partial trunc.ark was written"
expect_error producer-killed "key 'utt[0-9]+'.*truncated.*signal 9" \
  "copy-feats 'ark:head -c 100000 feats.ark; kill -9 \$\$ |' ark:trunc.ark"
expect_error egs-producer-exit "'head -c 3000 egs.ark; exit 4'.*exit status 4" \
  "nnet3-get-egs --num-pdfs=3 ark:feats.ark ark,t:post.txt ark:egs.ark 2> /dev/null &&
   nnet3-merge-egs 'ark:head -c 3000 egs.ark; exit 4 |' ark:merged.ark"

# consumer_exits NAME CMD: CMD (ending in "| head ...") finishes within 60 s,
# and its writer exits 0 or 1 (a write error), never by a signal or crash.
consumer_exits() {
  local name=$1; shift
  timeout 60 bash -c "$*; echo \${PIPESTATUS[0]} > status" > /dev/null 2> "$TMP/err"
  local t=$?
  if [ $t -eq 124 ]; then
    fail "$name: hung (killed after 60 s): $*"
    return
  fi
  local s
  s=$(cat status)
  if [ "$s" -ne 0 ] && [ "$s" -ne 1 ]; then
    fail "$name: writer exit status $s: $*"; tail -3 "$TMP/err" | sed 's/^/  stderr: /'
  elif [ "$s" -eq 1 ] && ! grep -q '^ERROR (.*[Ww]rite' "$TMP/err"; then
    fail "$name: exit 1 without a write error"; tail -3 "$TMP/err" | sed 's/^/  stderr: /'
  fi
}
consumer_exits head-text "copy-feats ark:feats.ark ark,t:- | head -n 2"
consumer_exits head-binary "copy-feats ark:feats.ark ark:- | head -c 1000"
consumer_exits head-egs "nnet3-copy-egs ark:egs.ark ark:- | head -c 100"
consumer_exits head-compute "nnet3-compute big.raw ark:feats.ark ark,t:- | head -n 1"
consumer_exits head-model "nnet3-copy --binary=false big.raw - | head -n 1"
# SIGPIPE ignored in the caller's environment (as Python's subprocess does)
# changes nothing.
consumer_exits head-sigpipe-ignored "trap '' PIPE; copy-feats ark:feats.ark ark,t:- | head -n 1"

# ---------------------------------------------------------------- training
cat > mlp.config <<'EOF'
input-node name=input dim=40
component name=affine1 type=NaturalGradientAffineComponent input-dim=120 output-dim=16
component-node name=affine1 component=affine1 input=Append(Offset(input,-1),input,Offset(input,1))
component name=relu1 type=RectifiedLinearComponent dim=16
component-node name=relu1 component=relu1 input=affine1
component name=final_affine type=NaturalGradientAffineComponent input-dim=16 output-dim=3
component-node name=final_affine component=final_affine input=relu1
component name=final_log_softmax type=LogSoftmaxComponent dim=3
component-node name=final_log_softmax component=final_log_softmax input=final_affine
output-node name=output input=final_log_softmax objective=linear
EOF
expect_ok mlp "nnet3-init --srand=1 mlp.config 0.raw"
# One utterance whose frame 7 holds NaN; its egs merged into one minibatch.
python3 - <<'PY'
rows = [' '.join('%.3f' % ((r * 7 + c * 3) % 11 / 5.0 - 1) for c in range(40)) for r in range(20)]
rows[7] = ' '.join(['nan'] + rows[7].split()[1:])
open('nan.txt', 'w').write('u0  [\n  %s ]\n' % '\n  '.join(rows))
open('nan-post.txt', 'w').write('u0 %s\n' % ' '.join('[ %d 1 ]' % (r % 3) for r in range(20)))
PY
expect_ok nan-egs "nnet3-get-egs --compress=false --num-pdfs=3 --left-context=1 --right-context=1 --num-frames=20 ark,t:nan.txt ark,t:nan-post.txt ark:nan.egs"
nnet3-train 0.raw ark:nan.egs 1.raw 2> nan-train.err
same_file nan-input-unchanged 0.raw 1.raw
grep -q "^WARNING (.*Minibatch 0: .*; not applying this step, the model is unchanged: the minibatch's input 'input' holds inf or NaN" nan-train.err ||
  { fail "nan-input: no warning naming the input"; grep WARNING nan-train.err | sed 's/^/  /'; }
grep -q "Skipped 1 of 1 minibatches" nan-train.err || fail "nan-input: no 'Skipped 1 of 1 minibatches' line"

# A model whose final_affine bias holds inf: the objective is not finite,
# and the warning names final_affine as the first component whose output
# is not finite.
expect_ok clean-egs "nnet3-get-egs --num-pdfs=3 --left-context=1 --right-context=1 --num-frames=8 ark:feats.ark ark,t:post.txt ark:- | nnet3-merge-egs --minibatch-size=16 ark:- ark:clean.egs"
nnet3-copy --binary=false 0.raw - 2> /dev/null |
  awk '/<ComponentName> final_affine/ {f = 1} f && /<BiasParams>/ {sub(/\[ [^ ]+/, "[ inf"); f = 0} {print}' > inf.txt
expect_ok inf-model "nnet3-copy inf.txt inf.raw"
nnet3-train --zero-component-stats=false inf.raw 'ark:nnet3-subset-egs --n=1 ark:clean.egs ark:- |' inf-out.raw 2> inf-train.err
same_file inf-model-unchanged inf.raw inf-out.raw
grep -q "^WARNING (.*the objective for 'output' is .*not applying this step, the model is unchanged: component 'final_affine' (NaturalGradientAffineComponent) is the first whose output is not finite" inf-train.err ||
  { fail "inf-model: no warning naming final_affine"; grep WARNING inf-train.err | sed 's/^/  /'; }

# Training goes on after a non-finite minibatch: the good ones are applied.
expect_ok nan-then-good "cat nan.egs clean.egs > mixed.egs && nnet3-train 0.raw ark:mixed.egs 2.raw 2> mixed.err"
cmp -s 0.raw 2.raw && fail "nan-then-good: the good minibatches were not applied"
grep -q "Skipped 1 of " mixed.err || fail "nan-then-good: no 'Skipped 1 of' line"

# --max-param-change bounds each step, even with a huge learning rate.
expect_ok max-change "nnet3-copy --learning-rate=100 0.raw fast.raw &&
  nnet3-train --max-param-change=0.05 fast.raw 'ark:nnet3-subset-egs --n=1 ark:clean.egs ark:- |' fast-out.raw"
nnet3-copy --binary=false fast.raw fast.txt 2> /dev/null
nnet3-copy --binary=false fast-out.raw fast-out.txt 2> /dev/null
python3 - fast.txt fast-out.txt <<'PY' || fail "max-change: the step is larger than --max-param-change=0.05"
import math, re, sys
def params(path):
    text = open(path).read()
    vals = []
    for block in re.findall(r'<(?:LinearParams|BiasParams)>\s*\[([^\]]*)\]', text):
        vals += [float(v) for v in block.split()]
    return vals
a, b = params(sys.argv[1]), params(sys.argv[2])
d = math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
print('parameter change %.5f' % d)
sys.exit(0 if len(a) == len(b) and 0 < d <= 0.05 * 1.001 else 1)
PY

# ---------------------------------------------------------------- disk full
mkdir -p full && cp old.ark full/out.ark
( ulimit -f 200; copy-feats ark:feats.ark ark:full/out.ark ) 2> full.err
s=$?
[ $s -eq 1 ] || fail "ulimit-f: exit status $s, expected 1"
grep -q '^ERROR (.*File too large' full.err || { fail "ulimit-f: no 'File too large' error"; tail -2 full.err; }
same_file ulimit-f-old-kept full/out.ark old.ark
no_leftovers ulimit-f full out.ark
( ulimit -f 200; nnet3-copy big.raw full/model.raw ) 2> full2.err
s=$?
[ $s -eq 1 ] || fail "ulimit-f-model: exit status $s, expected 1"
grep -q '^ERROR (.*File too large' full2.err || { fail "ulimit-f-model: no 'File too large' error"; tail -2 full2.err; }
no_leftovers ulimit-f-model full out.ark
expect_error dev-full "No space left on device" "copy-feats ark:feats.ark ark:/dev/full"
expect_error dev-full-model "No space left on device" "nnet3-copy big.raw /dev/full"

mkdir -p mnt
if mount -t tmpfs -o size=300k tmpfs mnt 2> /dev/null; then
  cp part.ark mnt/out.ark
  expect_error tmpfs-full "No space left on device" "copy-feats ark:feats.ark ark,scp:mnt/out.ark,mnt/out.scp"
  cmp -s mnt/out.ark part.ark || fail "tmpfs-full: the old archive changed"
  no_leftovers tmpfs-full mnt out.ark
  umount mnt
else
  echo "tmpfs: cannot mount here (no privilege): skipped"
fi

# ---------------------------------------------------------------- memory
# At each limit the program either works or says it is out of memory.
# The smallest limit leaves room to start (shared libraries, OpenBLAS's
# threads: about 105 MB of address space before reading anything; below
# that OpenBLAS itself exits while creating its threads) but not for the
# model.
# AddressSanitizer reserves terabytes of address space for its shadow
# memory, so no ulimit -v can work under it: skipped there.
if ldd "$BIN/nnet3-compute" "$BIN"/../lib/*.so 2> /dev/null | grep -q libasan ||
  nm -D "$BIN/nnet3-compute" 2> /dev/null | grep -q __asan_init; then
  echo "ulimit-v: sanitizer build (ASan needs an unlimited address space): skipped"
  finish
  exit
fi
expect_ok big-egs "nnet3-get-egs --num-pdfs=3 --num-frames=8 ark:few.ark ark,t:post.txt ark:- | nnet3-merge-egs --minibatch-size=8 ark:- ark:big.egs"
named_seen=0
for mb in 120 150 200 230 260 300 500 900; do
  ( ulimit -v $((mb * 1024)); timeout 120 nnet3-compute big.raw ark:few.ark ark:/dev/null ) 2> vm.err
  s=$?
  [ $s -eq 124 ] && fail "ulimit-v $mb MB: nnet3-compute hung"
  [ $s -ne 124 ] && ok_or_oom "ulimit-v $mb MB nnet3-compute" $s vm.err
  grep -q "^ERROR (.*Reading component [0-9] of 5 ('affine[12]'): Out of memory" vm.err && named_seen=1
  ( ulimit -v $((mb * 1024)); timeout 120 nnet3-train big.raw ark:big.egs vm.raw ) 2> vm.err
  s=$?
  [ $s -eq 124 ] && fail "ulimit-v $mb MB: nnet3-train hung"
  [ $s -ne 124 ] && ok_or_oom "ulimit-v $mb MB nnet3-train" $s vm.err
done
[ $oom_seen -eq 1 ] || fail "ulimit-v: no limit gave the out-of-memory error"
[ $named_seen -eq 1 ] ||
  fail "ulimit-v: no limit gave nnet3-compute an error naming the component being read"

finish
