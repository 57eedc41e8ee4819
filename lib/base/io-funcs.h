// Kaldi's token I/O: the building blocks of every binary and text format we
// read and write (matrices, models, egs, computations).
//
//   bool binary;
//   InitKaldiInputStream(is, &binary);        // consumes "\0B" if present
//   ExpectToken(is, binary, "<Nnet3>");
//   int32_t n; ReadBasicType(is, binary, &n);
//
// Conventions (reference 4.1): a token is written as the raw string plus one
// space in both modes. Integers in binary are a signed size byte (+sizeof for
// signed types, -sizeof for unsigned) followed by little-endian bytes; in text
// the decimal value and a space. Floats in binary are a size byte (4 or 8) and
// IEEE bytes, and a reader accepts either width; in text `os << f << " "`.
// bool is 'T'/'F' (plus a space in text).
//
// Every reader throws UserError on malformed or truncated input, with a
// message saying what was expected and what was found; callers that know the
// file or archive key add it (see util/kaldi-io.h).
#ifndef NNET3_BASE_IO_FUNCS_H_
#define NNET3_BASE_IO_FUNCS_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nnet3 {

// Writes "\0B" when binary; raises the precision to at least 7 either way.
void InitKaldiOutputStream(std::ostream &os, bool binary);
// Reads the optional "\0B" header; sets *binary. Returns false if the stream
// starts with '\0' that is not followed by 'B'.
bool InitKaldiInputStream(std::istream &is, bool *binary);

template <class T>
void WriteBasicType(std::ostream &os, bool binary, T t);
template <class T>
void ReadBasicType(std::istream &is, bool binary, T *t);

// Tokens: no whitespace inside; written followed by one space.
void WriteToken(std::ostream &os, bool binary, const std::string &token);
void ReadToken(std::istream &is, bool binary, std::string *token);
// Reads a token and throws unless it equals `token`. "Foo>" is accepted for
// "<Foo>", as in Kaldi.
void ExpectToken(std::istream &is, bool binary, const std::string &token);
// Returns the first character of the next token, skipping an initial '<'
// (so it returns 'L' for "<LearningRate>"); does not consume the token.
// Returns -1 at end of file.
int PeekToken(std::istream &is, bool binary);
// Returns the next token without consuming it (in text mode, leading
// whitespace is consumed).
std::string PeekWholeToken(std::istream &is, bool binary);

// Integer vectors: binary is a sizeof(T) byte, a raw int32 count and raw
// elements; text is "[ 1 2 3 ]\n".
template <class T>
void WriteIntegerVector(std::ostream &os, bool binary, const std::vector<T> &v);
template <class T>
void ReadIntegerVector(std::istream &is, bool binary, std::vector<T> *v);

// Pair vectors: the same binary layout with (first, second) pairs; text
// "[ 1,2 3,4 ]\n".
template <class T>
void WriteIntegerPairVector(std::ostream &os, bool binary,
                            const std::vector<std::pair<T, T>> &v);
template <class T>
void ReadIntegerPairVector(std::istream &is, bool binary,
                           std::vector<std::pair<T, T>> *v);

// Throws UserError describing the stream position if `is` has failed.
void CheckStream(std::istream &is, const char *what);

// Counts read from a file (rows, elements, components, list lengths) must
// not make a reader allocate more than the file can hold: a 20-byte file
// may not ask for 16 GB.
//
// StreamBytesLeft returns the bytes `is` can still deliver: known for string
// streams and for regular files (util/kaldi-io.h's inputs, including
// standard input redirected from a file), -1 when unknown (pipes,
// terminals, other stream buffers).
int64_t StreamBytesLeft(std::istream &is);
// Throws UserError ("<what> is N, but only M bytes are left ...") when
// `count` is negative, or when the stream is known to hold fewer than
// count * min_bytes_each bytes. Returns how many items a reader may reserve
// up front: `count`, or at most kUnknownSizeReserve when the stream's size
// is unknown (a reader then grows its memory only as items arrive).
int64_t CheckCountFits(std::istream &is, int64_t count, int64_t min_bytes_each,
                       const std::string &what);
constexpr int64_t kUnknownSizeReserve = 4096;

// Reads a whitespace-delimited word as a float (inf, -inf, nan in any case
// too, as Kaldi's); false at end of input, UserError naming a non-number.
bool ReadTextFloat(std::istream &is, double *value);

}  // namespace nnet3

#include "base/io-funcs-inl.h"

#endif  // NNET3_BASE_IO_FUNCS_H_
