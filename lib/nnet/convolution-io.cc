#include "nnet/convolution-io.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

void ConvolutionComputationIo::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<ConvCompIo>");
  for (int32_t v : {num_images, start_t_in, t_step_in, num_t_in, start_t_out,
                    t_step_out, num_t_out, reorder_t_in})
    WriteBasicType(os, binary, v);
  WriteToken(os, binary, "</ConvCompIo>");
}

void ConvolutionComputationIo::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<ConvCompIo>");
  for (int32_t *v : {&num_images, &start_t_in, &t_step_in, &num_t_in,
                     &start_t_out, &t_step_out, &num_t_out, &reorder_t_in})
    ReadBasicType(is, binary, v);
  ExpectToken(is, binary, "</ConvCompIo>");
}

void GetNxList(const std::vector<Index> &indexes,
               std::vector<std::pair<int32_t, int32_t>> *pairs) {
  pairs->clear();
  for (const Index &index : indexes) pairs->emplace_back(index.n, index.x);
  std::sort(pairs->begin(), pairs->end());
  pairs->erase(std::unique(pairs->begin(), pairs->end()), pairs->end());
}

void GetTList(const std::vector<Index> &indexes, std::vector<int32_t> *t) {
  t->clear();
  for (const Index &index : indexes)
    if (index.t != kNoTime) t->push_back(index.t);
  std::sort(t->begin(), t->end());
  t->erase(std::unique(t->begin(), t->end()), t->end());
}

namespace {

// start, step (gcd of the differences; 0 for one value) and count of the
// smallest regular grid holding the sorted unique values `t`.
void RegularGrid(const std::vector<int32_t> &t, int32_t *start, int32_t *step,
                 int32_t *num) {
  NNET3_ASSERT(!t.empty());
  *start = t[0];
  *step = 0;
  for (size_t i = 1; i < t.size(); i++)
    *step = std::gcd(*step, t[i] - t[i - 1]);
  *num = *step == 0 ? 1 : 1 + (t.back() - t[0]) / *step;
}

// The grid's Indexes in order: t blocks of `reorder` t values, within a
// block the images, within an image the block's t values.
void GridIndexes(const std::vector<std::pair<int32_t, int32_t>> &images,
                 int32_t start, int32_t step, int32_t num, int32_t reorder,
                 std::vector<Index> *indexes) {
  NNET3_ASSERT(reorder >= 1 && num % reorder == 0 && step >= 0);
  if (step == 0) {
    NNET3_ASSERT(num == 1);
    step = 1;
  }
  indexes->clear();
  indexes->reserve(images.size() * num);
  for (int32_t block = 0; block < num; block += reorder)
    for (const auto &image : images)
      for (int32_t r = 0; r < reorder; r++)
        indexes->push_back(
            Index(image.first, start + (block + r) * step, image.second));
}

// Makes blank every Index that is not in `present`.
void BlankMissing(const std::vector<Index> &present,
                  std::vector<Index> *indexes) {
  std::unordered_set<Index, IndexHasher> set(present.begin(), present.end());
  for (Index &index : *indexes)
    if (set.count(index) == 0) index.t = kNoTime;
}

}  // namespace

void GetComputationIo(const std::vector<Index> &input_indexes,
                      const std::vector<Index> &output_indexes,
                      ConvolutionComputationIo *io) {
  std::vector<std::pair<int32_t, int32_t>> images;
  GetNxList(input_indexes, &images);
  NNET3_ASSERT(!images.empty());
  io->num_images = static_cast<int32_t>(images.size());
  std::vector<int32_t> t;
  GetTList(input_indexes, &t);
  RegularGrid(t, &io->start_t_in, &io->t_step_in, &io->num_t_in);
  GetTList(output_indexes, &t);
  RegularGrid(t, &io->start_t_out, &io->t_step_out, &io->num_t_out);
  io->reorder_t_in = 1;
}

void GetIndexesForComputation(const ConvolutionComputationIo &io,
                              const std::vector<Index> &orig_input_indexes,
                              const std::vector<Index> &orig_output_indexes,
                              std::vector<Index> *input_indexes,
                              std::vector<Index> *output_indexes) {
  std::vector<std::pair<int32_t, int32_t>> images;
  GetNxList(orig_input_indexes, &images);
  NNET3_ASSERT(static_cast<int32_t>(images.size()) == io.num_images);
  GridIndexes(images, io.start_t_in, io.t_step_in, io.num_t_in, io.reorder_t_in,
              input_indexes);
  BlankMissing(orig_input_indexes, input_indexes);
  GridIndexes(images, io.start_t_out, io.t_step_out, io.num_t_out, 1,
              output_indexes);
  BlankMissing(orig_output_indexes, output_indexes);
}

}  // namespace nnet3
