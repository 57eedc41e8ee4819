#include "fstext/stochastic.h"

#include <fst/float-weight.h>

namespace nnet3 {
namespace {

// Sums each state's weights in semiring W (the tropical costs read as W's
// values) and reports the extremes: `better(a, b)` says whether sum a
// should replace the running max_sum b.
template <class W, class Better>
bool CheckSums(const fst::Fst<fst::StdArc> &fst, float delta, Better better,
               float *min_sum, float *max_sum) {
  bool stochastic = true, first = true;
  W lo = W::One(), hi = W::One();
  for (fst::StateIterator<fst::Fst<fst::StdArc>> siter(fst); !siter.Done();
       siter.Next()) {
    const fst::StdArc::StateId s = siter.Value();
    W sum(fst.Final(s).Value());
    for (fst::ArcIterator<fst::Fst<fst::StdArc>> aiter(fst, s); !aiter.Done();
         aiter.Next())
      sum = fst::Plus(sum, W(aiter.Value().weight.Value()));
    if (!fst::ApproxEqual(W::One(), sum, delta)) stochastic = false;
    if (first) {
      first = false;
      lo = hi = sum;
    } else {
      if (better(sum, hi)) hi = sum;
      if (better(lo, sum)) lo = sum;
    }
  }
  if (min_sum) *min_sum = lo.Value();
  if (max_sum) *max_sum = hi.Value();
  return stochastic;
}

}  // namespace

bool IsStochasticFstInLog(const fst::Fst<fst::StdArc> &fst, float delta,
                          float *min_sum, float *max_sum) {
  // Kaldi's log test keeps the smallest cost in max_sum.
  auto smaller = [](const fst::LogWeight &a, const fst::LogWeight &b) {
    return a.Value() < b.Value();
  };
  return CheckSums<fst::LogWeight>(fst, delta, smaller, min_sum, max_sum);
}

bool IsStochasticFst(const fst::Fst<fst::StdArc> &fst, float delta,
                     float *min_sum, float *max_sum) {
  auto larger = [](const fst::TropicalWeight &a, const fst::TropicalWeight &b) {
    return a.Value() > b.Value();
  };
  return CheckSums<fst::TropicalWeight>(fst, delta, larger, min_sum, max_sum);
}

}  // namespace nnet3
