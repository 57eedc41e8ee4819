// Removing symbols from one side of an FST (what Kaldi's fstrmsymbols does
// with a list of disambiguation symbols or the OOV word):
//
//   RemoveSomeInputSymbols(disambig, &hclg);        // label -> epsilon
//   RemoveArcsWithSomeInputSymbols(oov, &clg);      // arcs dropped, then
//                                                   // fst::Connect
//   PenalizeArcsWithSomeInputSymbols(syms, 2.0, &f);  // cost += 2.0
//
// All three act on input labels; invert the FST around the call to act on
// output labels (fstrmsymbols --apply-to-output). Label 0 (epsilon) must
// not be in the list (UserError).
#ifndef NNET3_FSTEXT_REMOVE_SYMBOLS_H_
#define NNET3_FSTEXT_REMOVE_SYMBOLS_H_

#include <fst/vector-fst.h>

#include <cstdint>
#include <vector>

namespace nnet3 {

// Input labels in `symbols` become 0. Properties are updated as Kaldi's
// mapper does (the label-dependent ones become unknown), input symbol table
// cleared.
void RemoveSomeInputSymbols(const std::vector<int32_t> &symbols,
                            fst::VectorFst<fst::StdArc> *fst);

// Arcs whose input label is in `symbols` are removed, with whatever
// becomes unreachable or dead (a warning if nothing is left).
void RemoveArcsWithSomeInputSymbols(const std::vector<int32_t> &symbols,
                                    fst::VectorFst<fst::StdArc> *fst);

// Arcs whose input label is in `symbols` get `penalty` added to their cost.
void PenalizeArcsWithSomeInputSymbols(const std::vector<int32_t> &symbols,
                                      float penalty,
                                      fst::VectorFst<fst::StdArc> *fst);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_REMOVE_SYMBOLS_H_
