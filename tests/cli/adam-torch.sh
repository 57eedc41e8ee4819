#!/usr/bin/env bash
# nnet3-train --optimizer=adam against PyTorch's torch.optim.Adam: a small
# MLP (10 -> 16 ReLU -> 5 log-softmax, AffineComponents), the same initial
# weights (read from nnet3-init's model), the same minibatches of 16 (read
# back from the merged egs, with the supervision weights nnet3-get-egs gave
# them: Kaldi's splitter adds a duplicate chunk of weight 0.5 per utterance
# at --num-frames=1), the weighted sum of log-likelihoods as objective, no
# max-change; the parameters after the last step must agree to 1e-5
# relative (per parameter matrix, in norm). Also checks nnet3-train's option errors for
# Adam. Needs Debian's python3-torch and python3-numpy (scripts/setup.sh
# installs them; see need in lib.sh).
BIN=$1
. "$(dirname "$0")/lib.sh"

need python3-torch "/usr/bin/python3 -c 'import torch'"
need python3-numpy "/usr/bin/python3 -c 'import numpy'"

cat > mlp.config <<'EOF'
input-node name=input dim=10
component name=a1 type=AffineComponent input-dim=10 output-dim=16 learning-rate=0.01 max-change=0 bias-stddev=0.1
component-node name=a1 component=a1 input=input
component name=r1 type=RectifiedLinearComponent dim=16
component-node name=r1 component=r1 input=a1
component name=a2 type=AffineComponent input-dim=16 output-dim=5 learning-rate=0.01 max-change=0 bias-stddev=0.1
component-node name=a2 component=a2 input=r1
component name=lsm type=LogSoftmaxComponent dim=5
component-node name=lsm component=lsm input=a2
output-node name=output input=lsm objective=linear
EOF
# 800 one-frame utterances; labels from a fixed linear map of the features.
/usr/bin/python3 - <<'PY'
import random
random.seed(7)
w = [[random.gauss(0, 1) for _ in range(10)] for _ in range(5)]
with open('feats.txt', 'w') as f, open('post.txt', 'w') as p:
    for u in range(800):
        x = [random.gauss(0, 1) for _ in range(10)]
        s = [sum(a * b for a, b in zip(r, x)) for r in w]
        f.write('u%04d  [ %s ]\n' % (u, ' '.join('%.4f' % v for v in x)))
        p.write('u%04d [ %d 1 ]\n' % (u, max(range(5), key=lambda c: s[c])))
PY
expect_ok feats "copy-feats ark,t:feats.txt ark:feats.ark"
expect_ok init "nnet3-init --srand=3 mlp.config 0.raw && nnet3-copy --binary=false 0.raw 0.txt"
expect_ok egs "nnet3-get-egs --num-pdfs=5 --num-frames=1 ark:feats.ark ark,t:post.txt ark:- | nnet3-merge-egs --minibatch-size=16 ark:- ark:merged.ark"
expect_ok egs-text "nnet3-copy-egs ark:merged.ark ark,t:merged.txt"
expect_ok train "nnet3-train --optimizer=adam --max-param-change=0 0.raw ark:merged.ark final.raw 2> train.log && nnet3-copy --binary=false final.raw final.txt"
grep -q "Overall average objective function" train.log || fail "no objective line in train.log"

/usr/bin/python3 - > compare.txt 2>&1 <<'PY'
import re, sys
import numpy as np
import torch

def components(path):
    """{name: (W, b)} of the AffineComponents of a text model."""
    text = open(path).read()
    out = {}
    for m in re.finditer(r'<ComponentName> (\S+) <AffineComponent>(.*?)</AffineComponent>', text, re.S):
        body = m.group(2)
        lin = re.search(r'<LinearParams>\s*\[(.*?)\]', body, re.S).group(1)
        bias = re.search(r'<BiasParams>\s*\[(.*?)\]', body, re.S).group(1)
        rows = [list(map(float, l.split())) for l in lin.strip().split('\n') if l.strip()]
        out[m.group(1)] = (np.array(rows, dtype=np.float32),
                           np.array(bias.split(), dtype=np.float32))
    return out

def minibatches(path):
    """[(features, labels, weights)] from text merged egs, in order."""
    text = open(path).read()
    out = []
    for eg in re.findall(r'<Nnet3Eg>(.*?)</Nnet3Eg>', text, re.S):
        ios = re.findall(r'<NnetIo> (\S+) (.*?)</NnetIo>', eg, re.S)
        feats = labels = weights = None
        for name, body in ios:
            if name == 'input':
                mat = re.search(r'\[(.*)\]', body, re.S).group(1)
                feats = np.array([list(map(float, l.split()))
                                  for l in mat.strip().split('\n') if l.strip()],
                                 dtype=np.float32)
            else:  # sparse rows: "dim [ col value ... ]" per row
                rows = [r.split() for r in re.findall(r'\[\s*(\d+ [^\]]*)\]', body)]
                labels = [int(r[0]) for r in rows]
                weights = [float(r[1]) for r in rows]
        out.append((feats, labels, weights))
    return out

init, final = components('0.txt'), components('final.txt')
batches = minibatches('merged.txt')
assert len(batches) >= 50 and all(len(l) == 16 for _, l, _ in batches), \
    'expected at least 50 minibatches of 16, got %d' % len(batches)
print('%d minibatches of 16' % len(batches))
torch.manual_seed(0)
l1, l2 = torch.nn.Linear(10, 16), torch.nn.Linear(16, 5)
with torch.no_grad():
    for lin, name in ((l1, 'a1'), (l2, 'a2')):
        lin.weight.copy_(torch.from_numpy(init[name][0]))
        lin.bias.copy_(torch.from_numpy(init[name][1]))
params = list(l1.parameters()) + list(l2.parameters())
opt = torch.optim.Adam(params, lr=0.01, betas=(0.9, 0.999), eps=1e-8)
for feats, labels, weights in batches:
    x = torch.from_numpy(feats)
    logp = torch.log_softmax(l2(torch.relu(l1(x))), dim=1)
    loss = -(torch.tensor(weights) *
             logp[torch.arange(len(labels)), torch.tensor(labels)]).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
worst = 0.0
for lin, name in ((l1, 'a1'), (l2, 'a2')):
    for ours, theirs, what in ((final[name][0], lin.weight, 'weights'),
                               (final[name][1], lin.bias, 'bias')):
        t = theirs.detach().numpy()
        rel = np.linalg.norm(ours - t) / np.linalg.norm(t)
        moved = np.linalg.norm(t - (init[name][0] if what == 'weights' else init[name][1]))
        print('%s %s: relative difference %.3g (moved %.3g)' % (name, what, rel, moved))
        worst = max(worst, rel)
print('worst relative difference %.3g' % worst)
sys.exit(0 if worst <= 1e-5 else 1)
PY
status=$?
sed 's/^/  /' compare.txt
[ $status -eq 0 ] || fail "nnet3-train --optimizer=adam and torch.optim.Adam differ (see above)"

expect_error adam-momentum "adam-beta1 instead of --momentum" "nnet3-train --optimizer=adam --momentum=0.5 0.raw ark:merged.ark x.raw"
expect_error bad-optimizer "--optimizer must be 'sgd' or 'adam', got 'rmsprop'" "nnet3-train --optimizer=rmsprop 0.raw ark:merged.ark x.raw"
[ -e x.raw ] && fail "a refused training run wrote its model"
finish
