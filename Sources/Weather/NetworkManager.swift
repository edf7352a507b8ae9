import Foundation
import Models

/// Fetches weather for many cities at once: the requests of one city go out together, cities go out
/// in a `TaskGroup` bounded to `maxConcurrentJobs`, identical requests in flight are shared, failures
/// are retried with backoff, and a cancelled caller is released at once.
public actor NetworkManager {
    public struct Configuration: Sendable {
        /// Per request, whole seconds (URLSession truncates fractions).
        public var timeoutSeconds: Int = 10
        /// Jobs (one request for a batch of cities, or one city's requests) in flight at once.
        public var maxConcurrentJobs: Int = 8
        public var maxAttempts: Int = 3
        /// First retry delay in seconds; doubled each time, with ±50 % jitter.
        public var backoffBase: Double = 0.5
        /// The longest `Retry-After` honoured.
        public var maxRetryAfter: Double = 30
        public var bodyLimit: Int = 5_000_000
        public var userAgent: String = "skycast/\(SkycastVersion.current)"

        public init() {}
    }

    public let provider: any WeatherProvider
    public let configuration: Configuration
    let cache: WeatherCache?
    let clock: @Sendable () -> Date
    private let transport: HTTPTransport
    private var inFlight: [URL: Task<HTTPResponse, Error>] = [:]

    public init(provider: any WeatherProvider, configuration: Configuration = Configuration(),
                cache: WeatherCache? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.provider = provider
        self.configuration = configuration
        self.cache = provider.id == .demo ? nil : cache
        self.clock = clock
        // Each job may have two requests out (OpenWeatherMap's current + forecast).
        transport = HTTPTransport(maxConnectionsPerHost: configuration.maxConcurrentJobs * 2,
                                  timeoutSeconds: max(1, configuration.timeoutSeconds),
                                  bodyLimit: configuration.bodyLimit, userAgent: configuration.userAgent)
    }

    /// One result per city as each completes (rows fill in progressively). Cached data comes first:
    /// a fresh entry instead of a request, a stale one at once and then the refreshed result.
    /// Ending the iteration early cancels what is still in flight.
    /// `bypassCache` skips the cache on the way in (a refresh the user asked for); results are still stored.
    public nonisolated func weather(for cities: [City], bypassCache: Bool = false) -> AsyncStream<Result<CityWeather, WeatherError>> {
        AsyncStream { continuation in
            let task = Task {
                await self.fetch(cities, bypassCache: bypassCache, into: continuation)
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every city's result, in the order given (for `skycast show` and tests).
    public func weatherResults(for cities: [City]) async -> [Result<CityWeather, WeatherError>] {
        var byID: [Int: Result<CityWeather, WeatherError>] = [:]
        for await result in weather(for: cities) {
            switch result {
            case let .success(weather): byID[weather.city.id] = result
            case let .failure(error): if let id = error.city?.id, byID[id] == nil || error.kind != .cancelled { byID[id] = result }
            }
        }
        return cities.map { byID[$0.id] ?? .failure(WeatherError(.cancelled, city: $0, provider: provider.id)) }
    }

    private func fetch(_ cities: [City], bypassCache: Bool, into continuation: AsyncStream<Result<CityWeather, WeatherError>>.Continuation) async {
        var unique: [City] = []
        var seen = Set<Int>()
        for city in cities where seen.insert(city.id).inserted { unique.append(city) }
        var toFetch: [City] = []
        let now = clock()
        for city in unique {
            if !bypassCache, let cached = cache?.load(provider: provider.id, city: city, now: now) {
                continuation.yield(.success(cached.weather))
                if cached.isFresh { continue }
            }
            toFetch.append(city)
        }
        let jobSize = max(1, provider.citiesPerJob)
        let jobs = stride(from: 0, to: toFetch.count, by: jobSize).map { Array(toFetch[$0..<min($0 + jobSize, toFetch.count)]) }
        let provider = self.provider
        await withTaskGroup(of: [Result<CityWeather, WeatherError>].self) { group in
            var pending = jobs.makeIterator()
            func startNext() -> Bool {
                guard let job = pending.next() else { return false }
                group.addTask { await provider.fetch(job, network: self) }
                return true
            }
            for _ in 0..<max(1, configuration.maxConcurrentJobs) where !startNext() { break }
            for await results in group {
                for result in results {
                    if case let .success(weather) = result { cache?.store(weather) }
                    continuation.yield(result)
                }
                _ = startNext()
            }
        }
    }

    /// GET `url`, shared with any identical request in flight, retried on 429, 5xx and timeouts (at
    /// most `maxAttempts`), honouring `Retry-After`. The last response is returned whatever its status;
    /// transport failures throw.
    public func get(_ url: URL) async throws(WeatherError) -> HTTPResponse {
        var attempt = 1
        while true {
            let outcome: Result<HTTPResponse, WeatherError>
            do {
                outcome = .success(try await sharedGet(url))
            } catch {
                outcome = .failure(error)
            }
            let retryAfter: Double?
            switch outcome {
            case let .success(response):
                guard response.status == 429 || response.status >= 500, attempt < configuration.maxAttempts else { return response }
                retryAfter = response.headers["retry-after"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            case let .failure(error):
                guard error.isRetryable, attempt < configuration.maxAttempts else { throw error }
                retryAfter = nil
            }
            let backoff = configuration.backoffBase * pow(2, Double(attempt - 1)) * Double.random(in: 0.5...1.5)
            let delay = min(configuration.maxRetryAfter, retryAfter ?? backoff)
            do {
                try await Task.sleep(nanoseconds: UInt64(max(0, delay) * 1e9))
            } catch {
                throw WeatherError(.cancelled)
            }
            attempt += 1
        }
    }

    private func sharedGet(_ url: URL) async throws(WeatherError) -> HTTPResponse {
        let task: Task<HTTPResponse, Error>
        if let existing = inFlight[url] {
            task = existing
        } else {
            let transport = self.transport
            task = Task { try await transport.get(url) }
            inFlight[url] = task
            Task { [weak self] in
                _ = try? await task.value
                await self?.finished(url, task: task)
            }
        }
        // Whoever gets the answer first forgets the shared task; the watcher above covers callers
        // that were all cancelled.
        do {
            let response = try await awaitCancellably(task)
            finished(url, task: task)
            return response
        } catch let error as WeatherError {
            finished(url, task: task)
            throw error
        } catch {
            throw WeatherError(.cancelled)
        }
    }

    private func finished(_ url: URL, task: Task<HTTPResponse, Error>) {
        if inFlight[url] == task { inFlight[url] = nil }
    }

    /// The number of distinct requests on the wire (for tests of coalescing).
    public var requestsInFlight: Int { inFlight.count }
}
