# Tests of the plotting scripts (docs/plot_psf.py, plot_sweep.py, plot_metrics.py), of the
# sweep file layout, of docs/output.md's Python examples and of --quiet. Included from
# tests/CMakeLists.txt when PSFSIM_PYTHON_EXECUTABLE imports NumPy and h5py; the plot tests also need
# matplotlib, and the examples xarray and h5netcdf, and fail (not skip) without them: they are
# Debian dependencies (.ci/install-deps).
#
# Fixtures order them under ctest -j: the files are made once, then checked and plotted.
set(_scripts_root ${CMAKE_CURRENT_LIST_DIR}/..)
set(_scripts_drivers ${CMAKE_CURRENT_LIST_DIR}/scripts)
set(_scripts_work ${CMAKE_CURRENT_BINARY_DIR}/scripts_work)

# The sweep the tests make: 2 sizes x 2 batches x 1 backend x 1 precision = 4 rows.
set(_sweep_sizes 16,32)
set(_sweep_batches 1,4)
set(_sweep_repeats 3)

add_test(NAME scripts_workdir COMMAND ${CMAKE_COMMAND} -E make_directory ${_scripts_work})
set_tests_properties(scripts_workdir PROPERTIES FIXTURES_SETUP scripts_workdir)

add_test(NAME scripts_make_run_file
         COMMAND $<TARGET_FILE:psfsim> run --samples 32 --vary Z4,-0.5,0.5,3 --backend cpu
                 --quiet --force -o ${_scripts_work}/focus.h5)
set_tests_properties(scripts_make_run_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_run_file)

add_test(NAME scripts_make_metrics_file
         COMMAND $<TARGET_FILE:psfsim> run --samples 32 --random 4-8,0.05,20,1 --backend cpu
                 --metrics all --store metrics --quiet --force -o ${_scripts_work}/metrics.h5)
set_tests_properties(scripts_make_metrics_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_metrics_file)

# Eight Zernike terms and a Seidel term a frame: the longest titles plot_psf.py writes.
add_test(NAME scripts_make_terms_file
         COMMAND $<TARGET_FILE:psfsim> run --samples 32 --random 4-11,0.05,2,1
                 --seidel 2,1,0.123456 --backend cpu --quiet --force -o ${_scripts_work}/terms.h5)
set_tests_properties(scripts_make_terms_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_terms_file)

add_test(NAME scripts_make_photons_file
         COMMAND $<TARGET_FILE:psfsim> run --samples 32 --crop 32 --photons 1e5 --read-noise 3
                 --backend cpu --quiet --force -o ${_scripts_work}/photons.h5)
set_tests_properties(scripts_make_photons_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_photons_file)

# A deterministic series with metrics (as configs/elt-like.toml), in four panels, and a Monte
# Carlo of one metric, in one: the narrowest figures plot_metrics.py draws.
add_test(NAME scripts_make_vary_metrics_file
         COMMAND $<TARGET_FILE:psfsim> run --samples 32 --vary Z4,-0.3,0.3,5
                 --metrics strehl,fwhm,ee,mtf --backend cpu --quiet --force
                 -o ${_scripts_work}/vary_metrics.h5)
set_tests_properties(scripts_make_vary_metrics_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_vary_metrics_file)
add_test(NAME scripts_make_strehl_file
         COMMAND $<TARGET_FILE:psfsim> run --samples 32 --random 4-8,0.05,20,1 --metrics strehl
                 --store metrics --backend cpu --quiet --force -o ${_scripts_work}/strehl.h5)
set_tests_properties(scripts_make_strehl_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_strehl_file)

add_test(NAME scripts_make_sweep_file
         COMMAND $<TARGET_FILE:psfsim> sweep --sizes ${_sweep_sizes} --backends cpu
                 --precisions single --repeat ${_sweep_repeats} --batch ${_sweep_batches}
                 --quiet --force -o ${_scripts_work}/sweep.h5)
set_tests_properties(scripts_make_sweep_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_sweep_file)

add_test(NAME scripts_sweep_file_layout
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_sweep_file.py
                 ${_scripts_work}/sweep.h5 --sizes ${_sweep_sizes} --batches ${_sweep_batches}
                 --backends cpu --precisions single --repeats ${_sweep_repeats})
set_tests_properties(scripts_sweep_file_layout PROPERTIES FIXTURES_REQUIRED scripts_sweep_file)

add_test(NAME scripts_plot_psf
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_work}/focus.h5
                 ${_scripts_work}/focus.png)
set_tests_properties(scripts_plot_psf PROPERTIES FIXTURES_REQUIRED scripts_run_file)

add_test(NAME scripts_plot_psf_one_frame
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_work}/focus.h5
                 ${_scripts_work}/focus_frame1.png --frame 1)
set_tests_properties(scripts_plot_psf_one_frame PROPERTIES FIXTURES_REQUIRED scripts_run_file)

add_test(NAME scripts_plot_psf_terms
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py --expect Z11=
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_work}/terms.h5
                 ${_scripts_work}/terms.png)
set_tests_properties(scripts_plot_psf_terms PROPERTIES FIXTURES_REQUIRED scripts_terms_file)

add_test(NAME scripts_plot_psf_photons
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py
                 --expect photo-electrons --reject Strehl --reject normalization
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_work}/photons.h5
                 ${_scripts_work}/photons.png)
set_tests_properties(scripts_plot_psf_photons PROPERTIES FIXTURES_REQUIRED scripts_photons_file)

add_test(NAME scripts_plot_sweep
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py
                 ${_scripts_root}/docs/plot_sweep.py ${_scripts_work}/sweep.h5
                 ${_scripts_work}/sweep.png)
set_tests_properties(scripts_plot_sweep PROPERTIES FIXTURES_REQUIRED scripts_sweep_file)

add_test(NAME scripts_plot_metrics
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py --reject against
                 ${_scripts_root}/docs/plot_metrics.py ${_scripts_work}/metrics.h5
                 ${_scripts_work}/metrics.png)
set_tests_properties(scripts_plot_metrics PROPERTIES FIXTURES_REQUIRED scripts_metrics_file)

add_test(NAME scripts_plot_metrics_vary
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py --expect "strehl against Z4"
                 --expect "fwhm against Z4" --reject median
                 ${_scripts_root}/docs/plot_metrics.py ${_scripts_work}/vary_metrics.h5
                 ${_scripts_work}/vary_metrics.png)
set_tests_properties(scripts_plot_metrics_vary PROPERTIES
  FIXTURES_REQUIRED scripts_vary_metrics_file)

add_test(NAME scripts_plot_metrics_one_panel
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py --expect median
                 ${_scripts_root}/docs/plot_metrics.py ${_scripts_work}/strehl.h5
                 ${_scripts_work}/strehl.png)
set_tests_properties(scripts_plot_metrics_one_panel PROPERTIES
  FIXTURES_REQUIRED scripts_strehl_file)

# docs/output.md's Python examples, run as written on files psfsim makes (xarray included).
add_test(NAME scripts_doc_examples
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_doc_examples.py
                 $<TARGET_FILE:psfsim> ${_scripts_root}/docs/output.md
                 ${_scripts_work}/doc_examples)
set_tests_properties(scripts_doc_examples PROPERTIES FIXTURES_REQUIRED scripts_workdir)

add_test(NAME scripts_quiet
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_quiet.py $<TARGET_FILE:psfsim>
                 ${_scripts_work}/quiet)
set_tests_properties(scripts_quiet PROPERTIES FIXTURES_REQUIRED scripts_workdir)

add_test(NAME scripts_plot_errors
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot_errors.py
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_root}/docs/plot_sweep.py
                 ${_scripts_root}/docs/plot_metrics.py ${_scripts_work}/errors)
set_tests_properties(scripts_plot_errors PROPERTIES FIXTURES_REQUIRED scripts_workdir)

set_tests_properties(
  scripts_workdir scripts_make_run_file scripts_make_sweep_file scripts_sweep_file_layout
  scripts_plot_psf scripts_plot_psf_one_frame scripts_plot_sweep scripts_plot_errors
  scripts_make_metrics_file scripts_plot_metrics scripts_make_terms_file
  scripts_make_photons_file scripts_make_vary_metrics_file scripts_make_strehl_file
  scripts_plot_psf_terms scripts_plot_psf_photons scripts_plot_metrics_vary
  scripts_plot_metrics_one_panel scripts_doc_examples scripts_quiet
  PROPERTIES LABELS scripts TIMEOUT 120 ENVIRONMENT MPLBACKEND=Agg)

# docs/plot_contrast.py on a small coronagraph Monte Carlo (docs/coronagraphy.md).
add_test(NAME scripts_make_contrast_file
         COMMAND $<TARGET_FILE:psfsim> run --samples 32 --coronagraph lyot:3 --lyot-stop 0.8
                 --pixel-scale 0.5lod --crop 32 --random 4-8,0.01,8,1 --backend cpu
                 --metrics contrast,throughput --contrast-radii 4,5,6,7 --store metrics
                 --quiet --force -o ${_scripts_work}/contrast.h5)
set_tests_properties(scripts_make_contrast_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_contrast_file)
add_test(NAME scripts_plot_contrast
         COMMAND ${PSFSIM_PYTHON_EXECUTABLE} ${_scripts_drivers}/check_plot.py --expect lyot:3
                 ${_scripts_root}/docs/plot_contrast.py ${_scripts_work}/contrast.h5
                 ${_scripts_work}/contrast.png)
set_tests_properties(scripts_plot_contrast PROPERTIES FIXTURES_REQUIRED scripts_contrast_file)
