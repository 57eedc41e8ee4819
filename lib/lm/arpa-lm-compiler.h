// ArpaLmCompiler (Kaldi's lm/arpa-lm-compiler): turns an ARPA language
// model into the grammar FST G, state for state and arc for arc as Kaldi's
// arpa2fst makes it.
//
//   fst::SymbolTable words = ...;          // data/lang/words.txt
//   ArpaParseOptions opts;  opts.bos_symbol = words.Find("<s>"); ...
//   ArpaLmCompiler lm(opts, words.Find("#0"), &words);
//   lm.Read(stream, "lm.arpa");
//   fst::ArcSort(lm.MutableFst(), fst::StdILabelCompare());
//
// The FST: one state per history (state 0: the empty history, the
// unigram state). An n-gram "h w" is an arc w:w from h's state with cost
// -logprob to the state of "h w", which gets a back-off arc to the state of
// its longest existing suffix with cost -backoff; for the highest order the
// arc goes straight to the state of the n-gram's suffix "h' w" (made, with
// its own back-off arc, if the LM lacks it). Back-off arcs carry
// `disambig_symbol` (#0) on the input and epsilon on the output. With a
// disambiguation symbol, <s> and </s> become epsilons: the state after <s>
// is the start state, and an n-gram ending in </s> makes its history state
// final with that cost. Without one (disambig_symbol 0), <s> and </s> stay
// as arcs: the start state has a free <s> arc, and every </s> arc goes to
// one final state. Finally, with a disambiguation symbol, a non-final state
// whose only arc is its back-off arc gets an epsilon there instead and is
// removed by RemoveEpsLocal (remove-eps-local.h).
//
// Skipped with a warning: an n-gram whose history is not in the LM, <s>
// after the first word or </s> before the last. Errors (UserError): the
// LM has no <s> unigram (no start state), or uses the disambiguation
// symbol as a word; and the parser's (arpa-file-parser.h).
#ifndef NNET3_LM_ARPA_LM_COMPILER_H_
#define NNET3_LM_ARPA_LM_COMPILER_H_

#include <fst/vector-fst.h>

#include <cstdint>
#include <memory>

#include "lm/arpa-file-parser.h"

namespace nnet3 {

class ArpaLmBuilderBase;

class ArpaLmCompiler : public ArpaFileParser {
 public:
  ArpaLmCompiler(const ArpaParseOptions &options, int32_t disambig_symbol,
                 fst::SymbolTable *symbols);
  ~ArpaLmCompiler() override;

  const fst::StdVectorFst &Fst() const { return fst_; }
  fst::StdVectorFst *MutableFst() { return &fst_; }

 protected:
  void HeaderAvailable() override;
  void ConsumeNGram(const NGram &ngram) override;
  void ReadComplete() override;

 private:
  friend class ArpaLmBuilderBase;
  void RemoveRedundantStates();

  int32_t disambig_symbol_;
  std::unique_ptr<ArpaLmBuilderBase> builder_;
  fst::StdVectorFst fst_;
};

}  // namespace nnet3

#endif  // NNET3_LM_ARPA_LM_COMPILER_H_
