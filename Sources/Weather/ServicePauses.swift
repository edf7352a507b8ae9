import Foundation
import Models
import Storage
import TextLayout

/// What a service's HTTP 429 says: which limit, in its own words. Open-Meteo sends
/// `{"error":true,"reason":"Daily API request limit exceeded. Please try again tomorrow."}` (its
/// server source, `RateLimiter.swift`); OpenWeatherMap `{"cod":429,"message":"Your account is
/// temporary blocked due to exceeding of requests limitation…"}` (its FAQ).
struct RateLimitRefusal: Equatable {
    var limit: WeatherError.RateLimit
    var reason: String

    init(body: Data) {
        struct Reply: Decodable {
            var reason: String?
            var message: String?
        }
        let reply = try? JSONDecoder().decode(Reply.self, from: body)
        let said = reply?.reason ?? reply?.message ?? ""
        reason = WeatherError.servicesWords(said)
        let lowered = said.lowercased()
        if lowered.contains("minutely") {
            limit = .minutely
        } else if lowered.contains("hourly") {
            limit = .hourly
        } else if lowered.contains("daily") {
            limit = .daily
        } else if lowered.contains("concurrent") {
            limit = .concurrent
        } else {
            limit = .unnamed
        }
    }
}

extension WeatherError.RateLimit {
    /// When to ask again: Open-Meteo's counters reset at the minute, the hour and UTC midnight; a
    /// limit the service did not name is given a minute (OpenWeatherMap counts calls per minute).
    /// Nil for too many requests at once, which is retried after a moment.
    func retryTime(after now: Date) -> Date? {
        let seconds = now.timeIntervalSince1970
        func next(_ period: Double) -> Date { Date(timeIntervalSince1970: ((seconds / period).rounded(.down) + 1) * period) }
        switch self {
        case .minutely: return next(60)
        case .hourly: return next(3600)
        case .daily: return next(86_400)
        case .unnamed: return now.addingTimeInterval(60)
        case .concurrent: return nil
        }
    }
}

/// Pauses services asked for, by host, kept in the cache folder so that a restart or a
/// `skycast show` waits as well instead of asking again. A missing, unreadable or unwritable file
/// only means no pause is known: nothing here is ever an error the user sees.
struct ServicePauses {
    struct Pause: Codable, Equatable {
        var until: Date
        var limit: WeatherError.RateLimit
        var reason: String
    }

    let file: URL?
    private(set) var byHost: [String: Pause] = [:]

    init(file: URL?) {
        self.file = file
        if let file, let data = try? Data(contentsOf: file),
           let stored = try? Self.decoder.decode([String: Pause].self, from: data) {
            byHost = stored
        }
    }

    static func key(_ url: URL) -> String { "\(url.host ?? ""):\(url.port ?? (url.scheme == "https" ? 443 : 80))" }

    /// The pause in force for `url`'s host at `now`, if any.
    func pause(for url: URL, at now: Date) -> Pause? {
        byHost[Self.key(url)].flatMap { $0.until > now ? $0 : nil }
    }

    mutating func add(_ pause: Pause, for url: URL, now: Date) {
        byHost[Self.key(url)] = pause
        byHost = byHost.filter { $0.value.until > now }
        guard let file, let data = try? Self.encoder.encode(byHost) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(data, to: file)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
