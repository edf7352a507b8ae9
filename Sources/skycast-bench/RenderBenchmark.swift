import CNCursesw
import DiffableSnapshot
import Foundation
import Terminal
import TextLayout

/// Drives the real ncurses screen on a pseudo-terminal at 100×30 with a 40-row table and counts the
/// bytes each kind of update sends to the terminal.
enum RenderBenchmark {
    /// Counts what the terminal side of the pty receives, on its own thread so that ncurses never
    /// blocks on a full pty buffer.
    final class ByteCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var total = 0
        let descriptor: Int32

        init(descriptor: Int32) {
            self.descriptor = descriptor
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count <= 0 { break }
                    lock.lock(); total += count; lock.unlock()
                }
            }.start()
        }

        /// Bytes received since the last call, once the pty has gone quiet.
        func take() -> Int {
            var last = -1
            var current = 0
            while current != last {
                last = current
                usleep(15_000)
                lock.lock(); current = total; lock.unlock()
            }
            lock.lock(); defer { lock.unlock() }
            let value = total
            total = 0
            return value
        }
    }

    struct Row: Equatable { var name: String; var temperature: Int }

    static func run() {
        var master: Int32 = 0
        var slave: Int32 = 0
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            FileHandle.standardError.write(Data("skycast-bench: openpty failed\n".utf8))
            return
        }
        let counter = ByteCounter(descriptor: master)
        let environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
        let screen: NCursesScreen
        do {
            screen = try NCursesScreen(environment: environment, overrides: .init(), input: slave, output: slave, mouse: false)
        } catch {
            FileHandle.standardError.write(Data("skycast-bench: \(error)\n".utf8))
            return
        }
        let names = ["Seoul", "東京", "São Paulo", "Zürich", "London", "Reykjavík", "Portland", "서울특별시"]
        var rows: [Int: Row] = [:]
        for id in 0..<40 { rows[id] = Row(name: "\(names[id % names.count]) \(id)", temperature: (id * 7) % 35 - 5) }
        let table = TableView<Int, Int>(cellProvider: { _, _ in StyledLine() })
        let source = DiffableDataSource(tableView: table, cellProvider: { id, width in
            let row = rows[id]!
            var line = StyledLine()
            line.append(id % 3 == 0 ? " ★ " : "   ", TextStyle(foreground: .yellow))
            line.append(TerminalText.fitted(row.name, to: 24) + " ")
            line.append(TerminalText.fitted("☁ Overcast", to: 20) + " ")
            let temperature = "\(row.temperature)°"
            line.append(String(repeating: " ", count: 5 - TerminalText.width(temperature)))
            line.append(temperature)
            line.append("   ")
            line.append("☀ 6/-2  ☁ 5/-1  ☂ 3/1  ☁ 4/0  ☀ 7/-3", TextStyle(dim: true))
            return line
        })
        func snapshot(_ ids: [Int]) -> DiffableSnapshot<Int, Int> {
            var snapshot = DiffableSnapshot<Int, Int>()
            try! snapshot.appendSections([0])
            try! snapshot.appendItems(ids)
            return snapshot
        }
        var cpuTimes: [Double] = []
        func frame(_ now: Double) {
            let start = cpuSeconds()
            let size = screen.size
            screen.put(StyledLine(" skycast · bench", TextStyle(bold: true)), row: 0, column: 0, width: size.columns)
            table.render(on: screen, top: 1, width: size.columns, height: size.rows - 2,
                         header: StyledLine("    CITY                     NOW                   TEMP   NEXT 5 DAYS", TextStyle(dim: true)), now: now)
            screen.put(StyledLine(" / search  q quit", TextStyle(dim: true)), row: size.rows - 1, column: 0, width: size.columns)
            screen.flush()
            cpuTimes.append((cpuSeconds() - start) * 1e6)
        }

        var ids = Array(0..<40)
        source.apply(snapshot(ids), animatingDifferences: false, now: 0)
        frame(0)
        report("render.first_paint.bytes", Double(counter.take()), "B")

        frame(1)
        report("render.identical_frame.bytes", Double(counter.take()), "B")

        rows[5]!.temperature += 3
        source.apply(snapshot(ids), now: 10, isContentEqual: { $0 != 5 })
        var now = 10.0
        while table.isAnimating(now: now) { frame(now); now += 1.0 / 30 }
        frame(now)
        report("render.update_one_temperature.bytes", Double(counter.take()), "B")

        rows[100] = Row(name: "Reykjavík new", temperature: -3)
        ids.insert(100, at: 0)
        source.apply(snapshot(ids), now: 20)
        now = 20
        var frames = 0
        while table.isAnimating(now: now) { frame(now); now += 1.0 / 30; frames += 1 }
        frame(now)
        report("render.insert_row_top.bytes", Double(counter.take()), "B")
        report("render.insert_row_top.frames", Double(frames + 1), "frames")

        table.selectLast()
        frame(now)
        _ = counter.take()
        table.scroll(by: -1)
        frame(now)
        report("render.scroll_one_row.bytes", Double(counter.take()), "B")

        _ = cn_set_window_size(slave, 24, 80)
        screen.updateSize()
        frame(now)
        report("render.resize.bytes", Double(counter.take()), "B")
        report("render.frame.cpu_us", median(cpuTimes), "us")
        screen.end()
        close(slave)
        close(master)
    }
}
