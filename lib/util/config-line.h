// Kaldi's config-line parsing (reference 1.1), used by network configs,
// edits configs and anything else written as
//   first-token key=value key=value ...
//
//   std::vector<NumberedLine> lines;
//   ReadConfigLines(is, &lines);                // comments, blanks dropped
//   for (const NumberedLine &l : lines) {
//     ConfigLine cfl;
//     if (!cfl.ParseLine(l.text))
//       NNET3_ERR << file << ":" << l.line_number << ": cannot parse '" ...;
//     int32_t dim;
//     if (!cfl.GetValue("dim", &dim)) ... required key missing ...
//     if (cfl.HasUnusedValues())
//       NNET3_ERR << file << ":" << l.line_number << ": unused values '"
//                 << cfl.UnusedValues() << "'";
//   }
//
// Rules: the first token is optional (a first word containing '=' means
// there is none) and must pass IsValidName; keys must pass IsValidName; a
// value runs to the last whitespace before the next '=' (so values may
// contain spaces: "input=Append(a, b)"), or is quoted with '...' or "..."
// (no escaping; may contain '='); "key=" gives an empty value. The first
// occurrence of a key wins; later duplicates are dropped silently.
// ReadConfigLines drops everything from the first '#' (even inside quotes),
// trims spaces and tabs, and skips empty lines.
#ifndef NNET3_UTIL_CONFIG_LINE_H_
#define NNET3_UTIL_CONFIG_LINE_H_

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

class ConfigLine {
 public:
  // Parses `line` (already stripped of comments). Returns false for a
  // malformed line: a bad first token, a word without '=', a key that is
  // not a valid name, or an unmatched quote; an empty line is also false.
  bool ParseLine(const std::string &line);

  // Typed getters: false if the key is absent (the output is untouched).
  // A present key is marked used; a value that does not convert is a
  // UserError naming the key, the value and the line.
  //   int: the whole value an integer; float/double: a real (inf, nan ok);
  //   bool: first character t/T or f/F; int vector: split on ':' or ',',
  //   empty pieces dropped.
  bool GetValue(const std::string &key, std::string *value);
  bool GetValue(const std::string &key, int32_t *value);
  bool GetValue(const std::string &key, float *value);
  bool GetValue(const std::string &key, double *value);
  bool GetValue(const std::string &key, bool *value);
  bool GetValue(const std::string &key, std::vector<int32_t> *value);

  bool HasKey(const std::string &key) const { return data_.count(key) != 0; }
  bool HasUnusedValues() const;
  // "key1=value1 key2=value2" for the keys no getter asked for.
  std::string UnusedValues() const;
  const std::string &FirstToken() const { return first_token_; }
  const std::string &WholeLine() const { return whole_line_; }

 private:
  // Finds `key`, marks it used; nullptr if absent.
  const std::string *Find(const std::string &key);
  [[noreturn]] void BadValue(const std::string &key, const std::string &value,
                             const char *expected) const;

  std::string whole_line_;
  std::string first_token_;
  // key → (value, used)
  std::map<std::string, std::pair<std::string, bool>> data_;
};

// A config line with its 1-based line number in the file, for messages
// like "nnet.config:12: ...".
struct NumberedLine {
  std::string text;
  int32_t line_number = 0;
};

// Reads all lines of `is`, dropping comments ('#' to end of line), trimming
// spaces and tabs and skipping empty lines.
void ReadConfigLines(std::istream &is, std::vector<NumberedLine> *lines);
// The same without line numbers (Kaldi's signature).
void ReadConfigLines(std::istream &is, std::vector<std::string> *lines);

}  // namespace nnet3

#endif  // NNET3_UTIL_CONFIG_LINE_H_
