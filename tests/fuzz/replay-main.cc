// Replays fuzz inputs through a target without libFuzzer: the regression
// test of the fuzz corpora (tests/fuzz/meson.build). Each argument is a file
// or a directory (every regular file in it, in name order). A target that
// crashes, aborts or lets an exception other than UserError escape fails
// the test; otherwise it prints how many inputs it ran and exits 0.
//
// Usage: fuzz-replay-<target> DIR-OR-FILE...
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

std::vector<std::string> ListInputs(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    std::fprintf(stderr, "replay: cannot read '%s'\n", path.c_str());
    std::exit(1);
  }
  if (!S_ISDIR(st.st_mode)) return {path};
  std::vector<std::string> files;
  DIR *dir = opendir(path.c_str());
  if (dir == nullptr) return files;
  while (struct dirent *e = readdir(dir)) {
    std::string name = e->d_name;
    if (name[0] == '.') continue;
    std::string full = path + "/" + name;
    if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      files.push_back(full);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char *argv[]) {
  if (argc < 2) {
    std::fprintf(stderr, "Usage: %s DIR-OR-FILE...\n", argv[0]);
    return 1;
  }
  size_t count = 0;
  for (int i = 1; i < argc; i++) {
    for (const std::string &file : ListInputs(argv[i])) {
      std::ifstream is(file, std::ios::binary);
      std::vector<char> bytes((std::istreambuf_iterator<char>(is)),
                              std::istreambuf_iterator<char>());
      std::fprintf(stderr, "replay: %s\n", file.c_str());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                             bytes.size());
      count++;
    }
  }
  std::printf("replayed %zu inputs\n", count);
  return count > 0 ? 0 : 1;
}
