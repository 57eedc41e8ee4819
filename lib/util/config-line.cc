#include "util/config-line.h"

#include <cctype>

#include "base/error.h"
#include "base/text-utils.h"

namespace nnet3 {
namespace {

bool IsBlank(char c) { return std::isspace(static_cast<unsigned char>(c)); }

}  // namespace

bool ConfigLine::ParseLine(const std::string &line) {
  data_.clear();
  first_token_.clear();
  whole_line_ = line;
  size_t size = line.size(), pos = 0;
  while (pos < size && IsBlank(line[pos])) pos++;
  if (pos == size) return false;
  // The first word is the first token unless it contains '='.
  size_t word_end = pos;
  while (word_end < size && !IsBlank(line[word_end])) word_end++;
  std::string first_word = line.substr(pos, word_end - pos);
  if (first_word.find('=') == std::string::npos) {
    if (!IsValidName(first_word)) return false;
    first_token_ = first_word;
    pos = word_end;
  }
  while (pos < size) {
    if (IsBlank(line[pos])) {
      pos++;
      continue;
    }
    size_t equals = line.find('=', pos);
    if (equals == std::string::npos || equals == pos) return false;
    std::string key = line.substr(pos, equals - pos);
    if (!IsValidName(key)) return false;
    std::string value;
    char quote = equals + 1 < size ? line[equals + 1] : '\0';
    if (quote == '\'' || quote == '"') {
      size_t close = line.find(quote, equals + 2);
      if (close == std::string::npos) return false;
      value = line.substr(equals + 2, close - equals - 2);
      pos = close + 1;
    } else {
      // The value ends at the last whitespace before the next '=' (or at the
      // end of the line), trailing whitespace removed.
      size_t end = size;
      size_t next_equals = line.find('=', equals + 1);
      if (next_equals != std::string::npos) {
        size_t space = line.find_last_of(" \t", next_equals);
        if (space != std::string::npos && space > equals) end = space;
      }
      while (end > equals + 1 && IsBlank(line[end - 1])) end--;
      value = line.substr(equals + 1, end - equals - 1);
      pos = end;
    }
    data_.emplace(key, std::make_pair(value, false));  // first one wins
  }
  return true;
}

const std::string *ConfigLine::Find(const std::string &key) {
  auto it = data_.find(key);
  if (it == data_.end()) return nullptr;
  it->second.second = true;
  return &it->second.first;
}

void ConfigLine::BadValue(const std::string &key, const std::string &value,
                          const char *expected) const {
  NNET3_ERR << "Invalid value '" << value << "' for " << key << " (expected "
            << expected << ") in config line '" << whole_line_ << "'";
  for (;;) {
  }  // unreachable: the line above throws
}

bool ConfigLine::GetValue(const std::string &key, std::string *value) {
  const std::string *v = Find(key);
  if (!v) return false;
  *value = *v;
  return true;
}

bool ConfigLine::GetValue(const std::string &key, int32_t *value) {
  const std::string *v = Find(key);
  if (!v) return false;
  if (!ConvertStringToInteger(*v, value)) BadValue(key, *v, "an integer");
  return true;
}

bool ConfigLine::GetValue(const std::string &key, float *value) {
  const std::string *v = Find(key);
  if (!v) return false;
  if (!ConvertStringToReal(*v, value)) BadValue(key, *v, "a number");
  return true;
}

bool ConfigLine::GetValue(const std::string &key, double *value) {
  const std::string *v = Find(key);
  if (!v) return false;
  if (!ConvertStringToReal(*v, value)) BadValue(key, *v, "a number");
  return true;
}

bool ConfigLine::GetValue(const std::string &key, bool *value) {
  const std::string *v = Find(key);
  if (!v) return false;
  char c = v->empty() ? '\0' : (*v)[0];
  if (c == 't' || c == 'T')
    *value = true;
  else if (c == 'f' || c == 'F')
    *value = false;
  else
    BadValue(key, *v, "true or false");
  return true;
}

bool ConfigLine::GetValue(const std::string &key, std::vector<int32_t> *value) {
  const std::string *v = Find(key);
  if (!v) return false;
  std::vector<int32_t> ans;
  if (!SplitStringToIntegers(*v, ":,", &ans))
    BadValue(key, *v, "integers separated by ':' or ','");
  *value = ans;
  return true;
}

bool ConfigLine::HasUnusedValues() const {
  for (const auto &kv : data_)
    if (!kv.second.second) return true;
  return false;
}

std::string ConfigLine::UnusedValues() const {
  std::string ans;
  for (const auto &kv : data_) {
    if (kv.second.second) continue;
    if (!ans.empty()) ans += ' ';
    ans += kv.first + "=" + kv.second.first;
  }
  return ans;
}

void ReadConfigLines(std::istream &is, std::vector<NumberedLine> *lines) {
  lines->clear();
  std::string text;
  int32_t line_number = 0;
  while (std::getline(is, text)) {
    line_number++;
    size_t hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    size_t begin = text.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;
    size_t end = text.find_last_not_of(" \t\r");
    NumberedLine line;
    line.text = text.substr(begin, end - begin + 1);
    line.line_number = line_number;
    lines->push_back(std::move(line));
  }
  if (is.bad()) NNET3_ERR << "Read error while reading config lines";
}

void ReadConfigLines(std::istream &is, std::vector<std::string> *lines) {
  std::vector<NumberedLine> numbered;
  ReadConfigLines(is, &numbered);
  lines->clear();
  for (NumberedLine &l : numbered) lines->push_back(std::move(l.text));
}

}  // namespace nnet3
