import Foundation
import Models
import TestFixtures
import XCTest
@testable import SkycastCore

final class RefreshBudgetTests: XCTestCase {
    func testManyCitiesRaiseTheIntervalToStayWithinHalfTheDailyQuota() {
        XCTAssertEqual(RefreshBudget.interval(configured: 600, cities: 6, provider: .openMeteo), 600, "few cities: as configured")
        XCTAssertEqual(RefreshBudget.interval(configured: 600, cities: 50, provider: .openMeteo), 15 * 60)
        XCTAssertEqual(RefreshBudget.interval(configured: 60, cities: 6, provider: .openMeteo), 2 * 60,
                       "refresh_interval 60 with 6 cities would cost 8,646 calls a day")
        XCTAssertEqual(RefreshBudget.interval(configured: 600, cities: 20_000, provider: .openMeteo), 86_400,
                       "more cities than the budget has calls: once a day, the least skycast can do")
        for (cities, configured) in [(50, 600.0), (300, 600), (6, 60), (1000, 600), (2400, 600)] {
            let interval = RefreshBudget.interval(configured: configured, cities: cities, provider: .openMeteo)
            XCTAssertLessThanOrEqual(RefreshBudget.callsPerDay(cities: cities, interval: interval, provider: .openMeteo), 5_000,
                                     "\(cities) cities every \(interval) s")
            XCTAssertEqual(interval.truncatingRemainder(dividingBy: 60), 0, "whole minutes")
        }
        XCTAssertEqual(RefreshBudget.interval(configured: 600, cities: 40, provider: .demo), 600, "demo data costs nothing")
        XCTAssertLessThanOrEqual(RefreshBudget.callsPerDay(cities: 100, interval: RefreshBudget.interval(configured: 600, cities: 100, provider: .openWeatherMap),
                                                           provider: .openWeatherMap), 16_000)
    }

    func testTheTickFollowsTheRaisedInterval() {
        let cities = (0..<50).map { Fixtures.city(5000 + $0, "City \($0)", "XX") }
        var state = AppState(provider: .openMeteo, units: .metric, bookmarks: cities, size: TerminalSize(rows: 24, columns: 80))
        XCTAssertEqual(state.effectiveRefreshInterval, 900)
        var day = Fixtures.now
        var refreshes = 0
        _ = App.update(&state, with: .started, now: day)
        refreshes += 1
        state.pending = []
        for _ in 0..<(86_400 / 30) {
            day += 30
            let effects = App.update(&state, with: .tick, now: day)
            if effects.contains(where: { if case .fetchWeather = $0 { return true }; return false }) { refreshes += 1 }
            state.pending = []
        }
        XCTAssertEqual(refreshes, 97, "one at start and one every 15 minutes")
        XCTAssertLessThanOrEqual(Double(refreshes * cities.count) * ProviderID.openMeteo.callsPerCity, 5_000)
    }
}
