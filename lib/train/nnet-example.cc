#include "train/nnet-example.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

namespace {

std::vector<Index> TimeIndexes(int32_t num_rows, int32_t t_begin,
                               int32_t t_stride) {
  std::vector<Index> indexes(num_rows);
  for (int32_t i = 0; i < num_rows; i++) indexes[i].t = t_begin + i * t_stride;
  return indexes;
}

// The dense values, row-major, whatever the representation.
std::vector<float> DenseValues(const GeneralMatrix &mat) {
  std::vector<float> data;
  switch (mat.Type()) {
    case GeneralMatrixType::kSparseMatrix:
      mat.GetSparseMatrix().CopyToHost(&data);
      break;
    case GeneralMatrixType::kCompressedMatrix:
      mat.GetCompressedMatrix().CopyToHost(&data);
      break;
    default:
      data = mat.GetFullMatrix().ToHost();
  }
  return data;
}

}  // namespace

NnetIo::NnetIo(const std::string &name_in, int32_t t_begin,
               const MatrixView &feats, int32_t t_stride)
    : name(name_in),
      indexes(TimeIndexes(feats.NumRows(), t_begin, t_stride)),
      features(feats) {}

NnetIo::NnetIo(const std::string &name_in, int32_t t_begin,
               const GeneralMatrix &feats, int32_t t_stride)
    : name(name_in),
      indexes(TimeIndexes(feats.NumRows(), t_begin, t_stride)),
      features(feats) {}

NnetIo::NnetIo(const std::string &name_in, int32_t num_pdfs, int32_t t_begin,
               const Posterior &labels, int32_t t_stride)
    : name(name_in),
      indexes(
          TimeIndexes(static_cast<int32_t>(labels.size()), t_begin, t_stride)) {
  if (num_pdfs <= 0)
    NNET3_ERR << "NnetIo '" << name << "': the target dimension must be "
              << "positive, got " << num_pdfs;
  std::vector<SparseVector> rows;
  rows.reserve(labels.size());
  for (size_t i = 0; i < labels.size(); i++) {
    for (const auto &p : labels[i])
      if (p.first < 0 || p.first >= num_pdfs)
        NNET3_ERR << "NnetIo '" << name << "': label " << p.first << " at row "
                  << i << " is outside [0, " << num_pdfs << ")";
    rows.emplace_back(num_pdfs, labels[i]);
  }
  features = SparseMatrix(num_pdfs, rows);
}

void NnetIo::Swap(NnetIo *other) {
  name.swap(other->name);
  indexes.swap(other->indexes);
  std::swap(features, other->features);
}

bool NnetIo::operator==(const NnetIo &other) const {
  return name == other.name && indexes == other.indexes &&
         features.Type() == other.features.Type() &&
         features.NumRows() == other.features.NumRows() &&
         features.NumCols() == other.features.NumCols() &&
         DenseValues(features) == DenseValues(other.features);
}

void NnetIo::Write(std::ostream &os, bool binary) const {
  NNET3_ASSERT(features.NumRows() == static_cast<int32_t>(indexes.size()));
  WriteToken(os, binary, "<NnetIo>");
  WriteToken(os, binary, name);
  WriteIndexVector(os, binary, indexes);
  features.Write(os, binary);
  WriteToken(os, binary, "</NnetIo>");
}

void NnetIo::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<NnetIo>");
  ReadToken(is, binary, &name);
  ReadIndexVector(is, binary, &indexes);
  features.Read(is, binary);
  ExpectToken(is, binary, "</NnetIo>");
  if (features.NumRows() != static_cast<int32_t>(indexes.size()))
    NNET3_ERR << "NnetIo '" << name << "' has " << indexes.size()
              << " indexes but " << features.NumRows() << " feature rows";
}

void NnetExample::Compress() {
  for (NnetIo &i : io) i.features.Compress();
}

void NnetExample::Write(std::ostream &os, bool binary) const {
  if (io.empty()) NNET3_INTERNAL_ERR << "Writing an empty NnetExample";
  WriteToken(os, binary, "<Nnet3Eg>");
  WriteToken(os, binary, "<NumIo>");
  WriteBasicType(os, binary, static_cast<int32_t>(io.size()));
  for (const NnetIo &i : io) i.Write(os, binary);
  WriteToken(os, binary, "</Nnet3Eg>");
}

void NnetExample::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<Nnet3Eg>");
  ExpectToken(is, binary, "<NumIo>");
  int32_t size;
  ReadBasicType(is, binary, &size);
  if (size <= 0 || size > 1000000)
    NNET3_ERR << "Invalid <NumIo> " << size
              << " in an nnet3 example (expected 1 to 1000000)";
  // Each <NnetIo> takes at least its tokens' bytes: grow as they arrive.
  io.clear();
  io.reserve(CheckCountFits(is, size, 16, "<NumIo> of an nnet3 example"));
  for (int32_t i = 0; i < size; i++) {
    io.emplace_back();
    io.back().Read(is, binary);
  }
  ExpectToken(is, binary, "</Nnet3Eg>");
}

bool SameStructure(const NnetIo &a, const NnetIo &b) {
  return a.name == b.name && a.indexes == b.indexes &&
         a.features.NumRows() == b.features.NumRows() &&
         a.features.NumCols() == b.features.NumCols();
}

bool SameStructure(const NnetExample &a, const NnetExample &b) {
  if (a.io.size() != b.io.size()) return false;
  for (size_t i = 0; i < a.io.size(); i++)
    if (!SameStructure(a.io[i], b.io[i])) return false;
  return true;
}

size_t NnetExampleStructureHasher::operator()(
    const NnetExample &eg) const noexcept {
  size_t ans = 0;
  for (const NnetIo &io : eg.io) {
    ans = ans * 19260817u + std::hash<std::string>()(io.name);
    ans = ans * 1000003u + IndexVectorHasher()(io.indexes);
    ans = ans * 7853u + static_cast<size_t>(io.features.NumCols());
  }
  return ans;
}

int32_t GetNnetExampleSize(const NnetExample &eg) {
  size_t ans = 0;
  for (const NnetIo &io : eg.io) ans = std::max(ans, io.indexes.size());
  return static_cast<int32_t>(ans);
}

namespace {

// "input, ivector / output" (for error messages).
std::string DescribeIoNodes(const Nnet &nnet) {
  std::ostringstream inputs, outputs;
  for (int32_t n = 0; n < nnet.NumNodes(); n++) {
    if (nnet.IsInputNode(n))
      inputs << (inputs.tellp() > 0 ? ", " : "") << nnet.GetNodeName(n);
    else if (nnet.IsOutputNode(n))
      outputs << (outputs.tellp() > 0 ? ", " : "") << nnet.GetNodeName(n);
  }
  return "inputs [" + inputs.str() + "], outputs [" + outputs.str() + "]";
}

}  // namespace

void GetComputationRequest(const Nnet &nnet, const NnetExample &eg,
                           bool need_model_derivative,
                           bool store_component_stats,
                           ComputationRequest *request) {
  request->inputs.clear();
  request->outputs.clear();
  request->need_model_derivative = need_model_derivative;
  request->store_component_stats = store_component_stats;
  for (const NnetIo &io : eg.io) {
    int32_t node = nnet.GetNodeIndex(io.name);
    if (node == -1 || (!nnet.IsInputNode(node) && !nnet.IsOutputNode(node)))
      NNET3_ERR << "The example has an input or output named '" << io.name
                << "', but the network has no input or output node of that "
                << "name (it has " << DescribeIoNodes(nnet) << ")";
    if (nnet.IsInputNode(node))
      request->inputs.emplace_back(io.name, io.indexes, false);
    else
      request->outputs.emplace_back(io.name, io.indexes, need_model_derivative);
  }
  if (request->inputs.empty())
    NNET3_ERR << "The example supplies no input of the network ("
              << DescribeIoNodes(nnet) << ")";
  if (request->outputs.empty())
    NNET3_ERR << "The example supplies no output of the network ("
              << DescribeIoNodes(nnet) << ")";
}

}  // namespace nnet3
