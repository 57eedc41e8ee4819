// align-text: aligns two transcripts of each utterance word by word with
// Kaldi's edit-distance alignment (Kaldi's tool of the same name; the
// scoring scripts' per-utterance details come from it).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "util/edit-distance.h"
#include "util/token-holder.h"

namespace {

const char *const kUsage =
    "Computes alignment between two sentences with the same key in the\n"
    "two given input text-rspecifiers. The current implementation uses\n"
    "Levenshtein distance as the distance metric.\n"
    "\n"
    "The input text file looks like follows:\n"
    "  key1 a b c\n"
    "  key2 d e\n"
    "\n"
    "The output alignment file looks like follows:\n"
    "  key1 a a ; b <eps> ; c c \n"
    "  key2 d f ; e e \n"
    "where the aligned pairs are separated by \";\"\n"
    "\n"
    "Usage: align-text [options] <text1-rspecifier> <text2-rspecifier> \\\n"
    "                              <alignment-wspecifier>\n"
    " e.g.: align-text ark:text1.txt ark:text2.txt ark,t:alignment.txt\n"
    "See also: compute-wer\n";

// Kaldi's rule: no ASCII control characters (other bytes are allowed, so
// that UTF-8 text passes).
bool IsPrintable(const std::string &word) {
  for (unsigned char c : word)
    if (c < 0x20 || c == 0x7f || c == 0xff) return false;
  return true;
}

void CheckSentence(const std::vector<std::string> &words, const char *which,
                   const std::string &key, const std::string &special) {
  if (!std::all_of(words.begin(), words.end(), IsPrintable))
    NNET3_ERR << "In " << which << ", the utterance " << key
              << " contains unprintable characters. That means there is a "
                 "problem with the text (such as incorrect encoding).";
  if (std::find(words.begin(), words.end(), special) != words.end())
    NNET3_ERR << "In " << which << ", the utterance " << key
              << " contains the special symbol '" << special
              << "'. This is not allowed.";
}

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    std::string special_symbol = "<eps>", separator = ";";
    po.Register("special-symbol", &special_symbol,
                "Special symbol to be aligned with the inserted or deleted "
                "words. Your sentences should not contain this symbol.");
    po.Register("separator", &separator,
                "Separator for each aligned pair in the output alignment "
                "file.  Note: it should not be necessary to change this even "
                "if your sentences contain ';', because to parse the output "
                "of this program you can just split on space and then assert "
                "that every third token is ';'.");
    po.Read(argc, argv);
    if (po.NumArgs() != 3) {
      po.PrintUsage();
      return 1;
    }
    const std::string text1_rspecifier = po.GetArg(1),
                      text2_rspecifier = po.GetArg(2);
    SequentialTokenVectorReader text1_reader(text1_rspecifier);
    RandomAccessTokenVectorReader text2_reader(text2_rspecifier);
    TokenVectorWriter writer(po.GetArg(3));
    int32_t n_done = 0, n_fail = 0;
    for (; !text1_reader.Done(); text1_reader.Next()) {
      const std::string key = text1_reader.Key();
      if (!text2_reader.HasKey(key)) {
        NNET3_WARN << "Key " << key << " is in " << text1_rspecifier
                   << ", but not in " << text2_rspecifier;
        ++n_fail;
        continue;
      }
      const std::vector<std::string> &text1 = text1_reader.Value();
      const std::vector<std::string> &text2 = text2_reader.Value(key);
      CheckSentence(text1, "text1", key, special_symbol);
      CheckSentence(text2, "text2", key, special_symbol);
      std::vector<std::pair<std::string, std::string>> aligned;
      LevenshteinAlignment(text1, text2, special_symbol, &aligned);
      std::vector<std::string> tokens;
      for (size_t i = 0; i < aligned.size(); ++i) {
        if (i != 0) tokens.push_back(separator);
        tokens.push_back(aligned[i].first);
        tokens.push_back(aligned[i].second);
      }
      writer.Write(key, tokens);
      ++n_done;
    }
    text1_reader.Close();
    writer.Close();
    NNET3_LOG << "Done " << n_done << " sentences, failed for " << n_fail;
    return n_done != 0 ? 0 : 1;
  });
}
