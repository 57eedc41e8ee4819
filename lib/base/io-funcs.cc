#include "base/io-funcs.h"

#include <strings.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <ext/stdio_filebuf.h>
#include <sstream>

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

int64_t StreamBytesLeft(std::istream &is) {
  std::streambuf *buf = is.rdbuf();
  if (buf == nullptr) return -1;
  if (auto *fd_buf = dynamic_cast<__gnu_cxx::stdio_filebuf<char> *>(buf)) {
    struct stat st;
    if (fstat(fd_buf->fd(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    // A query without movement: the buffer is kept (one lseek).
    std::streamoff pos = buf->pubseekoff(0, std::ios::cur, std::ios::in);
    if (pos < 0) return -1;
    return std::max<int64_t>(0, static_cast<int64_t>(st.st_size) - pos);
  }
  if (dynamic_cast<std::stringbuf *>(buf) != nullptr) {
    std::streampos pos = buf->pubseekoff(0, std::ios::cur, std::ios::in);
    if (pos == std::streampos(-1)) return -1;
    std::streampos end = buf->pubseekoff(0, std::ios::end, std::ios::in);
    buf->pubseekpos(pos, std::ios::in);
    if (end == std::streampos(-1)) return -1;
    return std::max<int64_t>(0, static_cast<int64_t>(end - pos));
  }
  return -1;
}

int64_t CheckCountFits(std::istream &is, int64_t count, int64_t min_bytes_each,
                       const std::string &what) {
  if (count < 0)
    NNET3_ERR << what << " is " << count
              << " (negative: truncated or corrupted data?)";
  int64_t left = StreamBytesLeft(is);
  if (left < 0) return std::min(count, kUnknownSizeReserve);
  if (min_bytes_each > 0 && count > left / min_bytes_each)
    NNET3_ERR << what << " is " << count << ", but only " << left
              << " bytes are left to read, too few for that many (at least "
              << min_bytes_each << " bytes each): truncated or corrupted data?";
  return count;
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
    else  // the word is consumed: name it here, not what follows it
      NNET3_ERR << "Expected a number but found '" << word
                << "' (truncated or corrupted data?)";
  }
  *value = v;
  return true;
}

}  // namespace nnet3
