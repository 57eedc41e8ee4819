// Composition with a table matcher on one side (Kaldi's TableCompose): the
// result equals fst::Compose (sequence filter, then Connect), state for
// state and arc for arc, but finding the matching arcs of a state with
// many arcs is a table lookup (table-matcher.h) instead of a binary
// search. The usual use is L_disambig.fst o G.fst, where the lexicon's
// loop state has one arc per word.
//
//   fst::StdVectorFst lg;
//   TableCompose(l_disambig, g, &lg);        // matches on L's output side
//
//   TableComposeCache cache;                 // one left FST, many right ones
//   for (...) TableCompose(l, g_i, &out_i, &cache);
//
// Requirements: with table_match_type MATCH_OUTPUT (the default) `left`
// must be sorted on output labels, with MATCH_INPUT `right` on input
// labels (UserError otherwise). The side that is not table-matched is
// matched with an fst::SortedMatcher where its sort order is known from its
// properties; per state, OpenFst's composition looks up the side whose
// state has more arcs.
#ifndef NNET3_FSTEXT_TABLE_COMPOSE_H_
#define NNET3_FSTEXT_TABLE_COMPOSE_H_

#include <fst/fst.h>
#include <fst/mutable-fst.h>

#include <memory>

#include "fstext/table-matcher.h"

namespace nnet3 {

struct TableComposeOptions : public TableMatcherOptions {
  bool connect = true;  // trim the result (fst::Connect)
  // MATCH_OUTPUT: the table is built on the left FST's output side;
  // MATCH_INPUT: on the right FST's input side.
  fst::MatchType table_match_type = fst::MATCH_OUTPUT;
};

void TableCompose(const fst::Fst<fst::StdArc> &left,
                  const fst::Fst<fst::StdArc> &right,
                  fst::MutableFst<fst::StdArc> *out,
                  const TableComposeOptions &opts = TableComposeOptions());

// Keeps the table matcher of the FST on the table side (the left one with
// MATCH_OUTPUT) from one composition to the next; that FST must be the
// same object in every call.
class TableComposeCache {
 public:
  explicit TableComposeCache(
      const TableComposeOptions &opts = TableComposeOptions())
      : opts_(opts) {}
  const TableComposeOptions &Options() const { return opts_; }
  // The matcher for `table_side`, made on the first call.
  TableMatcher<fst::Fst<fst::StdArc>> *Matcher(
      const fst::Fst<fst::StdArc> &table_side);

 private:
  TableComposeOptions opts_;
  std::unique_ptr<TableMatcher<fst::Fst<fst::StdArc>>> matcher_;
};

void TableCompose(const fst::Fst<fst::StdArc> &left,
                  const fst::Fst<fst::StdArc> &right,
                  fst::MutableFst<fst::StdArc> *out, TableComposeCache *cache);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_TABLE_COMPOSE_H_
