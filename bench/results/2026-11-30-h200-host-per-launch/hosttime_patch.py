"""Wraps FORWARD::render and BACKWARD::render of rewritten rasterizer copies
in a host timer printed at exit (a measurement only, never committed as code)."""
import sys, re
timer = r'''
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
namespace {
struct DwHostTotal {
  const char *name; std::vector<double> v;
  ~DwHostTotal() { if (v.size() < 100) return; std::vector<double> w(v.begin() + 50, v.end()); std::sort(w.begin(), w.end());
    double s = 0; for (double x : w) s += x; std::fprintf(stderr, "HOSTTIME %s %s calls %zu first %.1f us; after 50: median %.3f mean %.3f p10 %.3f p90 %.3f us\n", TAG, name, v.size(), v[0], w[w.size() / 2], s / w.size(), w[w.size() / 10], w[w.size() * 9 / 10]); }
};
struct DwHostTimer {
  DwHostTotal &t; std::chrono::steady_clock::time_point s = std::chrono::steady_clock::now();
  ~DwHostTimer() { t.v.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count()); }
};
}
'''
for path, fn, tag in [(sys.argv[1], sys.argv[2], sys.argv[3])]:
    s = open(path).read()
    i = s.index("void %s::render(" % fn)
    j = s.index("\n{", i) + 2
    s = s[:i] + timer.replace("TAG", '"%s"' % tag) + "static DwHostTotal dw_total{\"%s\"};\n" % fn + s[i:j] + \
        "\n  DwHostTimer dw_timer{dw_total};\n" + s[j:]
    open(path, "w").write(s)
