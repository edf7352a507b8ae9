import Foundation
import SkycastCore

/// Prints one figure in the project's shared format: `BENCH <name> <value> <unit>`.
func report(_ name: String, _ value: Double, _ unit: String) {
    let formatted = value >= 100 || value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.3f", value)
    FileHandle.standardOutput.write(Data("BENCH \(name) \(formatted) \(unit)\n".utf8))
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

func cpuSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The median wall time in milliseconds of `runs` runs after one warm-up.
func medianMilliseconds(runs: Int = 11, _ body: () -> Void) -> Double {
    body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = monotonicSeconds()
        body()
        times.append((monotonicSeconds() - start) * 1000)
    }
    return median(times)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}

/// Resident set size in MB, from /proc/self/status.
func residentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
        return kilobytes / 1024
    }
    return 0
}
