import Foundation

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
for name in requested.contains("all") ? order : requested {
    guard let suite = suites[name] else {
        FileHandle.standardError.write(Data("skycast-bench: unknown suite '\(name)' (known: \(order.joined(separator: ", ")))\n".utf8))
        exit(2)
    }
    suite()
}
