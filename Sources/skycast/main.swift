import Foundation
import SkycastApp

// Everything lives in SkycastApp; this only hands it the process's arguments and environment.
let status = await CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
