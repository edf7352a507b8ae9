import Foundation
import Models
import Storage
import SkycastCore
import Weather

/// `$XDG_CONFIG_HOME/skycast/config.json`: the user's defaults. Flags override it. Every field is
/// optional; a wrong one is reported by name and ignored, never fatal.
public struct Config: Sendable, Equatable {
    public var provider: ProviderID?
    public var units: Units?
    public var apiKey: String?
    /// Seconds between automatic refreshes.
    public var refreshInterval: TimeInterval?
    public var animation: Bool?
    public var ascii: Bool?

    public init() {}

    public struct Loaded: Sendable, Equatable {
        public var config: Config
        /// One line per problem, naming the field.
        public var problems: [String]
    }

    public static func file(environment: [String: String]) -> URL {
        XDGDirectories.config(environment: environment).appendingPathComponent("config.json")
    }

    public static func load(from file: URL) -> Loaded {
        guard let data = try? Data(contentsOf: file) else { return Loaded(config: Config(), problems: []) }
        return parse(data, name: file.lastPathComponent)
    }

    public static func parse(_ data: Data, name: String = "config.json") -> Loaded {
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            let line = JSONSyntax.errorLine(in: Array(data)).map { " (line \($0))" } ?? ""
            return Loaded(config: Config(), problems: ["\(name): malformed JSON\(line); using the defaults"])
        }
        guard let fields = object as? [String: Any] else {
            return Loaded(config: Config(), problems: ["\(name) is not a JSON object; using the defaults"])
        }
        var config = Config()
        var problems: [String] = []
        func problem(_ field: String, _ expected: String) {
            problems.append("\(name): field \"\(field)\" must be \(expected); ignored")
        }
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "provider":
                if let text = value as? String, let provider = ProviderID(rawValue: text) { config.provider = provider }
                else { problem(key, "one of \(ProviderID.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))") }
            case "units":
                if let text = value as? String, let units = Units(rawValue: text) { config.units = units }
                else { problem(key, "\"metric\" or \"imperial\"") }
            case "api_key":
                if let text = value as? String { config.apiKey = text } else { problem(key, "a string") }
            case "refresh_interval":
                if let seconds = value as? Double, seconds >= 60, seconds <= 86_400, !(value is Bool) { config.refreshInterval = seconds }
                else { problem(key, "a number of seconds from 60 to 86400") }
            case "animation":
                if let flag = value as? Bool { config.animation = flag } else { problem(key, "true or false") }
            case "icons":
                if let text = value as? String, text == "unicode" || text == "ascii" { config.ascii = text == "ascii" }
                else { problem(key, "\"unicode\" or \"ascii\"") }
            default:
                problems.append("\(name): unknown field \"\(key)\"; ignored")
            }
        }
        return Loaded(config: config, problems: problems)
    }
}
