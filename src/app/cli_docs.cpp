// The manual page and bash completion, written from the parser's subcommands and options.
#include "app/cli_docs.hpp"

#include <algorithm>
#include <cstdio>

#include "app/icon.hpp"
#include "core/integrator.hpp"
#include "core/rotation_scheme.hpp"
#include "core/scene.hpp"
#include "core/types.hpp"
#include "io/atomic_file.hpp"

namespace stepwise::cli {
namespace {

// roff: a backslash is \e, a line must not start with a control character, minus signs in
// option names are \-.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string roff_option(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

std::vector<const CLI::App*> commands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

bool documented(const CLI::Option* o) {
  return !o->get_group().empty();
}  // hidden: group ""

std::string option_names(const CLI::Option* o) {
  std::string out;
  for (const std::string& s : o->get_snames()) out += (out.empty() ? "-" : ", -") + s;
  for (const std::string& l : o->get_lnames()) out += (out.empty() ? "--" : ", --") + l;
  return out;
}

std::string usage(const CLI::App* cmd) {
  std::string out = "stepwise " + cmd->get_name();
  for (const CLI::Option* o : cmd->get_options())
    if (!o->nonpositional())
      out += o->get_required() ? " " + o->get_type_name() : " [" + o->get_type_name() + "]";
  return out + " [options]";
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

std::string manual_page(const CLI::App& app, const std::string& version) {
  std::string m = ".TH STEPWISE 1 \"\" \"" + roff(version) + "\" \"User Commands\"\n";
  m += ".SH NAME\nstepwise \\- a sandbox for rigid\\-particle dynamics\n";
  m += ".SH SYNOPSIS\n.B stepwise\n[\\fISCENE\\fR] [\\fIoptions\\fR]\n.br\n.B stepwise\n"
       "\\fICOMMAND\\fR [\\fIarguments\\fR]\n";
  m += ".SH DESCRIPTION\nstepwise integrates the motion of spheres, clumps, boxes and convex "
       "polyhedra under contacts, bonds and fields, with a choice of translational integrators and "
       "rotation schemes, and keeps an energy ledger of the run. Without a command it opens the "
       "window on SCENE (a built\\-in scene name or a scene or lesson .toml file); the commands "
       "below run headless.\n";
  m += ".SH COMMANDS\n";
  for (const CLI::App* cmd : commands(app)) {
    m += ".SS \"" + roff(usage(cmd)) + "\"\n" + roff(cmd->get_description()) + "\n";
    for (const CLI::Option* o : cmd->get_options()) {
      if (!o->nonpositional() || !documented(o) || o == cmd->get_help_ptr()) continue;
      m += ".TP\n\\fB" + roff_option(option_names(o)) + "\\fR";
      if (o->get_items_expected_max() > 0) m += " \\fI" + roff(o->get_type_name()) + "\\fR";
      m += "\n" + roff(o->get_description()) + "\n";
    }
  }
  m += ".SH OPTIONS\n.TP\n\\fB\\-h, \\-\\-help\\fR\nthe options of the program or of a command\n"
       ".TP\n\\fB\\-\\-version\\fR\nthe version and the git commit it was built from\n";
  m += ".SH SCENES\n";
  for (const std::string& name : SceneRegistry::instance().names())
    m += ".TP\n\\fB" + roff_option(name) + "\\fR\n" +
         roff(SceneRegistry::instance().make(name)->info().summary) + "\n";
  m += ".SH INTEGRATORS\n" + roff(joined(IntegratorRegistry::instance().names())) +
       "\n.PP\nRotation schemes: " + roff(joined(RotationRegistry::instance().names())) +
       "\n.PP\n\\fBstepwise list \\-v\\fR shows each one's order, cost and update equations.\n";
  m += ".SH FILES\n.TP\n\\fIPREFIX/share/stepwise/scenes/\\fR, "
       "\\fIPREFIX/share/stepwise/lessons/\\fR\n"
       "the scene files and lessons the window lists, beside the installed program\n"
       ".TP\n\\fI$XDG_CONFIG_HOME/stepwise/\\fR (\\fI~/.config/stepwise/\\fR)\n"
       "the window's settings\n.TP\n\\fI./stepwise\\-output/\\fR\n"
       "screenshots, videos and saved states made in the window (\\-\\-output\\-dir)\n";
  m +=
      ".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\ninternal error\n.TP\n2\nbad input (the message "
      "names the flag, or the file and line)\n.TP\n3\nthe run went non\\-finite (the message names "
      "body and step)\n.TP\n130\ninterrupted (Ctrl+C)\n";
  m += ".SH EXAMPLES\n.nf\nstepwise kepler\nstepwise run kepler \\-\\-integrator euler "
       "\\-\\-duration "
       "20 \\-\\-csv energy.csv\nstepwise sweep oscillator \\-\\-integrators euler,rk4 \\-\\-dt "
       "0.1,0.05\nstepwise record dice \\-o dice.mp4 \\-\\-overlay\n.fi\n";
  m += ".SH SEE ALSO\n\\fBffmpeg\\fR(1), \\fBlmp\\fR(1)\n";
  return m;
}

std::string bash_completion(const CLI::App& app) {
  std::string s =
      "# bash completion for stepwise (generated by stepwise --generate bash-completion)\n"
      "_stepwise_words() {  # complete the last item of a comma list from the words in $1\n"
      "  local prefix=\"\"\n"
      "  [[ $cur == *,* ]] && prefix=\"${cur%,*},\"\n"
      "  COMPREPLY=($(compgen -P \"$prefix\" -W \"$1\" -- \"${cur##*,}\"))\n"
      "}\n"
      "_stepwise_named() {  # the names in $1, .toml files and folders\n"
      "  COMPREPLY=($(compgen -W \"$1\" -- \"$cur\") $(compgen -f -X '!*.toml' -- \"$cur\") "
      "$(compgen -d -- \"$cur\"))\n"
      "}\n"
      "_stepwise_lessons() {  # the installed lessons, beside the program found on PATH\n"
      "  local dir f\n"
      "  dir=$(dirname \"$(command -v stepwise)\")/../share/stepwise/lessons\n"
      "  for f in \"$dir\"/*.toml; do [[ -e $f ]] && basename \"$f\" .toml; done\n"
      "}\n"
      "_stepwise() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=\"\" i\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    case ${COMP_WORDS[i]} in\n";
  std::vector<std::string> command_names;
  for (const CLI::App* cmd : commands(app)) command_names.push_back(cmd->get_name());
  std::string names = joined(command_names);
  std::replace(names.begin(), names.end(), ' ', '|');
  s += "      " + names + ") cmd=${COMP_WORDS[i]}; break ;;\n    esac\n  done\n";
  s += "  local scenes=\"" + joined(SceneRegistry::instance().names()) + "\"\n";
  s += "  local integrators=\"" + joined(IntegratorRegistry::instance().names()) + "\"\n";
  s += "  local rotations=\"" + joined(RotationRegistry::instance().names()) + "\"\n";
  // The value an option takes, by its type name.
  s += "  case \"$cmd $prev\" in\n";
  for (const CLI::App* cmd : commands(app))
    for (const CLI::Option* o : cmd->get_options()) {
      if (!o->nonpositional() || o->get_items_expected_max() == 0) continue;
      const std::string type = o->get_type_name();
      std::string action;
      if (type == kFileType)
        action = "COMPREPLY=($(compgen -f -- \"$cur\"))";
      else if (type == kDirType)
        action = "COMPREPLY=($(compgen -d -- \"$cur\"))";
      else if (type == kSceneType)
        action = "_stepwise_named \"$scenes\"";
      else if (type == kLessonType)
        action = "_stepwise_named \"$(_stepwise_lessons)\"";
      else if (type == kIntegratorType || type == kIntegratorListType)
        action = "_stepwise_words \"$integrators\"";
      else if (type == kRotationType || type == kRotationListType)
        action = "_stepwise_words \"$rotations\"";
      else
        action = "COMPREPLY=()";  // a number or free text: nothing to offer
      std::string patterns;       // "run --csv"|"run -o"...: option_names gives "-o, --output"
      for (const std::string& n : o->get_snames())
        patterns += "|\"" + cmd->get_name() + " -" + n + "\"";
      for (const std::string& n : o->get_lnames())
        patterns += "|\"" + cmd->get_name() + " --" + n + "\"";
      s += "    " + patterns.substr(1) + ") " + action + "; return ;;\n";
    }
  s += "  esac\n  if [[ $cur == -* ]]; then\n    case $cmd in\n";
  for (const CLI::App* cmd : commands(app)) {
    std::vector<std::string> flags;
    for (const CLI::Option* o : cmd->get_options())
      if (o->nonpositional() && documented(o))
        for (const std::string& l : o->get_lnames()) flags.push_back("--" + l);
    s += "      " + cmd->get_name() + ") COMPREPLY=($(compgen -W \"" + joined(flags) +
         "\" -- \"$cur\")) ;;\n";
  }
  s += "      *) COMPREPLY=($(compgen -W \"--help --version\" -- \"$cur\")) ;;\n    esac\n    "
       "return\n  fi\n";
  // A positional word: the command itself (or the window's scene), then the scene a command runs.
  std::vector<std::string> with_scene;
  for (const CLI::App* cmd : commands(app))
    for (const CLI::Option* o : cmd->get_options())
      if (!o->nonpositional() && o->get_type_name() == kSceneType)
        with_scene.push_back(cmd->get_name());
  std::string scene_commands = joined(with_scene);
  std::replace(scene_commands.begin(), scene_commands.end(), ' ', '|');
  s += "  case $cmd in\n    \"\") _stepwise_named \"" + joined(command_names) +
       " $scenes\" ;;\n    " + scene_commands +
       ") _stepwise_named \"$scenes\" ;;\n  esac\n}\ncomplete -o filenames -F _stepwise stepwise\n";
  return s;
}

void name_values(CLI::App& app) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"dt", "DT|auto"},      {"set", "KEY=VALUE"},
      {"seed", "N"},          {"steps", "N"},
      {"every", "N"},         {"threads", "N"},
      {"frames", "N"},        {"select", "BODY"},
      {"thermo", "N"},        {"duration", "SECONDS"},
      {"seconds", "SECONDS"}, {"size", "WxH"},
      {"fps", "N"},           {"slow-motion", "FACTOR"},
      {"omega-dt", "X,..."},  {"compare", "INTEGRATOR[@DT]|KEY=VALUE,..."}};
  for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; }))
    for (CLI::Option* o : cmd->get_options([](CLI::Option*) { return true; }))
      for (const auto& [name, type] : kNames)
        if (o->check_lname(name)) o->type_name(type);
}

void generate(const CLI::App& app, const std::string& version, const std::string& kind,
              const std::string& path) {
  if (kind == "man") return write_file_atomically(path, manual_page(app, version));
  if (kind == "bash-completion") return write_file_atomically(path, bash_completion(app));
  if (kind == "icon.svg") return write_file_atomically(path, icon_svg());
  int size = 0;
  if (std::sscanf(kind.c_str(), "icon-%d.png", &size) == 1 && size >= 8 && size <= 1024)
    return write_png(path, icon_image(size));
  throw InputError(
      "--generate: expected man, bash-completion, icon.svg or icon-N.png (N 8 to "
      "1024), got '" +
      kind + "'");
}

}  // namespace stepwise::cli
