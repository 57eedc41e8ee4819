#include "compile/computation-request.h"

#include <functional>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

IoSpecification::IoSpecification(const std::string &name_in, int32_t t_start,
                                 int32_t t_end)
    : name(name_in) {
  for (int32_t t = t_start; t < t_end; t++) indexes.push_back(Index(0, t, 0));
}

bool IoSpecification::operator==(const IoSpecification &other) const {
  return name == other.name && indexes == other.indexes &&
         has_deriv == other.has_deriv;
}

void IoSpecification::Print(std::ostream &os) const {
  os << "name=" << name << ", has-deriv=" << (has_deriv ? "true" : "false")
     << ", indexes=";
  PrintIndexes(os, indexes);
  os << "\n";
}

void IoSpecification::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<IoSpecification>");
  if (!binary) os << "\n";
  WriteToken(os, binary, "<Name>");
  WriteToken(os, binary, name);
  WriteToken(os, binary, "<NumIndexes>");
  WriteBasicType(os, binary, static_cast<int32_t>(indexes.size()));
  WriteToken(os, binary, "<Indexes>");
  WriteIndexVector(os, binary, indexes);
  WriteToken(os, binary, "<HasDeriv>");
  WriteBasicType(os, binary, has_deriv);
  if (!binary) os << "\n";
  WriteToken(os, binary, "</IoSpecification>");
  if (!binary) os << "\n";
}

void IoSpecification::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<IoSpecification>");
  ExpectToken(is, binary, "<Name>");
  ReadToken(is, binary, &name);
  ExpectToken(is, binary, "<NumIndexes>");
  int32_t num_indexes = 0;
  ReadBasicType(is, binary, &num_indexes);
  ExpectToken(is, binary, "<Indexes>");
  ReadIndexVector(is, binary, &indexes);
  if (static_cast<int32_t>(indexes.size()) != num_indexes)
    NNET3_ERR << "Reading <IoSpecification> '" << name << "': <NumIndexes> "
              << num_indexes << " but the index vector has " << indexes.size()
              << " elements";
  ExpectToken(is, binary, "<HasDeriv>");
  ReadBasicType(is, binary, &has_deriv);
  ExpectToken(is, binary, "</IoSpecification>");
}

size_t IoSpecificationHasher::operator()(
    const IoSpecification &io) const noexcept {
  return std::hash<std::string>()(io.name) + IndexVectorHasher()(io.indexes) +
         (io.has_deriv ? 4261u : 0u);
}

int32_t ComputationRequest::IndexForInput(const std::string &node_name) const {
  for (size_t i = 0; i < inputs.size(); i++)
    if (inputs[i].name == node_name) return static_cast<int32_t>(i);
  return -1;
}

int32_t ComputationRequest::IndexForOutput(const std::string &node_name) const {
  for (size_t i = 0; i < outputs.size(); i++)
    if (outputs[i].name == node_name) return static_cast<int32_t>(i);
  return -1;
}

bool ComputationRequest::NeedDerivatives() const {
  if (need_model_derivative) return true;
  for (const IoSpecification &io : inputs)
    if (io.has_deriv) return true;
  for (const IoSpecification &io : outputs)
    if (io.has_deriv) return true;
  return false;
}

bool ComputationRequest::operator==(const ComputationRequest &other) const {
  // MiscComputationInfo has no fields yet; when it gets some, compare them.
  return inputs == other.inputs && outputs == other.outputs &&
         need_model_derivative == other.need_model_derivative &&
         store_component_stats == other.store_component_stats;
}

void ComputationRequest::Print(std::ostream &os) const {
  os << " # Computation request:\n";
  for (size_t i = 0; i < inputs.size(); i++) {
    os << "input-" << i << ": ";
    inputs[i].Print(os);
  }
  for (size_t i = 0; i < outputs.size(); i++) {
    os << "output-" << i << ": ";
    outputs[i].Print(os);
  }
  os << "need-model-derivative: " << (need_model_derivative ? "true" : "false")
     << "\n";
  os << "store-component-stats: " << (store_component_stats ? "true" : "false")
     << "\n";
}

namespace {

void WriteIoList(std::ostream &os, bool binary, const char *num_token,
                 const char *list_token,
                 const std::vector<IoSpecification> &list) {
  WriteToken(os, binary, num_token);
  WriteBasicType(os, binary, static_cast<int32_t>(list.size()));
  WriteToken(os, binary, list_token);
  if (!binary) os << "\n";
  for (const IoSpecification &io : list) io.Write(os, binary);
}

void ReadIoList(std::istream &is, bool binary, const char *num_token,
                const char *list_token, std::vector<IoSpecification> *list) {
  ExpectToken(is, binary, num_token);
  int32_t size = 0;
  ReadBasicType(is, binary, &size);
  if (size < 0)
    NNET3_ERR << "Reading <ComputationRequest>: " << num_token << " is " << size
              << " (must be >= 0)";
  ExpectToken(is, binary, list_token);
  list->clear();
  // Each <IoSpecification> takes more than 16 bytes of the file.
  list->reserve(CheckCountFits(
      is, size, 16, std::string("Reading <ComputationRequest>: ") + num_token));
  for (int32_t i = 0; i < size; i++) {
    list->emplace_back();
    list->back().Read(is, binary);
  }
}

}  // namespace

void ComputationRequest::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<ComputationRequest>");
  if (!binary) os << "\n";
  WriteIoList(os, binary, "<NumInputs>", "<Inputs>", inputs);
  WriteIoList(os, binary, "<NumOutputs>", "<Outputs>", outputs);
  WriteToken(os, binary, "<NeedModelDerivative>");
  WriteBasicType(os, binary, need_model_derivative);
  WriteToken(os, binary, "<StoreComponentStats>");
  WriteBasicType(os, binary, store_component_stats);
  if (!binary) os << "\n";
  WriteToken(os, binary, "</ComputationRequest>");
  if (!binary) os << "\n";
}

void ComputationRequest::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<ComputationRequest>");
  ReadIoList(is, binary, "<NumInputs>", "<Inputs>", &inputs);
  ReadIoList(is, binary, "<NumOutputs>", "<Outputs>", &outputs);
  ExpectToken(is, binary, "<NeedModelDerivative>");
  ReadBasicType(is, binary, &need_model_derivative);
  ExpectToken(is, binary, "<StoreComponentStats>");
  ReadBasicType(is, binary, &store_component_stats);
  ExpectToken(is, binary, "</ComputationRequest>");
}

size_t ComputationRequestHasher::operator()(
    const ComputationRequest *request) const noexcept {
  // Different multipliers for inputs and outputs so that moving an
  // IoSpecification from one list to the other changes the hash.
  const size_t kInputPrime = 4111, kOutputPrime = 26951;
  IoSpecificationHasher io_hasher;
  size_t ans = 0;
  for (const IoSpecification &io : request->inputs)
    ans = ans * kInputPrime + io_hasher(io);
  for (const IoSpecification &io : request->outputs)
    ans = ans * kOutputPrime + io_hasher(io);
  ans = ans * 2 + (request->need_model_derivative ? 1 : 0);
  ans = ans * 2 + (request->store_component_stats ? 1 : 0);
  return ans;
}

}  // namespace nnet3
