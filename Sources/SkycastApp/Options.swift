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
        /// A completion script for this shell.
        case completions(shell: String)
        case manpage
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
    /// `show --format`: a one-line template for status bars.
    public var format: LineFormat?

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
            case "--format":
                let text = try value(for: flag, inline: inline)
                do throws(LineFormat.FormatError) {
                    options.format = try LineFormat(parsing: text)
                } catch {
                    throw UsageError(message: error.message)
                }
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
            if inline != nil, !["--provider", "--units", "--timeout", "--limit", "--format"].contains(flag) {
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
        case "completions":
            guard rest.count == 1, let shell = rest.first, Reference.shells.contains(shell) else {
                throw UsageError(message: "completions needs one shell: \(Reference.shells.joined(separator: ", "))")
            }
            options.command = .completions(shell: shell)
        case "manpage": options.command = .manpage
        default:
            throw UsageError(message: "unknown command '\(TextSafety.printable(first))' (show, find, bookmarks; see skycast --help)")
        }
        return options
    }
}

/// Text echoed back to the user from argv or files: sanitised, and cut when absurdly long.
enum TextSafety {
    static func printable(_ text: String) -> String {
        TerminalText.truncated(TerminalText.sanitized(text), to: 80)
    }
}
