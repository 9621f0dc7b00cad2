#include "mapped_frames.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/file_chunks.hpp"

namespace psfsim::h5 {
namespace {

// Four threads did best on the H200 host's tmpfs, of 1, 2, 4 and 8 (bench/mapped_copy_bench.cpp,
// pages faulted in as here; bench/results/2026-11-30-writer-vs-dd.md).
// Below 16 MiB a write is done before more threads would have started.
constexpr std::size_t copy_threads = 4;
constexpr std::size_t parallel_bytes = std::size_t{16} << 20;

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

[[noreturn]] void fail(const std::string& what, int error) {
  throw RuntimeFailure("cannot " + what + ": " + std::strerror(error));
}

// Faults the destination's pages in one call each, rather than one page fault per page, and
// turns a page that cannot be had into an error instead of SIGBUS. Kernels before 5.14 do
// not know the advice: their copy faults page by page.
void populate(unsigned char* begin, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const auto page = static_cast<std::uintptr_t>(page_size());
  const auto lo = reinterpret_cast<std::uintptr_t>(begin) / page * page;
  const auto hi = (reinterpret_cast<std::uintptr_t>(begin) + bytes + page - 1) / page * page;
  if (::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_POPULATE_WRITE) != 0 && errno != EINVAL)
    fail("allocate the file's pages for /psf's frames", errno);
#else
  (void)begin;
  (void)bytes;
#endif
}

}  // namespace

MappedFrames::MappedFrames(const std::filesystem::path& file, hid_t psf, const PsfLayout& layout) {
  const std::size_t real = bytes_per_real(layout.precision);
  const std::size_t k = layout.edge;
  const std::size_t row_bytes = k * real;
  frame_bytes_ = k * row_bytes;
  const ChunkShape shape = psf_chunk_shape(k, real, layout.frames);
  region_begin_ = SIZE_MAX;
  // Chunks in the frames' byte order: by frame, then (a split frame) by rows.
  const auto add = [&](std::size_t frame, std::size_t row, std::size_t flat, std::size_t bytes) {
    const hsize_t offset[3] = {frame, row, 0};
    unsigned filters = 0;
    haddr_t address = HADDR_UNDEF;
    hsize_t stored = 0;
    if (H5Dget_chunk_info_by_coord(psf, offset, &filters, &address, &stored) < 0 ||
        address == HADDR_UNDEF)
      throw RuntimeFailure("cannot find where /psf's frame " + std::to_string(frame) +
                           " lies in the file");
    const auto at = static_cast<std::size_t>(address);
    region_begin_ = std::min(region_begin_, at);
    region_end_ = std::max(region_end_, at + static_cast<std::size_t>(stored));
    if (!spans_.empty()) {
      Span& last = spans_.back();
      if (last.flat + last.bytes == flat && last.address + last.bytes == at) {
        last.bytes += bytes;
        return;
      }
    }
    spans_.push_back({flat, at, bytes});
  };
  if (shape.rows == k) {
    for (std::size_t f = 0; f < layout.frames; f += shape.frames)
      add(f, 0, f * frame_bytes_, std::min(shape.frames, layout.frames - f) * frame_bytes_);
  } else {
    for (std::size_t f = 0; f < layout.frames; ++f)
      for (std::size_t r = 0; r < k; r += shape.rows)
        add(f, r, f * frame_bytes_ + r * row_bytes, std::min(shape.rows, k - r) * row_bytes);
  }
  fd_ = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
  if (fd_ < 0) fail("open the file to write /psf's frames", errno);
}

MappedFrames::~MappedFrames() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t MappedFrames::span_holding(std::size_t flat) const {
  const auto after = std::upper_bound(spans_.begin(), spans_.end(), flat,
                                      [](std::size_t f, const Span& s) { return f < s.flat; });
  return static_cast<std::size_t>(after - spans_.begin()) - 1;
}

MappedFrames::FileRange MappedFrames::file_range(std::size_t first, std::size_t count) const {
  const std::size_t lo = first * frame_bytes_, hi = (first + count) * frame_bytes_;
  FileRange range;
  for (std::size_t s = span_holding(lo); s < spans_.size() && spans_[s].flat < hi; ++s) {
    const Span& span = spans_[s];
    range.begin = std::min(range.begin, span.address + (std::max(lo, span.flat) - span.flat));
    range.end = std::max(range.end, span.address + std::min(span.bytes, hi - span.flat));
  }
  return range;
}

std::size_t MappedFrames::file_end(std::size_t first, std::size_t count) const {
  return count == 0 ? region_begin_ : file_range(first, count).end;
}

void MappedFrames::write(std::size_t first, std::size_t count, const void* data) const {
  if (count == 0) return;
  const std::size_t lo = first * frame_bytes_, hi = (first + count) * frame_bytes_;
  const FileRange range = file_range(first, count);
  const std::size_t map_begin = range.begin / page_size() * page_size();
  const std::size_t map_bytes = range.end - map_begin;
  void* mapped = ::mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                        static_cast<off_t>(map_begin));
  if (mapped == MAP_FAILED) fail("map the file to write /psf's frames", errno);
  auto* base = static_cast<unsigned char*>(mapped);
  const auto* source = static_cast<const unsigned char*>(data);

  // The bytes [lo + a, lo + b) of the frames, wherever their spans lie.
  const auto copy = [&](std::size_t a, std::size_t b) {
    for (std::size_t s = span_holding(lo + a); a < b; ++s) {
      const Span& span = spans_[s];
      const std::size_t within = lo + a - span.flat;
      const std::size_t bytes = std::min(b - a, span.bytes - within);
      unsigned char* target = base + (span.address + within - map_begin);
      populate(target, bytes);
      std::memcpy(target, source + a, bytes);
      a += bytes;
    }
  };
  try {
    const std::size_t bytes = hi - lo;
    for_contiguous_runs(bytes, copy, bytes >= parallel_bytes ? copy_threads : 1);
  } catch (...) {
    ::munmap(mapped, map_bytes);
    throw;
  }
  ::munmap(mapped, map_bytes);
}

}  // namespace psfsim::h5
