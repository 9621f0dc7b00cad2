// _psfsim: the engine's door from Python. The package psfsim (python/psfsim) turns keyword
// arguments into `psfsim run`'s words and shapes what comes back; this module parses them with
// the CLI's own code, computes with the GIL released, and raises psfsim.InputError and
// psfsim.RuntimeFailure with the CLI's messages.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <new>

#include "cli/option_setup.hpp"
#include "commands/run_command.hpp"
#include "frame_array.hpp"
#include "psfsim/build_commit.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"
#include "run_arguments.hpp"
#include "simulator.hpp"

namespace py = pybind11;

namespace psfsim::python {
namespace {

PyObject* input_error = nullptr;      // psfsim.InputError(ValueError)
PyObject* runtime_failure = nullptr;  // psfsim.RuntimeFailure(RuntimeError)

// Thrown between backend calls when Python has a signal to handle: the KeyboardInterrupt
// (or whatever its handler raised) is already set as Python's error.
struct Interrupted {};

// After each backend call, with the GIL released around it: Ctrl-C stops a long call there.
void check_signals(std::size_t, std::size_t) {
  const py::gil_scoped_acquire acquire;
  if (PyErr_CheckSignals() != 0) throw Interrupted{};
}

// Runs `work` without the GIL and turns an interruption back into Python's exception.
template <typename Work>
void without_gil(Work&& work) {
  bool interrupted = false;
  {
    const py::gil_scoped_release release;
    try {
      work();
    } catch (const Interrupted&) {
      interrupted = true;
    }
  }
  if (interrupted) throw py::error_already_set();
}

const char* dtype_name(Precision p) { return p == Precision::single ? "float32" : "float64"; }

// The NumPy dtype of the frames, without parsing its name (a call's own cost).
py::dtype frame_dtype(Precision p) {
  return p == Precision::single ? py::dtype::of<float>() : py::dtype::of<double>();
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// A DLPack tensor taken from a caller's `out`: its producer keeps the memory until the
// deleter runs, after the call.
struct TakenTensor {
  DLManagedTensor* tensor = nullptr;
  TakenTensor() = default;
  TakenTensor(const TakenTensor&) = delete;
  TakenTensor& operator=(const TakenTensor&) = delete;
  ~TakenTensor() {
    if (tensor != nullptr && tensor->deleter != nullptr) tensor->deleter(tensor);
  }
};

// Where a call's frames go: the caller's `out`, or memory the engine hands over
// (PsfRun::FrameDestination::kept), which becomes a new NumPy array or FrameArray.
struct FrameTarget {
  py::object object;  // what the call returns as its frames (None when none are stored)
  void* data = nullptr;
  std::unique_ptr<TakenTensor> taken{};
  bool on_device = false;  // `data` is device memory
  bool keeps = false;      // no `out`: the frames come back in `kept`
  std::vector<std::int64_t> shape{};
  std::shared_ptr<const void> kept{};
};

std::string type_name(const py::handle& o) { return py::str(py::type::of(o).attr("__qualname__")); }

// `got_dtype()`: the array's dtype as text, asked for only to name a wrong one.
template <typename DtypeText>
void check_layout(const std::vector<std::int64_t>& got, const std::vector<std::int64_t>& want,
                  bool dtype_ok, Precision precision, bool contiguous, DtypeText&& got_dtype) {
  if (got != want)
    throw InputError("out: shape " + shape_text(got) + " where the frames are " + shape_text(want));
  if (!dtype_ok)
    throw InputError("out: dtype " + std::string(got_dtype()) + " where the frames are " +
                     dtype_name(precision) + " (precision=\"" + std::string(to_string(precision)) +
                     "\")");
  if (!contiguous) throw InputError("out: the array must be C-contiguous");
}

// C order: each axis's stride (in `unit`s) is the product of the later axes' lengths; axes of
// length 1 may have any stride.
bool c_contiguous(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                  std::int64_t unit) {
  std::int64_t expected = unit;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1 && strides[d] != expected) return false;
    expected *= shape[d];
  }
  return true;
}

// `out` through __cuda_array_interface__ (version 2 or 3): its stream, where given, is waited
// for before the frames are written.
FrameTarget cuda_interface_target(Simulator& sim, const py::object& out,
                                  const std::vector<std::int64_t>& shape) {
  if (sim.site() != ComputeSite::device)
    throw InputError("out: a CUDA array (" + type_name(out) + "), but the " + sim.backend_name() +
                     " backend computes in host memory: pass a NumPy array");
  const py::dict cai = out.attr("__cuda_array_interface__");
  const auto got = cai["shape"].cast<std::vector<std::int64_t>>();
  const std::string typestr = cai["typestr"].cast<std::string>();
  const Precision p = sim.precision();
  const bool dtype_ok = typestr == (p == Precision::single ? "<f4" : "<f8");
  const py::object strides = cai.contains("strides") ? py::object(cai["strides"]) : py::none();
  const bool contiguous =
      strides.is_none() || c_contiguous(got, strides.cast<std::vector<std::int64_t>>(),
                                        static_cast<std::int64_t>(bytes_per_real(p)));
  check_layout(got, shape, dtype_ok, p, contiguous, [&] { return typestr; });
  const py::tuple data = cai["data"];
  if (data[1].cast<bool>()) throw InputError("out: the array is read-only");
  void* address = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
  sim.require_on_device(address);
  if (cai.contains("stream") && !cai["stream"].is_none())
    sim.wait_for_stream(cai["stream"].cast<std::uintptr_t>());
  return {out, address, nullptr, true};
}

// `out` through __dlpack__: host tensors on any backend, CUDA tensors on the cuda backend.
FrameTarget dlpack_target(Simulator& sim, const py::object& out,
                          const std::vector<std::int64_t>& shape) {
  const py::tuple where = out.attr("__dlpack_device__")();
  const int type = where[0].cast<int>();
  const MemoryKind kind = memory_kind(type);
  if (kind != MemoryKind::host && !(kind == MemoryKind::gpu && sim.site() == ComputeSite::device))
    throw InputError("out: a " + type_name(out) + " on DLPack device type " + std::to_string(type) +
                     ", which the " + sim.backend_name() + " backend cannot write into");
  py::object capsule;
  if (kind == MemoryKind::gpu) {
    // Stream 1, the legacy default stream, which the frames' last copy waits for.
    try {
      capsule = out.attr("__dlpack__")(py::arg("stream") = 1);
    } catch (const py::error_already_set&) {
      capsule = out.attr("__dlpack__")();
    }
  } else {
    capsule = out.attr("__dlpack__")();
  }
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (tensor == nullptr) throw py::error_already_set();
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  auto taken = std::make_unique<TakenTensor>();
  taken->tensor = tensor;
  const DLTensor& t = tensor->dl_tensor;
  const std::vector<std::int64_t> got(t.shape, t.shape + t.ndim);
  const Precision p = sim.precision();
  const bool dtype_ok =
      t.dtype.code == kDLFloat && t.dtype.lanes == 1 && t.dtype.bits == 8 * bytes_per_real(p);
  const bool contiguous =
      t.strides == nullptr || c_contiguous(got, {t.strides, t.strides + t.ndim}, 1);
  check_layout(got, shape, dtype_ok, p, contiguous, [&] {
    return "float" + std::to_string(t.dtype.bits) +
           (t.dtype.code == kDLFloat ? "" : " (not a float)");
  });
  void* data = static_cast<unsigned char*>(t.data) + t.byte_offset;
  if (kind == MemoryKind::gpu) {
    sim.require_on_device(data);
    // The producer ordered its work before stream 1's: the frames wait for that stream.
    sim.wait_for_stream(1);
  }
  return {out, data, std::move(taken), kind == MemoryKind::gpu};
}

FrameTarget frame_target(Simulator& sim, std::size_t count, bool batch, const py::object& out) {
  if (!sim.stores_frames()) {
    if (!out.is_none())
      throw InputError("out: store=\"metrics\" computes no frames to write into it");
    return {py::none(), nullptr, nullptr};
  }
  const std::int64_t k = sim.frame_edge();
  std::vector<std::int64_t> shape{k, k};
  if (batch) shape.insert(shape.begin(), static_cast<std::int64_t>(count));
  const Precision precision = sim.precision();
  if (!out.is_none()) {
    if (py::isinstance<py::array>(out)) {
      auto array = py::reinterpret_borrow<py::array>(out);
      const std::vector<std::int64_t> got(array.shape(), array.shape() + array.ndim());
      check_layout(got, shape, array.dtype().is(frame_dtype(precision)), precision,
                   (array.flags() & py::array::c_style) != 0,
                   [&] { return std::string(py::str(array.dtype())); });
      if (!array.writeable()) throw InputError("out: the array is read-only");
      return {out, array.mutable_data(), nullptr};
    }
    if (py::hasattr(out, "__cuda_array_interface__")) return cuda_interface_target(sim, out, shape);
    if (py::hasattr(out, "__dlpack__") && py::hasattr(out, "__dlpack_device__"))
      return dlpack_target(sim, out, shape);
    throw InputError("out: a " + type_name(out) +
                     " is no array psfsim can write into (NumPy, or a CUDA array with "
                     "__cuda_array_interface__ or __dlpack__)");
  }
  FrameTarget target{py::none()};
  target.keeps = true;
  target.shape = std::move(shape);
  return target;
}

// The frames handed over by the engine, as the call returns them: a FrameArray for
// result="device", else a NumPy array over the memory (the backend's own pinned block, where
// it lent it), which it keeps alive.
py::object kept_frames(Simulator& sim, FrameTarget& target, const std::string& result) {
  const Precision precision = sim.precision();
  if (result == "device") {
    const bool on_device = sim.spec().frames_on_device;
    const DLDevice where = on_device ? DLDevice{kDLCUDA, sim.spec().device} : DLDevice{kDLCPU, 0};
    FrameArray frames(std::const_pointer_cast<void>(std::move(target.kept)), where, precision,
                      target.shape, sim.memory_copy());
    return py::cast(std::move(frames));
  }
  auto* owner = new std::shared_ptr<const void>(std::move(target.kept));
  const py::capsule base(owner,
                         [](void* o) { delete static_cast<std::shared_ptr<const void>*>(o); });
  return py::array(frame_dtype(precision), target.shape, owner->get(), base);
}

// Computes `count` frames by `work(destination, metrics)` into the frames' target and
// returns (frames, metrics, batch): metrics a (B, V) float64 array or None.
template <typename Work>
py::tuple compute_into(Simulator& sim, std::size_t count, bool batch, const py::object& out,
                       const std::string& result, Work&& work) {
  if (result != "numpy" && result != "device")
    throw InputError("result: '" + result + "' is not one of numpy, device");
  if (count == 0) throw InputError("the batch holds no frames");
  if (count > 1) batch = true;
  FrameTarget target = frame_target(sim, count, batch, out);
  py::object metrics = py::none();
  double* metric_data = nullptr;
  if (sim.metric_values() > 0) {
    py::array_t<double> m(
        {static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(sim.metric_values())});
    metric_data = m.mutable_data();
    metrics = m;
  }
  const PsfRun::FrameDestination destination{target.data, target.on_device,
                                             target.keeps ? &target.kept : nullptr};
  without_gil([&] { work(destination, metric_data); });
  if (target.keeps) target.object = kept_frames(sim, target, result);
  return py::make_tuple(target.object, metrics, batch);
}

py::tuple compute(Simulator& sim, std::vector<Aberration> frames, bool batch, const py::object& out,
                  const std::string& result) {
  return compute_into(sim, frames.size(), batch, out, result,
                      [&](const PsfRun::FrameDestination& destination, double* metrics) {
                        sim.compute(frames, destination, metrics, check_signals);
                      });
}

std::vector<std::string> to_strings(const py::handle& list) {
  return list.cast<std::vector<std::string>>();
}

py::list option_rows() {
  py::list rows;
  const BackendNames& backends = app::build_backends();
  for (const Option id : options_of(Command::run)) {
    const OptionInfo& o = option(id);
    py::dict row;
    row["keyword"] = keyword(id);
    row["flag"] = flag(id);
    row["grammar"] = std::string(to_string(o.grammar));
    row["arity"] = o.arity == Arity::one          ? "one"
                   : o.arity == Arity::comma_text ? "comma_text"
                   : o.arity == Arity::repeated   ? "repeated"
                                                  : "list";
    row["value_name"] = value_text(o, backends);
    row["default"] = std::string(o.shown_default);
    row["help"] = help_text(o, backends);
    row["choices"] = choices_of(o, backends);
    row["phase"] = is_phase_option(id);
    rows.append(row);
  }
  return rows;
}

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const InputError& e) {
    PyErr_SetString(input_error, in_keywords(e.what()).c_str());
  } catch (const Error& e) {
    PyErr_SetString(runtime_failure, in_keywords(e.what()).c_str());
  } catch (const std::bad_alloc&) {
    PyErr_SetString(runtime_failure, "out of host memory");
  }
}

}  // namespace
}  // namespace psfsim::python

PYBIND11_MODULE(_psfsim, m) {
  using namespace psfsim;
  using namespace psfsim::python;
  m.doc() = "psfsim's engine; use the package psfsim, which wraps it.";
  builtin_backends().set_up_process();

  input_error = PyErr_NewExceptionWithDoc(
      "psfsim.InputError",
      "An option or value psfsim refuses: what `psfsim run` exits 2 on. The message is the "
      "CLI's, naming the keyword.",
      PyExc_ValueError, nullptr);
  runtime_failure = PyErr_NewExceptionWithDoc(
      "psfsim.RuntimeFailure",
      "A valid request the machine could not carry out (I/O, device, memory): what `psfsim "
      "run` exits 3 on.",
      PyExc_RuntimeError, nullptr);
  m.add_object("InputError", py::handle(input_error));
  m.add_object("RuntimeFailure", py::handle(runtime_failure));
  py::register_exception_translator(translate);

  m.attr("__version__") = PSFSIM_VERSION;
  m.attr("git_commit") = psfsim::git_commit();
  m.def("options", &option_rows, "The keywords: one dict per option of `psfsim run`.");
  m.def("backends", [] {
    py::list names;
    for (const BackendEntry& e : builtin_backends().entries())
      if (e.compiled) names.append(e.name);
    return names;
  });
  m.def(
      "unusable_reason",
      [](const std::string& name) {
        const BackendEntry* e = builtin_backends().find(name);
        if (e == nullptr)
          throw InputError("backend: '" + name + "' is not a backend of this build");
        return e->unusable_reason ? e->unusable_reason() : std::string();
      },
      py::call_guard<py::gil_scoped_release>(),
      "Why the backend cannot run here, or '' when it can (the device is asked, nothing planned).");
  bind_frame_array(m);

  py::class_<Simulator>(m, "Simulator")
      .def(py::init<const std::vector<std::string>&, const std::string&, bool>(),
           py::arg("arguments"), py::arg("config"), py::arg("keep_on_device"),
           py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("frame_edge", &Simulator::frame_edge)
      .def_property_readonly(
          "precision", [](const Simulator& s) { return std::string(to_string(s.precision())); })
      .def_property_readonly("stores_frames", &Simulator::stores_frames)
      .def_property_readonly("makes_batch", &Simulator::options_make_batch)
      .def_property_readonly("backend", &Simulator::backend_name)
      .def_property_readonly("on_device",
                             [](const Simulator& s) { return s.spec().frames_on_device; })
      .def_property_readonly("device",
                             [](Simulator& s) {
                               const py::gil_scoped_release release;
                               return s.device_name();
                             })
      .def_property_readonly("batch_size", [](const Simulator& s) { return batch_size(s.spec()); })
      .def_property_readonly(
          "metric_columns",
          [](const Simulator& s) {
            py::list columns;
            for (const MetricColumn& c : s.metric_columns())
              columns.append(py::make_tuple(c.name, c.offset, c.width,
                                            c.metric == Metric::ee || c.metric == Metric::mtf ||
                                                c.metric == Metric::contrast));
            return columns;
          })
      .def_property_readonly("ee_radii",
                             [](const Simulator& s) { return s.spec().metrics.ee_radii; })
      .def_property_readonly("mtf_frequencies",
                             [](const Simulator& s) { return s.spec().metrics.mtf_frequencies; })
      .def(
          "own",
          [](Simulator& s, const py::object& out, const std::string& result) {
            return compute(s, s.own_frames(), s.options_make_batch(), out, result);
          },
          py::arg("out"), py::arg("result"))
      .def(
          "terms",
          [](Simulator& s, const py::list& zernike, const py::list& seidel, const py::object& out,
             const std::string& result) {
            std::vector<Aberration> frames{
                s.frame_with_terms(to_strings(zernike), to_strings(seidel))};
            return compute(s, std::move(frames), false, out, result);
          },
          py::arg("zernike"), py::arg("seidel"), py::arg("out"), py::arg("result"))
      .def(
          "phase",
          [](Simulator& s, const py::list& arguments, const py::object& out,
             const std::string& result) {
            bool batch = false;
            std::vector<Aberration> frames = s.frames_with(to_strings(arguments), batch);
            return compute(s, std::move(frames), batch, out, result);
          },
          py::arg("arguments"), py::arg("out"), py::arg("result"))
      .def(
          "table",
          [](Simulator& s, const py::array_t<double>& values, const py::list& names,
             const py::object& out, const std::string& result) {
            if (values.ndim() != 2)
              throw InputError("coefficients: a (B, J) array, got " +
                               std::to_string(values.ndim()) + " dimensions");
            const std::vector<std::string> terms = to_strings(names);
            if (static_cast<std::size_t>(values.shape(1)) != terms.size())
              throw InputError("coefficients: " + std::to_string(values.shape(1)) +
                               " columns for " + std::to_string(terms.size()) + " terms");
            const Simulator::TermTable table{
                values.data(), static_cast<std::size_t>(values.shape(0)),
                static_cast<std::size_t>(values.strides(0)) / sizeof(double),
                static_cast<std::size_t>(values.strides(1)) / sizeof(double), terms};
            return compute_into(s, table.rows, true, out, result,
                                [&](const PsfRun::FrameDestination& destination, double* metrics) {
                                  s.compute(table, destination, metrics, check_signals);
                                });
          },
          py::arg("values"), py::arg("names"), py::arg("out"), py::arg("result"));

  m.def(
      "write_run",
      [](const py::list& arguments, const std::string& config, bool progress) {
        ParsedRun parsed = parse_run(to_strings(arguments), config);
        if (parsed.spec.output.empty())
          throw InputError("output: psfsim.run needs the file to write (output=\"psf.h5\")");
        const std::string output = parsed.spec.output.string();
        without_gil([&] {
          TimingLog log;
          (void)app::write_run_file(std::move(parsed.spec), parsed.command_line, parsed.configs,
                                    progress, check_signals, log);
        });
        return output;
      },
      py::arg("arguments"), py::arg("config"), py::arg("progress"));
}
