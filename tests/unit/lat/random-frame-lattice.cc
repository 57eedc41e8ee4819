#include "random-frame-lattice.h"

#include <fst/connect.h>

#include <vector>

namespace nnet3 {

Lattice RandomFrameLattice(int num_frames, int num_words, std::mt19937 *rng) {
  auto cost = [rng](int range) { return ((*rng)() % (64 * range)) / 64.0f; };
  Lattice lat;
  std::vector<std::vector<int>> layers(num_frames + 1);
  for (auto &layer : layers) {
    const int n = 1 + (*rng)() % 3;
    for (int i = 0; i < n; ++i) layer.push_back(lat.AddState());
  }
  lat.SetStart(0);
  layers[0].resize(1);  // one start state
  for (int t = 0; t < num_frames; ++t) {
    const std::vector<int> &from = layers[t], &to = layers[t + 1];
    std::vector<bool> reached(to.size(), false);
    for (int s : from) {
      const int num_arcs = 1 + (*rng)() % 2;
      for (int a = 0; a < num_arcs; ++a) {
        const size_t j = (*rng)() % to.size();
        reached[j] = true;
        lat.AddArc(s, LatticeArc(1 + (*rng)() % 6, (*rng)() % num_words,
                                 LatticeWeight(cost(2), cost(8)), to[j]));
      }
    }
    for (size_t j = 0; j < to.size(); ++j)
      if (!reached[j])
        lat.AddArc(from[(*rng)() % from.size()],
                   LatticeArc(1 + (*rng)() % 6, 0,
                              LatticeWeight(cost(2), cost(8)), to[j]));
    if (to.size() > 1 && (*rng)() % 2 == 0)
      lat.AddArc(to[0], LatticeArc(0, 1, LatticeWeight(cost(1), 0), to[1]));
  }
  for (int s : layers[num_frames]) lat.SetFinal(s, LatticeWeight(cost(1), 0));
  fst::Connect(&lat);  // the unused states of boundary 0 (order is kept)
  return lat;
}

}  // namespace nnet3
