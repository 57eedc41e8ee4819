// ConvolutionModel: the structure (not the parameters) of a time-height
// convolution, as TimeHeightConvolutionComponent holds it (Kaldi's
// time_height_convolution::ConvolutionModel; convolution.h describes it).
//
// The input of the component is a sequence of frames (the t of the Index is
// the time, or the image width); each frame holds height_in x
// num_filters_in values with the filter index varying fastest (column
// h * num_filters_in + f). The output frame at time t and height h_out
// (h_out = 0 .. height_out-1) is
//
//   y(t, h_out, :) = b + sum over offsets (dt, dh) of
//                        W_(dt,dh) x(t + dt, h_out * height_subsample_out + dh,
//                        :)
//
// where x at a height outside [0, height_in) is zero (zero padding on the
// height axis is implicit in the offsets), and x at a missing time is zero
// if dt is not in required_time_offsets (the computation cannot proceed
// without the required ones). The parameter matrix is num_filters_out x
// (offsets.size() * num_filters_in), the offset index varying slowest.
//
//   ConvolutionModel m;
//   m.num_filters_in = 1; ... m.offsets = {{-1,-1},{-1,0},...};
//   m.required_time_offsets = {-1, 0, 1};
//   m.ComputeDerived();
//   std::string why = m.Problem(/*check_heights_used=*/true);  // "" if ok
//   m.Write(os, binary);    // <ConvolutionModel> ... </ConvolutionModel>
#ifndef NNET3_NNET_CONVOLUTION_MODEL_H_
#define NNET3_NNET_CONVOLUTION_MODEL_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace nnet3 {

struct ConvolutionModel {
  int32_t num_filters_in = 0;
  int32_t num_filters_out = 0;
  int32_t height_in = 0;
  int32_t height_out = 0;
  int32_t height_subsample_out = 1;

  // A (time-offset, height-offset) pair of the kernel; ordered by time
  // offset, then height offset.
  struct Offset {
    int32_t time_offset = 0;
    int32_t height_offset = 0;
    bool operator<(const Offset &o) const {
      return time_offset != o.time_offset ? time_offset < o.time_offset
                                          : height_offset < o.height_offset;
    }
    bool operator==(const Offset &o) const {
      return time_offset == o.time_offset && height_offset == o.height_offset;
    }
  };
  // Sorted and unique.
  std::vector<Offset> offsets;
  // A non-empty subset of the time offsets: an output exists only where the
  // input exists at all of these.
  std::set<int32_t> required_time_offsets;

  // Derived by ComputeDerived(): the distinct time offsets, and the gcd of
  // their successive differences (0 if there is only one).
  std::set<int32_t> all_time_offsets;
  int32_t time_offsets_modulus = 0;
  void ComputeDerived();

  int32_t InputDim() const { return num_filters_in * height_in; }
  int32_t OutputDim() const { return num_filters_out * height_out; }
  int32_t ParamRows() const { return num_filters_out; }
  int32_t ParamCols() const {
    return num_filters_in * static_cast<int32_t>(offsets.size());
  }

  // "" if the model makes sense, else one sentence saying what is wrong:
  // positive sizes, sorted unique offsets, required offsets among the time
  // offsets, derived values up to date, every output height reached by some
  // input height through a required time offset, every offset used; with
  // check_heights_used, every input height used too.
  std::string Problem(bool check_heights_used) const;

  bool operator==(const ConvolutionModel &other) const;

  // "num-filters-in=32, num-filters-out=64, height-in=40, height-out=40,
  // height-subsample-out=1, {time,height}-offsets=[-1,-1 -1,0 ...],
  // required-time-offsets=[-1,0,1], input-dim=1280, output-dim=2560" (as
  // Kaldi's nnet3-info prints it).
  std::string Info() const;

  // <ConvolutionModel> <NumFiltersIn> i <NumFiltersOut> i <HeightIn> i
  // <HeightOut> i <HeightSubsampleOut> i <Offsets> pairs <RequiredTimeOffsets>
  // ints </ConvolutionModel>. Read accepts the opening token as already
  // consumed, computes the derived values and throws UserError for a model
  // that does not make sense.
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

}  // namespace nnet3

#endif  // NNET3_NNET_CONVOLUTION_MODEL_H_
