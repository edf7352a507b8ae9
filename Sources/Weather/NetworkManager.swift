import Foundation
import Models

/// Fetches weather for many cities at once: the requests of one city go out together, cities go out
/// in a `TaskGroup` bounded to `maxConcurrentJobs`, identical requests in flight are shared, failures
/// are retried with backoff, and a cancelled caller is released at once.
///
/// It keeps to the service's limits: at most `limits.maxInFlight` requests on the wire, at most
/// `limits.callWindow` calls to the provider in any window, and nothing at all to a host that asked
/// for a pause (HTTP 429 naming its minutely, hourly or daily limit) until the pause is over. Pauses
/// are kept in the cache folder, so the next run and `skycast show` respect them too.
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
        /// The service's limits, when not the provider's own (tests).
        public var limits: ServiceLimits?
        /// Where pauses are kept between runs; none: only for this run.
        public var pauseFile: URL?

        public init() {}
    }

    public let provider: any WeatherProvider
    public let configuration: Configuration
    let cache: WeatherCache?
    let clock: @Sendable () -> Date
    /// Made on the first request: the demo provider, a fresh cache and a known pause never need
    /// URLSession, whose start-up costs memory and time.
    private lazy var transport = HTTPTransport(maxConnectionsPerHost: max(1, limits.maxInFlight),
                                               timeoutSeconds: max(1, configuration.timeoutSeconds),
                                               bodyLimit: configuration.bodyLimit, userAgent: configuration.userAgent)
    private let limits: ServiceLimits
    private var inFlight: [URL: Task<HTTPResponse, Error>] = [:]
    /// Callers waiting for each shared request: when the last one leaves, a request not yet sent is dropped.
    private var callers: [URL: Int] = [:]
    /// Requests on the wire, and how many may be: lowered when the service says too many at once.
    private var sending = 0
    private var allowedInFlight: Int
    /// Answers since the service last said too many at once: every ten allow one more in flight.
    private var answeredSinceRefusal = 0
    private var slotWaiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWaiterID = 0
    /// When requests to the provider's host were sent, for `callWindow`.
    private var providerSends: [Date] = []
    private var pauses: ServicePauses

    public init(provider: any WeatherProvider, configuration: Configuration = Configuration(),
                cache: WeatherCache? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.provider = provider
        self.configuration = configuration
        self.cache = provider.id == .demo ? nil : cache
        self.clock = clock
        limits = configuration.limits ?? provider.limits
        allowedInFlight = max(1, limits.maxInFlight)
        pauses = ServicePauses(file: configuration.pauseFile)
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

    /// GET `url`, shared with any identical request in flight, within the service's limits. Retried
    /// (at most `maxAttempts` in all) on 5xx, timeouts and "too many requests at once", honouring
    /// `Retry-After`. A 429 naming a limit pauses the host until that limit resets and throws
    /// `.rateLimited` with the service's reason. Other responses are returned whatever their status.
    public func get(_ url: URL) async throws(WeatherError) -> HTTPResponse {
        let started = Date()
        var attempt = 1
        while true {
            let outcome: Result<HTTPResponse, WeatherError>
            do {
                outcome = .success(try await sharedGet(url))
            } catch {
                outcome = .failure(error)
            }
            var retryAfter: Double?
            switch outcome {
            case let .success(response) where response.status == 429:
                let refusal = RateLimitRefusal(body: response.body)
                if let seconds = response.headers["retry-after"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }),
                   seconds <= configuration.maxRetryAfter, attempt < configuration.maxAttempts {
                    // The service said when: ask again then.
                    retryAfter = seconds
                    break
                }
                guard refusal.limit == .concurrent else {
                    let until = refusal.limit.retryTime(after: clock())
                    if let until { pauses.add(.init(until: until, limit: refusal.limit, reason: refusal.reason), for: url, now: clock()) }
                    throw WeatherError(.rateLimited(refusal.limit, reason: refusal.reason, retryAt: until), provider: provider.id)
                }
                // One request runs at a time and a few may wait: fewer at once, after a moment.
                allowedInFlight = max(1, allowedInFlight - 1)
                answeredSinceRefusal = 0
                guard attempt < configuration.maxAttempts else {
                    throw WeatherError(.rateLimited(.concurrent, reason: refusal.reason, retryAt: nil), provider: provider.id)
                }
                retryAfter = Double.random(in: 1...2)
            case let .success(response):
                answeredSinceRefusal += 1
                if answeredSinceRefusal % 10 == 0 { allowedInFlight = min(max(1, limits.maxInFlight), allowedInFlight + 1) }
                guard response.status >= 500, attempt < configuration.maxAttempts else { return response }
                retryAfter = response.headers["retry-after"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            case let .failure(error):
                guard error.isRetryable, attempt < configuration.maxAttempts else {
                    if case .timeout = error.kind, attempt > 1 {
                        // Say what happened: every try timed out, in this long.
                        let seconds = Int(Date().timeIntervalSince(started).rounded())
                        throw WeatherError(.timeout(seconds: seconds, attempts: attempt), provider: error.provider)
                    }
                    throw error
                }
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
        if let pause = pauses.pause(for: url, at: clock()) {
            throw WeatherError(.rateLimited(pause.limit, reason: pause.reason, retryAt: pause.until), provider: provider.id)
        }
        let task: Task<HTTPResponse, Error>
        if let existing = inFlight[url] {
            task = existing
        } else {
            let transport = self.transport
            task = Task {
                try await self.acquireSlot(for: url)
                let result: Result<HTTPResponse, Error>
                do { result = .success(try await transport.get(url)) } catch { result = .failure(error) }
                self.releaseSlot()
                return try result.get()
            }
            inFlight[url] = task
            Task { [weak self] in
                _ = try? await task.value
                await self?.finished(url, task: task)
            }
        }
        callers[url, default: 0] += 1
        // Whoever gets the answer first forgets the shared task; the watcher above covers callers
        // that were all cancelled.
        do {
            let response = try await awaitCancellably(task)
            leave(url, task: task, cancelled: false)
            return response
        } catch let error as WeatherError {
            leave(url, task: task, cancelled: false)
            throw error
        } catch {
            leave(url, task: task, cancelled: true)
            throw WeatherError(.cancelled)
        }
    }

    private func leave(_ url: URL, task: Task<HTTPResponse, Error>, cancelled: Bool) {
        callers[url, default: 1] -= 1
        if callers[url] == 0 {
            callers[url] = nil
            // Nobody wants it any more: a request still waiting for a slot is not sent. (One on the
            // wire finishes in the background: the transport never cancels a URLSessionTask.)
            if cancelled { task.cancel() }
        }
        if !cancelled { finished(url, task: task) }
    }

    private func finished(_ url: URL, task: Task<HTTPResponse, Error>) {
        if inFlight[url] == task { inFlight[url] = nil }
    }

    /// Waits for room on the wire (and, for the provider's host, in the minute's calls), then counts
    /// the request as sent. Throws when cancelled meanwhile or when the host is paused.
    private func acquireSlot(for url: URL) async throws {
        while sending >= allowedInFlight {
            let id = nextWaiterID
            nextWaiterID += 1
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in slotWaiters.append((id, continuation)) }
            } onCancel: {
                Task { await self.wake(id) }
            }
            try Task.checkCancellation()
        }
        sending += 1
        do {
            try await waitForCallWindow(url)
            if let pause = pauses.pause(for: url, at: clock()) {
                throw WeatherError(.rateLimited(pause.limit, reason: pause.reason, retryAt: pause.until), provider: provider.id)
            }
        } catch {
            releaseSlot()
            throw error
        }
    }

    private func waitForCallWindow(_ url: URL) async throws {
        guard let window = limits.callWindow, let service = provider.serviceURL, ServicePauses.key(url) == ServicePauses.key(service) else { return }
        while true {
            let now = Date()
            providerSends.removeAll { now.timeIntervalSince($0) >= window.seconds }
            guard providerSends.count >= window.calls, let oldest = providerSends.first else { break }
            try await Task.sleep(nanoseconds: UInt64(max(0.01, window.seconds - now.timeIntervalSince(oldest)) * 1e9))
        }
        providerSends.append(Date())
    }

    private func releaseSlot() {
        sending -= 1
        if sending < allowedInFlight, !slotWaiters.isEmpty { slotWaiters.removeFirst().continuation.resume() }
    }

    private func wake(_ id: Int) {
        if let index = slotWaiters.firstIndex(where: { $0.id == id }) { slotWaiters.remove(at: index).continuation.resume() }
    }

    /// The number of distinct requests on the wire (for tests of coalescing).
    public var requestsInFlight: Int { inFlight.count }
}
