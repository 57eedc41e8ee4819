#include "nnet/convolution-model.h"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <utility>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-itf.h"

namespace nnet3 {

void ConvolutionModel::ComputeDerived() {
  all_time_offsets.clear();
  for (const Offset &o : offsets) all_time_offsets.insert(o.time_offset);
  time_offsets_modulus = 0;
  if (all_time_offsets.empty()) return;
  int32_t prev = *all_time_offsets.begin();
  for (int32_t t : all_time_offsets) {
    time_offsets_modulus = std::gcd(time_offsets_modulus, t - prev);
    prev = t;
  }
}

std::string ConvolutionModel::Problem(bool check_heights_used) const {
  // Each message starts with the config key to change.
  const std::pair<const char *, int32_t> sizes[] = {
      {"num-filters-in", num_filters_in},
      {"num-filters-out", num_filters_out},
      {"height-in", height_in},
      {"height-out", height_out},
      {"height-subsample-out", height_subsample_out}};
  for (const auto &size : sizes)
    if (size.second <= 0)
      return std::string(size.first) + "=" + std::to_string(size.second) +
             " must be > 0";
  if (offsets.empty()) return "offsets: there are no (time, height) offsets";
  for (size_t i = 1; i < offsets.size(); i++)
    if (!(offsets[i - 1] < offsets[i]))
      return "offsets: the (time, height) offsets must be sorted and unique";
  if (required_time_offsets.empty())
    return "required-time-offsets must not be empty";
  ConvolutionModel derived(*this);
  derived.ComputeDerived();
  if (!(derived == *this)) return "the derived time offsets are out of date";
  for (int32_t t : required_time_offsets)
    if (all_time_offsets.count(t) == 0)
      return "required-time-offsets: " + std::to_string(t) +
             " is not one of the time offsets (no output would be computable)";
  std::vector<bool> height_used(height_in, false);
  std::vector<bool> offset_used(offsets.size(), false);
  for (int32_t h = 0; h < height_out; h++) {
    const int32_t h_base = h * height_subsample_out;
    bool reachable = false;
    for (size_t i = 0; i < offsets.size(); i++) {
      const int32_t h_in = h_base + offsets[i].height_offset;
      if (h_in < 0 || h_in >= height_in) continue;  // zero padding
      offset_used[i] = true;
      height_used[h_in] = true;
      if (required_time_offsets.count(offsets[i].time_offset) != 0)
        reachable = true;
    }
    if (!reachable)
      return "height-out=" + std::to_string(height_out) +
             " is too large: output height " + std::to_string(h) +
             " reads no input height (height-in=" + std::to_string(height_in) +
             ") through the height offsets and required time offsets";
  }
  for (size_t i = 0; i < offsets.size(); i++)
    if (!offset_used[i])
      return "height-offsets: the offset (" +
             std::to_string(offsets[i].time_offset) + "," +
             std::to_string(offsets[i].height_offset) +
             ") never reaches an input height";
  if (check_heights_used)
    for (int32_t h = 0; h < height_in; h++)
      if (!height_used[h])
        return "height-in=" + std::to_string(height_in) + ": input height " +
               std::to_string(h) + " is never used";
  return "";
}

bool ConvolutionModel::operator==(const ConvolutionModel &other) const {
  return num_filters_in == other.num_filters_in &&
         num_filters_out == other.num_filters_out &&
         height_in == other.height_in && height_out == other.height_out &&
         height_subsample_out == other.height_subsample_out &&
         offsets == other.offsets &&
         required_time_offsets == other.required_time_offsets &&
         all_time_offsets == other.all_time_offsets &&
         time_offsets_modulus == other.time_offsets_modulus;
}

std::string ConvolutionModel::Info() const {
  std::ostringstream os;
  os << "num-filters-in=" << num_filters_in
     << ", num-filters-out=" << num_filters_out << ", height-in=" << height_in
     << ", height-out=" << height_out
     << ", height-subsample-out=" << height_subsample_out
     << ", {time,height}-offsets=[";
  for (size_t i = 0; i < offsets.size(); i++)
    os << (i > 0 ? " " : "") << offsets[i].time_offset << ','
       << offsets[i].height_offset;
  os << "], required-time-offsets=[";
  bool first = true;
  for (int32_t t : required_time_offsets) {
    os << (first ? "" : ",") << t;
    first = false;
  }
  os << "], input-dim=" << InputDim() << ", output-dim=" << OutputDim();
  return os.str();
}

void ConvolutionModel::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<ConvolutionModel>");
  WriteToken(os, binary, "<NumFiltersIn>");
  WriteBasicType(os, binary, num_filters_in);
  WriteToken(os, binary, "<NumFiltersOut>");
  WriteBasicType(os, binary, num_filters_out);
  WriteToken(os, binary, "<HeightIn>");
  WriteBasicType(os, binary, height_in);
  WriteToken(os, binary, "<HeightOut>");
  WriteBasicType(os, binary, height_out);
  WriteToken(os, binary, "<HeightSubsampleOut>");
  WriteBasicType(os, binary, height_subsample_out);
  WriteToken(os, binary, "<Offsets>");
  std::vector<std::pair<int32_t, int32_t>> pairs;
  for (const Offset &o : offsets)
    pairs.emplace_back(o.time_offset, o.height_offset);
  WriteIntegerPairVector(os, binary, pairs);
  WriteToken(os, binary, "<RequiredTimeOffsets>");
  std::vector<int32_t> required(required_time_offsets.begin(),
                                required_time_offsets.end());
  WriteIntegerVector(os, binary, required);
  WriteToken(os, binary, "</ConvolutionModel>");
}

void ConvolutionModel::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<ConvolutionModel>", "<NumFiltersIn>");
  ReadBasicType(is, binary, &num_filters_in);
  ExpectToken(is, binary, "<NumFiltersOut>");
  ReadBasicType(is, binary, &num_filters_out);
  ExpectToken(is, binary, "<HeightIn>");
  ReadBasicType(is, binary, &height_in);
  ExpectToken(is, binary, "<HeightOut>");
  ReadBasicType(is, binary, &height_out);
  ExpectToken(is, binary, "<HeightSubsampleOut>");
  ReadBasicType(is, binary, &height_subsample_out);
  ExpectToken(is, binary, "<Offsets>");
  std::vector<std::pair<int32_t, int32_t>> pairs;
  ReadIntegerPairVector(is, binary, &pairs);
  offsets.clear();
  for (const auto &p : pairs) {
    Offset o;
    o.time_offset = p.first;
    o.height_offset = p.second;
    offsets.push_back(o);
  }
  ExpectToken(is, binary, "<RequiredTimeOffsets>");
  std::vector<int32_t> required;
  ReadIntegerVector(is, binary, &required);
  required_time_offsets = std::set<int32_t>(required.begin(), required.end());
  ExpectToken(is, binary, "</ConvolutionModel>");
  ComputeDerived();
  std::string problem = Problem(/*check_heights_used=*/false);
  if (!problem.empty()) NNET3_ERR << "Reading <ConvolutionModel>: " << problem;
}

}  // namespace nnet3
