// wspecifier / rspecifier parsing: every option, both separators, and the
// invalid forms.
#include "util/table-specifier.h"

#include <catch2/catch.hpp>

using namespace nnet3;

TEST_CASE("wspecifiers", "[table-specifier]") {
  std::string ark, scp;
  WspecifierOptions opts;
  CHECK(ClassifyWspecifier("ark:foo.ark", &ark, &scp, &opts) ==
        WspecifierType::kArchiveWspecifier);
  CHECK(ark == "foo.ark");
  CHECK(scp.empty());
  CHECK(opts.binary);
  CHECK(!opts.flush);
  CHECK(!opts.permissive);

  CHECK(ClassifyWspecifier("ark,t:-", &ark, &scp, &opts) ==
        WspecifierType::kArchiveWspecifier);
  CHECK(ark == "-");
  CHECK(!opts.binary);
  CHECK(ClassifyWspecifier("ark, t:-", &ark, nullptr, &opts) ==
        WspecifierType::kArchiveWspecifier);
  CHECK(!opts.binary);
  CHECK(ClassifyWspecifier("t,b,ark:| gzip -c > x.gz", &ark, &scp, &opts) ==
        WspecifierType::kArchiveWspecifier);
  CHECK(ark == "| gzip -c > x.gz");
  CHECK(opts.binary);

  CHECK(ClassifyWspecifier("scp:out.scp", &ark, &scp, &opts) ==
        WspecifierType::kScriptWspecifier);
  CHECK(ark.empty());
  CHECK(scp == "out.scp");

  CHECK(ClassifyWspecifier("ark,scp,f:a.ark,b.scp", &ark, &scp, &opts) ==
        WspecifierType::kBothWspecifier);
  CHECK(ark == "a.ark");
  CHECK(scp == "b.scp");
  CHECK(opts.flush);
  // The target splits at the first comma.
  CHECK(ClassifyWspecifier("ark,scp:a.ark,b,c.scp", &ark, &scp, &opts) ==
        WspecifierType::kBothWspecifier);
  CHECK(ark == "a.ark");
  CHECK(scp == "b,c.scp");
  CHECK(ClassifyWspecifier("ark,scp,t,f,nf,p:a,b", &ark, &scp, &opts) ==
        WspecifierType::kBothWspecifier);
  CHECK(!opts.binary);
  CHECK(!opts.flush);
  CHECK(opts.permissive);
  CHECK(IsWspecifier("ark:-"));
}

TEST_CASE("invalid wspecifiers", "[table-specifier]") {
  for (const char *bad :
       {"scp,ark:a,b", "ark,ark:a", "scp,scp:a", "ark,scp:a.ark", "ark:foo ",
        "ark,x:foo", "foo.ark", "t:foo", "", "ark", "o,ark:foo", "ark,s:foo",
        "ark,scp,scp:a,b"}) {
    INFO(bad);
    std::string ark = "x", scp = "y";
    CHECK(ClassifyWspecifier(bad, &ark, &scp, nullptr) ==
          WspecifierType::kNoWspecifier);
    CHECK(!IsWspecifier(bad));
    CHECK(ark.empty());
    CHECK(scp.empty());
  }
}

TEST_CASE("rspecifiers", "[table-specifier]") {
  std::string rx;
  RspecifierOptions opts;
  CHECK(ClassifyRspecifier("ark:foo.ark", &rx, &opts) ==
        RspecifierType::kArchiveRspecifier);
  CHECK(rx == "foo.ark");
  CHECK(!opts.once);
  CHECK(!opts.sorted);
  CHECK(!opts.called_sorted);
  CHECK(!opts.permissive);
  CHECK(!opts.background);

  CHECK(ClassifyRspecifier("o, s, cs, p, bg, ark:gunzip -c foo.gz|", &rx,
                           &opts) == RspecifierType::kArchiveRspecifier);
  CHECK(rx == "gunzip -c foo.gz|");
  CHECK(opts.once);
  CHECK(opts.sorted);
  CHECK(opts.called_sorted);
  CHECK(opts.permissive);
  CHECK(opts.background);

  CHECK(ClassifyRspecifier("o,s,cs,p,no,ns,ncs,np,scp:x.scp", &rx, &opts) ==
        RspecifierType::kScriptRspecifier);
  CHECK(rx == "x.scp");
  CHECK(!opts.once);
  CHECK(!opts.sorted);
  CHECK(!opts.called_sorted);
  CHECK(!opts.permissive);

  // b and t are accepted and ignored.
  CHECK(ClassifyRspecifier("b,ark:-", &rx, &opts) ==
        RspecifierType::kArchiveRspecifier);
  CHECK(ClassifyRspecifier("ark,t:-", &rx, &opts) ==
        RspecifierType::kArchiveRspecifier);
  CHECK(rx == "-");
  // Only the first ':' separates: offsets in the target survive.
  CHECK(ClassifyRspecifier("scp:a:b.scp", &rx, nullptr) ==
        RspecifierType::kScriptRspecifier);
  CHECK(rx == "a:b.scp");
  CHECK(IsRspecifier("scp:-"));
}

TEST_CASE("invalid rspecifiers", "[table-specifier]") {
  for (const char *bad :
       {"ark,scp:a", "scp,ark:a", "ark,ark:a", "ark:foo ", "ark,f:foo",
        "ark,x:foo", "foo.ark", "s:foo", "", "gunzip -c foo |", "-"}) {
    INFO(bad);
    std::string rx = "x";
    CHECK(ClassifyRspecifier(bad, &rx, nullptr) ==
          RspecifierType::kNoRspecifier);
    CHECK(!IsRspecifier(bad));
    CHECK(rx.empty());
  }
}
