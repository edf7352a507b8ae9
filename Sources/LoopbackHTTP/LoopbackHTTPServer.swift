import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests and benchmarks, with latency and fault injection.
///
/// Each connection gets its own thread, so an injected delay holds only its own request. Every
/// response closes its connection. The server counts requests and the peak number in flight, as the
/// server sees them: that is what the grouping tests assert on, never wall time.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: [String: String]
        public var headers: [String: String]
        public var receivedAt: Double
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        /// Seconds to wait before answering.
        public var delay: Double
        /// Send only the first bytes of the body, then close.
        public var truncateBodyAt: Int?

        public init(status: Int = 200, headers: [String: String] = ["Content-Type": "application/json"],
                    body: Data = Data(), delay: Double = 0, truncateBodyAt: Int? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.truncateBodyAt = truncateBodyAt
        }

        public static func json(_ text: String, status: Int = 200, delay: Double = 0) -> Response {
            Response(status: status, body: Data(text.utf8), delay: delay)
        }
    }

    public typealias Handler = @Sendable (Request) -> Response

    public let port: UInt16
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var inFlight = 0
    private var _peakInFlight = 0
    private var _requests: [Request] = []
    private var stopped = false
    private let acceptThreadDone = DispatchSemaphore(value: 0)

    public init(handler: @escaping Handler) throws {
        self.handler = handler
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 128) == 0 else {
            close(socketFD)
            throw ServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        listener = socketFD
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "loopback-http-accept"
        thread.start()
    }

    public enum ServerError: Error { case socket(Int32) }

    deinit { stop() }

    /// Stops accepting; connections being answered finish on their own threads.
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptThreadDone.wait()
        close(listener)
    }

    public var requests: [Request] {
        lock.lock(); defer { lock.unlock() }
        return _requests
    }

    public var requestCount: Int { requests.count }

    public var peakInFlight: Int {
        lock.lock(); defer { lock.unlock() }
        return _peakInFlight
    }

    public func resetCounters() {
        lock.lock(); defer { lock.unlock() }
        _requests = []
        _peakInFlight = inFlight
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
        acceptThreadDone.signal()
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = readRequest(client) else { return }
        lock.lock()
        inFlight += 1
        _peakInFlight = max(_peakInFlight, inFlight)
        _requests.append(request)
        lock.unlock()
        let response = handler(request)
        if response.delay > 0 { usleep(useconds_t(response.delay * 1_000_000)) }
        lock.lock()
        inFlight -= 1
        lock.unlock()
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        var headers = response.headers
        headers["Content-Length"] = String(response.body.count)
        headers["Connection"] = "close"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var bytes = Data(head.utf8)
        if let cut = response.truncateBodyAt {
            bytes.append(response.body.prefix(cut))
        } else {
            bytes.append(response.body)
        }
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let result = send(client, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if result <= 0 { break }
                sent += result
            }
        }
        shutdown(client, Int32(SHUT_WR))
    }

    private func readRequest(_ client: Int32) -> Request? {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var received: [UInt8] = []
        func headComplete() -> Bool {
            guard received.count >= 4 else { return false }
            for index in 3..<received.count
            where received[index - 3] == 13 && received[index - 2] == 10 && received[index - 1] == 13 && received[index] == 10 {
                return true
            }
            return false
        }
        while received.count < 65_536 {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
            if headComplete() { break }
        }
        let text = String(decoding: received, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(parts[1])
        let components = URLComponents(string: target)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Request(method: String(parts[0]), path: components?.path ?? target, query: query, headers: headers,
                       receivedAt: Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
