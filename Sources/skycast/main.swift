import Foundation
import SkycastApp

// Everything lives in SkycastApp; this hands it the process's arguments and environment. The
// full-screen table runs right here on the main thread, outside Swift concurrency: its loop blocks
// in poll(), which would starve a cooperative-pool thread (there are as many as cores, two here).
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
switch CLI.prepare(arguments: arguments, environment: environment) {
case let .exit(status):
    exit(status)
case let .interactive(settings):
    exit(CLI.runInteractive(settings))
case let .command(options, settings):
    exit(await CLI.run(options, settings: settings))
}
