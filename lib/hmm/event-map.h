// Kaldi's EventMap: the decision tree inside a ContextDependency (a "tree"
// file). An event is a list of (key, value) pairs sorted by key; for a tree,
// key -1 (kPdfClass) holds the pdf-class and keys 0..N-1 the phones of the
// context window. A map answers an event with an integer (the pdf).
//
//   std::unique_ptr<EventMap> map = EventMap::Read(is, binary);
//   EventAnswerType pdf;
//   if (map->Map({{kPdfClass, 1}, {0, 12}}, &pdf)) ...   // exact answer
//   std::vector<EventAnswerType> pdfs;
//   map->MultiMap({{0, 12}}, &pdfs);    // every answer, keys left free
//   EventMap::Write(os, binary, map.get());
//
// Three kinds of node, written as Kaldi writes them:
//   ConstantEventMap  "CE answer"
//   TableEventMap     "TE key size ( child child ... )" (a child may be
//                     "NULL"; text: a newline after ")")
//   SplitEventMap     "SE key [ yes-values ] { yes-child no-child }" (the
//                     values as an integer vector; text: a newline after
//                     "}")
// Reading then writing gives back the same bytes, binary and text. A
// malformed tree (unknown node, truncated, a yes-set that is not sorted
// and unique, nesting deeper than kMaxEventMapDepth) is a UserError.
#ifndef NNET3_HMM_EVENT_MAP_H_
#define NNET3_HMM_EVENT_MAP_H_

#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

using EventKeyType = int32_t;
using EventValueType = int32_t;
using EventAnswerType = int32_t;
// Sorted by key, keys unique.
using EventType = std::vector<std::pair<EventKeyType, EventValueType>>;

// The key under which a tree's events hold the pdf-class.
constexpr EventKeyType kPdfClass = -1;
// Trees Kaldi builds are a few dozen levels deep; this bounds the recursion
// on a corrupted file.
constexpr int32_t kMaxEventMapDepth = 10000;

// "1:5 2:7" for messages.
std::string EventTypeToString(const EventType &event);

class EventMap {
 public:
  virtual ~EventMap() = default;

  // The answer for `event`; false if the map needs a key the event lacks or
  // reaches an empty table entry.
  virtual bool Map(const EventType &event, EventAnswerType *answer) const = 0;
  // Appends every answer the map can give for events that agree with
  // `event` on its keys (keys it lacks may take any value).
  virtual void MultiMap(const EventType &event,
                        std::vector<EventAnswerType> *answers) const = 0;
  // The children (none for a constant; a table's non-null entries).
  virtual void GetChildren(std::vector<const EventMap *> *children) const = 0;
  virtual std::unique_ptr<EventMap> Copy() const = 0;
  virtual void Write(std::ostream &os, bool binary) const = 0;

  // The largest answer anywhere in the map; false if it has none.
  bool MaxResult(EventAnswerType *answer) const;

  // Reads one node and its children; null for "NULL".
  static std::unique_ptr<EventMap> Read(std::istream &is, bool binary);
  // Writes `map`, or "NULL" when it is null.
  static void Write(std::ostream &os, bool binary, const EventMap *map);
  // The value of `key` in the sorted `event`; false if absent.
  static bool Lookup(const EventType &event, EventKeyType key,
                     EventValueType *value);
};

class ConstantEventMap : public EventMap {
 public:
  explicit ConstantEventMap(EventAnswerType answer) : answer_(answer) {}
  bool Map(const EventType &event, EventAnswerType *answer) const override;
  void MultiMap(const EventType &event,
                std::vector<EventAnswerType> *answers) const override;
  void GetChildren(std::vector<const EventMap *> *children) const override;
  std::unique_ptr<EventMap> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;
  EventAnswerType Answer() const { return answer_; }

 private:
  EventAnswerType answer_;
};

// Branches on the value of one key: entry v answers events whose key has
// value v.
class TableEventMap : public EventMap {
 public:
  TableEventMap(EventKeyType key, std::vector<std::unique_ptr<EventMap>> table);
  bool Map(const EventType &event, EventAnswerType *answer) const override;
  void MultiMap(const EventType &event,
                std::vector<EventAnswerType> *answers) const override;
  void GetChildren(std::vector<const EventMap *> *children) const override;
  std::unique_ptr<EventMap> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;

 private:
  EventKeyType key_;
  std::vector<std::unique_ptr<EventMap>> table_;
};

// A question: is the value of `key` in `yes_set`? Both answers are
// non-null.
class SplitEventMap : public EventMap {
 public:
  // `yes_set` sorted and unique.
  SplitEventMap(EventKeyType key, std::vector<EventValueType> yes_set,
                std::unique_ptr<EventMap> yes, std::unique_ptr<EventMap> no);
  bool Map(const EventType &event, EventAnswerType *answer) const override;
  void MultiMap(const EventType &event,
                std::vector<EventAnswerType> *answers) const override;
  void GetChildren(std::vector<const EventMap *> *children) const override;
  std::unique_ptr<EventMap> Copy() const override;
  void Write(std::ostream &os, bool binary) const override;

 private:
  bool IsYes(EventValueType value) const;

  EventKeyType key_;
  std::vector<EventValueType> yes_set_;
  // For IsYes: the set's range, and whether each value in it is a member
  // when that is compact (else binary search); empty when contiguous.
  EventValueType lowest_ = 1, highest_ = 0;
  std::vector<bool> in_set_;
  bool contiguous_ = false;
  std::unique_ptr<EventMap> yes_;
  std::unique_ptr<EventMap> no_;
};

}  // namespace nnet3

#endif  // NNET3_HMM_EVENT_MAP_H_
