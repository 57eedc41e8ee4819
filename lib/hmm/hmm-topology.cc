#include "hmm/hmm-topology.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "base/text-utils.h"

namespace nnet3 {

// Phone ids index a table: a corrupted id must not allocate gigabytes.
constexpr int32_t kMaxPhone = 10000000;

void HmmTopology::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<Topology>");
  phones_.clear();
  phone2idx_.clear();
  entries_.clear();
  if (binary)
    ReadBinary(is);
  else
    ReadText(is);
  Check();
}

void HmmTopology::ReadText(std::istream &is) {
  std::string token;
  while (true) {
    ReadToken(is, false, &token);
    if (token == "</Topology>") break;
    if (token != "<TopologyEntry>")
      NNET3_ERR << "Reading HmmTopology: expected </Topology> or "
                << "<TopologyEntry>, got " << token;
    ReadTextEntry(is);
  }
  std::sort(phones_.begin(), phones_.end());
}

void HmmTopology::ReadTextEntry(std::istream &is) {
  ExpectToken(is, false, "<ForPhones>");
  std::vector<int32_t> phones;
  std::string token;
  while (true) {
    ReadToken(is, false, &token);
    if (token == "</ForPhones>") break;
    int32_t phone;
    if (!ConvertStringToInteger(token, &phone) || phone <= 0)
      NNET3_ERR << "Reading HmmTopology: expected a phone (an integer > 0) "
                << "in <ForPhones>, got " << token;
    phones.push_back(phone);
  }
  TopologyEntry entry;
  ReadToken(is, false, &token);
  while (token != "</TopologyEntry>") {
    if (token != "<State>")
      NNET3_ERR << "Reading HmmTopology: expected </TopologyEntry> or "
                << "<State>, got " << token;
    int32_t state;
    ReadBasicType(is, false, &state);
    if (state != static_cast<int32_t>(entry.size()))
      NNET3_ERR << "Reading HmmTopology: states must be numbered in order "
                << "from 0: expected " << entry.size() << ", got " << state;
    HmmState s;
    ReadToken(is, false, &token);
    if (token == "<PdfClass>") {
      ReadBasicType(is, false, &s.forward_pdf_class);
      s.self_loop_pdf_class = s.forward_pdf_class;
      ReadToken(is, false, &token);
      if (token == "<SelfLoopPdfClass>")
        NNET3_ERR << "Reading HmmTopology: pdf classes are given by "
                  << "<PdfClass> or by a <ForwardPdfClass>/<SelfLoopPdfClass> "
                  << "pair, not both";
    } else if (token == "<ForwardPdfClass>") {
      ReadBasicType(is, false, &s.forward_pdf_class);
      ExpectToken(is, false, "<SelfLoopPdfClass>");
      ReadBasicType(is, false, &s.self_loop_pdf_class);
      ReadToken(is, false, &token);
    }
    while (token == "<Transition>") {
      std::pair<int32_t, float> t;
      ReadBasicType(is, false, &t.first);
      ReadBasicType(is, false, &t.second);
      s.transitions.push_back(t);
      ReadToken(is, false, &token);
    }
    if (token != "</State>")
      NNET3_ERR << "Reading HmmTopology: expected </State>, got " << token;
    entry.push_back(s);
    ReadToken(is, false, &token);
  }
  const int32_t index = static_cast<int32_t>(entries_.size());
  entries_.push_back(entry);
  for (int32_t phone : phones) {
    if (phone < 0 || phone > kMaxPhone)
      NNET3_ERR << "Reading HmmTopology: phone " << phone
                << " is out of range (0 to " << kMaxPhone << ")";
    if (static_cast<int32_t>(phone2idx_.size()) <= phone)
      phone2idx_.resize(phone + 1, -1);
    if (phone2idx_[phone] != -1)
      NNET3_ERR << "Reading HmmTopology: phone " << phone
                << " appears in more than one topology entry";
    phone2idx_[phone] = index;
    phones_.push_back(phone);
  }
}

void HmmTopology::ReadBinary(std::istream &is) {
  ReadIntegerVector(is, true, &phones_);
  ReadIntegerVector(is, true, &phone2idx_);
  int32_t size;
  ReadBasicType(is, true, &size);
  const bool is_hmm = size != -1;
  if (!is_hmm) ReadBasicType(is, true, &size);
  if (size < 0 || size > 100000)
    NNET3_ERR << "Reading HmmTopology: bad number of entries " << size;
  entries_.resize(size);
  for (TopologyEntry &entry : entries_) {
    int32_t num_states;
    ReadBasicType(is, true, &num_states);
    if (num_states < 0 || num_states > 100000)
      NNET3_ERR << "Reading HmmTopology: bad number of states " << num_states;
    entry.resize(num_states);
    for (HmmState &s : entry) {
      ReadBasicType(is, true, &s.forward_pdf_class);
      s.self_loop_pdf_class = s.forward_pdf_class;
      if (!is_hmm) ReadBasicType(is, true, &s.self_loop_pdf_class);
      int32_t num_transitions;
      ReadBasicType(is, true, &num_transitions);
      if (num_transitions < 0 || num_transitions > 100000)
        NNET3_ERR << "Reading HmmTopology: bad number of transitions "
                  << num_transitions;
      s.transitions.resize(num_transitions);
      for (auto &t : s.transitions) {
        ReadBasicType(is, true, &t.first);
        ReadBasicType(is, true, &t.second);
      }
    }
  }
  ExpectToken(is, true, "</Topology>");
}

void HmmTopology::Write(std::ostream &os, bool binary) const {
  const bool is_hmm = IsHmm();
  WriteToken(os, binary, "<Topology>");
  if (binary) {
    WriteIntegerVector(os, binary, phones_);
    WriteIntegerVector(os, binary, phone2idx_);
    if (!is_hmm) WriteBasicType(os, binary, int32_t(-1));
    WriteBasicType(os, binary, static_cast<int32_t>(entries_.size()));
    for (const TopologyEntry &entry : entries_) {
      WriteBasicType(os, binary, static_cast<int32_t>(entry.size()));
      for (const HmmState &s : entry) {
        WriteBasicType(os, binary, s.forward_pdf_class);
        if (!is_hmm) WriteBasicType(os, binary, s.self_loop_pdf_class);
        WriteBasicType(os, binary, static_cast<int32_t>(s.transitions.size()));
        for (const auto &t : s.transitions) {
          WriteBasicType(os, binary, t.first);
          WriteBasicType(os, binary, t.second);
        }
      }
    }
  } else {
    os << "\n";
    for (size_t i = 0; i < entries_.size(); i++) {
      WriteToken(os, binary, "<TopologyEntry>");
      os << "\n";
      WriteToken(os, binary, "<ForPhones>");
      os << "\n";
      for (size_t p = 0; p < phone2idx_.size(); p++)
        if (phone2idx_[p] == static_cast<int32_t>(i)) os << p << " ";
      os << "\n";
      WriteToken(os, binary, "</ForPhones>");
      os << "\n";
      for (size_t j = 0; j < entries_[i].size(); j++) {
        const HmmState &s = entries_[i][j];
        WriteToken(os, binary, "<State>");
        WriteBasicType(os, binary, static_cast<int32_t>(j));
        if (s.forward_pdf_class != kNoPdf) {
          if (is_hmm) {
            WriteToken(os, binary, "<PdfClass>");
            WriteBasicType(os, binary, s.forward_pdf_class);
          } else {
            WriteToken(os, binary, "<ForwardPdfClass>");
            WriteBasicType(os, binary, s.forward_pdf_class);
            WriteToken(os, binary, "<SelfLoopPdfClass>");
            WriteBasicType(os, binary, s.self_loop_pdf_class);
          }
        }
        for (const auto &t : s.transitions) {
          WriteToken(os, binary, "<Transition>");
          WriteBasicType(os, binary, t.first);
          WriteBasicType(os, binary, t.second);
        }
        WriteToken(os, binary, "</State>");
        os << "\n";
      }
      WriteToken(os, binary, "</TopologyEntry>");
      os << "\n";
    }
  }
  WriteToken(os, binary, "</Topology>");
  if (!binary) os << "\n";
}

void HmmTopology::Check() const {
  if (entries_.empty() || phones_.empty() || phone2idx_.empty())
    NNET3_ERR << "HmmTopology: empty topology";
  if (!std::is_sorted(phones_.begin(), phones_.end()) ||
      std::adjacent_find(phones_.begin(), phones_.end()) != phones_.end())
    NNET3_ERR << "HmmTopology: the phone list is not sorted and unique";
  std::vector<bool> is_seen(entries_.size(), false);
  for (int32_t phone : phones_) {
    if (phone <= 0 || static_cast<size_t>(phone) >= phone2idx_.size() ||
        phone2idx_[phone] < 0 ||
        static_cast<size_t>(phone2idx_[phone]) >= entries_.size())
      NNET3_ERR << "HmmTopology: phone " << phone << " has no valid entry";
    is_seen[phone2idx_[phone]] = true;
  }
  for (size_t i = 0; i < entries_.size(); i++) {
    if (!is_seen[i])
      NNET3_ERR << "HmmTopology: entry " << i << " has no phones";
    CheckEntry(entries_[i], static_cast<int32_t>(i));
  }
}

void HmmTopology::CheckEntry(const TopologyEntry &entry, int32_t index) const {
  const int32_t num_states = static_cast<int32_t>(entry.size());
  if (num_states <= 1)
    NNET3_ERR << "HmmTopology: entry " << index << " has " << num_states
              << " state(s); it needs an emitting one and a final one";
  const HmmState &final_state = entry.back();
  if (!final_state.transitions.empty() ||
      final_state.forward_pdf_class != kNoPdf)
    NNET3_ERR << "HmmTopology: the last state of entry " << index
              << " must be non-emitting, without transitions";
  std::vector<bool> has_trans_in(num_states, false);
  std::vector<int32_t> pdf_classes;
  for (int32_t j = 0; j + 1 < num_states; j++) {
    const HmmState &s = entry[j];
    if (s.forward_pdf_class != kNoPdf) {
      pdf_classes.push_back(s.forward_pdf_class);
      pdf_classes.push_back(s.self_loop_pdf_class);
    }
    double total = 0.0;
    std::set<int32_t> seen;
    for (const auto &t : s.transitions) {
      if (t.first < 0 || t.first >= num_states || !(t.second > 0.0f) ||
          !seen.insert(t.first).second)
        NNET3_ERR << "HmmTopology: entry " << index << ", state " << j
                  << ": bad transition to " << t.first << " with probability "
                  << t.second << " (states 0.." << num_states - 1
                  << ", probabilities > 0, no duplicates)";
      if (t.first == num_states - 1 && s.forward_pdf_class == kNoPdf)
        NNET3_ERR << "HmmTopology: entry " << index << ", state " << j
                  << ": a non-emitting state may not lead to the final state";
      if (t.first == j && s.self_loop_pdf_class == kNoPdf)
        NNET3_ERR << "HmmTopology: entry " << index << ", state " << j
                  << ": a non-emitting state may not have a self-loop";
      has_trans_in[t.first] = true;
      total += t.second;
    }
    if (!(total > 0.0))
      NNET3_ERR << "HmmTopology: entry " << index << ", state " << j
                << " has no transitions out";
    if (std::fabs(total - 1.0) > 0.01)
      NNET3_WARN << "Total probability for state " << j
                 << " in topology entry is " << total;
  }
  for (int32_t j = 1; j < num_states; j++)
    if (!has_trans_in[j])
      NNET3_ERR << "HmmTopology: entry " << index << ", state " << j
                << " has no input transitions";
  std::sort(pdf_classes.begin(), pdf_classes.end());
  pdf_classes.erase(std::unique(pdf_classes.begin(), pdf_classes.end()),
                    pdf_classes.end());
  if (pdf_classes.empty() || pdf_classes.front() != 0 ||
      pdf_classes.back() != static_cast<int32_t>(pdf_classes.size()) - 1)
    NNET3_ERR << "HmmTopology: the pdf-classes of entry " << index
              << " must be contiguous from 0";
}

bool HmmTopology::IsHmm() const {
  for (const TopologyEntry &entry : entries_)
    for (const HmmState &s : entry)
      if (s.forward_pdf_class != s.self_loop_pdf_class) return false;
  return true;
}

const HmmTopology::TopologyEntry &HmmTopology::TopologyForPhone(
    int32_t phone) const {
  if (phone <= 0 || static_cast<size_t>(phone) >= phone2idx_.size() ||
      phone2idx_[phone] == -1)
    NNET3_ERR << "HmmTopology: phone " << phone << " has no topology entry";
  return entries_[phone2idx_[phone]];
}

int32_t HmmTopology::NumPdfClasses(int32_t phone) const {
  int32_t max_class = -1;
  for (const HmmState &s : TopologyForPhone(phone))
    max_class =
        std::max({max_class, s.forward_pdf_class, s.self_loop_pdf_class});
  return max_class + 1;
}

}  // namespace nnet3
