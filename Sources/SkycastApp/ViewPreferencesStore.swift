import Foundation
import SkycastCore
import Storage

/// `$XDG_STATE_HOME/skycast/state.json`: the units and order last chosen in the table, so the next
/// run opens as this one was left. Best effort both ways: a missing, unreadable or unwritable file
/// only means the defaults (config.json, then metric and your order).
struct ViewPreferencesStore: Sendable {
    let file: URL

    static func standard(environment: [String: String]) -> ViewPreferencesStore {
        ViewPreferencesStore(file: XDGDirectories.state(environment: environment).appendingPathComponent("state.json"))
    }

    func load() -> ViewPreferences? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(ViewPreferences.self, from: data)
    }

    func save(_ preferences: ViewPreferences) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(preferences) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(data, to: file)
    }
}
