#!/usr/bin/env python3
"""Adds disambiguation symbols to a lexicon so that no pronunciation is
the same as, or a prefix of, another one: L o G is then determinizable.

Usage: add_disambig.py LEXICONP_IN LEXICONP_OUT     (prints the highest #N)

Lines are "word prob phone1 phone2 ..."; the output has tab-separated
"word<TAB>prob<TAB>phones [#n]". A pronunciation that occurs once and is
no other pronunciation's proper prefix is kept as it is. Otherwise the
k-th occurrence of a phone sequence gets #k appended (skipping numbers
taken by empty pronunciations); each empty pronunciation gets a number of
its own, the next above the highest used so far.
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    entries = []
    with open(sys.argv[1], encoding="latin-1") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) < 2:
                sys.exit("add_disambig.py: bad line {} of {}".format(
                    number, sys.argv[1]))
            entries.append((fields[0], fields[1], tuple(fields[2:])))
    occurrences, prefixes = {}, set()
    for _, _, phones in entries:
        occurrences[phones] = occurrences.get(phones, 0) + 1
        for n in range(len(phones)):
            prefixes.add(phones[:n])
    highest, taken_by_empty, last_number = 0, set(), {}
    with open(sys.argv[2], "w", encoding="latin-1") as out:
        for word, prob, phones in entries:
            text = " ".join(phones)
            if phones in prefixes or occurrences[phones] > 1:
                if not phones:
                    highest += 1
                    taken_by_empty.add(highest)
                    text = "#{}".format(highest)
                else:
                    n = last_number.get(phones, 0) + 1
                    while n in taken_by_empty:
                        n += 1
                    highest = max(highest, n)
                    last_number[phones] = n
                    text += " #{}".format(n)
            out.write("{}\t{}\t{}\n".format(word, prob, text))
    print(highest)


if __name__ == "__main__":
    main()
