import Foundation

/// Where skycast keeps its files, by the XDG base directory rules: an absolute `$XDG_*_HOME`, else
/// the conventional folder under `$HOME`.
public enum XDGDirectories {
    /// `$XDG_CONFIG_HOME/skycast` or `~/.config/skycast`: the user's bookmarks and config.json.
    public static func config(environment: [String: String]) -> URL {
        directory("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
    }

    /// `$XDG_CACHE_HOME/skycast` or `~/.cache/skycast`: weather that may be thrown away.
    public static func cache(environment: [String: String]) -> URL {
        directory("XDG_CACHE_HOME", fallback: ".cache", environment: environment)
    }

    /// `$XDG_STATE_HOME/skycast` or `~/.local/state/skycast`: what skycast remembers between runs.
    public static func state(environment: [String: String]) -> URL {
        directory("XDG_STATE_HOME", fallback: ".local/state", environment: environment)
    }

    private static func directory(_ variable: String, fallback: String, environment: [String: String]) -> URL {
        // The specification ignores a relative path.
        if let base = environment[variable], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("skycast")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(fallback).appendingPathComponent("skycast")
    }
}
