// Kaldi's text form of an FST inside a table (archives of graphs and
// lattices, "ark,t:"): a newline, then OpenFst's AT&T lines with tab
// separators, the start state's lines first, then a blank line:
//
//   utt1 <- (the key, written by the table)
//   0	1	4	10	1.5,2       state next-state ilabel olabel
//   weight 1	2	0	0                    weight One is omitted 2
//   0.5,0                        a final state and its weight
//   <- blank line
//
// An acceptor (a CompactLattice) has one label column. Weights use the
// stream's precision.
//
//   WriteFstText(os, fst, /*acceptor=*/false);
//   FstTextBuilder<fst::StdArc> builder(/*acceptor=*/false);
//   while (getline(is, line) && !line-is-blank) builder.AddLine(columns);
//
// Reading follows Kaldi: columns are separated by spaces, tabs or '\r';
// the first line's state is the start; a transducer line has 1 (final,
// weight One), 2 (final, weight), 4 (arc, weight One) or 5 (arc, weight
// not Zero) columns, an acceptor line 1, 2, 3 or 4. Negative state ids
// and ids of 2^27 or more are rejected (Kaldi would crash or try to
// allocate them).
#ifndef NNET3_FSTEXT_FST_TEXT_IO_H_
#define NNET3_FSTEXT_FST_TEXT_IO_H_

#include <fst/script/print-impl.h>
#include <fst/vector-fst.h>

#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "base/text-utils.h"

namespace nnet3 {

// Writes '\n', the FST's lines, and the closing blank line's '\n'.
template <class Arc>
void WriteFstText(std::ostream &os, const fst::Fst<Arc> &fst, bool acceptor) {
  os << '\n';
  fst::FstPrinter<Arc> printer(fst, fst.InputSymbols(), fst.OutputSymbols(),
                               nullptr, acceptor, /*show_weight_one=*/false,
                               "\t");
  printer.Print(os, "<unknown>");
  os << '\n';
}

// Splits one text line into its columns (empty for a blank line).
inline std::vector<std::string> FstTextColumns(const std::string &line) {
  return SplitString(line, " \t\r\n", true);
}

// Parses a weight; false if malformed, or Zero where Zero is not allowed.
template <class Weight>
bool ParseFstTextWeight(const std::string &text, bool allow_zero, Weight *w) {
  std::istringstream is(text);
  is >> *w;
  return !is.fail() && (allow_zero || *w != Weight::Zero());
}

// Builds a VectorFst from text lines one at a time.
template <class Arc>
class FstTextBuilder {
 public:
  using Weight = typename Arc::Weight;
  using StateId = typename Arc::StateId;

  explicit FstTextBuilder(bool acceptor)
      : acceptor_(acceptor), fst_(new fst::VectorFst<Arc>()) {}

  // Adds one non-blank line; false if it does not fit this form (the FST
  // is then unusable).
  bool AddLine(const std::vector<std::string> &columns) {
    if (columns.empty() || columns.size() > 5) return false;
    StateId s;
    if (!ConvertStringToInteger(columns[0], &s) || !ValidState(s)) return false;
    AddStatesThrough(s);
    if (first_line_) fst_->SetStart(s);
    first_line_ = false;
    Weight w = Weight::One();
    if (columns.size() <= 2) {
      if (columns.size() == 2 && !ParseFstTextWeight(columns[1], true, &w))
        return false;
      fst_->SetFinal(s, w);
      return true;
    }
    const size_t label_columns = acceptor_ ? 1 : 2;
    if (columns.size() != 2 + label_columns &&
        columns.size() != 3 + label_columns)
      return false;
    Arc arc;
    if (!ConvertStringToInteger(columns[1], &arc.nextstate) ||
        !ValidState(arc.nextstate) ||
        !ConvertStringToInteger(columns[2], &arc.ilabel))
      return false;
    arc.olabel = arc.ilabel;
    if (!acceptor_ && !ConvertStringToInteger(columns[3], &arc.olabel))
      return false;
    arc.weight = Weight::One();
    if (columns.size() == 3 + label_columns &&
        !ParseFstTextWeight(columns.back(), false, &arc.weight))
      return false;
    AddStatesThrough(arc.nextstate);
    fst_->AddArc(s, arc);
    return true;
  }

  std::unique_ptr<fst::VectorFst<Arc>> Release() { return std::move(fst_); }

 private:
  // State ids are dense; a huge one is a corrupted line, not a request for
  // that many states.
  static bool ValidState(StateId s) { return s >= 0 && s < (1 << 27); }
  void AddStatesThrough(StateId s) {
    while (fst_->NumStates() <= s) fst_->AddState();
  }

  bool acceptor_;
  bool first_line_ = true;
  std::unique_ptr<fst::VectorFst<Arc>> fst_;
};

}  // namespace nnet3

#endif  // NNET3_FSTEXT_FST_TEXT_IO_H_
