#include "fstext/ilabel-info.h"

#include <algorithm>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

namespace {

// Entries are short (a phone window, a disambiguation symbol): one longer
// than this is a corrupted file.
constexpr int32_t kMaxEntryLength = 1000;

size_t HashSequence(const int32_t *first, const int32_t *last) {
  uint64_t h = 0x2545F4914F6CDD1DULL;
  for (; first != last; ++first)
    h = (h ^ static_cast<uint32_t>(*first)) * 0x9E3779B97F4A7C15ULL;
  return static_cast<size_t>(h ^ (h >> 29));
}

// Reads one Kaldi integer vector onto the end of *data.
void ReadEntry(std::istream &is, bool binary, std::vector<int32_t> *data) {
  if (!binary) {
    std::vector<int32_t> entry;
    ReadIntegerVector(is, binary, &entry);
    if (entry.size() > static_cast<size_t>(kMaxEntryLength))
      NNET3_ERR << "Reading ilabel-info: an entry of " << entry.size()
                << " integers (corrupted file?)";
    data->insert(data->end(), entry.begin(), entry.end());
    return;
  }
  char size_byte;
  int32_t n;
  if (!is.get(size_byte) || size_byte != sizeof(int32_t) ||
      !is.read(reinterpret_cast<char *>(&n), sizeof(n)) || n < 0 ||
      n > kMaxEntryLength)
    NNET3_ERR << "Reading ilabel-info: expected an integer vector of at most "
              << kMaxEntryLength << " int32s (corrupted or truncated file?)";
  const size_t old_size = data->size();
  data->resize(old_size + n);
  if (n > 0 && !is.read(reinterpret_cast<char *>(data->data() + old_size),
                        sizeof(int32_t) * n))
    NNET3_ERR << "Reading ilabel-info: the file ends inside an entry";
}

}  // namespace

IntSequenceList::IntSequenceList(
    const std::vector<std::vector<int32_t>> &seqs) {
  for (const auto &seq : seqs) Append(seq);
}

IntSequenceList::Entry IntSequenceList::operator[](int32_t i) const {
  NNET3_ASSERT(i >= 0 && i < Size());
  const int32_t *base = data_.data();
  return {base + (i == 0 ? 0 : ends_[i - 1]), base + ends_[i]};
}

void IntSequenceList::Append(const int32_t *first, const int32_t *last) {
  data_.insert(data_.end(), first, last);
  ends_.push_back(static_cast<uint32_t>(data_.size()));
}

void IntSequenceList::Clear() {
  data_.clear();
  ends_.clear();
}

void IntSequenceList::Swap(IntSequenceList *other) {
  data_.swap(other->data_);
  ends_.swap(other->ends_);
}

void IntSequenceList::Read(std::istream &is, bool binary) {
  Clear();
  int32_t size;
  ReadBasicType(is, binary, &size);
  // An entry takes at least 4 bytes ("[ ]\n"; binary: size byte + count).
  ends_.reserve(CheckCountFits(is, size, 4, "The number of ilabels"));
  for (int32_t i = 0; i < size; i++) {
    ReadEntry(is, binary, &data_);
    ends_.push_back(static_cast<uint32_t>(data_.size()));
  }
}

void IntSequenceList::Write(std::ostream &os, bool binary) const {
  WriteBasicType(os, binary, Size());
  for (int32_t i = 0; i < Size(); i++) {
    const Entry entry = (*this)[i];
    const int32_t n = static_cast<int32_t>(entry.size());
    if (binary) {
      os.put(static_cast<char>(sizeof(int32_t)));
      os.write(reinterpret_cast<const char *>(&n), sizeof(n));
      os.write(reinterpret_cast<const char *>(entry.first),
               sizeof(int32_t) * n);
    } else {
      os << "[ ";
      for (int32_t x : entry) os << x << " ";
      os << "]\n";
    }
  }
  if (os.fail()) NNET3_ERR << "Write failure writing ilabel-info";
}

int32_t SequenceTable::FindOrAdd(const std::vector<int32_t> &key,
                                 IntSequenceList *list) {
  if (slots_.empty()) slots_.assign(64, -1);
  const size_t mask = slots_.size() - 1;
  const int32_t *key_first = key.data(), *key_last = key_first + key.size();
  size_t i = HashSequence(key_first, key_last) & mask;
  for (; slots_[i] != -1; i = (i + 1) & mask) {
    const IntSequenceList::Entry entry = (*list)[slots_[i]];
    if (std::equal(entry.begin(), entry.end(), key_first, key_last))
      return slots_[i];
  }
  const int32_t index = list->Size();
  list->Append(key);
  slots_[i] = index;
  if (static_cast<size_t>(list->Size()) * 2 > slots_.size()) Grow(*list);
  return index;
}

void SequenceTable::Grow(const IntSequenceList &list) {
  slots_.assign(slots_.size() * 2, -1);
  const size_t mask = slots_.size() - 1;
  for (int32_t index = 0; index < list.Size(); index++) {
    const IntSequenceList::Entry entry = list[index];
    size_t i = HashSequence(entry.begin(), entry.end()) & mask;
    while (slots_[i] != -1) i = (i + 1) & mask;
    slots_[i] = index;
  }
}

}  // namespace nnet3
