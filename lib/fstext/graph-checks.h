// Reading a words.txt symbol table, and the checks a decoding program makes
// before it decodes with a graph: that the graph's input labels are
// transition-ids of the acoustic model, and that the symbol table names
// every word the graph can output. Each failure is a one-line UserError
// naming the files and the first offending label.
//
//   std::unique_ptr<fst::SymbolTable> words(ReadSymbolTableText("words.txt"));
//   CheckGraphInputLabels(*hclg, trans_model.NumTransitionIds(), "HCLG.fst",
//                         "final.mdl");
//   CheckGraphOutputSymbols(*hclg, *words, "HCLG.fst", "words.txt");
//
// Symbol table text form (OpenFst's, Kaldi's words.txt): one "symbol id"
// per line, separated by spaces or tabs, ids non-negative.
#ifndef NNET3_FSTEXT_GRAPH_CHECKS_H_
#define NNET3_FSTEXT_GRAPH_CHECKS_H_

#include <fst/fst.h>
#include <fst/symbol-table.h>

#include <cstdint>
#include <string>

namespace nnet3 {

// Reads a symbol table in text form from any rxfilename. UserError naming
// the file and OpenFst's reason (bad line, negative id) if it cannot.
// The caller owns the result.
fst::SymbolTable *ReadSymbolTableText(const std::string &rxfilename);

// The largest input (output) label on any arc; 0 if there are none.
int64_t MaxInputLabel(const fst::Fst<fst::StdArc> &fst);
int64_t MaxOutputLabel(const fst::Fst<fst::StdArc> &fst);

// UserError unless every input label is 0 (epsilon) or a transition-id,
// 1..num_transition_ids: the graph was built for this model.
void CheckGraphInputLabels(const fst::Fst<fst::StdArc> &graph,
                           int32_t num_transition_ids,
                           const std::string &graph_name,
                           const std::string &model_name);

// UserError unless every non-zero output label of the graph has a symbol.
void CheckGraphOutputSymbols(const fst::Fst<fst::StdArc> &graph,
                             const fst::SymbolTable &symbols,
                             const std::string &graph_name,
                             const std::string &symbols_name);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_GRAPH_CHECKS_H_
