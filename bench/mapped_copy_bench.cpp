// The copy MappedFrames makes (lib/io/src/mapped_frames.cpp), alone: a file's space allocated
// ahead by fallocate in 32 MiB steps on one thread, and calls of frames copied behind it into
// a shared mapping by THREADS threads, each faulting its pages in with MADV_POPULATE_WRITE
// (POPULATE 1) or page by page (0). ZERO threads may first read the allocated pages in
// (MADV_POPULATE_READ, which zeroes them on tmpfs), and DELAY seconds may pass before the
// first call, as a backend's start does. Prints when the copies end. Compare with
// `dd if=/dev/zero of=FILE bs=4M count=...` into the same folder, in the same call.
//
//   psfsim_mapped_copy_bench FILE MIB THREADS [POPULATE=1 [ZERO=0 [DELAY=0 [CALL_MIB=64]]]]
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t step = std::size_t{32} << 20;

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s FILE MIB THREADS [POPULATE [ZERO [DELAY [CALL_MIB]]]]\n",
                 argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const std::size_t total = std::strtoull(argv[2], nullptr, 10) << 20;
  const int threads = std::atoi(argv[3]);
  const bool populate = argc <= 4 || std::atoi(argv[4]) != 0;
  const int zero_threads = argc > 5 ? std::atoi(argv[5]) : 0;
  const double delay = argc > 6 ? std::atof(argv[6]) : 0.0;
  const std::size_t call = (argc > 7 ? std::strtoull(argv[7], nullptr, 10) : 64) << 20;
  if (total == 0 || total % step != 0 || total % call != 0 || threads < 1 || call % threads)
    return std::fprintf(stderr, "MIB must be a multiple of 32 and of CALL_MIB\n"), 2;

  // Four calls' worth of frames, cycled, so that the source is not one hot buffer.
  std::vector<unsigned char> source(4 * call);
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 31);
  const auto t0 = Clock::now();
  const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) die("open");
  std::atomic<std::size_t> reserved{0}, next_zero{0};
  std::thread reservation([&] {
    for (std::size_t offset = 0; offset < total; offset += step) {
      if (::fallocate(fd, 0, static_cast<off_t>(offset), static_cast<off_t>(step)) != 0)
        die("fallocate");
      reserved = offset + step;
    }
  });
  std::vector<std::thread> zeroing;
  for (int z = 0; z < zero_threads; ++z)
    zeroing.emplace_back([&] {
      for (std::size_t offset; (offset = next_zero.fetch_add(step)) < total;) {
        while (reserved.load() < offset + step) std::this_thread::yield();
        void* m = ::mmap(nullptr, step, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(offset));
        if (m == MAP_FAILED) die("mmap");
        (void)::madvise(m, step, MADV_POPULATE_READ);
        ::munmap(m, step);
      }
    });
  while (seconds() < delay) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const double zeroed = static_cast<double>(std::min(next_zero.load(), total)) / 1e9;

  for (std::size_t offset = 0, c = 0; offset < total; offset += call, ++c) {
    while (reserved.load() < offset + call) std::this_thread::yield();
    void* m =
        ::mmap(nullptr, call, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(offset));
    if (m == MAP_FAILED) die("mmap");
    auto* target = static_cast<unsigned char*>(m);
    const unsigned char* from = source.data() + (c % 4) * call;
    const std::size_t per = call / static_cast<std::size_t>(threads);
    std::vector<std::thread> team;
    for (int t = 0; t < threads; ++t)
      team.emplace_back([&, t] {
        unsigned char* to = target + static_cast<std::size_t>(t) * per;
        if (populate) (void)::madvise(to, per, MADV_POPULATE_WRITE);
        std::memcpy(to, from + static_cast<std::size_t>(t) * per, per);
      });
    for (std::thread& t : team) t.join();
    ::munmap(m, call);
  }
  const double end = seconds();
  next_zero = total;
  reservation.join();
  for (std::thread& z : zeroing) z.join();
  ::close(fd);
  ::unlink(path.c_str());
  std::printf(
      "%zu MiB, %d copy threads, populate %d, %d zeroing threads, delay %.2f s, calls of "
      "%zu MiB: %.2f GB read in before the first call, copies end at %.3f s (%.2f GB/s)\n",
      total >> 20, threads, populate ? 1 : 0, zero_threads, delay, call >> 20, zeroed, end,
      static_cast<double>(total) / (end - delay) / 1e9);
  return 0;
}
