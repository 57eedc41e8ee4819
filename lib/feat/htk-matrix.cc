#include "feat/htk-matrix.h"

#include <cstring>

#include "base/error.h"

namespace nnet3 {
namespace {

void PutBig(uint32_t v, int n, std::string *out) {
  for (int i = n - 1; i >= 0; i--)
    *out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

uint32_t GetBig(const unsigned char *p, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; i++) v = v << 8 | p[i];
  return v;
}

}  // namespace

void HtkMatrix::Write(std::ostream &os) const {
  if (4 * cols > 32767)
    NNET3_ERR << "Features of dimension " << cols << " are too wide for HTK "
              << "format (at most 8191)";
  std::string out;
  PutBig(static_cast<uint32_t>(rows), 4, &out);
  PutBig(static_cast<uint32_t>(sample_period), 4, &out);
  PutBig(static_cast<uint32_t>(4 * cols), 2, &out);
  PutBig(sample_kind, 2, &out);
  for (float x : data) {
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    PutBig(bits, 4, &out);
  }
  os.write(out.data(), static_cast<std::streamsize>(out.size()));
  if (os.fail()) NNET3_ERR << "Error writing HTK-format features";
}

void HtkMatrix::Read(std::istream &is) {
  unsigned char h[12];
  is.read(reinterpret_cast<char *>(h), 12);
  if (is.gcount() != 12) NNET3_ERR << "HTK features: truncated header";
  rows = static_cast<int32_t>(GetBig(h, 4));
  sample_period = static_cast<int32_t>(GetBig(h + 4, 4));
  const uint32_t bytes = GetBig(h + 8, 2);
  sample_kind = static_cast<uint16_t>(GetBig(h + 10, 2));
  if (rows < 0 || bytes % 4 != 0)
    NNET3_ERR << "HTK features: bad header (" << rows << " frames of " << bytes
              << " bytes)";
  cols = static_cast<int32_t>(bytes / 4);
  std::vector<unsigned char> raw(static_cast<size_t>(rows) * bytes);
  is.read(reinterpret_cast<char *>(raw.data()),
          static_cast<std::streamsize>(raw.size()));
  if (static_cast<size_t>(is.gcount()) != raw.size())
    NNET3_ERR << "HTK features: expected " << rows << " frames of " << bytes
              << " bytes, the data ends early";
  data.resize(static_cast<size_t>(rows) * cols);
  for (size_t i = 0; i < data.size(); i++) {
    const uint32_t bits = GetBig(&raw[4 * i], 4);
    std::memcpy(&data[i], &bits, 4);
  }
}

void HtkMatrixHolder::Write(std::ostream &os, bool binary, const T &t) {
  if (!binary) NNET3_ERR << "HTK-format features can only be written binary";
  t.Write(os);
}

void HtkMatrixHolder::ExtractRange(const std::string &range) {
  NNET3_ERR << "A range [" << range << "] was given for HTK features, which "
            << "have no ranges";
}

}  // namespace nnet3
