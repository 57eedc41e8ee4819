#!/usr/bin/env python3
"""Writes the lexicon FST (L.fst) in OpenFst's text form, for fstcompile
with phones.txt and words.txt as the symbol tables.

Usage: lexicon_fst.py [--sil-prob P --sil-phone SIL [--sil-disambig '#N']]
                      LEXICONP > L.txt

LEXICONP has lines "word prob phone1 phone2 ..." (prob > 0). Each
pronunciation is a chain of arcs from the loop state back to it, the word
and the cost -log(prob) on the first arc. With --sil-prob P > 0 (P < 1),
optional silence may come before the first word and after every word:
state 0 is the start, 1 the loop state, 2 the state after a word that is
followed by silence; every word has two last arcs, to state 1 with cost
-log(1-P) and to state 2 with cost -log(P), and state 2 goes to state 1
through SIL (and then the disambiguation symbol, if given: it keeps
L o G determinizable when G is cyclic). The loop state is the only final
state. States are numbered as the arcs are written, so the same lexicon
gives the same L.fst.
"""
import argparse
import math
import sys


def read_lexicon(path):
    entries = []
    with open(path, encoding="latin-1") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            where = "{}:{}: '{}'".format(path, number, line.strip())
            if len(fields) < 2:
                sys.exit("lexicon_fst.py: bad lexicon line {}".format(where))
            try:
                prob = float(fields[1])
            except ValueError:
                sys.exit("lexicon_fst.py: the second field must be a "
                         "pronunciation probability: {}".format(where))
            if fields[0] == "<eps>" or not prob > 0.0:
                sys.exit("lexicon_fst.py: bad word or probability: " + where)
            entries.append((fields[0], prob, fields[2:]))
    if not entries:
        sys.exit("lexicon_fst.py: no pronunciations in " + path)
    return entries


class TextFst:
    """Numbers states as they are asked for and prints arcs."""

    def __init__(self, first_free_state):
        self.next_state = first_free_state

    def new_state(self):
        state = self.next_state
        self.next_state += 1
        return state

    @staticmethod
    def arc(src, dest, phone, word, cost):
        # Costs are printed as Python prints floats (the shortest exact
        # form), so that fstcompile reads the same float every time.
        print("{}\t{}\t{}\t{}\t{}".format(src, dest, phone, word, cost))

    @staticmethod
    def final(state):
        print("{}\t{}".format(state, 0.0))


def write_words(fst, entries, loop, endings):
    """Each pronunciation from `loop`; endings: [(state, extra cost)] that
    the last arc of every word goes to."""
    for word, prob, phones in entries:
        cost = -math.log(prob)
        state = loop
        for i, phone in enumerate(phones[:-1]):
            nxt = fst.new_state()
            fst.arc(state, nxt, phone, word if i == 0 else "<eps>",
                    cost if i == 0 else 0.0)
            state = nxt
        last = phones[-1] if phones else "<eps>"
        one_arc = len(phones) <= 1
        for dest, extra in endings:
            fst.arc(state, dest, last, word if one_arc else "<eps>",
                    extra + (cost if one_arc else 0.0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sil-prob", type=float, default=0.0)
    parser.add_argument("--sil-phone")
    parser.add_argument("--sil-disambig")
    parser.add_argument("lexiconp")
    args = parser.parse_args()
    entries = read_lexicon(args.lexiconp)
    if args.sil_prob == 0.0:
        fst = TextFst(1)
        write_words(fst, entries, 0, [(0, 0.0)])
        fst.final(0)
        return
    if not 0.0 < args.sil_prob < 1.0:
        sys.exit("lexicon_fst.py: --sil-prob must be in [0, 1): {}".format(
            args.sil_prob))
    if not args.sil_phone or len(args.sil_phone.split()) != 1:
        sys.exit("lexicon_fst.py: --sil-prob needs one --sil-phone")
    sil_cost = -math.log(args.sil_prob)
    no_sil_cost = -math.log(1.0 - args.sil_prob)
    start, loop, after_sil = 0, 1, 2
    fst = TextFst(3)
    fst.arc(start, loop, "<eps>", "<eps>", no_sil_cost)
    fst.arc(start, after_sil, "<eps>", "<eps>", sil_cost)
    if args.sil_disambig is None:
        fst.arc(after_sil, loop, args.sil_phone, "<eps>", 0.0)
    else:
        mid = fst.new_state()
        fst.arc(after_sil, mid, args.sil_phone, "<eps>", 0.0)
        fst.arc(mid, loop, args.sil_disambig, "<eps>", 0.0)
    write_words(fst, entries, loop, [(loop, no_sil_cost),
                                     (after_sil, sil_cost)])
    fst.final(loop)


if __name__ == "__main__":
    main()
