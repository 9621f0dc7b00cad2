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
#include "psfsim/build_config.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"
#include "run_arguments.hpp"
#include "simulator.hpp"

namespace py = pybind11;

namespace psfsim::python {
namespace {

PyObject* input_error = nullptr;     // psfsim.InputError(ValueError)
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

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// Where a call's frames go: a new NumPy array, a new FrameArray, or the caller's `out`.
struct FrameTarget {
  py::object object;  // what the call returns as its frames (None when none are stored)
  void* data = nullptr;
};

FrameTarget frame_target(const Simulator& sim, std::size_t count, bool batch,
                         const py::object& out, const std::string& result) {
  if (!sim.stores_frames()) {
    if (!out.is_none())
      throw InputError("out: store=\"metrics\" computes no frames to write into it");
    return {py::none(), nullptr};
  }
  const std::int64_t k = sim.frame_edge();
  std::vector<std::int64_t> shape{k, k};
  if (batch) shape.insert(shape.begin(), static_cast<std::int64_t>(count));
  const Precision precision = sim.precision();
  if (!out.is_none()) {
    if (!py::isinstance<py::array>(out)) {
      const std::string type = py::str(py::type::of(out).attr("__qualname__"));
      throw InputError("out: the " + sim.backend_name() +
                       " backend writes frames into a NumPy array, not a " + type);
    }
    auto array = py::reinterpret_borrow<py::array>(out);
    std::vector<std::int64_t> got(array.shape(), array.shape() + array.ndim());
    if (got != shape)
      throw InputError("out: shape " + shape_text(got) + " where the frames are " +
                       shape_text(shape));
    if (!array.dtype().is(py::dtype(dtype_name(precision))))
      throw InputError("out: dtype " + std::string(py::str(array.dtype())) + " where the frames are " +
                       dtype_name(precision) + " (precision=\"" + std::string(to_string(precision)) + "\")");
    if ((array.flags() & py::array::c_style) == 0)
      throw InputError("out: the array must be C-contiguous");
    if (!array.writeable()) throw InputError("out: the array is read-only");
    return {out, array.mutable_data()};
  }
  const std::size_t elements = count * static_cast<std::size_t>(k * k);
  if (result == "device") {
    FrameArray frames(FrameArray::host_memory(elements, precision), DLDevice{kDLCPU, 0}, precision,
                      shape);
    void* data = frames.data();
    return {py::cast(std::move(frames)), data};
  }
  py::array array(py::dtype(dtype_name(precision)), shape);
  return {array, array.mutable_data()};
}

// Computes `frames` and returns (frames, metrics, batch): metrics a (B, V) float64 array or
// None.
py::tuple compute(Simulator& sim, std::vector<Aberration> frames, bool batch,
                  const py::object& out, const std::string& result) {
  if (result != "numpy" && result != "device")
    throw InputError("result: '" + result + "' is not one of numpy, device");
  if (frames.empty()) throw InputError("the batch holds no frames");
  if (frames.size() > 1) batch = true;
  FrameTarget target = frame_target(sim, frames.size(), batch, out, result);
  py::object metrics = py::none();
  double* metric_data = nullptr;
  if (sim.metric_values() > 0) {
    py::array_t<double> m({static_cast<py::ssize_t>(frames.size()),
                           static_cast<py::ssize_t>(sim.metric_values())});
    metric_data = m.mutable_data();
    metrics = m;
  }
  without_gil([&] { sim.compute(frames, target.data, metric_data, check_signals); });
  return py::make_tuple(target.object, metrics, batch);
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
  m.attr("git_commit") = PSFSIM_GIT_COMMIT;
  m.def("options", &option_rows, "The keywords: one dict per option of `psfsim run`.");
  m.def("backends", [] {
    py::list names;
    for (const BackendEntry& e : builtin_backends().entries())
      if (e.compiled) names.append(e.name);
    return names;
  });
  bind_frame_array(m);

  py::class_<Simulator>(m, "Simulator")
      .def(py::init<const std::vector<std::string>&, const std::string&>(),
           py::arg("arguments"), py::arg("config"), py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("frame_edge", &Simulator::frame_edge)
      .def_property_readonly("precision",
                             [](const Simulator& s) { return std::string(to_string(s.precision())); })
      .def_property_readonly("stores_frames", &Simulator::stores_frames)
      .def_property_readonly("makes_batch", &Simulator::options_make_batch)
      .def_property_readonly("backend", &Simulator::backend_name)
      .def_property_readonly("device", &Simulator::device_name,
                             py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("batch_size", [](const Simulator& s) { return batch_size(s.spec()); })
      .def_property_readonly("metric_columns",
                             [](const Simulator& s) {
                               py::list columns;
                               for (const MetricColumn& c : s.metric_columns())
                                 columns.append(py::make_tuple(
                                     c.name, c.offset, c.width,
                                     c.metric == Metric::ee || c.metric == Metric::mtf));
                               return columns;
                             })
      .def_property_readonly("ee_radii", [](const Simulator& s) { return s.spec().metrics.ee_radii; })
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
            std::vector<Aberration> frames{s.frame_with_terms(to_strings(zernike), to_strings(seidel))};
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
            const auto rows = static_cast<std::size_t>(values.shape(0));
            std::vector<Aberration> frames = s.frames_from_table(
                values.data(), rows, static_cast<std::size_t>(values.strides(0)) / sizeof(double),
                static_cast<std::size_t>(values.strides(1)) / sizeof(double), terms);
            return compute(s, std::move(frames), true, out, result);
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
