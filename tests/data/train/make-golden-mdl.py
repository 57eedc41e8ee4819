#!/usr/bin/env python3
"""Writes golden Kaldi acoustic models (.mdl) byte by byte from the format
(Kaldi's hmm/hmm-topology.cc and hmm/transition-model.cc Write functions,
nnet3/am-nnet-simple.cc, reference 4.1-4.3), without using the toolkit:

  hmm.mdl / hmm.mdl.txt      a TransitionModel with a plain HMM topology
                             (<PdfClass>, <Triples>), the network, its
                             context and priors
  chain.mdl / chain.mdl.txt  a topology with separate self-loop pdf-classes
                             (<ForwardPdfClass>/<SelfLoopPdfClass>, <Tuples>,
                             the -1 marker in binary) and no priors
  hmm-noprior.mdl.txt        hmm.mdl's transition model and network with no
                             priors (what nnet3-am-init writes)
  nnet.raw.txt               the network alone (a raw nnet)
  gmm-front.mdl              hmm.mdl's transition model followed by what a
                             GMM model holds (nnet3-am-init reads only the
                             front)

Run it from anywhere: python3 make-golden-mdl.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


class Writer:
    """Kaldi's WriteToken / WriteBasicType / vectors, binary or text."""

    def __init__(self, binary):
        self.binary = binary
        self.out = b''

    def raw(self, s):
        self.out += s if isinstance(s, bytes) else s.encode()

    def text_only(self, s):
        if not self.binary:
            self.raw(s)

    def token(self, t):
        self.raw(t + ' ')

    def i32(self, v):
        self.raw(b'\x04' + struct.pack('<i', v) if self.binary else '%d ' % v)

    def f32(self, v):
        self.raw(b'\x04' + struct.pack('<f', v) if self.binary
                 else '%.7g ' % f32(v))

    def f64(self, v):
        self.raw(b'\x08' + struct.pack('<d', v) if self.binary
                 else '%.7g ' % v)

    def int_vector(self, v):  # binary only in these formats
        self.raw(b'\x04' + struct.pack('<i', len(v)) +
                 b''.join(struct.pack('<i', x) for x in v))

    def vector(self, v):
        if self.binary:
            self.raw(b'FV ' + b'\x04' + struct.pack('<i', len(v)) +
                     b''.join(struct.pack('<f', x) for x in v))
        else:
            self.raw(' [ ' + ''.join('%.7g ' % f32(x) for x in v) + ']\n')

    def matrix(self, rows):
        if self.binary:
            self.raw(b'FM ' + b'\x04' + struct.pack('<i', len(rows)) + b'\x04' +
                     struct.pack('<i', len(rows[0])) +
                     b''.join(struct.pack('<f', x) for r in rows for x in r))
        else:
            self.raw(' [' + ''.join('\n  ' + ''.join('%.7g ' % f32(x) for x in r)
                                    for r in rows) + ']\n')


# Topologies: {entry: (phones, [(forward, self_loop, [(dst, prob)])])}; the
# last state of each entry is the non-emitting final state.
HMM_TOPO = [
    ([1, 2], [(0, 0, [(0, 0.75), (1, 0.25)]), (1, 1, [(1, 0.75), (2, 0.25)]),
              (2, 2, [(2, 0.75), (3, 0.25)]), (-1, -1, [])]),
    ([3], [(0, 0, [(0, 0.5), (1, 0.5)]), (-1, -1, [])]),
]
CHAIN_TOPO = [
    ([1, 2, 3], [(0, 1, [(0, 0.5), (1, 0.5)]), (-1, -1, [])]),
]
# Tuples (phone, hmm-state, forward pdf, self-loop pdf), sorted.
HMM_TUPLES = [(1, 0, 0, 0), (1, 1, 1, 1), (1, 2, 2, 2), (2, 0, 3, 3),
              (2, 1, 1, 1), (2, 2, 4, 4), (3, 0, 5, 5)]
CHAIN_TUPLES = [(1, 0, 0, 1), (2, 0, 2, 3), (3, 0, 4, 5)]


def topology(w, entries):
    is_hmm = all(s[0] == s[1] for _, states in entries for s in states)
    w.token('<Topology>')
    if w.binary:
        phones = sorted(p for ps, _ in entries for p in ps)
        phone2idx = [-1] * (max(phones) + 1)
        for i, (ps, _) in enumerate(entries):
            for p in ps:
                phone2idx[p] = i
        w.int_vector(phones)
        w.int_vector(phone2idx)
        if not is_hmm:
            w.i32(-1)
        w.i32(len(entries))
        for _, states in entries:
            w.i32(len(states))
            for (fwd, loop, trans) in states:
                w.i32(fwd)
                if not is_hmm:
                    w.i32(loop)
                w.i32(len(trans))
                for (dst, prob) in trans:
                    w.i32(dst)
                    w.f32(prob)
    else:
        w.raw('\n')
        for phones, states in entries:
            w.token('<TopologyEntry>')
            w.raw('\n')
            w.token('<ForPhones>')
            w.raw('\n' + ''.join('%d ' % p for p in phones) + '\n')
            w.token('</ForPhones>')
            w.raw('\n')
            for j, (fwd, loop, trans) in enumerate(states):
                w.token('<State>')
                w.i32(j)
                if fwd != -1:
                    if is_hmm:
                        w.token('<PdfClass>')
                        w.i32(fwd)
                    else:
                        w.token('<ForwardPdfClass>')
                        w.i32(fwd)
                        w.token('<SelfLoopPdfClass>')
                        w.i32(loop)
                for (dst, prob) in trans:
                    w.token('<Transition>')
                    w.i32(dst)
                    w.f32(prob)
                w.token('</State>')
                w.raw('\n')
            w.token('</TopologyEntry>')
            w.raw('\n')
    w.token('</Topology>')
    w.text_only('\n')
    return is_hmm


def transition_model(w, entries, tuples):
    w.token('<TransitionModel>')
    w.text_only('\n')
    is_hmm = topology(w, entries)
    w.token('<Triples>' if is_hmm else '<Tuples>')
    w.i32(len(tuples))
    w.text_only('\n')
    for t in tuples:
        for v in (t[:3] if is_hmm else t):
            w.i32(v)
        w.text_only('\n')
    w.token('</Triples>' if is_hmm else '</Tuples>')
    w.text_only('\n')
    # One log-prob per transition-id (1-based): two transitions out of
    # every emitting state here; element 0 is unused.
    num_ids = 2 * len(tuples)
    w.token('<LogProbs>')
    w.text_only('\n')
    w.vector([0.0] + [-0.125 * (1 + i % 5) for i in range(num_ids)])
    w.token('</LogProbs>')
    w.text_only('\n')
    w.token('</TransitionModel>')
    w.text_only('\n')


CONFIG = ('input-node name=input dim=2\n'
          'component-node name=affine component=affine '
          'input=Append(Offset(input, -1), input, Offset(input, 1))\n'
          'component-node name=log-softmax component=log-softmax input=affine\n'
          'output-node name=output input=log-softmax objective=linear\n')


def nnet(w, num_pdfs):
    w.token('<Nnet3>')
    w.raw('\n' + CONFIG + '\n')
    w.token('<NumComponents>')
    w.i32(2)
    w.text_only('\n')
    w.token('<ComponentName>')
    w.token('affine')
    w.token('<AffineComponent>')
    w.token('<LearningRate>')
    w.f32(0.001)
    w.token('<LinearParams>')
    w.matrix([[0.5 * ((r + c) % 3) - 0.5 for c in range(6)]
              for r in range(num_pdfs)])
    w.token('<BiasParams>')
    w.vector([0.25 * r for r in range(num_pdfs)])
    w.token('</AffineComponent>')
    w.text_only('\n')
    w.token('<ComponentName>')
    w.token('log-softmax')
    w.token('<LogSoftmaxComponent>')
    w.token('<Dim>')
    w.i32(num_pdfs)
    for name in ('<ValueAvg>', '<DerivAvg>'):
        w.token(name)
        w.vector([])
    w.token('<Count>')
    w.f64(0)
    w.token('<OderivRms>')
    w.vector([])
    w.token('<OderivCount>')
    w.f64(0)
    w.token('<NumDimsSelfRepaired>')
    w.f64(0)
    w.token('<NumDimsProcessed>')
    w.f64(0)
    w.token('</LogSoftmaxComponent>')
    w.text_only('\n')
    w.token('</Nnet3>')


def am_nnet(w, num_pdfs, priors):
    nnet(w, num_pdfs)
    w.token('<LeftContext>')
    w.i32(1)
    w.token('<RightContext>')
    w.i32(1)
    w.token('<Priors>')
    w.vector(priors)


HMM_PRIORS = [0.0625, 0.125, 0.25, 0.3125, 0.1875, 0.0625]


def model(binary, entries, tuples, priors, with_nnet=True):
    w = Writer(binary)
    if binary:
        w.raw(b'\x00B')
    transition_model(w, entries, tuples)
    if with_nnet:
        am_nnet(w, 6, priors)
    return w.out


def main():
    files = {
        'hmm.mdl': model(True, HMM_TOPO, HMM_TUPLES, HMM_PRIORS),
        'hmm.mdl.txt': model(False, HMM_TOPO, HMM_TUPLES, HMM_PRIORS),
        'chain.mdl': model(True, CHAIN_TOPO, CHAIN_TUPLES, []),
        'chain.mdl.txt': model(False, CHAIN_TOPO, CHAIN_TUPLES, []),
        'hmm-noprior.mdl.txt': model(False, HMM_TOPO, HMM_TUPLES, []),
    }
    w = Writer(False)
    nnet(w, 6)
    files['nnet.raw.txt'] = w.out
    gmm = Writer(True)
    gmm.raw(model(True, HMM_TOPO, HMM_TUPLES, [], with_nnet=False))
    gmm.token('<DIMENSION>')
    gmm.i32(2)
    gmm.token('<NUMPDFS>')
    gmm.i32(6)
    files['gmm-front.mdl'] = gmm.out
    for name, data in files.items():
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
