#include "base/io-funcs.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <strings.h>

namespace nnet3 {
namespace io_internal {

std::string DescribeNext(std::istream &is) {
  if (is.eof()) return "end of file";
  is.clear();
  int c = is.peek();
  if (c == EOF) return "end of file";
  std::string shown;
  for (int i = 0; i < 16; i++) {
    int ch = is.get();
    if (ch == EOF) break;
    if (std::isprint(ch))
      shown += static_cast<char>(ch);
    else
      shown += "\\x" + std::string(1, "0123456789abcdef"[(ch >> 4) & 15]) +
               std::string(1, "0123456789abcdef"[ch & 15]);
  }
  return "'" + shown + "'";
}

void ReadFailure(std::istream &is, const std::string &what) {
  std::string found = DescribeNext(is);
  NNET3_ERR << "Expected " << what << " but found " << found
            << " (truncated or corrupted data?)";
  for (;;) {}  // unreachable: the line above throws
}

}  // namespace io_internal

void InitKaldiOutputStream(std::ostream &os, bool binary) {
  if (binary) {
    os.put('\0');
    os.put('B');
  }
  if (os.precision() < 7) os.precision(7);
}

bool InitKaldiInputStream(std::istream &is, bool *binary) {
  if (is.peek() == '\0') {
    is.get();
    if (is.peek() != 'B') return false;
    is.get();
    *binary = true;
  } else {
    *binary = false;
  }
  return true;
}

void WriteToken(std::ostream &os, bool binary, const std::string &token) {
  (void)binary;
  NNET3_ASSERT(!token.empty());
  for (char c : token)
    NNET3_ASSERT(!std::isspace(static_cast<unsigned char>(c)));
  os << token << " ";
  if (os.fail()) NNET3_ERR << "Write failure writing token " << token;
}

void ReadToken(std::istream &is, bool binary, std::string *token) {
  (void)binary;
  is >> *token;
  if (is.fail()) io_internal::ReadFailure(is, "a token");
  int c = is.peek();
  if (c == EOF || !std::isspace(c))
    io_internal::ReadFailure(is, "whitespace after token '" + *token + "'");
  is.get();
}

void ExpectToken(std::istream &is, bool binary, const std::string &token) {
  std::string found;
  is >> found;
  if (is.fail())
    NNET3_ERR << "Expected token " << token << " but found "
              << io_internal::DescribeNext(is);
  bool ok = found == token ||
            (token.size() > 1 && token[0] == '<' && found == token.substr(1));
  if (!ok)
    NNET3_ERR << "Expected token " << token << " but found " << found;
  int c = is.peek();
  if (c != EOF && std::isspace(c)) is.get();
  (void)binary;
}

int PeekToken(std::istream &is, bool binary) {
  (void)binary;
  is >> std::ws;
  if (is.peek() != '<') return is.peek();
  is.get();
  int ans = is.peek();
  is.unget();
  if (is.fail()) NNET3_ERR << "PeekToken: could not put back '<'";
  return ans;
}

std::string PeekWholeToken(std::istream &is, bool binary) {
  (void)binary;
  is >> std::ws;
  std::streampos pos = is.tellg();
  std::string token;
  is >> token;
  if (pos != std::streampos(-1)) {
    is.clear();
    is.seekg(pos);
  } else {
    // Not seekable (a pipe): put the characters back one by one.
    for (size_t i = token.size(); i > 0; i--) is.putback(token[i - 1]);
  }
  return token;
}

void CheckStream(std::istream &is, const char *what) {
  if (is.fail()) io_internal::ReadFailure(is, what);
}

bool ReadTextFloat(std::istream &is, double *value) {
  std::string word;
  is >> word;
  if (is.fail() || word.empty()) return false;
  const char *s = word.c_str();
  char *end = nullptr;
  double v = std::strtod(s, &end);
  if (end != s + word.size()) {
    const char *p = s;
    bool negative = false;
    if (*p == '-' || *p == '+') negative = (*p++ == '-');
    if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0)
      v = negative ? -INFINITY : INFINITY;
    else if (strcasecmp(p, "nan") == 0 || strcasecmp(p, "-nan") == 0)
      v = NAN;
    else
      return false;
  }
  *value = v;
  return true;
}

}  // namespace nnet3
