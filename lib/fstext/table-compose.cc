#include "fstext/table-compose.h"

#include <fst/compose.h>
#include <fst/connect.h>

#include "base/error.h"

namespace nnet3 {
namespace {

using StdFst = fst::Fst<fst::StdArc>;
using StdTableMatcher = TableMatcher<StdFst>;
using StdSortedMatcher = fst::SortedMatcher<StdFst>;

void CheckSorted(const StdFst &f, fst::MatchType type) {
  const bool input = type == fst::MATCH_INPUT;
  const uint64_t sorted = input ? fst::kILabelSorted : fst::kOLabelSorted;
  if (f.Properties(sorted, true) != sorted)
    NNET3_ERR << "Table composition: the " << (input ? "right" : "left")
              << " FST is not sorted on its " << (input ? "input" : "output")
              << " labels (sort it with fstarcsort --sort_type="
              << (input ? "ilabel" : "olabel") << ")";
}

// Composes with `table` (owned by the composition) as the matcher of the
// table side.
void ComposeWith(const StdFst &left, const StdFst &right,
                 fst::MatchType table_side, StdTableMatcher *table,
                 bool connect, fst::MutableFst<fst::StdArc> *out) {
  fst::CacheOptions cache_opts;
  cache_opts.gc_limit = 0;  // keep only the state being expanded
  if (table_side == fst::MATCH_OUTPUT) {
    fst::ComposeFstImplOptions<StdTableMatcher, StdSortedMatcher> opts(
        cache_opts);
    opts.matcher1 = table;
    *out = fst::ComposeFst<fst::StdArc>(left, right, opts);
  } else {
    fst::ComposeFstImplOptions<StdSortedMatcher, StdTableMatcher> opts(
        cache_opts);
    opts.matcher2 = table;
    *out = fst::ComposeFst<fst::StdArc>(left, right, opts);
  }
  if (connect) fst::Connect(out);
}

}  // namespace

void TableCompose(const StdFst &left, const StdFst &right,
                  fst::MutableFst<fst::StdArc> *out,
                  const TableComposeOptions &opts) {
  const fst::MatchType side = opts.table_match_type;
  NNET3_ASSERT(side == fst::MATCH_OUTPUT || side == fst::MATCH_INPUT);
  const StdFst &table_fst = side == fst::MATCH_OUTPUT ? left : right;
  CheckSorted(table_fst, side);
  ComposeWith(left, right, side, new StdTableMatcher(table_fst, side, opts),
              opts.connect, out);
}

StdTableMatcher *TableComposeCache::Matcher(const StdFst &table_side) {
  if (!matcher_) {
    CheckSorted(table_side, opts_.table_match_type);
    matcher_ = std::make_unique<StdTableMatcher>(table_side,
                                                 opts_.table_match_type, opts_);
  }
  return matcher_.get();
}

void TableCompose(const StdFst &left, const StdFst &right,
                  fst::MutableFst<fst::StdArc> *out, TableComposeCache *cache) {
  const TableComposeOptions &opts = cache->Options();
  const fst::MatchType side = opts.table_match_type;
  NNET3_ASSERT(side == fst::MATCH_OUTPUT || side == fst::MATCH_INPUT);
  StdTableMatcher *table =
      cache->Matcher(side == fst::MATCH_OUTPUT ? left : right);
  ComposeWith(left, right, side, table->Copy(), opts.connect, out);
}

}  // namespace nnet3
