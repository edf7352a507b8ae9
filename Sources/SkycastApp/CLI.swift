import Catalog
import CityData
import Foundation
import Models
import SkycastCore
import Storage
import Terminal
import TextLayout
import Weather

/// The commands that print and exit (`show`, `find`, `bookmarks`, `--help`…) and the entry point
/// that picks between them and the full-screen table.
public enum CLI {
    /// Where a command writes: tests capture it, the executable passes stdout and stderr.
    public struct Output: Sendable {
        public var out: @Sendable (String) -> Void
        public var err: @Sendable (String) -> Void
        /// Whether `out` is a terminal (colours, its width) rather than a pipe or a file.
        public var isTerminal: Bool

        public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool = false) {
            self.out = out
            self.err = err
            self.isTerminal = isTerminal
        }

        public static let standard = Output(
            out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            err: { FileHandle.standardError.write(Data(("skycast: " + $0 + "\n").utf8)) },
            isTerminal: isatty(1) == 1)
    }

    public static let usageExit: Int32 = 2

    /// What the command line asks for, once parsed and checked.
    public enum Invocation: Sendable {
        /// Nothing to run: print nothing more and exit with this status (usage errors have been reported).
        case exit(Int32)
        /// The full-screen table. It must run on a thread of its own (the main thread), not in a task:
        /// its loop blocks in `poll`, and the cooperative pool has only as many threads as cores.
        case interactive(Settings)
        /// A command that prints and exits.
        case command(Options, Settings)
    }

    public static func prepare(arguments: [String], environment: [String: String], output: Output = .standard) -> Invocation {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            output.err(error.message)
            return .exit(usageExit)
        }
        let settings: Settings
        do {
            settings = try Settings.resolve(options, environment: environment)
        } catch {
            output.err(error.message)
            return .exit(usageExit)
        }
        switch options.command {
        case .help:
            output.out(Reference.helpText)
            return .exit(0)
        case let .completions(shell):
            output.out(Reference.completion(for: shell) ?? "")
            return .exit(0)
        case .manpage:
            output.out(Reference.manPage)
            return .exit(0)
        case .version:
            output.out("skycast \(SkycastVersion.current)")
            return .exit(0)
        case .about:
            output.out(Reference.aboutText)
            return .exit(0)
        case .interactive, .show, .find, .bookmarks:
            // Every command may need the catalog; a broken install says so before anything starts.
            if case let .notFound(searched) = CityData.location {
                output.err(CityData.notFoundMessage(searched: searched))
                return .exit(1)
            }
            return options.command == .interactive ? .interactive(settings) : .command(options, settings)
        }
    }

    /// Runs the full-screen table on the calling thread until the user quits.
    public static func runInteractive(_ settings: Settings, output: Output = .standard) -> Int32 {
        guard isatty(0) == 1, isatty(1) == 1 else {
            output.err("the full-screen table needs a terminal on stdin and stdout; to print the weather, use: skycast show")
            return 1
        }
        guard settings.environment["TERM"] != "dumb" else {
            output.err("TERM=dumb cannot show the full-screen table (no cursor movement); use: skycast show")
            return 1
        }
        return TerminalApp(settings: settings).run(output: output)
    }

    /// Runs every command that prints and exits (everything but the full-screen table).
    public static func run(arguments: [String], environment: [String: String], output: Output = .standard) async -> Int32 {
        switch prepare(arguments: arguments, environment: environment, output: output) {
        case let .exit(status): return status
        case .interactive:
            output.err("the full-screen table needs a terminal thread; run skycast without a command")
            return usageExit
        case let .command(options, settings): return await run(options, settings: settings, output: output)
        }
    }

    public static func run(_ options: Options, settings: Settings, output: Output = .standard) async -> Int32 {
        switch options.command {
        case let .show(cities):
            settings.warnings.forEach(output.err)
            return await show(cities, options: options, settings: settings, output: output)
        case let .find(query):
            return await find(query, options: options, settings: settings, output: output)
        case let .bookmarks(command):
            return bookmarks(command, options: options, settings: settings, output: output)
        case .interactive, .help, .version, .about, .completions, .manpage:
            return usageExit
        }
    }

    // MARK: - find

    static func loadCatalog(settings: Settings, output: Output) -> Catalog? {
        do {
            return try Catalog.open(indexDirectory: XDGDirectories.cache(environment: settings.environment))
        } catch {
            output.err(error.description)
            return nil
        }
    }

    static func find(_ query: String, options: Options, settings: Settings, output: Output) async -> Int32 {
        guard let catalog = loadCatalog(settings: settings, output: output) else { return 1 }
        let limit = options.limit ?? 10
        var matches: [CityMatch]
        do {
            matches = try catalog.search(query, limit: limit)
        } catch {
            output.err(error.description)
            return usageExit
        }
        // Only when asked: `find` is an offline catalog search (and a status bar's cheap one).
        if options.online {
            let network = settings.makeNetworkManager()
            do {
                let online = try await settings.geocoder.search(query, count: limit, language: settings.language, network: network)
                matches = Catalog.merging(local: matches, online: online, limit: limit)
            } catch {
                output.err("online search: \(error.message); showing offline results")
            }
        }
        if options.json {
            output.out(JSONOutput.find(matches))
        } else {
            for match in matches {
                let city = match.city
                let place = TerminalText.fitted(TerminalText.sanitized(city.qualifiedName), to: 44)
                let coordinates = String(format: "%9.4f %9.4f", city.latitude, city.longitude)
                output.out("\(String(city.id).padding(toLength: 9, withPad: " ", startingAt: 0)) \(place) \(coordinates) \(TerminalText.fitted(Formatters.grouped(city.population), to: 11, alignRight: true))")
            }
        }
        if matches.isEmpty {
            output.err("no city matches '\(TextSafety.printable(query))'")
            return 1
        }
        return 0
    }

    // MARK: - show

    /// The best catalog match of each name, or an error naming the closest matches.
    struct LookupError: Error { var message: String }

    static func resolve(_ names: [String], catalog: Catalog) -> [Result<City, LookupError>] {
        names.map { name in
            do throws(SearchQueryError) {
                let matches = try catalog.search(name, limit: 3)
                if let best = matches.first { return .success(best.city) }
                let start = String(name.prefix(3))
                let close = (try? catalog.search(start, limit: 3))?.map(\.city.qualifiedName) ?? []
                let hint = close.isEmpty ? "" : " (closest: \(close.joined(separator: "; ")))"
                return .failure(LookupError(message: "unknown city '\(TextSafety.printable(name))'\(hint)"))
            } catch {
                return .failure(LookupError(message: "'\(TextSafety.printable(name))': \(error.description)"))
            }
        }
    }

    static func show(_ names: [String], options: Options, settings: Settings, output: Output) async -> Int32 {
        guard let (cities, unknown, namesakes) = showCities(names, settings: settings, output: output) else { return names.isEmpty ? usageExit : 1 }
        if let format = options.format {
            return await showFormatted(cities, format: format, settings: settings, output: output) && !unknown ? 0 : 1
        }
        var failed = unknown
        let network = settings.makeNetworkManager()
        let results = await network.weatherResults(for: cities)
        var good: [CityWeather] = []
        for result in results {
            switch result {
            case let .success(weather): good.append(weather)
            case let .failure(error):
                failed = true
                output.err(error.description)
            }
        }
        if options.json {
            output.out(JSONOutput.show(good, units: settings.units))
        } else {
            let target = ShowTarget(settings: settings, isTerminal: output.isTerminal)
            if settings.provider == .demo {
                output.out(TerminalText.truncated("DEMO DATA \(target.capabilities.glyphs.emDash) simulated weather, not a forecast",
                                                  to: target.width, ellipsis: target.capabilities.glyphs.ellipsis))
            }
            for line in showLines(good, units: settings.units, target: target, now: Date(), namedFully: namesakes) { output.out(line) }
            if !good.isEmpty { output.out(settings.provider.attribution) }
        }
        return failed ? 1 : 0
    }

    /// The cities `show` is about: the bookmarks when no name is given, else each name's best match
    /// (a bookmarked one without opening the catalog). Nil when there is nothing to show; `unknown`
    /// when a name matched nothing (reported).
    static func showCities(_ names: [String], settings: Settings, output: Output) -> (cities: [City], unknown: Bool, namesakes: Set<Int>)? {
        let loaded = settings.bookmarkStore.load()
        if names.isEmpty {
            if let warning = loaded.warning { output.err(warning) }
            guard !loaded.cities.isEmpty else {
                output.err("no city given and no bookmarks yet; try: skycast show \"Paris, FR\"")
                return nil
            }
            return (loaded.cities, false, [])
        }
        var cities: [City] = []
        var unknown = false
        var namesaked = Set<Int>()
        let bookmarked = names.map { bookmark(named: $0, in: loaded.cities) }
        let catalog = bookmarked.contains(nil) ? loadCatalog(settings: settings, output: output) : nil
        if bookmarked.contains(nil) && catalog == nil { return nil }
        for (name, bookmarkedCity) in zip(names, bookmarked) {
            switch bookmarkedCity.map({ .success($0) }) ?? resolve([name], catalog: catalog!)[0] {
            case let .success(city):
                if !cities.contains(city) { cities.append(city) }
                // Asked for by a name many places share: say which one this is, and where the others are.
                if bookmarkedCity == nil, let catalog, let others = namesakes(of: city, query: name, catalog: catalog), others > 0 {
                    namesaked.insert(city.id)
                    output.err("'\(TextSafety.printable(name))' is \(others + 1) places; this is \(city.qualifiedName), the most populous "
                               + "(see: skycast find \"\(TextSafety.printable(name))\")")
                }
            case let .failure(error): output.err(error.message); unknown = true
            }
        }
        return cities.isEmpty ? nil : (cities, unknown, namesaked)
    }

    /// How many other places carry the whole name the query found `city` by, when the query gave
    /// no qualifier: a user asking for "Springfield" should hear there are others.
    static func namesakes(of city: City, query: String, catalog: Catalog) -> Int? {
        guard !query.contains(",") else { return nil }
        let matches = (try? catalog.search(query, limit: 50)) ?? []
        return matches.filter { $0.kind == .wholeName && $0.city.id != city.id && $0.city.name == city.name }.count
    }

    /// The bookmarked city `name` stands for: its id, its name, or its name with the country (and state).
    static func bookmark(named name: String, in bookmarks: [City]) -> City? {
        var folder = TextFolder()
        let wanted = folder.fold(name)
        return bookmarks.first { String($0.id) == name }
            ?? bookmarks.first { folder.fold($0.name) == wanted || folder.fold($0.qualifiedName) == wanted || folder.fold($0.shortName) == wanted }
    }

    /// `show --format`: a line a city for a status bar. Fresh cache answers without a request; the
    /// run never takes longer than `--timeout`; with only stale data (the service down or paused),
    /// the cached line marked "~". False when a city had nothing at all to show.
    static func showFormatted(_ cities: [City], format: LineFormat, settings: Settings, output: Output) async -> Bool {
        final class Latest: @unchecked Sendable {
            private let lock = NSLock()
            private var weather: [Int: CityWeather] = [:]
            private var errors: [Int: WeatherError] = [:]
            func record(_ result: Result<CityWeather, WeatherError>) {
                lock.lock()
                defer { lock.unlock() }
                switch result {
                case let .success(new):
                    if let known = weather[new.city.id], known.fetchedAt > new.fetchedAt { return }
                    weather[new.city.id] = new
                case let .failure(error):
                    if let id = error.city?.id, error.kind != .cancelled { errors[id] = error }
                }
            }
            func result(_ id: Int) -> (CityWeather?, WeatherError?) {
                lock.lock()
                defer { lock.unlock() }
                return (weather[id], errors[id])
            }
        }
        let latest = Latest()
        let stream = settings.makeNetworkManager().weather(for: cities)
        let timeout = UInt64(settings.timeoutSeconds) * 1_000_000_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await result in stream { latest.record(result) } }
            group.addTask { try? await Task.sleep(nanoseconds: timeout) }
            await group.next()
            group.cancelAll()
        }
        let now = Date()
        let ascii = ShowTarget(settings: settings, isTerminal: false).ascii
        var complete = true
        for city in cities {
            switch latest.result(city.id) {
            case let (weather?, _):
                let stale = now.timeIntervalSince(weather.fetchedAt) > WeatherCache.defaultTimeToLive
                output.out(format.render(weather, units: settings.units, ascii: ascii, stale: stale, now: now))
            case let (nil, error):
                complete = false
                output.err(error?.description ?? "\(city.shortName): no answer within \(settings.timeoutSeconds) s")
            }
        }
        return complete
    }

    /// The rows of `show`: the table's own row layout for the target's width (dropping days, then
    /// the condition words, never wrapping), under a header that names the days.
    static func showLines(_ weather: [CityWeather], units: Units, target: ShowTarget, now: Date, namedFully: Set<Int> = []) -> [String] {
        let shortNames = City.displayNames(weather.map(\.city))
        let names = Dictionary(uniqueKeysWithValues: weather.map { city in
            (city.city.id, namedFully.contains(city.city.id) ? city.city.qualifiedName : shortNames[city.city.id] ?? city.city.shortName)
        })
        let layout = RowLayout(width: target.width, longestName: names.values.map { TerminalText.width($0) }.max() ?? 0)
        let days = weather.first.map { Array($0.days(from: now).map(\.date)) } ?? []
        var lines = [RowFormatter.header(layout, glyphs: target.capabilities.glyphs, days: days)]
        for city in weather {
            let name = names[city.city.id] ?? city.city.shortName
            let row = CityRow(city: city.city, name: name, bookmarked: false, status: .loaded(city), units: units)
            lines.append(RowFormatter.line(for: row, layout: layout, capabilities: target.capabilities, now: now))
        }
        return lines.map { line in
            // The layout fits the width; a line that would not is cut rather than wrapped.
            let fitted = TerminalText.width(line.text) > target.width
                ? StyledLine(TerminalText.truncated(line.text, to: target.width, ellipsis: "")) : line
            return fitted.escaped(for: target.capabilities)
        }
    }

    // MARK: - bookmarks

    static func bookmarks(_ command: Options.BookmarksCommand, options: Options, settings: Settings, output: Output) -> Int32 {
        let store = settings.bookmarkStore
        switch command {
        case .list:
            let loaded = store.load()
            if let warning = loaded.warning { output.err(warning) }
            if options.json {
                output.out(JSONOutput.cities(loaded.cities))
            } else if loaded.cities.isEmpty {
                output.err("no bookmarks yet; add one with: skycast bookmarks add \"Paris, FR\"")
            } else {
                for city in loaded.cities { output.out("\(city.id)\t\(TerminalText.sanitized(city.qualifiedName))") }
            }
            return 0
        case let .add(name):
            guard let catalog = loadCatalog(settings: settings, output: output) else { return 1 }
            switch resolve([name], catalog: catalog)[0] {
            case let .failure(error):
                output.err(error.message)
                return 1
            case let .success(city):
                if store.load().cities.contains(where: { $0.id == city.id }) {
                    output.out("\(city.qualifiedName) is already bookmarked")
                    return 0
                }
                do {
                    let loaded = try store.apply(.add(city))
                    if let warning = loaded.warning { output.err(warning) }
                    output.out("bookmarked \(city.qualifiedName)")
                    return 0
                } catch {
                    output.err(error.message)
                    return 1
                }
            }
        case let .remove(name):
            guard let city = bookmark(named: name, in: store.load().cities) else {
                output.err("'\(TextSafety.printable(name))' is not bookmarked (skycast bookmarks list)")
                return 1
            }
            do {
                _ = try store.apply(.remove(cityID: city.id))
                output.out("removed \(city.qualifiedName)")
                return 0
            } catch {
                output.err(error.message)
                return 1
            }
        }
    }
}
