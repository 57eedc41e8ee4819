#!/usr/bin/env python3
"""The benchmark networks of scripts/bench/gpu.sh and fusion.sh.

  bench_nets.py DIR   # writes DIR/tdnn.config and DIR/tdnnf.config

tdnn: 40-dim input, 6 x 512 ReLU + batch-norm layers spliced {-2..2},
{-1,0,1} x 2, {-3,0,3} x 3; 2000 outputs, log-softmax. tdnnf: a 512 ReLU +
batch-norm layer, then 5 factorized layers 512 -> 128 -> 512 at time strides
1,1,1,3,3 with 0.66 bypasses, a 512 -> 128 -> 512 prefinal layer, 2000
outputs.
"""
import sys
tmp = sys.argv[1]
def tdnn():
    out = ['input-node name=input dim=40']
    splice = {1: (-2, -1, 0, 1, 2), 2: (-1, 0, 1), 3: (-1, 0, 1),
              4: (-3, 0, 3), 5: (-3, 0, 3), 6: (-3, 0, 3)}
    prev, prev_dim = 'input', 40
    for l in range(1, 7):
        parts = ['Offset(%s, %d)' % (prev, o) if o else prev for o in splice[l]]
        n = 'tdnn%d' % l
        out.append('component name=%s.affine type=NaturalGradientAffineComponent input-dim=%d output-dim=512' % (n, prev_dim * len(parts)))
        out.append('component-node name=%s.affine component=%s.affine input=Append(%s)' % (n, n, ', '.join(parts)))
        out.append('component name=%s.relu type=RectifiedLinearComponent dim=512' % n)
        out.append('component-node name=%s.relu component=%s.relu input=%s.affine' % (n, n, n))
        out.append('component name=%s.batchnorm type=BatchNormComponent dim=512' % n)
        out.append('component-node name=%s.batchnorm component=%s.batchnorm input=%s.relu' % (n, n, n))
        prev, prev_dim = n + '.batchnorm', 512
    return out, prev
def tdnnf():
    out = ['input-node name=input dim=40',
           'component name=tdnn1.affine type=NaturalGradientAffineComponent input-dim=120 output-dim=512',
           'component-node name=tdnn1.affine component=tdnn1.affine input=Append(Offset(input, -1), input, Offset(input, 1))',
           'component name=tdnn1.relu type=RectifiedLinearComponent dim=512',
           'component-node name=tdnn1.relu component=tdnn1.relu input=tdnn1.affine',
           'component name=tdnn1.batchnorm type=BatchNormComponent dim=512',
           'component-node name=tdnn1.batchnorm component=tdnn1.batchnorm input=tdnn1.relu']
    prev = 'tdnn1.batchnorm'
    for i, s in zip(range(2, 7), (1, 1, 1, 3, 3)):
        n = 'tdnnf%d' % i
        out += ['component name=%s.linear type=TdnnComponent input-dim=512 output-dim=128 use-bias=false time-offsets=-%d,0 orthonormal-constraint=-1.0' % (n, s),
                'component-node name=%s.linear component=%s.linear input=%s' % (n, n, prev),
                'component name=%s.affine type=TdnnComponent input-dim=128 output-dim=512 time-offsets=0,%d' % (n, s),
                'component-node name=%s.affine component=%s.affine input=%s.linear' % (n, n, n),
                'component name=%s.relu type=RectifiedLinearComponent dim=512' % n,
                'component-node name=%s.relu component=%s.relu input=%s.affine' % (n, n, n),
                'component name=%s.batchnorm type=BatchNormComponent dim=512' % n,
                'component-node name=%s.batchnorm component=%s.batchnorm input=%s.relu' % (n, n, n),
                'component name=%s.noop type=NoOpComponent dim=512' % n,
                'component-node name=%s.noop component=%s.noop input=Sum(Scale(0.66, %s), %s.batchnorm)' % (n, n, prev, n)]
        prev = n + '.noop'
    out += ['component name=prefinal.affine type=NaturalGradientAffineComponent input-dim=512 output-dim=512',
            'component-node name=prefinal.affine component=prefinal.affine input=%s' % prev,
            'component name=prefinal.relu type=RectifiedLinearComponent dim=512',
            'component-node name=prefinal.relu component=prefinal.relu input=prefinal.affine',
            'component name=prefinal.linear type=LinearComponent input-dim=512 output-dim=128 orthonormal-constraint=-1.0',
            'component-node name=prefinal.linear component=prefinal.linear input=prefinal.relu']
    return out, 'prefinal.linear', 128
def output(prev, dim):
    return ['component name=output.affine type=NaturalGradientAffineComponent input-dim=%d output-dim=2000' % dim,
            'component-node name=output.affine component=output.affine input=%s' % prev,
            'component name=output.log-softmax type=LogSoftmaxComponent dim=2000',
            'component-node name=output.log-softmax component=output.log-softmax input=output.affine',
            'output-node name=output input=output.log-softmax objective=linear']
lines, prev = tdnn()
open(tmp + '/tdnn.config', 'w').write('\n'.join(lines + output(prev, 512)) + '\n')
lines, prev, dim = tdnnf()
open(tmp + '/tdnnf.config', 'w').write('\n'.join(lines + output(prev, dim)) + '\n')
