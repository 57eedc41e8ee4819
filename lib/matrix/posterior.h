// Posterior: per-frame lists of (index, weight) pairs, Kaldi's type for
// alignments turned into targets (ali-to-post, egs labels).
//
//   Posterior post(num_frames);
//   post[t].emplace_back(pdf_id, 1.0f);
//   WritePosterior(os, binary, post);
//
// Kaldi's format: binary: int32 num_frames, then per frame int32 num_pairs
// and for each pair int32 index and float weight, every number with its
// size byte. Text: per frame "[ " + "index weight " per pair + "] ", then one
// "\n" after all frames, e.g. "[ 3 1 ] [ 4 0.5 7 0.5 ] \n"; the text reader
// reads one line of such groups. Readers throw UserError on malformed or
// truncated input.
#ifndef NNET3_MATRIX_POSTERIOR_H_
#define NNET3_MATRIX_POSTERIOR_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <utility>
#include <vector>

namespace nnet3 {

using Posterior = std::vector<std::vector<std::pair<int32_t, float>>>;

void WritePosterior(std::ostream &os, bool binary, const Posterior &post);
void ReadPosterior(std::istream &is, bool binary, Posterior *post);

}  // namespace nnet3

#endif  // NNET3_MATRIX_POSTERIOR_H_
