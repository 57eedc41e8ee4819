#!/usr/bin/env python3
"""Writes an HMM topology file (Kaldi's text form of HmmTopology).

Usage: make_topo.py NUM_NONSIL_STATES NUM_SIL_STATES NONSIL_PHONES SIL_PHONES

Phones are colon-separated integer lists (phones/nonsilence.csl,
phones/silence.csl). Non-silence phones get a left-to-right HMM of
NUM_NONSIL_STATES emitting states (loop 0.75, forward 0.25). Silence
phones with NUM_SIL_STATES >= 3 get an ergodic middle: the first state goes
to any of the first N-1 states, each middle state to any of states 1..N-1
and the last, all with probability 1/(N-1); the last state loops with 0.75
and exits with 0.25. With one state it is a single looping state. Every
entry ends with a non-emitting final state. Numbers are printed with 15
significant digits.
"""
import sys


def number(x):
    return "%.15g" % x


def state_line(state, transitions):
    text = "<State> {} <PdfClass> {} ".format(state, state)
    text += "".join("<Transition> {} {} ".format(dest, number(p))
                    for dest, p in transitions)
    return text


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    num_nonsil, num_sil = int(sys.argv[1]), int(sys.argv[2])
    nonsil, sil = sys.argv[3].replace(":", " "), sys.argv[4].replace(":", " ")
    if not 1 <= num_nonsil <= 100 or not (num_sil == 1 or 3 <= num_sil <= 100):
        sys.exit("make_topo.py: bad numbers of states {} {}".format(
            num_nonsil, num_sil))
    for phones in (nonsil, sil):
        if not phones or not all(p.isdigit() for p in phones.split()):
            sys.exit("make_topo.py: bad phone list '{}'".format(phones))
    lines = ["<Topology>", "<TopologyEntry>", "<ForPhones>", nonsil,
             "</ForPhones>"]
    for s in range(num_nonsil):
        lines.append(state_line(s, [(s, 0.75), (s + 1, 0.25)]) + "</State>")
    lines += ["<State> {} </State>".format(num_nonsil), "</TopologyEntry>"]
    lines += ["<TopologyEntry>", "<ForPhones>", sil, "</ForPhones>"]
    if num_sil > 1:
        p = 1.0 / (num_sil - 1)
        lines.append(state_line(0, [(d, p) for d in range(num_sil - 1)]) +
                     "</State>")
        for s in range(1, num_sil - 1):
            lines.append(state_line(s, [(d, p) for d in range(1, num_sil)]) +
                         "</State>")
        last = num_sil - 1
        lines.append(state_line(last, [(last, 0.75), (num_sil, 0.25)]) +
                     "</State>")
    else:
        lines.append(state_line(0, [(0, 0.75), (1, 0.25)]) + "</State>")
    lines += ["<State> {} </State>".format(num_sil), "</TopologyEntry>",
              "</Topology>"]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
