#include "hmm/event-map.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

namespace {

// The first character of the next node: in text after white space, in
// binary right here (a node there always follows a token's space or a
// number's bytes).
int PeekNode(std::istream &is, bool binary) {
  if (!binary) is >> std::ws;
  return is.peek();
}

std::unique_ptr<EventMap> ReadNode(std::istream &is, bool binary, int depth);

std::unique_ptr<EventMap> ReadTable(std::istream &is, bool binary, int depth) {
  ExpectToken(is, binary, "TE");
  EventKeyType key;
  ReadBasicType(is, binary, &key);
  uint32_t size;
  ReadBasicType(is, binary, &size);
  // Each entry takes at least "NULL " (5 bytes).
  CheckCountFits(is, size, 5, "The size of a TableEventMap");
  ExpectToken(is, binary, "(");
  std::vector<std::unique_ptr<EventMap>> table;
  table.reserve(std::min<uint32_t>(size, kUnknownSizeReserve));
  for (uint32_t i = 0; i < size; i++)
    table.push_back(ReadNode(is, binary, depth + 1));
  ExpectToken(is, binary, ")");
  return std::make_unique<TableEventMap>(key, std::move(table));
}

std::unique_ptr<EventMap> ReadSplit(std::istream &is, bool binary, int depth) {
  ExpectToken(is, binary, "SE");
  EventKeyType key;
  ReadBasicType(is, binary, &key);
  std::vector<EventValueType> yes_set;
  ReadIntegerVector(is, binary, &yes_set);
  for (size_t i = 1; i < yes_set.size(); i++)
    if (!(yes_set[i - 1] < yes_set[i]))
      NNET3_ERR << "Reading a tree: the yes-set of a SplitEventMap on key "
                << key << " is not sorted and unique (" << yes_set[i - 1]
                << " before " << yes_set[i] << ")";
  ExpectToken(is, binary, "{");
  std::unique_ptr<EventMap> yes = ReadNode(is, binary, depth + 1);
  std::unique_ptr<EventMap> no = ReadNode(is, binary, depth + 1);
  ExpectToken(is, binary, "}");
  if (!yes || !no)
    NNET3_ERR << "Reading a tree: a SplitEventMap on key " << key
              << " has a NULL answer";
  return std::make_unique<SplitEventMap>(key, std::move(yes_set),
                                         std::move(yes), std::move(no));
}

std::unique_ptr<EventMap> ReadNode(std::istream &is, bool binary, int depth) {
  if (depth > kMaxEventMapDepth)
    NNET3_ERR << "Reading a tree: nodes nested deeper than "
              << kMaxEventMapDepth << " (corrupted file?)";
  const int c = PeekNode(is, binary);
  switch (c) {
    case 'N':
      ExpectToken(is, binary, "NULL");
      return nullptr;
    case 'C': {
      ExpectToken(is, binary, "CE");
      EventAnswerType answer;
      ReadBasicType(is, binary, &answer);
      return std::make_unique<ConstantEventMap>(answer);
    }
    case 'T':
      return ReadTable(is, binary, depth);
    case 'S':
      return ReadSplit(is, binary, depth);
    default:
      break;
  }
  std::string found = c == EOF
                          ? std::string("end of file")
                          : "'" + std::string(1, static_cast<char>(c)) + "'";
  NNET3_ERR << "Reading a tree: expected an EventMap (CE, TE, SE or NULL), "
            << "found " << found;
  return nullptr;  // not reached
}

}  // namespace

std::string EventTypeToString(const EventType &event) {
  std::ostringstream ss;
  for (size_t i = 0; i < event.size(); i++)
    ss << (i == 0 ? "" : " ") << event[i].first << ":" << event[i].second;
  return ss.str();
}

bool EventMap::MaxResult(EventAnswerType *answer) const {
  std::vector<EventAnswerType> answers;
  MultiMap(EventType(), &answers);
  if (answers.empty()) return false;
  *answer = *std::max_element(answers.begin(), answers.end());
  return true;
}

std::unique_ptr<EventMap> EventMap::Read(std::istream &is, bool binary) {
  return ReadNode(is, binary, 0);
}

void EventMap::Write(std::ostream &os, bool binary, const EventMap *map) {
  if (map == nullptr)
    WriteToken(os, binary, "NULL");
  else
    map->Write(os, binary);
}

bool EventMap::Lookup(const EventType &event, EventKeyType key,
                      EventValueType *value) {
  auto it =
      std::lower_bound(event.begin(), event.end(), key,
                       [](const std::pair<EventKeyType, EventValueType> &p,
                          EventKeyType k) { return p.first < k; });
  if (it == event.end() || it->first != key) return false;
  *value = it->second;
  return true;
}

bool ConstantEventMap::Map(const EventType &, EventAnswerType *answer) const {
  *answer = answer_;
  return true;
}

void ConstantEventMap::MultiMap(const EventType &,
                                std::vector<EventAnswerType> *answers) const {
  answers->push_back(answer_);
}

void ConstantEventMap::GetChildren(
    std::vector<const EventMap *> *children) const {
  children->clear();
}

std::unique_ptr<EventMap> ConstantEventMap::Copy() const {
  return std::make_unique<ConstantEventMap>(answer_);
}

void ConstantEventMap::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "CE");
  WriteBasicType(os, binary, answer_);
}

TableEventMap::TableEventMap(EventKeyType key,
                             std::vector<std::unique_ptr<EventMap>> table)
    : key_(key), table_(std::move(table)) {}

bool TableEventMap::Map(const EventType &event, EventAnswerType *answer) const {
  *answer = -1;
  EventValueType value;
  if (!Lookup(event, key_, &value) || value < 0 ||
      static_cast<size_t>(value) >= table_.size() || !table_[value])
    return false;
  return table_[value]->Map(event, answer);
}

void TableEventMap::MultiMap(const EventType &event,
                             std::vector<EventAnswerType> *answers) const {
  EventValueType value;
  if (Lookup(event, key_, &value)) {
    if (value >= 0 && static_cast<size_t>(value) < table_.size() &&
        table_[value])
      table_[value]->MultiMap(event, answers);
    return;
  }
  for (const auto &child : table_)
    if (child) child->MultiMap(event, answers);
}

void TableEventMap::GetChildren(std::vector<const EventMap *> *children) const {
  children->clear();
  for (const auto &child : table_)
    if (child) children->push_back(child.get());
}

std::unique_ptr<EventMap> TableEventMap::Copy() const {
  std::vector<std::unique_ptr<EventMap>> table;
  for (const auto &child : table_)
    table.push_back(child ? child->Copy() : nullptr);
  return std::make_unique<TableEventMap>(key_, std::move(table));
}

void TableEventMap::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "TE");
  WriteBasicType(os, binary, key_);
  WriteBasicType(os, binary, static_cast<uint32_t>(table_.size()));
  WriteToken(os, binary, "(");
  for (const auto &child : table_) EventMap::Write(os, binary, child.get());
  WriteToken(os, binary, ")");
  if (!binary) os << '\n';
}

SplitEventMap::SplitEventMap(EventKeyType key,
                             std::vector<EventValueType> yes_set,
                             std::unique_ptr<EventMap> yes,
                             std::unique_ptr<EventMap> no)
    : key_(key),
      yes_set_(std::move(yes_set)),
      yes_(std::move(yes)),
      no_(std::move(no)) {
  NNET3_ASSERT(yes_ && no_);
  NNET3_ASSERT(std::is_sorted(yes_set_.begin(), yes_set_.end()));
  if (yes_set_.empty()) return;
  lowest_ = yes_set_.front();
  highest_ = yes_set_.back();
  const int64_t range = int64_t{highest_} - lowest_ + 1;
  contiguous_ = range == static_cast<int64_t>(yes_set_.size());
  // A bit per value in the range, where that is smaller than the list.
  if (!contiguous_ && range < static_cast<int64_t>(yes_set_.size()) * 32) {
    in_set_.assign(range, false);
    for (EventValueType v : yes_set_) in_set_[v - lowest_] = true;
  }
}

bool SplitEventMap::IsYes(EventValueType value) const {
  if (value < lowest_ || value > highest_) return false;
  if (contiguous_) return true;
  if (!in_set_.empty()) return in_set_[value - lowest_];
  return std::binary_search(yes_set_.begin(), yes_set_.end(), value);
}

bool SplitEventMap::Map(const EventType &event, EventAnswerType *answer) const {
  EventValueType value;
  if (!Lookup(event, key_, &value)) return false;
  return (IsYes(value) ? yes_ : no_)->Map(event, answer);
}

void SplitEventMap::MultiMap(const EventType &event,
                             std::vector<EventAnswerType> *answers) const {
  EventValueType value;
  if (Lookup(event, key_, &value)) {
    (IsYes(value) ? yes_ : no_)->MultiMap(event, answers);
  } else {
    yes_->MultiMap(event, answers);
    no_->MultiMap(event, answers);
  }
}

void SplitEventMap::GetChildren(std::vector<const EventMap *> *children) const {
  children->assign({yes_.get(), no_.get()});
}

std::unique_ptr<EventMap> SplitEventMap::Copy() const {
  return std::make_unique<SplitEventMap>(key_, yes_set_, yes_->Copy(),
                                         no_->Copy());
}

void SplitEventMap::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "SE");
  WriteBasicType(os, binary, key_);
  WriteIntegerVector(os, binary, yes_set_);
  WriteToken(os, binary, "{");
  yes_->Write(os, binary);
  no_->Write(os, binary);
  WriteToken(os, binary, "}");
  if (!binary) os << '\n';
}

}  // namespace nnet3
