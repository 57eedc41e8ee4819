#include "util/table-common.h"

#include <cctype>

#include "base/text-utils.h"
#include "util/range-suffix.h"

namespace nnet3 {
namespace table_internal {
namespace {

// Shows a character in an error message.
std::string ShowChar(int c) {
  if (c == EOF) return "end of file";
  if (std::isprint(c)) return "'" + std::string(1, static_cast<char>(c)) + "'";
  const char *hex = "0123456789abcdef";
  return std::string("byte \\x") + hex[(c >> 4) & 15] + hex[c & 15];
}

bool ParseScriptLine(const std::string &text, bool split_range,
                     ScriptLine *line) {
  std::string trimmed = Trim(text);
  size_t space = trimmed.find_first_of(" \t");
  if (space == std::string::npos) return false;
  line->key = trimmed.substr(0, space);
  line->rxfilename = Trim(trimmed.substr(space + 1));
  line->range.clear();
  if (split_range)
    SplitRangeSuffix(line->rxfilename, &line->rxfilename, &line->range);
  return !line->key.empty() && !line->rxfilename.empty();
}

}  // namespace

std::string EntryContext(const std::string &filename, const std::string &key) {
  return "file '" + PrintableRxfilename(filename) + "', key '" + key + "'";
}

bool ReadArchiveKey(std::istream &is, const std::string &archive,
                    std::string *key) {
  is >> *key;
  if (is.fail()) {
    if (is.eof()) return false;  // only whitespace was left
    NNET3_ERR << "file '" << PrintableRxfilename(archive)
              << "': cannot read the next archive key";
  }
  int c = is.peek();
  if (c != ' ' && c != '\t' && c != '\n')
    NNET3_ERR << EntryContext(archive, *key) << ": expected a space after the "
              << "key but found " << ShowChar(c)
              << " (truncated or corrupted archive?)";
  if (c != '\n') is.get();
  return true;
}

bool ReadObjectHeader(std::istream &is) {
  int c = is.peek();
  if (c == EOF)
    NNET3_ERR << "end of file where the object should start (truncated "
                 "archive?)";
  if (c != '\0') return false;
  is.get();
  c = is.peek();
  if (c == 'B') {
    is.get();
    return true;
  }
  if (c == EOF)
    NNET3_ERR << "end of file inside the binary header \\0B (truncated "
                 "archive?)";
  NNET3_ERR << "expected the binary header \\0B but found \\0 followed by "
            << ShowChar(c) << " (corrupted archive or wrong offset?)";
  return false;  // unreachable
}

void CheckKey(const std::string &key, const std::string &table) {
  if (!IsToken(key))
    NNET3_ERR << "Invalid key '" << key << "' for table '" << table
              << "': keys must be non-empty and contain no whitespace";
}

int64_t WriteEntryPrefix(std::ostream &os, const std::string &key, bool binary,
                         bool want_offset, const std::string &table) {
  CheckKey(key, table);
  os << key << ' ';
  int64_t offset = -1;
  if (want_offset) {
    offset = static_cast<int64_t>(os.tellp());
    if (offset < 0)
      NNET3_ERR << "Cannot get the write position in the archive of '" << table
                << "' (key '" << key << "')";
  }
  if (binary) os.write("\0B", 2);
  return offset;
}

void ScriptFileReader::Open(const std::string &rxfilename) {
  name_ = rxfilename;
  line_number_ = 0;
  input_.Open(rxfilename);
}

bool ScriptFileReader::Next(ScriptLine *line) {
  std::string text;
  while (std::getline(input_.Stream(), text)) {
    line_number_++;
    if (Trim(text).empty()) continue;
    if (!ParseScriptLine(text, true, line))
      NNET3_ERR << "file '" << PrintableRxfilename(name_) << "' line "
                << line_number_ << ": expected 'key rxfilename' but found '"
                << Trim(text) << "'";
    line->line_number = line_number_;
    return true;
  }
  Close();
  return false;
}

void ScriptFileReader::Close() {
  std::string error;
  if (!input_.Close(&error))
    NNET3_ERR << "Reading scp file '" << PrintableRxfilename(name_)
              << "': " << error;
}

std::vector<ScriptLine> ReadScriptFile(const std::string &rxfilename,
                                       bool split_range) {
  Input input(rxfilename);
  std::vector<ScriptLine> lines;
  std::string text;
  int64_t line_number = 0;
  while (std::getline(input.Stream(), text)) {
    line_number++;
    if (Trim(text).empty()) continue;
    ScriptLine line;
    if (!ParseScriptLine(text, split_range, &line))
      NNET3_ERR << "file '" << PrintableRxfilename(rxfilename) << "' line "
                << line_number << ": expected 'key rxfilename' but found '"
                << Trim(text) << "'";
    line.line_number = line_number;
    lines.push_back(std::move(line));
  }
  std::string error;
  if (!input.Close(&error))
    NNET3_ERR << "Reading scp file '" << PrintableRxfilename(rxfilename)
              << "': " << error;
  return lines;
}

}  // namespace table_internal
}  // namespace nnet3
