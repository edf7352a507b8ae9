import Foundation
import LoopbackHTTP

/// Open-Meteo's free forecast API on 127.0.0.1, as it behaves for one client address. Every rule
/// here is a fact about the real service, with where it came from (its server source,
/// github.com/open-meteo/open-meteo, files under `Sources/App/Helper/`):
///
/// - One request runs and up to four more wait; one more at the same moment is refused at once with
///   HTTP 429 `{"error":true,"reason":"Too many concurrent requests"}` (`ConcurrencyGroupLimiter.swift`).
/// - Each location costs `max(1, v/10 × max(1, d/14))` calls for v variables (current + hourly +
///   daily) and d forecast days (`ForecastapiQuery.swift`).
/// - 600 weighted calls a minute, 5,000 an hour, 10,000 a day; the counters reset at the minute, the
///   hour and UTC midnight. Refused and failed calls count too. Over a limit: HTTP 429 with the
///   reasons below and no `Retry-After` (`RateLimiter.swift`).
/// - An overloaded server answers 503 `{"error":true,"reason":"The service is overloaded"}`.
/// - One location the service cannot serve turns the whole request into HTTP 400
///   `{"error":true,"reason":…}`; a latitude out of range reads "Latitude must be in range of -90 to
///   90°. Given: 100.0." (the API's documentation). The reason for other refused places is made up here.
/// - Any value may be `null`, whole arrays included (`JsonWriter.swift`, `ForecastApiResult.swift`).
/// - Several locations come back as an array; every element but the first has `location_id`, its
///   index in the request (`ForecastApiResult.swift`). One location is a single object.
/// - Only the variables asked for are sent. Hourly values start at local midnight of today; the
///   stand-in's places all keep UTC (offset 0), unless `utcOffsetSeconds` says otherwise.
public final class OpenMeteoStandIn: @unchecked Sendable {
    public struct Limits: Sendable {
        public var running = 1
        public var waiting = 4
        public var perMinute = 600.0
        public var perHour = 5_000.0
        public var perDay = 10_000.0

        public init() {}
    }

    public static let minutelyReason = "Minutely API request limit exceeded. Please try again in one minute."
    public static let hourlyReason = "Hourly API request limit exceeded. Please try again in the next hour."
    public static let dailyReason = "Daily API request limit exceeded. Please try again tomorrow."
    public static let concurrencyReason = "Too many concurrent requests"
    public static let overloadedReason = "The service is overloaded"
    public static let unservableReason = "No data is available for this location"

    private let lock = NSLock()
    private let slots: DispatchSemaphore
    private var server: LoopbackHTTPServer!
    private let limits: Limits
    private let latency: Double
    private let clock: @Sendable () -> Date

    private var running = 0
    private var waiting = 0
    private var counted: (minute: Int, hour: Int, day: Int) = (-1, -1, -1)
    private var used: (minute: Double, hour: Double, day: Double) = (0, 0, 0)
    private var _weightedCalls = 0.0
    private var _refusals: [String] = []
    private var _peakRunning = 0
    private var _overloaded = false
    private var _unservableLatitudes: Set<String> = []
    private var _nullVariables: Set<String> = []

    /// - Parameters:
    ///   - latency: seconds each answered request takes once it runs.
    ///   - clock: the time the counters follow (tests move it on instead of waiting).
    public init(limits: Limits = Limits(), latency: Double = 0.2, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.limits = limits
        self.latency = latency
        self.clock = clock
        slots = DispatchSemaphore(value: limits.running)
        server = try LoopbackHTTPServer { [unowned self] request in handle(request) }
    }

    public var baseURL: URL { server.baseURL }
    public var requestCount: Int { server.requestCount }
    public func stop() { server.stop() }

    /// Every weighted call the service counted, refused ones included.
    public var weightedCalls: Double { locked { _weightedCalls } }
    /// The reasons of every HTTP 429 sent, in order.
    public var refusals: [String] { locked { _refusals } }
    /// The most requests running at once (never more than `limits.running`).
    public var peakRunning: Int { locked { _peakRunning } }
    /// While set, every request is answered 503.
    public var overloaded: Bool {
        get { locked { _overloaded } }
        set { locked { _overloaded = newValue } }
    }
    /// Latitudes, as requested ("12.3400"), of places the service refuses: their batch gets HTTP 400.
    public var unservableLatitudes: Set<String> {
        get { locked { _unservableLatitudes } }
        set { locked { _unservableLatitudes = newValue } }
    }
    /// Variables sent as `null`: "current.apparent_temperature" (a value), "hourly.precipitation_probability" (the whole array).
    public var nullVariables: Set<String> {
        get { locked { _nullVariables } }
        set { locked { _nullVariables = newValue } }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// What the service counts for a request: each location `max(1, v/10 × max(1, d/14))`.
    public static func weight(of query: [String: String]) -> Double {
        let locations = max(1, query["latitude"]?.split(separator: ",").count ?? 1)
        let variables = ["current", "hourly", "daily", "minutely_15"].reduce(0) { count, block in
            count + (query[block]?.split(separator: ",").count ?? 0)
        }
        let days = Double(query["forecast_days"].flatMap(Int.init) ?? 7)
        return Double(locations) * max(1, Double(variables) / 10 * max(1, days / 14))
    }

    private func refusal(_ reason: String) -> LoopbackHTTPServer.Response {
        _refusals.append(reason)
        return Self.error(reason, status: 429)
    }

    private static func error(_ reason: String, status: Int) -> LoopbackHTTPServer.Response {
        .json(#"{"error":true,"reason":"\#(reason)"}"#, status: status)
    }

    private func handle(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        lock.lock()
        let now = clock().timeIntervalSince1970
        let window = (minute: Int(now / 60), hour: Int(now / 3600), day: Int(now / 86_400))
        if window.minute != counted.minute { used.minute = 0 }
        if window.hour != counted.hour { used.hour = 0 }
        if window.day != counted.day { used.day = 0 }
        counted = window
        let weight = Self.weight(of: request.query)
        used.minute += weight
        used.hour += weight
        used.day += weight
        _weightedCalls += weight
        let limited: String?
        if used.day > limits.perDay {
            limited = Self.dailyReason
        } else if used.hour > limits.perHour {
            limited = Self.hourlyReason
        } else if used.minute > limits.perMinute {
            limited = Self.minutelyReason
        } else if running + waiting >= limits.running + limits.waiting {
            limited = Self.concurrencyReason
        } else {
            limited = nil
        }
        if let limited {
            defer { lock.unlock() }
            return refusal(limited)
        }
        waiting += 1
        lock.unlock()

        slots.wait()
        lock.lock()
        waiting -= 1
        running += 1
        _peakRunning = max(_peakRunning, running)
        let overloaded = _overloaded
        let unservable = _unservableLatitudes
        let nulls = _nullVariables
        lock.unlock()
        defer {
            lock.lock()
            running -= 1
            lock.unlock()
            slots.signal()
        }
        if latency > 0 { Thread.sleep(forTimeInterval: latency) }
        if overloaded { return Self.error(Self.overloadedReason, status: 503) }
        guard request.path == "/v1/forecast" else { return Self.error("Not Found", status: 404) }
        let latitudes = request.query["latitude"]?.split(separator: ",").map(String.init) ?? []
        let longitudes = request.query["longitude"]?.split(separator: ",").map(String.init) ?? []
        guard !latitudes.isEmpty, latitudes.count == longitudes.count else {
            return Self.error("Parameter 'latitude' and 'longitude' must have the same number of elements", status: 400)
        }
        for latitude in latitudes {
            guard let value = Double(latitude), (-90...90).contains(value) else {
                return Self.error("Latitude must be in range of -90 to 90°. Given: \(latitude).", status: 400)
            }
            if unservable.contains(latitude) { return Self.error(Self.unservableReason, status: 400) }
        }
        let locations = latitudes.indices.map { index in
            location(index: index, latitude: latitudes[index], longitude: longitudes[index], query: request.query, nulls: nulls, now: now)
        }
        return .json(locations.count == 1 ? locations[0] : "[" + locations.joined(separator: ",") + "]")
    }

    /// One location's JSON: deterministic values from the place and the hour.
    private func location(index: Int, latitude: String, longitude: String, query: [String: String], nulls: Set<String>,
                          now: Double) -> String {
        let days = query["forecast_days"].flatMap(Int.init) ?? 7
        let midnight = (now / 86_400).rounded(.down) * 86_400
        let seed = Double(Int(Double(latitude) ?? 0) * 31 + Int(Double(longitude) ?? 0))
        func value(_ variable: String, hour: Int) -> String {
            switch variable {
            case "temperature_2m": return String(format: "%.1f", 10 + 8 * sin(Double(hour) / 24 * 2 * .pi - 2) + seed.truncatingRemainder(dividingBy: 7))
            case "apparent_temperature": return String(format: "%.1f", 8 + 8 * sin(Double(hour) / 24 * 2 * .pi - 2))
            case "relative_humidity_2m": return "70"
            case "weather_code": return ["0", "2", "3", "61", "45"][((hour / 6 + Int(seed)) % 5 + 5) % 5]
            case "wind_speed_10m": return "12.6"
            case "wind_direction_10m": return "230"
            case "is_day": return (6..<18).contains(hour % 24) ? "1" : "0"
            case "precipitation_probability": return String((hour * 7) % 100)
            default: return "0"
            }
        }
        var fields = [#""latitude":\#(latitude)"#, #""longitude":\#(longitude)"#, #""generationtime_ms":0.3"#,
                      #""utc_offset_seconds":0"#, #""timezone":"GMT""#, #""timezone_abbreviation":"GMT""#, #""elevation":40.0"#]
        if index > 0 { fields.insert(#""location_id":\#(index)"#, at: 0) }
        if let current = query["current"]?.split(separator: ",").map(String.init), !current.isEmpty {
            let hour = Int((now - midnight) / 3600)
            let values = current.map { #""\#($0)":\#(nulls.contains("current.\($0)") ? "null" : value($0, hour: hour))"# }
            fields.append(#""current":{"time":\#(Int(now / 900) * 900),"interval":900,\#(values.joined(separator: ","))}"#)
        }
        if let hourly = query["hourly"]?.split(separator: ",").map(String.init), !hourly.isEmpty {
            let hours = 0..<(24 * days)
            var blocks = [#""time":[\#(hours.map { String(Int(midnight) + $0 * 3600) }.joined(separator: ","))]"#]
            for variable in hourly {
                let values = nulls.contains("hourly.\(variable)") ? "null" : "[" + hours.map { value(variable, hour: $0) }.joined(separator: ",") + "]"
                blocks.append(#""\#(variable)":\#(values)"#)
            }
            fields.append(#""hourly":{\#(blocks.joined(separator: ","))}"#)
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
