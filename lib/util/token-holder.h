// TokenHolder and TokenVectorHolder: the table holders for one
// whitespace-free token per key (Kaldi's utt2spk: "utt1 spk1\n") and for a
// list of them (spk2utt: "spk1 utt1 utt2\n"). Written and read in text form
// whatever the mode: the tokens separated by spaces, then the end of the
// line -- also in binary archives, which have no "\0B" before it, as
// Kaldi's (align-text ark:... writes text lines).
//
//   RandomAccessTokenReader utt2spk("ark:data/utt2spk");
//   const std::string &spk = utt2spk.Value("utt1");
//   SequentialTokenVectorReader spk2utt("ark:data/spk2utt");
#ifndef NNET3_UTIL_TOKEN_HOLDER_H_
#define NNET3_UTIL_TOKEN_HOLDER_H_

#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "util/table-holders.h"
#include "util/table-reader.h"
#include "util/table-writer.h"

namespace nnet3 {

class TokenHolder {
 public:
  using T = std::string;
  static constexpr bool kBinaryHeader = false;
  // UserError for an empty token or one with whitespace.
  static void Write(std::ostream &os, bool binary, const T &t) {
    (void)binary;
    CheckToken(t);
    os << t << '\n';
  }
  static void CheckToken(const std::string &t) {
    bool ok = !t.empty();
    for (char c : t) ok = ok && !std::isspace(static_cast<unsigned char>(c));
    if (!ok)
      NNET3_ERR << "Cannot write '" << t
                << "' as a token (empty or contains whitespace)";
  }
  void Read(std::istream &is, bool binary) {
    (void)binary;
    is >> t_;
    if (is.fail()) NNET3_ERR << "Expected a token but found the end of input";
    while (is.peek() == ' ' || is.peek() == '\t' || is.peek() == '\r') is.get();
    int c = is.peek();
    if (c != '\n' && c != EOF)
      NNET3_ERR << "Expected one token on the line but found more after '" << t_
                << "'";
    if (c == '\n') is.get();
  }
  T &Value() { return t_; }
  void Clear() { t_.clear(); }
  void Swap(TokenHolder *other) { t_.swap(other->t_); }
  void ExtractRange(const std::string &range) {
    RangeExtractor<T>::Extract(range, &t_);
  }

 private:
  T t_;
};

class TokenVectorHolder {
 public:
  using T = std::vector<std::string>;
  static constexpr bool kBinaryHeader = false;
  static void Write(std::ostream &os, bool binary, const T &t) {
    (void)binary;
    for (const std::string &token : t) {
      TokenHolder::CheckToken(token);
      os << token << ' ';
    }
    os << '\n';
  }
  void Read(std::istream &is, bool binary) {
    (void)binary;
    t_.clear();
    std::string line;
    std::getline(is, line);
    std::istringstream words(line);
    std::string token;
    while (words >> token) t_.push_back(token);
  }
  T &Value() { return t_; }
  void Clear() { t_.clear(); }
  void Swap(TokenVectorHolder *other) { t_.swap(other->t_); }
  void ExtractRange(const std::string &range) {
    RangeExtractor<T>::Extract(range, &t_);
  }

 private:
  T t_;
};

using SequentialTokenReader = SequentialTableReader<TokenHolder>;
using RandomAccessTokenReader = RandomAccessTableReader<TokenHolder>;
using TokenWriter = TableWriter<TokenHolder>;
using SequentialTokenVectorReader = SequentialTableReader<TokenVectorHolder>;
using RandomAccessTokenVectorReader =
    RandomAccessTableReader<TokenVectorHolder>;
using TokenVectorWriter = TableWriter<TokenVectorHolder>;

}  // namespace nnet3

#endif  // NNET3_UTIL_TOKEN_HOLDER_H_
