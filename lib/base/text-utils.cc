#include "base/text-utils.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <strings.h>

namespace nnet3 {

bool IsToken(const std::string &s) {
  if (s.empty()) return false;
  for (char c : s)
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\0') return false;
  return true;
}

bool IsValidName(const std::string &s) {
  if (s.empty()) return false;
  unsigned char c0 = s[0];
  if (!std::isalpha(c0) && c0 != '_') return false;
  for (unsigned char c : s)
    if (!std::isalnum(c) && c != '_' && c != '-' && c != '.') return false;
  return true;
}

std::string Trim(const std::string &s) {
  const char *ws = " \t\r\n";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

std::vector<std::string> SplitString(const std::string &s,
                                     const std::string &delims,
                                     bool omit_empty) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find_first_of(delims, start);
    if (end == std::string::npos) end = s.size();
    std::string piece = s.substr(start, end - start);
    if (!omit_empty || !piece.empty()) out.push_back(piece);
    start = end + 1;
  }
  return out;
}

bool ConvertStringToInteger(const std::string &s, int64_t *out) {
  std::string t = Trim(s);
  if (t.empty()) return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(t.c_str(), &end, 10);
  if (errno != 0 || end != t.c_str() + t.size()) return false;
  *out = v;
  return true;
}

bool ConvertStringToInteger(const std::string &s, int32_t *out) {
  int64_t v;
  if (!ConvertStringToInteger(s, &v)) return false;
  if (v < std::numeric_limits<int32_t>::min() ||
      v > std::numeric_limits<int32_t>::max())
    return false;
  *out = static_cast<int32_t>(v);
  return true;
}

bool ConvertStringToReal(const std::string &s, double *out) {
  std::string t = Trim(s);
  if (t.empty()) return false;
  const char *p = t.c_str();
  bool negative = false;
  const char *q = p;
  if (*q == '-' || *q == '+') negative = (*q++ == '-');
  if (strcasecmp(q, "inf") == 0 || strcasecmp(q, "infinity") == 0) {
    *out = negative ? -INFINITY : INFINITY;
    return true;
  }
  if (strcasecmp(q, "nan") == 0) {
    *out = NAN;
    return true;
  }
  char *end = nullptr;
  double v = std::strtod(p, &end);
  if (end != p + t.size()) return false;
  *out = v;
  return true;
}

bool ConvertStringToReal(const std::string &s, float *out) {
  double d;
  if (!ConvertStringToReal(s, &d)) return false;
  *out = static_cast<float>(d);
  return true;
}

bool SplitStringToIntegers(const std::string &s, const std::string &delims,
                           std::vector<int32_t> *out) {
  out->clear();
  for (const std::string &piece : SplitString(s, delims, true)) {
    int32_t v;
    if (!ConvertStringToInteger(piece, &v)) return false;
    out->push_back(v);
  }
  return true;
}

}  // namespace nnet3
