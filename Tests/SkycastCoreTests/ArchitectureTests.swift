import Foundation
import XCTest

/// The pure modules stay pure: Core and Models import neither the terminal nor the network, in their
/// sources and in Package.swift's module graph.
final class ArchitectureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    static let allowed: [String: Set<String>] = [
        "Models": ["Foundation"],
        "SkycastCore": ["Foundation", "Models", "Catalog"],
    ]

    func imports(ofModule module: String) throws -> [String: Set<String>] {
        let folder = Self.root.appendingPathComponent("Sources/\(module)")
        var found: [String: Set<String>] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: "import"), index + 1 < words.count, words[..<index].allSatisfy({ $0.hasPrefix("@") }) {
                    found[file, default: []].insert(String(words[index + 1]))
                }
            }
        }
        return found
    }

    func testCoreAndModelsImportNoTerminalAndNoNetwork() throws {
        for (module, allowed) in Self.allowed {
            let found = try imports(ofModule: module)
            XCTAssertFalse(found.isEmpty, "\(module) has sources")
            for (file, modules) in found {
                XCTAssertTrue(modules.isSubset(of: allowed), "\(module)/\(file) imports \(modules.subtracting(allowed).sorted())")
            }
        }
    }

    func testThePackageGraphAgrees() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for (module, allowed) in Self.allowed {
            guard let start = manifest.range(of: ".target(name: \"\(module)\"") else { return XCTFail("no target \(module)") }
            let declaration = manifest[start.lowerBound...].prefix { $0 != ")" }
            let dependencies = Set(declaration.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
                .subtracting([module])
            XCTAssertTrue(dependencies.isSubset(of: allowed), "\(module) depends on \(dependencies.subtracting(allowed).sorted())")
        }
    }
}
