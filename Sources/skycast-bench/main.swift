import Foundation
import SkycastCore

// skycast-bench SUITE…: prints one figure a line as `BENCH <name> <value> <unit>`.
let suites: [String: () -> Void] = [
    "diff": DiffBenchmark.run,
    "search": SearchBenchmark.run,
    "network": NetworkBenchmark.run,
    "render": RenderBenchmark.run,
]
let order = ["diff", "search", "network", "render"]
let requested = Array(CommandLine.arguments.dropFirst())
if requested.isEmpty || requested.contains("-h") || requested.contains("--help") {
    print("usage: skycast-bench all | \(order.joined(separator: " | ")) …")
    exit(requested.isEmpty ? 2 : 0)
}
if requested == ["all"] {
    // Each suite in a process of its own, so that memory figures (RSS) are not one suite's leftovers.
    var failed = false
    for name in order {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = [name]
        do {
            try child.run()
            child.waitUntilExit()
            failed = failed || child.terminationStatus != 0
        } catch {
            FileHandle.standardError.write(Data("skycast-bench: cannot run suite \(name): \(error)\n".utf8))
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}
for name in requested {
    guard let suite = suites[name] else {
        FileHandle.standardError.write(Data("skycast-bench: unknown suite '\(name)' (known: all, \(order.joined(separator: ", ")))\n".utf8))
        exit(2)
    }
    suite()
}
