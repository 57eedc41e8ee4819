// Where components draw the random numbers for their initial parameters
// (InitFromConfig: AffineComponent's randn weights and biases, ...): one
// process-wide host generator, seeded by SetComponentInitSeed (what
// nnet3-init's --srand should call), that hands out seeds for the
// counter-based device fills (MatrixView::SetRandn). The same seed and the
// same sequence of component configs give the same initial model.
//
//   SetComponentInitSeed(srand);              // once, before reading configs
//   linear_params_.SetRandn(NextComponentInitSeed());
//
// Thread-safe (a mutex); initialization is not a hot path.
#ifndef NNET3_NNET_INIT_RANDOM_H_
#define NNET3_NNET_INIT_RANDOM_H_

#include <cstdint>

namespace nnet3 {

// Restarts the sequence of initialization seeds (default seed: 0).
void SetComponentInitSeed(uint32_t seed);
// The next seed of the sequence.
uint64_t NextComponentInitSeed();
// The seed of a bias fill that follows a weight fill from `weight_seed`
// (one seed drawn per weight-bias pair).
uint64_t BiasSeed(uint64_t weight_seed);

}  // namespace nnet3

#endif  // NNET3_NNET_INIT_RANDOM_H_
