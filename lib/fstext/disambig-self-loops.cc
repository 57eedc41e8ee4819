#include "fstext/disambig-self-loops.h"

#include <set>

#include "base/error.h"

namespace nnet3 {
namespace {

std::set<int32_t> CheckedSet(const std::vector<int32_t> &labels,
                             const char *side) {
  std::set<int32_t> set(labels.begin(), labels.end());
  if (set.size() != labels.size())
    NNET3_ERR << "The " << side << " disambiguation symbols repeat a symbol";
  if (set.count(0) || (!set.empty() && *set.begin() < 0))
    NNET3_ERR << "The " << side
              << " disambiguation symbols include epsilon (0) or a negative "
                 "label";
  return set;
}

}  // namespace

void AddDisambigSelfLoops(const std::vector<int32_t> &in_labels,
                          const std::vector<int32_t> &out_labels,
                          fst::MutableFst<fst::StdArc> *fst) {
  using Weight = fst::TropicalWeight;
  if (in_labels.size() != out_labels.size())
    NNET3_ERR << "The input and output disambiguation symbol lists differ "
                 "in length ("
              << in_labels.size() << " vs. " << out_labels.size() << ")";
  if (in_labels.empty()) return;
  const std::set<int32_t> in_set = CheckedSet(in_labels, "input");
  const std::set<int32_t> out_set = CheckedSet(out_labels, "output");
  for (fst::StateIterator<fst::MutableFst<fst::StdArc>> siter(*fst);
       !siter.Done(); siter.Next()) {
    const fst::StdArc::StateId s = siter.Value();
    bool needs_loops = fst->Final(s) != Weight::Zero();
    for (fst::ArcIterator<fst::MutableFst<fst::StdArc>> aiter(*fst, s);
         !aiter.Done(); aiter.Next()) {
      const fst::StdArc &arc = aiter.Value();
      if (in_set.count(arc.ilabel) || out_set.count(arc.olabel))
        NNET3_ERR << "State " << s << " already has an arc with a "
                  << "disambiguation symbol (" << arc.ilabel << ":"
                  << arc.olabel << "); self-loops for them cannot be added";
      if (arc.olabel != 0) needs_loops = true;
    }
    if (!needs_loops) continue;
    for (size_t i = 0; i < in_labels.size(); ++i)
      fst->AddArc(s,
                  fst::StdArc(in_labels[i], out_labels[i], Weight::One(), s));
  }
}

}  // namespace nnet3
