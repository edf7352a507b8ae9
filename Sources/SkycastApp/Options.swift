import Foundation
import Models
import SkycastCore
import Terminal
import TextLayout
import Weather

/// What the command line asks for. Flags may come before or after the command's words; `--` ends them.
public struct Options: Sendable, Equatable {
    public enum Command: Sendable, Equatable {
        case interactive
        case show(cities: [String])
        case find(query: String)
        case bookmarks(BookmarksCommand)
        case help
        case version
        case about
    }

    public enum BookmarksCommand: Sendable, Equatable {
        case list
        case add(String)
        case remove(String)
    }

    public var command: Command = .interactive
    public var demo = false
    public var provider: ProviderID?
    public var units: Units?
    public var timeoutSeconds: Int?
    public var noColor = false
    public var ascii = false
    public var noAnimation = false
    public var noMouse = false
    public var noCache = false
    public var json = false
    public var online = false
    public var limit: Int?

    public init() {}

    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var words: [String] = []
        var index = 0
        var flagsEnded = false
        func value(for flag: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if flagsEnded || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                index += 1
                continue
            }
            if argument == "--" { flagsEnded = true; index += 1; continue }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let flag = parts[0]
            let inline = parts.count > 1 ? parts[1] : nil
            switch flag {
            case "-h", "--help": options.command = .help
            case "-V", "--version": options.command = .version
            case "--about": options.command = .about
            case "--demo": options.demo = true
            case "--provider":
                let text = try value(for: flag, inline: inline)
                guard let provider = ProviderID(rawValue: text.lowercased()) else {
                    throw UsageError(message: "--provider must be one of \(ProviderID.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
                }
                options.provider = provider
            case "--units":
                let text = try value(for: flag, inline: inline)
                guard let units = Units(rawValue: text.lowercased()) else {
                    throw UsageError(message: "--units must be metric or imperial, not '\(text)'")
                }
                options.units = units
            case "--timeout":
                let text = try value(for: flag, inline: inline)
                guard let seconds = Int(text), (1...120).contains(seconds) else {
                    throw UsageError(message: "--timeout takes whole seconds from 1 to 120, not '\(text)'")
                }
                options.timeoutSeconds = seconds
            case "--limit":
                let text = try value(for: flag, inline: inline)
                guard let limit = Int(text), (1...500).contains(limit) else {
                    throw UsageError(message: "--limit takes a number from 1 to 500, not '\(text)'")
                }
                options.limit = limit
            case "--no-color", "--no-colour": options.noColor = true
            case "--ascii": options.ascii = true
            case "--no-animation": options.noAnimation = true
            case "--no-mouse": options.noMouse = true
            case "--no-cache": options.noCache = true
            case "--json": options.json = true
            case "--online": options.online = true
            default:
                throw UsageError(message: "unknown option '\(TextSafety.printable(argument))' (see skycast --help)")
            }
            if inline != nil, !["--provider", "--units", "--timeout", "--limit"].contains(flag) {
                throw UsageError(message: "\(flag) takes no value")
            }
            index += 1
        }
        guard options.command == .interactive else { return options }
        guard let first = words.first else { return options }
        let rest = Array(words.dropFirst())
        switch first {
        case "show":
            options.command = .show(cities: rest)
        case "find":
            guard !rest.isEmpty else { throw UsageError(message: "find needs a query, e.g. skycast find zurich") }
            options.command = .find(query: rest.joined(separator: " "))
        case "bookmarks":
            switch rest.first {
            case nil, "list": options.command = .bookmarks(.list)
            case "add":
                guard rest.count > 1 else { throw UsageError(message: "bookmarks add needs a city, e.g. skycast bookmarks add \"Paris, FR\"") }
                options.command = .bookmarks(.add(rest.dropFirst().joined(separator: " ")))
            case "remove", "rm":
                guard rest.count > 1 else { throw UsageError(message: "bookmarks remove needs a city") }
                options.command = .bookmarks(.remove(rest.dropFirst().joined(separator: " ")))
            case let other?:
                throw UsageError(message: "unknown bookmarks command '\(TextSafety.printable(other))' (list, add, remove)")
            }
        case "help": options.command = .help
        default:
            throw UsageError(message: "unknown command '\(TextSafety.printable(first))' (show, find, bookmarks; see skycast --help)")
        }
        return options
    }

    public static let helpText = """
    skycast \(SkycastVersion.current) — the weather of the cities you care about, in your terminal

    USAGE
      skycast [OPTIONS]                      full-screen table of your cities
      skycast show [OPTIONS] [CITY ...]      print the weather and exit (bookmarks when no CITY)
      skycast find [OPTIONS] QUERY           search the city catalog
      skycast bookmarks [list | add CITY | remove CITY]

    CITY is a name with optional qualifiers: "Paris, FR", "Portland, Oregon", "Springfield, US".

    OPTIONS
      --demo                 offline simulated weather (always labelled as demo data)
      --provider NAME        open-meteo (default), openweathermap, demo
      --units UNITS          metric (default) or imperial
      --timeout SECONDS      per request, whole seconds (default 10)
      --no-cache             neither read nor write the weather cache
      --json                 show, find, bookmarks list: print JSON
      --online               find: also ask the online geocoder
      --limit N              find: at most N matches (default 10)
      --no-color             no colours (NO_COLOR is honoured too)
      --ascii                ASCII only: * for ★, letters for icons
      --no-animation         no highlight fades
      --no-mouse             do not capture the mouse wheel
      --about                version and data attributions
      -V, --version          print the version
      -h, --help             this help

    KEYS (in the table; ? shows them too)
    \(Keymap.helpText)

    ENVIRONMENT
      OPENWEATHERMAP_API_KEY        key for --provider openweathermap
      SKYCAST_OPEN_METEO_URL, SKYCAST_GEOCODING_URL, SKYCAST_OPENWEATHERMAP_URL
                                    service base URLs (https, or http on loopback)
      XDG_CONFIG_HOME, XDG_CACHE_HOME   where config.json, bookmarks.json and the cache live
      NO_COLOR                      disables colour
      COLORFGBG                     a light background ("0;15") pales the highlight fade

    EXIT STATUS
      0 success; 1 some city failed, nothing matched or the city data is missing; 2 usage error;
      129 the terminal went away under the table.
    """

    public static let aboutText = """
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
}

/// Text echoed back to the user from argv or files: sanitised, and cut when absurdly long.
enum TextSafety {
    static func printable(_ text: String) -> String {
        TerminalText.truncated(TerminalText.sanitized(text), to: 80)
    }
}
