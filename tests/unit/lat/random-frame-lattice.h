// A random lattice as a decoder makes them, for the lattice tests that need
// every path to have the same length (forward-backward, MBR times).
#ifndef NNET3_TESTS_UNIT_LAT_RANDOM_FRAME_LATTICE_H_
#define NNET3_TESTS_UNIT_LAT_RANDOM_FRAME_LATTICE_H_

#include <random>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

// A lattice of num_frames frames: 1-3 states per frame boundary (one at
// the start), each with 1-2 arcs to the next boundary (transition-ids
// 1..6, words 0..num_words-1, graph costs in [0, 2), acoustic in [0, 8),
// multiples of 1/64), every state reached and left, some epsilon arcs to a
// later state of the same boundary, and final weights on the last
// boundary's states. States are numbered boundary by boundary, so the
// lattice is topologically sorted.
Lattice RandomFrameLattice(int num_frames, int num_words, std::mt19937 *rng);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_LAT_RANDOM_FRAME_LATTICE_H_
