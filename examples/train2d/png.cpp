#include "png.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace train2d {
namespace {

uint32_t crc32(const unsigned char *data, size_t n, uint32_t crc = 0) {
  static uint32_t table[256];
  static bool ready = false;
  if (!ready) {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    ready = true;
  }
  crc = ~crc;
  for (size_t i = 0; i < n; ++i)
    crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

void putBigEndian(std::vector<unsigned char> &out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back((v >> shift) & 0xFF);
}

void appendChunk(std::vector<unsigned char> &png, const char type[4],
                 const std::vector<unsigned char> &data) {
  putBigEndian(png, uint32_t(data.size()));
  size_t start = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), data.begin(), data.end());
  putBigEndian(png, crc32(&png[start], png.size() - start));
}

} // namespace

bool writePng(const std::string &path, int width, int height,
              const std::vector<unsigned char> &rgb) {
  // Scanlines, each behind filter type 0 (none).
  std::vector<unsigned char> raw;
  raw.reserve(size_t(height) * (1 + 3 * size_t(width)));
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);
    const unsigned char *row = &rgb[size_t(y) * width * 3];
    raw.insert(raw.end(), row, row + 3 * size_t(width));
  }

  // zlib: header, stored blocks of at most 65535 bytes, Adler-32.
  std::vector<unsigned char> z = {0x78, 0x01};
  size_t pos = 0;
  do {
    size_t len = raw.size() - pos < 65535 ? raw.size() - pos : 65535;
    bool last = pos + len == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(len & 0xFF);
    z.push_back(len >> 8);
    z.push_back(~len & 0xFF);
    z.push_back((~len >> 8) & 0xFF);
    z.insert(z.end(), raw.begin() + pos, raw.begin() + pos + len);
    pos += len;
  } while (pos < raw.size());
  uint32_t a = 1, b = 0;
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  putBigEndian(z, (b << 16) | a);

  std::vector<unsigned char> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<unsigned char> header;
  putBigEndian(header, uint32_t(width));
  putBigEndian(header, uint32_t(height));
  header.insert(header.end(), {8, 2, 0, 0, 0}); // 8-bit, RGB, no interlace
  appendChunk(png, "IHDR", header);
  appendChunk(png, "IDAT", z);
  appendChunk(png, "IEND", {});

  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "train2d: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  bool ok = std::fwrite(png.data(), 1, png.size(), f) == png.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok)
    std::fprintf(stderr, "train2d: error writing %s\n", path.c_str());
  return ok;
}

} // namespace train2d
