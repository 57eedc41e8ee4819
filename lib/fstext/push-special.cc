#include "fstext/push-special.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "base/log.h"

namespace nnet3 {
namespace {

using StateId = fst::StdArc::StateId;
using Weight = fst::TropicalWeight;

class SpecialPusher {
 public:
  explicit SpecialPusher(fst::VectorFst<fst::StdArc> *fst)
      : fst_(fst), num_states_(fst->NumStates()), start_(fst->Start()) {}

  void Run(float delta) {
    occupancy_.assign(num_states_, 1.0 / std::sqrt(num_states_));
    CollectPredecessors();
    Iterate(delta);
    Reweight();
  }

 private:
  // For each state t, the (s, probability) of every arc s -> t; final
  // probabilities count as arcs into the start state.
  void CollectPredecessors() {
    into_.resize(num_states_);
    for (StateId s = 0; s < num_states_; ++s) {
      for (fst::ArcIterator<fst::VectorFst<fst::StdArc>> it(*fst_, s);
           !it.Done(); it.Next()) {
        const fst::StdArc &arc = it.Value();
        const double p = std::exp(-arc.weight.Value());  // float exp
        into_[arc.nextstate].emplace_back(s, p);
      }
      const double final = std::exp(-fst_->Final(s).Value());
      if (final != 0.0) into_[start_].emplace_back(s, final);
    }
  }

  // log(max/min) over states of sum_t p(s,t) v_t / v_s.
  double Spread() const {
    double min_sum = 0, max_sum = 0;
    for (StateId s = 0; s < num_states_; ++s) {
      double sum = 0.0;
      for (fst::ArcIterator<fst::VectorFst<fst::StdArc>> it(*fst_, s);
           !it.Done(); it.Next()) {
        const fst::StdArc &arc = it.Value();
        sum += std::exp(-arc.weight.Value()) * occupancy_[arc.nextstate] /
               occupancy_[s];
      }
      sum += std::exp(-fst_->Final(s).Value()) * occupancy_[start_] /
             occupancy_[s];
      if (s == 0) {
        min_sum = max_sum = sum;
      } else {
        min_sum = std::min(min_sum, sum);
        max_sum = std::max(max_sum, sum);
      }
    }
    NNET3_VLOG(4) << "min,max is " << min_sum << " " << max_sum;
    return std::log(max_sum / min_sum);
  }

  void Iterate(float delta) {
    const int max_iter = 200;
    int iter;
    std::vector<double> next(num_states_);
    for (iter = 0; iter < max_iter; ++iter) {
      for (StateId i = 0; i < num_states_; ++i) next[i] = 0.1 * occupancy_[i];
      for (StateId t = 0; t < num_states_; ++t)
        for (const std::pair<StateId, double> &pred : into_[t])
          next[pred.first] += occupancy_[t] * pred.second;
      double sumsq = 0.0;
      for (StateId i = 0; i < num_states_; ++i) sumsq += next[i] * next[i];
      const double lambda = std::sqrt(sumsq);
      const double inv_lambda = 1.0 / lambda;
      for (StateId i = 0; i < num_states_; ++i)
        occupancy_[i] = next[i] * inv_lambda;
      NNET3_VLOG(4) << "Lambda is " << lambda;
      if (iter % 5 == 0 && iter > 0 && Spread() <= delta) {
        NNET3_VLOG(3) << "Weight-pushing converged after " << iter
                      << " iterations.";
        return;
      }
    }
    NNET3_WARN << "push-special: finished " << iter
               << " iterations without converging.  Output will be "
                  "inaccurate.";
  }

  void Reweight() {
    for (StateId s = 0; s < num_states_; ++s) {
      occupancy_[s] = -std::log(occupancy_[s]);
      if (std::isnan(occupancy_[s]) || std::isinf(occupancy_[s]))
        NNET3_WARN << "NaN or inf found: " << occupancy_[s];
    }
    const std::vector<double> &potential = occupancy_;
    for (StateId s = 0; s < num_states_; ++s) {
      for (fst::MutableArcIterator<fst::VectorFst<fst::StdArc>> it(fst_, s);
           !it.Done(); it.Next()) {
        fst::StdArc arc = it.Value();
        arc.weight = Weight(arc.weight.Value() + potential[arc.nextstate] -
                            potential[s]);
        it.SetValue(arc);
      }
      fst_->SetFinal(s, fst::Times(Weight(fst_->Final(s).Value()),
                                   Weight(potential[start_] - potential[s])));
    }
  }

  fst::VectorFst<fst::StdArc> *fst_;
  StateId num_states_;
  StateId start_;
  std::vector<double> occupancy_;  // v; potentials -log v after Iterate
  std::vector<std::vector<std::pair<StateId, double>>> into_;
};

}  // namespace

void PushSpecial(fst::VectorFst<fst::StdArc> *fst, float delta) {
  if (fst->NumStates() > 0) SpecialPusher(fst).Run(delta);
}

}  // namespace nnet3
