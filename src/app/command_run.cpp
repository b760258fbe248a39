// `stepwise run`: a headless run with an energy table on stdout and optional CSV / state files.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "app/commands.hpp"
#include "core/limits.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/vtk_series.hpp"
#include "runtime/thread_pool.hpp"

namespace stepwise::cli {

namespace {
void print_row(const EnergyReport& r) {
  std::printf("%10ld %12.5g %14.8g %14.8g %14.8g %12.5g %12.5g %12.3e\n", r.step, r.time, r.kinetic,
              r.potential, r.total, r.external_work, r.dissipated, r.energy_error);
}
}  // namespace

int command_run(const RunOptions& o) {
  if (o.every < 1) throw InputError("--every: must be at least 1");
  if (o.duration) limits::duration("--duration", *o.duration);
  if (o.steps) limits::checked("--steps", double(*o.steps), 0, limits::max_steps(), true);
  if (o.threads < 1 || o.threads > 64) throw InputError("--threads: expected 1 to 64");
  LoadedRun run = load_run(o.scene);
  Simulation& sim = run.sim;
  ThreadPool pool(o.threads);  // the step's loops split over these
  if (o.threads > 1) sim.set_parallel(&pool);
  const double duration = o.duration.value_or(run.spec.setup.duration);
  const long steps = o.steps ? *o.steps : limits::steps(duration, sim.dt());

  // Open every output before any work, so a bad path fails at once.
  check_distinct_outputs({{"--csv", o.csv}, {"--state", o.state}, {"--bonds", o.bonds},
                          {"--save-state", o.save_state}, {"--vtk", o.vtk}});
  std::unique_ptr<AtomicFile> csv, state, bonds;
  if (!o.csv.empty()) {
    csv = std::make_unique<AtomicFile>(o.csv);
    csv->stream() << energy_csv_header() << '\n';
  }
  if (!o.state.empty()) state = std::make_unique<AtomicFile>(o.state);
  if (!o.bonds.empty()) bonds = std::make_unique<AtomicFile>(o.bonds);
  std::unique_ptr<AtomicFile> saved;
  if (!o.save_state.empty()) saved = std::make_unique<AtomicFile>(o.save_state);
  std::unique_ptr<VtkSeries> vtk;
  if (!o.vtk.empty()) vtk = std::make_unique<VtkSeries>(o.vtk);

  if (!o.quiet) {
    const double omega = sim.max_frequency();
    std::printf("scene %s: %d bodies, integrator %s, rotation %s, dt %g, %ld steps",
                run.spec.label.c_str(), sim.world().size(), sim.integrator_name().c_str(),
                sim.rotation_name().c_str(), sim.dt(), steps);
    if (omega > 0)
      std::printf(", critical dt %.4g (dt/dt_crit %.3f)", 2.0 / omega, sim.dt() * omega / 2.0);
    std::printf("\n%10s %12s %14s %14s %14s %12s %12s %12s\n", "step", "time", "kinetic",
                "potential", "total", "work", "dissipated", "rel.error");
  }
  const long table_every = std::max(1L, steps / std::max(1L, o.table_rows));
  const auto started = std::chrono::steady_clock::now();
  auto record = [&](long done) {
    if (vtk && (done % o.every == 0 || done == steps)) vtk->write_frame(sim);
    const bool to_csv = csv && (done % o.every == 0 || done == steps);
    const bool to_table = !o.quiet && (done % table_every == 0 || done == steps);
    if (!to_csv && !to_table) return;
    const EnergyReport r = sim.energy();
    if (to_csv) write_energy_csv_row(csv->stream(), r);
    if (to_table) print_row(r);
  };
  // The next step with an output due: the steps up to it go in one advance (each step's closing
  // passes run with the next one's opening passes).
  auto next_output = [&](long done) {
    long next = steps;
    if (vtk || csv) next = std::min(next, (done / o.every + 1) * o.every);
    if (!o.quiet) next = std::min(next, (done / table_every + 1) * table_every);
    return next;
  };
  record(0);
  std::optional<StepFailure> failure;
  long done = 0;
  while (done < steps) {
    const long next = next_output(done);
    failure = sim.advance(next - done);
    if (failure) break;
    done = next;
    record(done);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (csv) csv->commit();
  if (saved) {
    write_scene_toml(saved->stream(), sim, run.spec.label, run.spec.setup.duration);
    saved->commit();
  }
  if (state) {
    write_state_csv(state->stream(), sim.world());
    state->commit();
  }
  if (bonds) {
    write_bonds_csv(bonds->stream(), sim.world());
    bonds->commit();
  }
  if (failure) {
    std::fprintf(stderr, "stepwise: %s, t = %g\n", failure->message().c_str(), sim.time());
    return 3;
  }
  if (!o.quiet) {
    const EnergyReport r = sim.energy();
    std::printf("done: %ld steps in %.3f s (%.0f steps/s), final relative energy error %.3e\n",
                done, seconds, done / std::max(seconds, 1e-9), r.energy_error);
    for (size_t m = 0; m < sim.world().forces.size(); ++m)
      std::printf("  potential %-16s %.10g\n", sim.world().forces[m]->kind().c_str(),
                  r.potential_by_model[m]);
    for (const auto& model : sim.world().forces) {
      std::vector<ForceModel::Figure> figures;
      model->figures(sim.world(), figures);
      for (const auto& f : figures)
        std::printf("  %-26s %.6g\n", (model->kind() + " " + f.name).c_str(), f.value);
    }
    if (sim.world().contact.impulse()) {
      const ImpulseContact::Figures& f = sim.impulse_figures();
      std::printf("  impulse contact (%s): %d touching pairs, %d impacts and %d sweeps at the "
                  "last step; largest overlap %.3g; correction energy %.6g\n",
                  sim.impulses_in_drift() ? "on the drift velocity" : "after the step",
                  f.contacts, f.impacts, f.sweeps, f.max_depth, r.corrected);
    }
    const IntegratorStats stats = sim.integrator().stats();
    if (stats.newton_iterations > 0) {
      std::printf("  last step: %d Newton iterations (%d Jacobians", stats.newton_iterations,
                  stats.newton_matrices);
      if (stats.newton_iterated > 0)
        std::printf(", %d solved by Jacobi's iteration", stats.newton_iterated);
      std::printf("), relative residual %.2e", stats.newton_residual);
      if (stats.newton_held > 0)
        std::printf(
            ", %d bodies held at a jump in their forces (a contact closing; the rest "
            "%.2e)",
            stats.newton_held, stats.newton_residual_rest);
      std::printf("\n");
    }
    if (stats.substeps > 0)
      std::printf("  last step: %d sub-steps (%d rejected), largest error estimate %.2e\n",
                  stats.substeps, stats.rejected, stats.max_error_estimate);
  }
  return 0;
}

}  // namespace stepwise::cli
