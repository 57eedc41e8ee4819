#include "fstext/graph-checks.h"

#include <memory>

#include "base/error.h"
#include "fstext/openfst-log.h"
#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

// Calls visit(state, arc) for every arc until it returns false.
template <class Visit>
void ForEachArc(const fst::Fst<fst::StdArc> &fst, Visit visit) {
  for (fst::StateIterator<fst::Fst<fst::StdArc>> siter(fst); !siter.Done();
       siter.Next()) {
    const int s = siter.Value();
    for (fst::ArcIterator<fst::Fst<fst::StdArc>> aiter(fst, s); !aiter.Done();
         aiter.Next()) {
      if (!visit(s, aiter.Value())) return;
    }
  }
}

}  // namespace

fst::SymbolTable *ReadSymbolTableText(const std::string &rxfilename) {
  Input input(rxfilename);
  const std::string source = PrintableRxfilename(rxfilename);
  std::string openfst_says;
  std::unique_ptr<fst::SymbolTable> table;
  {
    OpenFstLogCapture capture(&openfst_says);
    table.reset(fst::SymbolTable::ReadText(input.Stream(), source));
  }
  if (!table)
    NNET3_ERR << "Cannot read the symbol table '" << source << "'"
              << (openfst_says.empty() ? "" : ": ") << openfst_says
              << " (expected lines 'symbol integer-id')";
  input.Close();
  return table.release();
}

int64_t MaxInputLabel(const fst::Fst<fst::StdArc> &fst) {
  int64_t max_label = 0;
  ForEachArc(fst, [&max_label](int, const fst::StdArc &arc) {
    if (arc.ilabel > max_label) max_label = arc.ilabel;
    return true;
  });
  return max_label;
}

int64_t MaxOutputLabel(const fst::Fst<fst::StdArc> &fst) {
  int64_t max_label = 0;
  ForEachArc(fst, [&max_label](int, const fst::StdArc &arc) {
    if (arc.olabel > max_label) max_label = arc.olabel;
    return true;
  });
  return max_label;
}

void CheckGraphInputLabels(const fst::Fst<fst::StdArc> &graph,
                           int32_t num_transition_ids,
                           const std::string &graph_name,
                           const std::string &model_name) {
  ForEachArc(graph, [&](int s, const fst::StdArc &arc) {
    if (arc.ilabel < 0 || arc.ilabel > num_transition_ids)
      NNET3_ERR << "The graph '" << graph_name << "' has input label "
                << arc.ilabel << " (on an arc from state " << s
                << "), but the model '" << model_name << "' has transition-ids "
                << "1.." << num_transition_ids
                << ": was the graph built with this model's tree and "
                   "topology?";
    return true;
  });
}

void CheckGraphOutputSymbols(const fst::Fst<fst::StdArc> &graph,
                             const fst::SymbolTable &symbols,
                             const std::string &graph_name,
                             const std::string &symbols_name) {
  ForEachArc(graph, [&](int s, const fst::StdArc &arc) {
    if (arc.olabel != 0 && symbols.Find(arc.olabel).empty())
      NNET3_ERR << "The graph '" << graph_name << "' outputs word "
                << arc.olabel << " (on an arc from state " << s
                << "), which is not in the symbol table '" << symbols_name
                << "': is it the words.txt the graph was built with?";
    return true;
  });
}

}  // namespace nnet3
