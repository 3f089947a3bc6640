// Lists the site names registered by the rewritten translation units linked
// with it (no CUDA call: the registry is filled at static initialisation).
#include <cstdio>
#include <distwar/sites.h>
int main() {
  for (const std::string &Name : distwar::siteNames())
    std::printf("%s\n", Name.c_str());
}
