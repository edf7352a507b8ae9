import Foundation
import Models
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP response as the providers see it. Header names are lower case.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Resumes a continuation exactly once, whichever comes first: the answer or a cancellation.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Error>?
    private var early: Result<Value, Error>?
    private var finished = false

    func install(_ continuation: CheckedContinuation<Value, Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func resume(_ result: Result<Value, Error>) {
        lock.lock()
        guard !finished else { lock.unlock(); return }
        finished = true
        guard let continuation else {
            early = result
            lock.unlock()
            return
        }
        self.continuation = nil
        lock.unlock()
        continuation.resume(with: result)
    }
}

/// Awaits `task` but returns at once with `CancellationError` when the caller is cancelled, leaving
/// the task to finish for whoever else awaits it.
func awaitCancellably<Value: Sendable>(_ task: Task<Value, Error>) async throws -> Value {
    let box = OneShot<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            box.install(continuation)
            Task {
                do { box.resume(.success(try await task.value)) } catch { box.resume(.failure(error)) }
            }
        }
    } onCancel: {
        box.resume(.failure(CancellationError()))
    }
}

/// GET requests over one URLSession.
///
/// swift-corelibs-foundation 6.3.1 deadlocks when `data(for:)` is cancelled while its completion
/// races in (swift-corelibs-foundation issue 5412, fixed upstream after 6.3.1), and crashes when a
/// `dataTask` is cancelled from another task (docs/ARCHITECTURE.md, "Network").
/// So a request is a `dataTask` with a completion handler that is never cancelled: on Swift
/// cancellation the caller is resumed at once with `CancellationError`, and the transfer finishes
/// or times out in the background.
final class HTTPTransport: Sendable {
    let session: URLSession
    let timeoutSeconds: Int
    let bodyLimit: Int
    let userAgent: String

    init(maxConnectionsPerHost: Int, timeoutSeconds: Int, bodyLimit: Int, userAgent: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        // URLSession truncates timeouts to whole seconds: keep them whole.
        configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        configuration.timeoutIntervalForResource = TimeInterval(timeoutSeconds * 3)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
        self.timeoutSeconds = timeoutSeconds
        self.bodyLimit = bodyLimit
        self.userAgent = userAgent
    }

    func get(_ url: URL) async throws(WeatherError) -> HTTPResponse {
        var request = URLRequest(url: url, timeoutInterval: TimeInterval(timeoutSeconds))
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let box = OneShot<HTTPResponse>()
        let limit = bodyLimit
        let seconds = timeoutSeconds
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    box.install(continuation)
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            box.resume(.failure(Self.weatherError(for: error, timeoutSeconds: seconds)))
                            return
                        }
                        guard let http = response as? HTTPURLResponse else {
                            box.resume(.failure(WeatherError(.invalidResponse("not an HTTP response"))))
                            return
                        }
                        let body = data ?? Data()
                        guard body.count <= limit else {
                            box.resume(.failure(WeatherError(.tooLarge(limit: limit))))
                            return
                        }
                        var headers: [String: String] = [:]
                        for (name, value) in http.allHeaderFields {
                            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                        }
                        box.resume(.success(HTTPResponse(status: http.statusCode, headers: headers, body: body)))
                    }
                    task.resume()
                }
            } onCancel: {
                box.resume(.failure(CancellationError()))
            }
        } catch let error as WeatherError {
            throw error
        } catch {
            throw WeatherError(.cancelled)
        }
    }

    static func weatherError(for error: Error, timeoutSeconds: Int) -> WeatherError {
        guard let urlError = error as? URLError else { return WeatherError(.offline(error.localizedDescription)) }
        switch urlError.code {
        case .timedOut: return WeatherError(.timeout(seconds: timeoutSeconds, attempts: 1))
        case .cancelled: return WeatherError(.cancelled)
        case .notConnectedToInternet: return WeatherError(.offline("no network connection"))
        case .cannotConnectToHost: return WeatherError(.offline("connection refused"))
        case .cannotFindHost, .dnsLookupFailed: return WeatherError(.offline("host not found"))
        case .networkConnectionLost: return WeatherError(.offline("connection lost"))
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return WeatherError(.offline("TLS failed"))
        default: return WeatherError(.offline("error \(urlError.code.rawValue)"))
        }
    }
}
