// ali-to-phones: turns alignments (transition-ids) into phone sequences,
// per-frame phones, (phone, length) pairs or a CTM (Kaldi's tool of the
// same name).
#include <cstdint>
#include <ios>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "compute/am-nnet-simple.h"
#include "hmm/split-to-phones.h"
#include "util/kaldi-io.h"
#include "util/pair-vector-holder.h"
#include "util/table-types.h"

namespace {

using namespace nnet3;

const char *const kUsage =
    "Convert model-level alignments to phone-sequences (in integer, not "
    "text, form)\n"
    "Usage:  ali-to-phones  [options] <model> <alignments-rspecifier> "
    "<phone-transcript-wspecifier|ctm-wxfilename>\n"
    "e.g.: \n"
    " ali-to-phones 1.mdl ark:1.ali ark:-\n"
    "or:\n"
    " ali-to-phones --ctm-output 1.mdl ark:1.ali 1.ctm\n"
    "See also: show-alignments, ali-to-pdf\n";

struct Options {
  bool per_frame = false, write_lengths = false, ctm_output = false;
  float frame_shift = 0.01f;
  void Register(OptionsRegistry *po) {
    po->Register("ctm-output", &ctm_output,
                 "If true, output the alignments in ctm format (the "
                 "confidences will be set to 1)");
    po->Register("frame-shift", &frame_shift,
                 "frame shift used to control the times of the ctm output");
    po->Register("per-frame", &per_frame,
                 "If true, write out the frame-level phone alignment (else "
                 "phone sequence)");
    po->Register("write-lengths", &write_lengths,
                 "If true, write the #frames for each phone (different "
                 "format)");
  }
};

// "key 1 start duration phone" per phone, times in float as Kaldi's.
void WriteCtm(const std::string &key,
              const std::vector<std::pair<int32_t, int32_t>> &phones,
              float frame_shift, std::ostream &os) {
  float start = 0.0f;
  for (const auto &p : phones) {
    os << key << " 1 " << start << " " << (frame_shift * p.second) << " "
       << p.first << '\n';
    start += frame_shift * p.second;
  }
}

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    Options opts;
    opts.Register(&po);
    po.Read(argc, argv);
    if (opts.per_frame && opts.write_lengths)
      NNET3_ERR << "--per-frame and --write-lengths cannot be used together";
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    TransitionModel trans_model;
    ReadTransitionModel(po.GetArg(1), &trans_model);
    SequentialInt32VectorReader reader(po.GetArg(2));
    Int32VectorWriter phones_writer;
    Int32PairVectorWriter pair_writer;
    Output ctm;
    if (opts.ctm_output) {
      ctm.Open(po.GetArg(3), /*binary=*/false, /*write_header=*/false);
      ctm.Stream() << std::fixed;
      // Compared in double, as Kaldi: the default 0.01f is below 0.01, so
      // the default CTM has three decimals.
      ctm.Stream().precision(opts.frame_shift >= 0.01 ? 2 : 3);
    } else if (opts.write_lengths) {
      pair_writer.Open(po.GetArg(3));
    } else {
      phones_writer.Open(po.GetArg(3));
    }
    int64_t n_done = 0;
    for (; !reader.Done(); reader.Next(), ++n_done) {
      const std::string key = reader.Key();
      const std::vector<int32_t> &alignment = reader.Value();
      CheckAlignment(trans_model, alignment, key);
      std::vector<std::vector<int32_t>> split;
      SplitToPhones(trans_model, alignment, &split);
      std::vector<std::pair<int32_t, int32_t>> lengths;  // (phone, frames)
      for (const std::vector<int32_t> &piece : split)
        lengths.emplace_back(trans_model.TransitionIdToPhone(piece[0]),
                             static_cast<int32_t>(piece.size()));
      if (opts.ctm_output) {
        WriteCtm(key, lengths, opts.frame_shift, ctm.Stream());
      } else if (opts.write_lengths) {
        pair_writer.Write(key, lengths);
      } else {
        std::vector<int32_t> phones;
        for (const auto &p : lengths)
          phones.insert(phones.end(), opts.per_frame ? p.second : 1, p.first);
        phones_writer.Write(key, phones);
      }
    }
    reader.Close();
    if (ctm.IsOpen()) ctm.Close();
    if (pair_writer.IsOpen()) pair_writer.Close();
    if (phones_writer.IsOpen()) phones_writer.Close();
    NNET3_LOG << "Done " << n_done << " utterances.";
    return 0;
  });
}
