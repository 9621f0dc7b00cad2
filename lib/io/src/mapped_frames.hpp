#pragma once
// /psf's uncompressed frames copied straight into the file's pages, on several threads.
//
// One thread writing through write(2) is the disk's speed at best: the file's lock admits
// one writer, and on tmpfs each page is allocated inside that lock (dd's rate). /psf's chunks
// are allocated when the dataset is created, so their places in the file are known; once the
// SpaceReservation has allocated a range, threads copy into a shared mapping of it with no
// lock between them, faster than dd into the same folder (bench/mapped_copy_bench.cpp;
// bench/results/2026-11-30-writer-vs-dd.md). HDF5 never reads or writes
// those bytes: it keeps only the chunks' addresses, which it wrote when it allocated them.
#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "psf_dataset.hpp"

namespace psfsim::h5 {

class MappedFrames {
 public:
  // Looks up where each of /psf's chunks lies (H5Dget_chunk_info_by_coord). `psf` must have
  // been created with its space allocated early (create_psf_dataset does, uncompressed).
  MappedFrames(const std::filesystem::path& file, hid_t psf, const PsfLayout& layout);
  MappedFrames(const MappedFrames&) = delete;
  MappedFrames& operator=(const MappedFrames&) = delete;
  ~MappedFrames();

  // The file range that holds every chunk: what the reservation allocates.
  [[nodiscard]] std::size_t region_begin() const { return region_begin_; }
  [[nodiscard]] std::size_t region_end() const { return region_end_; }
  // One past the last file byte that frames [first, first + count) occupy.
  [[nodiscard]] std::size_t file_end(std::size_t first, std::size_t count) const;

  // Copies frames [first, first + count) from `data` into their chunks. The range up to
  // file_end() must already be allocated, or a touched page past the file's end is SIGBUS.
  void write(std::size_t first, std::size_t count, const void* data) const;

 private:
  // A run of the frames' bytes (in frame, row, column order) that lies contiguously in the
  // file: a chunk, or several adjacent ones merged.
  struct Span {
    std::size_t flat = 0;     // offset in the frames' bytes
    std::size_t address = 0;  // offset in the file
    std::size_t bytes = 0;
  };
  [[nodiscard]] std::size_t span_holding(std::size_t flat) const;
  // The file bytes [begin, end) that frames [first, first + count) lie within (count > 0).
  struct FileRange {
    std::size_t begin = SIZE_MAX;
    std::size_t end = 0;
  };
  [[nodiscard]] FileRange file_range(std::size_t first, std::size_t count) const;

  std::vector<Span> spans_;  // ordered by `flat`, covering [0, B*K*K*real)
  std::size_t frame_bytes_ = 0;
  std::size_t region_begin_ = 0;
  std::size_t region_end_ = 0;
  int fd_ = -1;
};

}  // namespace psfsim::h5
