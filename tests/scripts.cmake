# Tests of the plotting scripts (docs/plot_psf.py, plot_sweep.py, plot_metrics.py) and of the
# sweep file layout. Included from tests/CMakeLists.txt when PSFSIM_PYTHON imports NumPy and
# h5py; the plot tests also need matplotlib, and fail (not skip) without it: it is a Debian
# dependency.
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

add_test(NAME scripts_make_sweep_file
         COMMAND $<TARGET_FILE:psfsim> sweep --sizes ${_sweep_sizes} --backends cpu
                 --precisions single --repeat ${_sweep_repeats} --batch ${_sweep_batches}
                 --quiet --force -o ${_scripts_work}/sweep.h5)
set_tests_properties(scripts_make_sweep_file PROPERTIES
  FIXTURES_REQUIRED scripts_workdir FIXTURES_SETUP scripts_sweep_file)

add_test(NAME scripts_sweep_file_layout
         COMMAND ${PSFSIM_PYTHON} ${_scripts_drivers}/check_sweep_file.py
                 ${_scripts_work}/sweep.h5 --sizes ${_sweep_sizes} --batches ${_sweep_batches}
                 --backends cpu --precisions single --repeats ${_sweep_repeats})
set_tests_properties(scripts_sweep_file_layout PROPERTIES FIXTURES_REQUIRED scripts_sweep_file)

add_test(NAME scripts_plot_psf
         COMMAND ${PSFSIM_PYTHON} ${_scripts_drivers}/check_plot.py
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_work}/focus.h5
                 ${_scripts_work}/focus.png)
set_tests_properties(scripts_plot_psf PROPERTIES FIXTURES_REQUIRED scripts_run_file)

add_test(NAME scripts_plot_psf_one_frame
         COMMAND ${PSFSIM_PYTHON} ${_scripts_drivers}/check_plot.py
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_work}/focus.h5
                 ${_scripts_work}/focus_frame1.png --frame 1)
set_tests_properties(scripts_plot_psf_one_frame PROPERTIES FIXTURES_REQUIRED scripts_run_file)

add_test(NAME scripts_plot_sweep
         COMMAND ${PSFSIM_PYTHON} ${_scripts_drivers}/check_plot.py
                 ${_scripts_root}/docs/plot_sweep.py ${_scripts_work}/sweep.h5
                 ${_scripts_work}/sweep.png)
set_tests_properties(scripts_plot_sweep PROPERTIES FIXTURES_REQUIRED scripts_sweep_file)

add_test(NAME scripts_plot_metrics
         COMMAND ${PSFSIM_PYTHON} ${_scripts_drivers}/check_plot.py
                 ${_scripts_root}/docs/plot_metrics.py ${_scripts_work}/metrics.h5
                 ${_scripts_work}/metrics.png)
set_tests_properties(scripts_plot_metrics PROPERTIES FIXTURES_REQUIRED scripts_metrics_file)

add_test(NAME scripts_quiet
         COMMAND ${PSFSIM_PYTHON} ${_scripts_drivers}/check_quiet.py $<TARGET_FILE:psfsim>
                 ${_scripts_work}/quiet)
set_tests_properties(scripts_quiet PROPERTIES FIXTURES_REQUIRED scripts_workdir)

add_test(NAME scripts_plot_errors
         COMMAND ${PSFSIM_PYTHON} ${_scripts_drivers}/check_plot_errors.py
                 ${_scripts_root}/docs/plot_psf.py ${_scripts_root}/docs/plot_sweep.py
                 ${_scripts_root}/docs/plot_metrics.py ${_scripts_work}/errors)
set_tests_properties(scripts_plot_errors PROPERTIES FIXTURES_REQUIRED scripts_workdir)

set_tests_properties(
  scripts_workdir scripts_make_run_file scripts_make_sweep_file scripts_sweep_file_layout
  scripts_plot_psf scripts_plot_psf_one_frame scripts_plot_sweep scripts_plot_errors
  scripts_make_metrics_file scripts_plot_metrics scripts_quiet
  PROPERTIES LABELS scripts TIMEOUT 120 ENVIRONMENT MPLBACKEND=Agg)
