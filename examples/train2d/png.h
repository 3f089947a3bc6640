// A dependency-free PNG writer: 8-bit RGB, zlib stream of stored (raw)
// deflate blocks. Files are larger than compressed PNGs, and every viewer
// reads them.
#pragma once

#include <string>
#include <vector>

namespace train2d {

// `rgb` holds width * height * 3 bytes, row-major, top row first. Returns
// false (and says why on stderr) when the file cannot be written.
bool writePng(const std::string &path, int width, int height,
              const std::vector<unsigned char> &rgb);

} // namespace train2d
