import Foundation
import LoopbackHTTP

/// OpenWeatherMap's free current-weather and 5-day/3-hour forecast APIs on 127.0.0.1. Facts from
/// the service's price page and FAQ (openweathermap.org/price, /faq):
///
/// - The free plan allows 60 calls a minute per key; past that, HTTP 429
///   `{"cod":429,"message":"Your account is temporary blocked due to exceeding of requests limitation…"}`.
/// - A new key answers HTTP 401 `{"cod":401,"message":"Invalid API key. Please see
///   https://openweathermap.org/faq#error401 for more info."}` until it is activated (up to a couple
///   of hours after sign-up).
/// - `cod` is a number in `/weather` replies and a string in `/forecast` replies.
public final class OpenWeatherMapStandIn: @unchecked Sendable {
    public static let blockedMessage = "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription https://openweathermap.org/price"
    public static let invalidKeyMessage = "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."

    private let lock = NSLock()
    private var server: LoopbackHTTPServer!
    private let callsPerWindow: Int
    private let window: Double
    private let latency: Double
    private let clock: @Sendable () -> Date
    private var windowStart = -1
    private var callsInWindow = 0
    private var _refusals = 0
    private var _inactiveKeys: Set<String> = []

    /// - Parameters:
    ///   - callsPerWindow, window: 60 calls a minute, as the free plan; tests may shorten the window.
    public init(callsPerWindow: Int = 60, window: Double = 60, latency: Double = 0.2,
                clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.callsPerWindow = callsPerWindow
        self.window = window
        self.latency = latency
        self.clock = clock
        server = try LoopbackHTTPServer { [unowned self] request in handle(request) }
    }

    public var baseURL: URL { server.baseURL }
    public var requestCount: Int { server.requestCount }
    public func stop() { server.stop() }

    /// HTTP 429s sent.
    public var refusals: Int {
        lock.lock()
        defer { lock.unlock() }
        return _refusals
    }

    /// Keys not activated yet: they get HTTP 401.
    public var inactiveKeys: Set<String> {
        get { lock.lock(); defer { lock.unlock() }; return _inactiveKeys }
        set { lock.lock(); _inactiveKeys = newValue; lock.unlock() }
    }

    private func handle(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        lock.lock()
        let current = Int(clock().timeIntervalSince1970 / window)
        if current != windowStart {
            windowStart = current
            callsInWindow = 0
        }
        callsInWindow += 1
        let blocked = callsInWindow > callsPerWindow
        if blocked { _refusals += 1 }
        let inactive = _inactiveKeys.contains(request.query["appid"] ?? "")
        let now = Int(clock().timeIntervalSince1970)
        lock.unlock()
        if inactive { return .json(#"{"cod":401, "message": "\#(Self.invalidKeyMessage)"}"#, status: 401) }
        if blocked { return .json(#"{"cod":429,"message":"\#(Self.blockedMessage)"}"#, status: 429) }
        if latency > 0 { Thread.sleep(forTimeInterval: latency) }
        switch request.path {
        case "/data/2.5/weather":
            return .json("""
                {"coord":{"lon":0,"lat":0},"weather":[{"id":500,"main":"Rain","description":"light rain","icon":"10d"}],
                 "main":{"temp":8.3,"feels_like":6.1,"temp_min":7.2,"temp_max":9.4,"pressure":1012,"humidity":87},
                 "wind":{"speed":5.0,"deg":240},"dt":\(now),"sys":{"sunrise":\(now - 3600),"sunset":\(now + 3600)},
                 "timezone":0,"cod":200}
                """)
        case "/data/2.5/forecast":
            let start = now / 10_800 * 10_800 + 10_800
            let items = (0..<40).map { step in
                """
                {"dt":\(start + step * 10_800),"main":{"temp":\(5 + step % 8),"temp_min":\(4 + step % 8),"temp_max":\(6 + step % 8)},
                 "weather":[{"id":\([800, 801, 500, 804][step % 4])}],"pop":\(Double(step % 5) / 5)}
                """
            }
            return .json(#"{"cod":"200","message":0,"cnt":40,"list":[\#(items.joined(separator: ","))],"city":{"timezone":0}}"#)
        default:
            return .json(#"{"cod":"404","message":"Internal error"}"#, status: 404)
        }
    }
}
