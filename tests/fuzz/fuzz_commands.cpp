// Fuzz target: the window's commands to the physics thread, in any order and with any values.
// The panels hold their fields to their ranges, but lessons send commands too, and a click can come
// at any moment (a drag as the scene changes, a checkpoint as history is cut): the worker must
// refuse what it cannot do with a notice, and never crash, hang or step into undefined behaviour.
//
// The input is read as a list of commands, one byte choosing each and the following bytes its
// values; names (scenes, methods, parameters, tunables) come from the registries and from the
// snapshot the worker last published, as the window takes them, or are a few bytes of text. The
// worker runs on the calling thread (poll_for_tests), one loop pass after each command, and writes
// only inside a scratch folder.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "fuzz_scratch.hpp"
#include "runtime/physics_worker.hpp"

namespace {

using namespace stepwise;

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  int pick(int n) { return n > 0 ? byte() % n : 0; }
  bool flag() { return byte() & 1; }
  // Mostly the values a field's edges and a careless lesson give; sometimes any double at all.
  double number() {
    static const double kEdges[] = {0,     -0.0,   1,     -1,   0.5,  2,    1e-3, 1e-12, 1e-300,
                                    1e6,   1e15,   1e100, 1e308, -1e308, 3.7, 0.01, 100,   -5,
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    std::numeric_limits<double>::quiet_NaN()};
    constexpr int kCount = int(sizeof kEdges / sizeof kEdges[0]);
    const int k = pick(kCount + 1);
    if (k < kCount) return kEdges[k];
    double raw = 0;
    for (std::size_t b = 0; b < sizeof raw; ++b) reinterpret_cast<std::uint8_t*>(&raw)[b] = byte();
    return raw;
  }
  long count() {
    static const long kCounts[] = {0, 1, 2, 3, 5, 10, 100, -1, -1000, 1L << 40};
    return kCounts[pick(10)];
  }
  int index() { return int(count() % 100000); }
  std::string text() {
    std::string out;
    for (int n = pick(8); n > 0; --n) out += char('a' + pick(26));
    return out;
  }
  template <class T>
  const T* among(const std::vector<T>& items) {
    return items.empty() ? nullptr : &items[std::size_t(pick(int(items.size())))];
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

// A name the window could send (from `names`), or a word of the input's.
std::string name_from(Bytes& b, const std::vector<std::string>& names) {
  const std::string* known = b.flag() ? b.among(names) : nullptr;
  return known ? *known : b.text();
}

std::vector<std::string> tunable_names(const std::vector<ModelTunables>& models, int which) {
  std::vector<std::string> out;
  if (which >= 0 && which < int(models.size()))
    for (const Tunable& t : models[std::size_t(which)].tunables) out.push_back(t.name);
  return out;
}

Command next_command(Bytes& b, const Snapshot& s) {
  static const std::vector<std::string> scenes = SceneRegistry::instance().names();
  static const std::vector<std::string> integrators = IntegratorRegistry::instance().names();
  static const std::vector<std::string> rotations = RotationRegistry::instance().names();
  static const std::vector<std::string> lessons = {
      STEPWISE_SOURCE_DIR "/assets/lessons/integrators-on-an-orbit.toml",
      STEPWISE_SOURCE_DIR "/assets/lessons/rolling-and-slipping.toml",
      STEPWISE_SOURCE_DIR "/assets/lessons/wang-vs-incremental-bond.toml", "nowhere.toml"};
  std::vector<std::string> parameters;
  for (const auto& [key, value] : s.scene_parameters.values()) parameters.push_back(key);
  std::vector<std::string> options;
  for (const Tunable& t : s.integrator_options) options.push_back(t.name);
  auto target = [&b] { return Vec3(b.number(), b.number(), b.number()); };
  switch (b.pick(30)) {
    case 0: {
      cmd::LoadScene c{name_from(b, scenes), {}};
      if (b.flag()) c.overrides[name_from(b, parameters)] = b.number();
      return c;
    }
    case 1: return cmd::Reset{b.flag()};
    case 2: return cmd::SetIntegrator{name_from(b, integrators)};
    case 3: return cmd::SetRotation{name_from(b, rotations)};
    case 4: return cmd::SetDt{b.number()};
    case 5: {
      const int model = b.pick(int(s.models.size()) + 1);
      return cmd::SetTunable{model, name_from(b, tunable_names(s.models, model)), b.number()};
    }
    case 6: {
      const int material = b.pick(int(s.materials.size()) + 2);
      return cmd::SetMaterial{material, name_from(b, tunable_names(s.materials, material - 1)),
                              b.number()};
    }
    case 7: return cmd::SetIntegratorOption{name_from(b, options), b.number()};
    case 8:
      return cmd::SetContact{b.flag() ? "impulse" : (b.flag() ? "penalty" : b.text()), b.number(),
                             b.number(), b.flag() ? "lemke" : (b.flag() ? "pgs" : "auto"),
                             b.number()};
    case 9: return cmd::SetRunning{b.flag()};
    case 10: return cmd::StepOnce{1 + b.pick(20)};
    case 11: return cmd::SetPacing{b.flag() ? Pacing::Fastest : Pacing::RealTime, b.number()};
    case 12: return cmd::DragStart{b.flag() ? b.pick(s.bodies + 1) : b.index(), target(), b.number(),
                                   b.number()};
    case 13: return cmd::DragMove{target()};
    case 14: return cmd::DragEnd{};
    case 15: return cmd::SetCapture{b.flag() ? 0.0 : b.number()};
    case 16: return cmd::SaveState{b.flag() ? "state.toml" : "no/such/folder/state.toml"};
    case 17: return cmd::SetVtk{b.flag() ? std::string() : "vtk", b.count()};
    case 18:
      return cmd::AddComparison{name_from(b, integrators), name_from(b, rotations),
                                b.flag() ? 0.0 : b.number()};
    case 19: {
      const bool contact = b.flag();
      const std::string key = contact ? "contact" : name_from(b, parameters);
      return cmd::AddVariant{key, contact ? ParamValue(std::string("impulse")) : b.number()};
    }
    case 20: return cmd::RemoveComparison{b.index()};
    case 21: {
      std::vector<std::string> methods;
      for (int n = b.pick(3); n > 0; --n) methods.push_back(name_from(b, integrators));
      return cmd::RunConvergence{methods, b.number()};
    }
    case 22: return cmd::RunReversibility{b.count()};
    case 23: return cmd::PlayLesson{*b.among(lessons)};
    case 24: return cmd::Rewind{};
    case 25: return cmd::RestoreCheckpoint{b.index()};
    case 26: return cmd::SetReference{b.flag()};
    case 27: return cmd::RunStability{name_from(b, integrators)};
    case 28: {
      SnapshotDetail d;
      d.contacts = b.flag();
      d.inspected = b.flag() ? b.pick(s.bodies + 1) : b.index();
      d.detailed = b.flag() ? b.pick(s.bodies + 1) : b.index();
      d.figure = BodyFigure(b.pick(6));  // one past the last
      return cmd::SetSnapshotDetail{d};
    }
    default:  // (StopStudy shares the last case: only inputs reaching it decode otherwise now)
      if (b.flag()) return cmd::StopStudy{b.flag()};
      return cmd::SetBlowupLimit{b.number()};
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // A scene's build and steps within the fuzzer's seconds (an implicit method's Jacobian by
  // differences on 2,000 bodies took more than ten under the sanitizers).
  limits::max_bodies() = 500;
  limits::max_steps() = 2000;   // a reversibility study, a comparison's catching up
  limits::max_substeps() = 200;
  // A comparison's catching up: a step of rigid contact by impulses costs some 2 ms under the
  // sanitizers, and a variant at the scene's step catching up a main run whose dt became 2 took
  // 2e4 of them (41 s) under the old 2e5.
  limits::max_catch_up() = 1e3;
  stepwise::fuzz::make_scratch("commands");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 600) return 0;
  stepwise::fuzz::enter_scratch();
  Bytes bytes(data, size);
  {
    PhysicsWorker worker;
    worker.send(cmd::LoadScene{"oscillator", {}});  // a small scene, as the window opens on one
    worker.poll_for_tests();
    for (int k = 0; k < 40 && !bytes.empty(); ++k) {
      worker.acquire_snapshot();
      worker.send(next_command(bytes, worker.snapshot()));
      worker.poll_for_tests();
    }
    std::vector<EnergySample> samples;
    worker.take_samples(samples);
  }
  stepwise::fuzz::empty_scratch();
  return 0;
}
