#include "compile/computation-html.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

#include "compile/compile-info-steps.h"
#include "compile/svg-writer.h"

namespace nnet3 {

namespace {

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '-';
}

// If text[i] starts a token `letter` + digits (not inside a longer name),
// its number and the index after it; else -1.
int32_t TokenNumber(const std::string &text, size_t i, char letter,
                    size_t *end) {
  if (text[i] != letter || (i > 0 && IsNameChar(text[i - 1]))) return -1;
  size_t j = i + 1;
  while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
    j++;
  if (j == i + 1 || j - i > 10) return -1;
  if (j < text.size() &&
      (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
    return -1;
  *end = j;
  return static_cast<int32_t>(std::stol(text.substr(i + 1, j - i - 1)));
}

std::string Percent(int64_t part, int64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f%%",
                whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

// A cell with a bar `part/whole` wide behind the text.
std::string BarCell(int64_t part, int64_t whole, const std::string &text) {
  return "<td class=\"bar\"><span style=\"width:" + Percent(part, whole) +
         "\"></span>" + XmlEscape(text) + "</td>";
}

}  // namespace

std::string LinkCommandText(const std::string &text, const std::string &prefix,
                            std::vector<int32_t> *matrices) {
  std::string out;
  bool quoted = false;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    size_t end = 0;
    int32_t num = -1;
    if (c == '\'') quoted = !quoted;
    if (!quoted && (num = TokenNumber(text, i, 'm', &end)) >= 0) {
      out += "<a class=\"mref\" href=\"#" + prefix + "m" + std::to_string(num) +
             "\">m" + std::to_string(num) + "</a>";
      if (matrices != nullptr) matrices->push_back(num);
      i = end;
      continue;
    }
    if (!quoted && text.compare(i, 6, "goto c") == 0 &&
        (num = TokenNumber(text, i + 5, 'c', &end)) >= 0) {
      out += "goto <a href=\"#" + prefix + "c" + std::to_string(num) + "\">c" +
             std::to_string(num) + "</a>";
      i = end;
      continue;
    }
    out += XmlEscape(std::string(1, c));
    i++;
  }
  return out;
}

std::string CommandCellHtml(const std::string &text,
                            const std::string &prefix) {
  const size_t kShown = 240;
  const size_t cut =
      text.size() > kShown + 60 ? text.rfind(' ', kShown) : std::string::npos;
  if (cut == std::string::npos || cut == 0)
    return LinkCommandText(text, prefix, nullptr);
  return LinkCommandText(text.substr(0, cut), prefix, nullptr) +
         " <details><summary>... " + std::to_string(text.size() - cut) +
         " more characters</summary>" +
         LinkCommandText(text.substr(cut), prefix, nullptr) + "</details>";
}

ComputationHtml::ComputationHtml(const Nnet &nnet,
                                 const NnetComputation &computation,
                                 const std::string &prefix)
    : nnet_(nnet), computation_(computation), prefix_(prefix) {
  ComputeMemoryTimeline(computation, &timeline_);
  computation.GetCommandStrings(nnet, &commands_);
  users_.resize(computation.matrices.size());
  for (size_t k = 0; k < commands_.size(); k++) {
    std::vector<int32_t> used;
    LinkCommandText(commands_[k], prefix_, &used);
    for (int32_t m : used)
      if (m > 0 && m < static_cast<int32_t>(users_.size()) &&
          (users_[m].empty() || users_[m].back() != static_cast<int32_t>(k)))
        users_[m].push_back(static_cast<int32_t>(k));
  }
}

std::string ComputationHtml::MatrixContents(int32_t m) const {
  if (m >= static_cast<int32_t>(computation_.matrix_debug_info.size()))
    return "";
  const NnetComputation::MatrixDebugInfo &d = computation_.matrix_debug_info[m];
  if (d.cindexes.empty()) return "";
  std::vector<Index> indexes;
  for (const Cindex &c : d.cindexes) indexes.push_back(c.second);
  const int32_t node = d.cindexes[0].first;
  const std::string name = node >= 0 && node < nnet_.NumNodes()
                               ? nnet_.GetNodeName(node)
                               : "node " + std::to_string(node);
  return std::string(d.is_deriv ? "deriv of " : "value of ") + name + ", " +
         IndexRange(indexes);
}

std::string ComputationHtml::MatrixLink(int32_t m) const {
  return "<a class=\"mref\" href=\"#" + prefix_ + "m" + std::to_string(m) +
         "\">m" + std::to_string(m) + "</a>";
}

std::string ComputationHtml::CommandLink(int32_t k) const {
  if (k < 0) return "-";
  return "<a href=\"#" + prefix_ + "c" + std::to_string(k) + "\">c" +
         std::to_string(k) + "</a>";
}

void ComputationHtml::WriteCommands(std::ostream &os) const {
  const int64_t peak = timeline_.peak_bytes;
  os << "<table class=\"commands\">\n<thead><tr><th>#</th><th>live after"
        "</th><th>command</th></tr></thead>\n<tbody>\n";
  for (size_t k = 0; k < commands_.size(); k++) {
    const bool is_peak = static_cast<int32_t>(k) == timeline_.peak_command;
    os << "<tr id=\"" << prefix_ << "c" << k << "\""
       << (is_peak ? " class=\"peak\"" : "") << "><td class=\"num\">c" << k
       << "</td>"
       << BarCell(timeline_.bytes_after[k], peak,
                  HumanBytes(timeline_.bytes_after[k]))
       << "<td class=\"code\">" << CommandCellHtml(commands_[k], prefix_)
       << (is_peak ? " <span class=\"tag\">peak</span>" : "") << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
}

void ComputationHtml::WriteMatrices(std::ostream &os) const {
  const size_t kMaxUsers = 12;
  os << "<table class=\"matrices\">\n<thead><tr><th>matrix</th><th>rows x "
        "cols</th><th>bytes</th><th>holds</th><th>allocated</th><th>freed</th>"
        "<th>used by</th></tr></thead>\n<tbody>\n";
  for (size_t m = 1; m < computation_.matrices.size(); m++) {
    const NnetComputation::MatrixInfo &info = computation_.matrices[m];
    const int64_t bytes =
        4 * static_cast<int64_t>(info.num_rows) * info.num_cols;
    os << "<tr id=\"" << prefix_ << "m" << m << "\"><td class=\"num\">m" << m
       << "</td><td>" << info.num_rows << " x " << info.num_cols
       << "</td><td class=\"num\">" << HumanBytes(bytes) << "</td><td>"
       << XmlEscape(MatrixContents(static_cast<int32_t>(m))) << "</td><td>"
       << CommandLink(timeline_.first_alloc_command[m]) << "</td><td>"
       << CommandLink(timeline_.last_free_command[m]) << "</td><td>";
    const std::vector<int32_t> &users = users_[m];
    for (size_t i = 0; i < users.size() && i < kMaxUsers; i++)
      os << (i == 0 ? "" : " ") << CommandLink(users[i]);
    if (users.size() > kMaxUsers)
      os << " ... (" << users.size() << " commands)";
    os << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
}

void ComputationHtml::WriteLiveAtPeak(std::ostream &os) const {
  const int64_t peak = timeline_.peak_bytes;
  const std::vector<int32_t> live = MatricesLiveAtPeak(timeline_);
  if (live.empty()) {
    os << "<p>No matrix memory is allocated.</p>\n";
    return;
  }
  os << "<p>" << live.size() << " matrices hold " << XmlEscape(HumanBytes(peak))
     << " after " << CommandLink(timeline_.peak_command) << ".</p>\n";
  // By node and kind first: the short answer to "where does it go".
  std::map<std::string, std::pair<int64_t, int32_t>> by_node;
  for (int32_t m : live) {
    std::string what = MatrixContents(m);
    what = what.empty() ? "(no debug info)" : what.substr(0, what.find(','));
    by_node[what].first += timeline_.held_at_peak[m];
    by_node[what].second++;
  }
  std::vector<std::pair<std::string, std::pair<int64_t, int32_t>>> sorted(
      by_node.begin(), by_node.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto &a, const auto &b) {
                     return a.second.first > b.second.first;
                   });
  os << "<table class=\"peak-nodes\">\n<thead><tr><th>holds</th><th>matrices"
        "</th><th>bytes</th><th>share of the peak</th></tr></thead>\n<tbody>\n";
  for (const auto &entry : sorted)
    os << "<tr><td>" << XmlEscape(entry.first) << "</td><td class=\"num\">"
       << entry.second.second << "</td><td class=\"num\">"
       << HumanBytes(entry.second.first) << "</td>"
       << BarCell(entry.second.first, peak, Percent(entry.second.first, peak))
       << "</tr>\n";
  os << "</tbody></table>\n";
  os << "<table class=\"peak-matrices\">\n<thead><tr><th>matrix</th><th>rows "
        "x cols</th><th>bytes</th><th>share</th><th>holds</th><th>allocated"
        "</th><th>freed</th></tr></thead>\n<tbody>\n";
  for (int32_t m : live) {
    const NnetComputation::MatrixInfo &info = computation_.matrices[m];
    const int64_t held = timeline_.held_at_peak[m];
    os << "<tr><td class=\"num\">" << MatrixLink(m) << "</td><td>"
       << info.num_rows << " x " << info.num_cols << "</td><td class=\"num\">"
       << HumanBytes(held) << "</td>"
       << BarCell(held, peak, Percent(held, peak)) << "<td>"
       << XmlEscape(MatrixContents(m)) << "</td><td>"
       << CommandLink(timeline_.first_alloc_command[m]) << "</td><td>"
       << CommandLink(timeline_.last_free_command[m]) << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
}

}  // namespace nnet3
