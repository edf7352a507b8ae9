import Foundation

/// The bundled GeoNames extract (`cities.tsv`, `city-names.tsv`, `countries.tsv`).
///
/// SwiftPM only bundles resources that sit inside a target's folder, so this tiny target's folder is
/// the top-level `Resources/`. The files are looked up by hand rather than through `Bundle.module`,
/// whose generated accessor traps when the bundle is missing: a binary copied alone must say what it
/// looked for and exit, not crash.
public enum CityData {
    /// The folder holding the data files, or where it was looked for.
    public enum Location: Sendable, Equatable {
        case found(URL)
        case notFound(searched: [String])
    }

    static let files = ["cities.tsv", "city-names.tsv", "countries.tsv"]

    /// Looks, in order, in `$SKYCAST_DATA_DIR`, in `../share/skycast` beside the executable's real
    /// path (an installed binary), and in the build's `skycast_CityData.resources` beside it.
    public static func locate(environment: [String: String], executable: URL) -> Location {
        var candidates: [URL] = []
        if let custom = environment["SKYCAST_DATA_DIR"], !custom.isEmpty {
            candidates.append(URL(fileURLWithPath: custom))
        }
        let folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(folder.deletingLastPathComponent().appendingPathComponent("share/skycast"))
        candidates.append(folder.appendingPathComponent("skycast_CityData.resources"))
        for candidate in candidates where files.allSatisfy({ FileManager.default.isReadableFile(atPath: candidate.appendingPathComponent($0).path) }) {
            return .found(candidate)
        }
        return .notFound(searched: candidates.map(\.path))
    }

    /// Where this process finds its data: the environment and executable of the running process.
    public static let location: Location = locate(environment: ProcessInfo.processInfo.environment,
                                                  executable: executableURL())

    /// The clear message for a missing data folder, naming every place that was searched.
    public static func notFoundMessage(searched: [String]) -> String {
        "city data not found (looked in: \(searched.joined(separator: ", ")))"
    }

    private static func executableURL() -> URL {
        // /proc/self/exe names the real binary even when started through a symlink or from PATH;
        // an xctest runner is an executable in the build folder too, so tests find the build's bundle.
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }
}
