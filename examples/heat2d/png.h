// png.h - writes an 8-bit RGB image as a PNG file (uncompressed deflate
// blocks), enough for the example's picture without an image library.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace heat2d_example {

inline std::uint32_t crc32(const std::uint8_t *data, std::size_t n, std::uint32_t crc = 0) {
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) {
    crc ^= data[i];
    for (int k = 0; k < 8; ++k) {
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
  }
  return ~crc;
}

inline void putBigEndian(std::vector<std::uint8_t> &out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<std::uint8_t>(v >> shift));
  }
}

inline void appendChunk(std::vector<std::uint8_t> &file, const char type[4],
                        const std::vector<std::uint8_t> &data) {
  putBigEndian(file, static_cast<std::uint32_t>(data.size()));
  std::vector<std::uint8_t> typed(type, type + 4);
  typed.insert(typed.end(), data.begin(), data.end());
  file.insert(file.end(), typed.begin(), typed.end());
  putBigEndian(file, crc32(typed.data(), typed.size()));
}

/// Writes `rgb` (height rows of width RGB triples) to `path`; false on I/O error.
inline bool writePng(const std::string &path, int width, int height,
                     const std::vector<std::uint8_t> &rgb) {
  // Raw scanlines, each prefixed with filter type 0.
  std::vector<std::uint8_t> raw;
  raw.reserve(static_cast<std::size_t>(height) * (3 * width + 1));
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);
    const std::uint8_t *row = rgb.data() + static_cast<std::size_t>(y) * 3 * width;
    raw.insert(raw.end(), row, row + 3 * width);
  }
  // zlib stream of stored deflate blocks (at most 65535 bytes each).
  std::vector<std::uint8_t> z = {0x78, 0x01};
  std::uint32_t a = 1, b = 0;
  for (std::size_t pos = 0; pos < raw.size() || raw.empty();) {
    std::size_t len = std::min<std::size_t>(65535, raw.size() - pos);
    bool last = pos + len == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<std::uint8_t>(len));
    z.push_back(static_cast<std::uint8_t>(len >> 8));
    z.push_back(static_cast<std::uint8_t>(~len));
    z.push_back(static_cast<std::uint8_t>(~len >> 8));
    for (std::size_t i = pos; i < pos + len; ++i) {
      z.push_back(raw[i]);
      a = (a + raw[i]) % 65521;
      b = (b + a) % 65521;
    }
    pos += len;
    if (last) {
      break;
    }
  }
  putBigEndian(z, (b << 16) | a);

  std::vector<std::uint8_t> file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<std::uint8_t> header;
  putBigEndian(header, static_cast<std::uint32_t>(width));
  putBigEndian(header, static_cast<std::uint32_t>(height));
  header.insert(header.end(), {8, 2, 0, 0, 0}); // 8-bit RGB, no interlace
  appendChunk(file, "IHDR", header);
  appendChunk(file, "IDAT", z);
  appendChunk(file, "IEND", {});

  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    return false;
  }
  bool ok = std::fwrite(file.data(), 1, file.size(), f) == file.size();
  return std::fclose(f) == 0 && ok;
}

} // namespace heat2d_example
