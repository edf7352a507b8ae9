import Foundation
import Models

/// How often the table may refresh so that a day of refreshes stays within the provider's daily
/// budget (`ProviderID.dailyCallBudget`): the configured interval, raised when the cities are many.
public enum RefreshBudget {
    public static let day: TimeInterval = 86_400

    /// The configured interval, or the shortest whole number of minutes at which a day of refreshes
    /// of `cities` (the first one included) costs no more than the budget.
    public static func interval(configured: TimeInterval, cities: Int, provider: ProviderID) -> TimeInterval {
        guard let budget = provider.dailyCallBudget, cities > 0, provider.callsPerCity > 0 else { return configured }
        let refreshesAllowed = budget / (Double(cities) * provider.callsPerCity)
        guard refreshesAllowed > 1 else { return max(configured, day) }
        // n refreshes a day, the first at once: (n - 1) intervals fit in a day.
        let needed = day / (refreshesAllowed - 1)
        guard needed > configured else { return configured }
        return (needed / 60).rounded(.up) * 60
    }

    /// The weighted calls of refreshing `cities` every `interval` for a day, the first at once.
    public static func callsPerDay(cities: Int, interval: TimeInterval, provider: ProviderID) -> Double {
        (day / interval).rounded(.down).advanced(by: 1) * Double(cities) * provider.callsPerCity
    }
}
