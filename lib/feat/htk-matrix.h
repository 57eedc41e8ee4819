// HtkMatrix: features in HTK's file format, for --output-format=htk of the
// feature programs (Kaldi's HtkMatrixHolder / WriteHtk).
//
//   HtkMatrix m;  m.rows = n;  m.cols = dim;  m.data = ...;   // row-major
//   m.sample_period = 100000;            // 10 ms in units of 100 ns
//   m.sample_kind = 006 | 0100;          // MFCC with energy
//   TableWriter<HtkMatrixHolder> writer("ark:feats.htk.ark");
//
// The format: a 12-byte big-endian header (int32 number of frames, int32
// sample period, int16 bytes per frame = 4 * cols, uint16 parameter kind),
// then the frames as big-endian floats. In an archive the entry has no
// "\0B" header (as Kaldi's). Read() accepts what Write() writes.
#ifndef NNET3_FEAT_HTK_MATRIX_H_
#define NNET3_FEAT_HTK_MATRIX_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

struct HtkMatrix {
  int32_t rows = 0, cols = 0;
  int32_t sample_period = 100000;
  uint16_t sample_kind = 0;
  std::vector<float> data;

  void Read(std::istream &is);
  void Write(std::ostream &os) const;
};

// HTK parameter kinds of the feature programs (HTK's codes, as Kaldi's).
constexpr uint16_t kHtkMfcc = 006, kHtkFbank = 007, kHtkEnergy = 0100,
                   kHtkZeroth = 020000;

class HtkMatrixHolder {
 public:
  using T = HtkMatrix;
  static constexpr bool kBinaryHeader = false;
  static void Write(std::ostream &os, bool binary, const T &t);
  void Read(std::istream &is, bool binary) {
    (void)binary;
    t_.Read(is);
  }
  T &Value() { return t_; }
  void Clear() { t_ = T(); }
  void Swap(HtkMatrixHolder *other) { std::swap(t_, other->t_); }
  void ExtractRange(const std::string &range);

 private:
  T t_;
};

}  // namespace nnet3

#endif  // NNET3_FEAT_HTK_MATRIX_H_
