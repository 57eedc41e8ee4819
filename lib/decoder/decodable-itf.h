// DecodableInterface (Kaldi's itf/decodable-itf.h): what a decoder asks of
// the acoustic side. For a frame (0-based) and an index (a transition-id,
// the input label of a decoding graph's arc) it gives a scaled
// log-likelihood; larger is better, and the decoder turns it into the cost
// -LogLikelihood. NumFramesReady says how many frames can be asked for now
// (for a whole utterance: all of them); IsLastFrame(f) whether f is the
// utterance's last frame.
//
//   DecodableAmNnetSimple decodable(...);       // or any implementation
//   LatticeFasterDecoder decoder(fst, config);
//   decoder.Decode(&decodable);
//
// Implementations: DecodableAmNnetSimple (decodable-am-nnet-simple.h). A
// decodable is used by one decoder at a time and need not be thread-safe.
#ifndef NNET3_DECODER_DECODABLE_ITF_H_
#define NNET3_DECODER_DECODABLE_ITF_H_

#include <cstdint>

namespace nnet3 {

class DecodableInterface {
 public:
  virtual ~DecodableInterface() = default;
  // The scaled log-likelihood of `index` (1 .. NumIndices()) at `frame`
  // (0 .. NumFramesReady() - 1).
  virtual float LogLikelihood(int32_t frame, int32_t index) = 0;
  virtual bool IsLastFrame(int32_t frame) const = 0;
  virtual int32_t NumFramesReady() const = 0;
  // The largest valid index (the number of transition-ids).
  virtual int32_t NumIndices() const = 0;
};

}  // namespace nnet3

#endif  // NNET3_DECODER_DECODABLE_ITF_H_
