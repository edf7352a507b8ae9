import Foundation
import Models
import SkycastCore

/// What skycast's command line is, as data: `--help`, the man page and the shell completions are all
/// made from it (and the keys from the keymap), so they cannot drift apart. A test checks that every
/// option here is one `Options.parse` accepts.
enum Reference {
    struct Usage {
        var synopsis: String
        var summary: String
    }

    struct Option {
        /// "-V, --version" lists both; the last is the long form.
        var flags: [String]
        var argument: String?
        var summary: String
        /// The values a completion offers for the argument.
        var values: [String] = []
    }

    static let usages = [
        Usage(synopsis: "skycast [OPTIONS]", summary: "full-screen table of your cities"),
        Usage(synopsis: "skycast show [OPTIONS] [CITY ...]", summary: "print the weather and exit (bookmarks when no CITY)"),
        Usage(synopsis: "skycast find [OPTIONS] QUERY", summary: "search the city catalog"),
        Usage(synopsis: "skycast bookmarks [list | add CITY | remove CITY]", summary: "list or change the bookmarks"),
        Usage(synopsis: "skycast completions bash|zsh|fish", summary: "print a shell completion script"),
        Usage(synopsis: "skycast manpage", summary: "print this manual as a man page"),
    ]

    static let commands = ["show", "find", "bookmarks", "completions", "manpage"]
    static let bookmarkCommands = ["list", "add", "remove"]
    static let shells = ["bash", "zsh", "fish"]

    static let options = [
        Option(flags: ["--demo"], summary: "offline simulated weather (always labelled as demo data)"),
        Option(flags: ["--provider"], argument: "NAME", summary: "open-meteo (default), openweathermap, demo",
               values: ProviderID.allCases.map(\.rawValue)),
        Option(flags: ["--units"], argument: "UNITS", summary: "metric (default) or imperial", values: Units.allCases.map(\.rawValue)),
        Option(flags: ["--timeout"], argument: "SECONDS", summary: "per request, whole seconds (default 10)"),
        Option(flags: ["--no-cache"], summary: "neither read nor write the weather cache"),
        Option(flags: ["--json"], summary: "show, find, bookmarks list: print JSON"),
        Option(flags: ["--format"], argument: "FORMAT", summary: "show: one line a city for status bars, e.g. \"%c %t\"; "
               + LineFormat.codes.map { "%\($0.code) \($0.meaning)" }.joined(separator: ", ")),
        Option(flags: ["--online"], summary: "find: also ask the online geocoder"),
        Option(flags: ["--limit"], argument: "N", summary: "find: at most N matches (default 10)"),
        Option(flags: ["--no-color"], summary: "no colours (NO_COLOR is honoured too)"),
        Option(flags: ["--ascii"], summary: "ASCII only: * for ★, letters for icons"),
        Option(flags: ["--no-animation"], summary: "no highlight fades"),
        Option(flags: ["--no-mouse"], summary: "do not capture the mouse wheel"),
        Option(flags: ["--about"], summary: "version and data attributions"),
        Option(flags: ["-V", "--version"], summary: "print the version"),
        Option(flags: ["-h", "--help"], summary: "this help"),
    ]

    static let environment = [
        ("OPENWEATHERMAP_API_KEY", "key for --provider openweathermap"),
        ("SKYCAST_OPEN_METEO_URL, SKYCAST_GEOCODING_URL, SKYCAST_OPENWEATHERMAP_URL", "service base URLs (https, or http on loopback)"),
        ("SKYCAST_DATA_DIR", "where the city data is (else ../share/skycast beside the binary)"),
        ("XDG_CONFIG_HOME, XDG_CACHE_HOME", "where config.json, bookmarks.json and the cache live"),
        ("NO_COLOR", "disables colour"),
        ("COLORFGBG", "a light background (\"0;15\") pales the highlight fade"),
    ]

    static let files = [
        ("$XDG_CONFIG_HOME/skycast/bookmarks.json", "the bookmarks, written atomically; a corrupt file is kept aside"),
        ("$XDG_CONFIG_HOME/skycast/config.json", "defaults: provider, units, api_key, refresh_interval, animation, icons"),
        ("$XDG_CACHE_HOME/skycast/", "the weather cache, pauses.json and the prebuilt catalog index"),
    ]

    static let exitStatus = [
        ("0", "success"),
        ("1", "some city failed, nothing matched or the city data is missing"),
        ("2", "usage error"),
        ("129", "the terminal went away under the table"),
    ]

    static let examples = [
        ("skycast", "the table; / searches, b bookmarks"),
        ("skycast show \"Paris, FR\" Tokyo", "print two cities' weather"),
        ("skycast show --json", "your bookmarks as JSON"),
        ("skycast find --online springfield", "every Springfield, with the geocoder's too"),
        ("skycast --demo", "try it without a network"),
    ]

    // MARK: - --help

    static var helpText: String {
        func rows(_ pairs: [(String, String)], width: Int) -> String {
            pairs.map { "  " + $0.0.padding(toLength: max(width, $0.0.count + 1), withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
        }
        let optionRows = options.map { option in
            ((option.flags.joined(separator: ", ") + (option.argument.map { " " + $0 } ?? "")), option.summary)
        }
        return """
        skycast \(SkycastVersion.current) — the weather of the cities you care about, in your terminal

        USAGE
        \(rows(usages.map { ($0.synopsis, $0.summary) }, width: 52))

        CITY is a name with optional qualifiers: "Paris, FR", "Portland, Oregon", "Springfield, US".

        OPTIONS
        \(rows(optionRows, width: 23))

        KEYS (in the table; ? shows them too)
        \(Keymap.helpText)

        ENVIRONMENT
        \(rows(environment, width: 30))

        EXIT STATUS
        \(rows(exitStatus, width: 5))
        """
    }

    // MARK: - man page

    /// The man page, roff (man macros). Text is escaped: a leading dot or quote, backslashes, hyphens in flags.
    static var manPage: String {
        func roff(_ text: String) -> String {
            var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
            return escaped
        }
        func item(_ term: String, _ text: String) -> String { ".TP\n\\fB\(roff(term))\\fR\n\(roff(text))" }
        var lines = [
            ".TH SKYCAST 1 \"\" \"skycast \(SkycastVersion.current)\" \"User Commands\"",
            // Ragged right and no hyphenation: names of variables and flags stay whole.
            ".ad l",
            ".nh",
            ".SH NAME",
            "skycast \\- the weather of the cities you care about, in your terminal",
            ".SH SYNOPSIS",
        ]
        lines += usages.map { ".B \(roff($0.synopsis))\n.br" }
        lines += [".SH DESCRIPTION",
                  roff("A full-screen table of your cities, one a row: a bookmark mark, the name, the condition, the temperature and a forecast strip. / searches an offline catalog of 34,006 cities (GeoNames) and adds them; b bookmarks. CITY is a name with optional qualifiers: \"Paris, FR\", \"Portland, Oregon\", \"Springfield, US\".")]
        lines.append(".SH COMMANDS")
        lines += usages.map { item($0.synopsis, $0.summary) }
        lines.append(".SH OPTIONS")
        lines += options.map { item($0.flags.joined(separator: ", ") + ($0.argument.map { " " + $0 } ?? ""), $0.summary) }
        lines.append(".SH KEYS")
        lines += Keymap.entries.map { item($0.label, $0.detail.replacingOccurrences(of: "`", with: "")) }
        lines.append(".SH FILES")
        lines += files.map { item($0.0, $0.1) }
        lines.append(".SH ENVIRONMENT")
        lines += environment.map { item($0.0, $0.1) }
        lines.append(".SH EXIT STATUS")
        lines += exitStatus.map { item($0.0, $0.1) }
        lines.append(".SH EXAMPLES")
        lines += examples.map { item($0.0, $0.1) }
        lines += [".SH ATTRIBUTIONS"] + aboutText.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
            .map { $0.isEmpty ? ".PP" : roff(String($0)) }
        return lines.joined(separator: "\n") + "\n"
    }

    static let aboutText = """
    skycast \(SkycastVersion.current) — MIT licence

    City and country data © GeoNames (https://www.geonames.org), licensed under
    Creative Commons Attribution 4.0 International (CC BY 4.0,
    https://creativecommons.org/licenses/by/4.0/). Modified: a subset of fields
    was selected, admin1 codes were replaced by admin1 names, ASCII names were
    derived from the names, and rows were re-sorted.

    Weather data by Open-Meteo.com (https://open-meteo.com), CC BY 4.0. The free
    Open-Meteo API is for non-commercial use only; its terms:
    https://open-meteo.com/en/terms. For commercial use, see its API plans.
    Weather data by OpenWeatherMap (https://openweathermap.org), when that provider is chosen.
    Demo mode shows simulated data, not a forecast.
    """

    // MARK: - Completions

    /// Options that take a value, as the shells see them.
    private static var valued: [Option] { options.filter { $0.argument != nil } }
    private static var allFlags: [String] { options.flatMap(\.flags) }

    static func completion(for shell: String) -> String? {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        case "fish": return fish
        default: return nil
        }
    }

    /// Bookmarked cities come from `skycast bookmarks list` (id, a tab, the name) when asked for.
    private static var bash: String {
        let valueCases = valued.map { option in
            "        \(option.flags.joined(separator: "|"))) COMPREPLY=($(compgen -W \"\(option.values.joined(separator: " "))\" -- \"$cur\")); return ;;"
        }.joined(separator: "\n")
        return """
        # bash completion for skycast (generated by skycast completions bash)
        _skycast() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            COMPREPLY=()
            case "$prev" in
        \(valueCases)
            esac
            if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "\(allFlags.joined(separator: " "))" -- "$cur"))
                return
            fi
            local words=() word
            for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do [[ "$word" != -* ]] && words+=("$word"); done
            case "${words[0]}" in
            "") COMPREPLY=($(compgen -W "\(commands.joined(separator: " "))" -- "$cur")) ;;
            bookmarks)
                if [[ ${#words[@]} -eq 1 ]]; then
                    COMPREPLY=($(compgen -W "\(bookmarkCommands.joined(separator: " "))" -- "$cur"))
                elif [[ "${words[1]}" == remove ]]; then
                    local IFS=$'\\n' names=() name
                    while IFS=$'\\t' read -r _ name; do
                        [[ "$name" == "$cur"* ]] && names+=("$(printf '%q' "$name")")
                    done < <(skycast bookmarks list 2>/dev/null)
                    COMPREPLY=("${names[@]}")
                fi ;;
            completions) COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$cur")) ;;
            esac
        }
        complete -F _skycast skycast

        """
    }

    private static var zsh: String {
        let specs = options.map { option -> String in
            let summary = option.summary.replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
            let value = option.argument.map { ":\($0.lowercased()):(\(option.values.joined(separator: " ")))" } ?? ""
            return option.flags.map { "'\($0)[\(summary)]\(value)'" }.joined(separator: " ")
        }.joined(separator: " \\\n    ")
        return """
        #compdef skycast
        # zsh completion for skycast (generated by skycast completions zsh)
        _skycast() {
          local -a bookmarked
          _arguments -s \\
            \(specs) \\
            '1:command:(\(commands.joined(separator: " ")))' \\
            '*::argument:->argument'
          case $state in
            argument)
              case $words[1] in
                bookmarks)
                  if (( CURRENT == 2 )); then
                    _values 'bookmarks command' \(bookmarkCommands.joined(separator: " "))
                  elif [[ $words[2] == remove ]]; then
                    bookmarked=("${(@f)$(skycast bookmarks list 2>/dev/null | cut -f2)}")
                    _describe 'bookmarked city' bookmarked
                  fi ;;
                completions) _values shell \(shells.joined(separator: " ")) ;;
              esac ;;
          esac
        }
        _skycast "$@"

        """
    }

    private static var fish: String {
        var lines = ["# fish completion for skycast (generated by skycast completions fish)",
                     "complete -c skycast -f",
                     "complete -c skycast -n __fish_use_subcommand -a '\(commands.joined(separator: " "))'",
                     "complete -c skycast -n '__fish_seen_subcommand_from bookmarks; and not __fish_seen_subcommand_from \(bookmarkCommands.joined(separator: " "))' -a '\(bookmarkCommands.joined(separator: " "))'",
                     "complete -c skycast -n '__fish_seen_subcommand_from remove' -a '(skycast bookmarks list 2>/dev/null | cut -f2)'",
                     "complete -c skycast -n '__fish_seen_subcommand_from completions' -a '\(shells.joined(separator: " "))'"]
        for option in options {
            var line = "complete -c skycast"
            for flag in option.flags { line += flag.hasPrefix("--") ? " -l \(flag.dropFirst(2))" : " -s \(flag.dropFirst())" }
            if option.argument != nil { line += " -r" + (option.values.isEmpty ? "" : " -a '\(option.values.joined(separator: " "))'") }
            line += " -d '\(option.summary.replacingOccurrences(of: "'", with: ""))'"
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
