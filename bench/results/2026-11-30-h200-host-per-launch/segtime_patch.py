"""Times named statements of a rewritten render function (measurement only)."""
import sys
prelude = r'''
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
namespace {
struct DwSeg {
  const char *name; std::vector<double> v;
  ~DwSeg() { if (v.size() < 100) return; std::vector<double> w(v.begin() + 50, v.end()); std::sort(w.begin(), w.end());
    double s = 0; for (double x : w) s += x; std::fprintf(stderr, "SEGTIME %s %s calls %zu median %.3f mean %.3f p10 %.3f p90 %.3f us\n", TAG, name, v.size(), w[w.size() / 2], s / w.size(), w[w.size() / 10], w[w.size() * 9 / 10]); }
};
inline double dwSince(std::chrono::steady_clock::time_point s) { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count(); }
}
'''
path, fn, tag = sys.argv[1:4]
segs = [a.split("|") for a in sys.argv[4:]]
s = open(path).read()
i = s.index("void %s::render(" % fn)
body = s[i:]
decls = ""
for name, start, end in segs:
    a = body.index(start)
    a = body.rindex("\n", 0, a) + 1
    ins = "auto dw_s_%s = std::chrono::steady_clock::now();\n" % name
    body = body[:a] + ins + body[a:]
    b = body.index(end, body.index(start, a + len(ins))) + len(end)
    b = body.index(";", b - 1) + 1
    body = body[:b] + " dw_seg_%s.v.push_back(dwSince(dw_s_%s));" % (name, name) + body[b:]
    decls += "static DwSeg dw_seg_%s{\"%s\"};\n" % (name, name)
s = s[:i] + prelude.replace("TAG", '"%s"' % tag) + decls + body
open(path, "w").write(s)
