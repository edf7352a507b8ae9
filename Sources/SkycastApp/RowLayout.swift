import Foundation
import SkycastCore

/// The widths of the table's columns for a terminal width: narrower terminals drop days from the
/// strip, then the strip, then the condition words; the city and temperature always show.
struct RowLayout: Equatable {
    static let markerWidth = 4
    static let temperatureWidth = 6
    /// Data older than this shows its age in the row (the cache serves stale data while refreshing).
    static let staleAge: TimeInterval = 20 * 60
    static let daySlotWidth = 8
    /// "14:05 ": each city's own time, where the width allows.
    static let clockWidth = 6
    /// " FEELS", " WIND ↙ 12 km/h", " RAIN": more of the current weather, from 140 columns on.
    static let feelsWidth = 7, windWidth = 12, rainWidth = 6
    static var extrasWidth: Int { feelsWidth + windWidth + rainWidth }

    enum Strip: Equatable {
        case days(Int)
        case hours(Int)
        case none
    }

    var nameWidth: Int
    /// 0 hides the condition words (the icon stays).
    var conditionWidth: Int
    var strip: Strip
    /// Whether rows show the city's local time after its name.
    var showsClock: Bool
    /// Whether rows show feels-like, wind and today's rain chance after the temperature.
    var showsExtras: Bool

    /// - Parameter longestName: the widest name to show: it takes blank columns the strip leaves,
    ///   so that no name is cut while the line has room.
    init(width: Int, longestName: Int = 0) {
        // The world clock takes its column first, from 90 columns on.
        showsClock = width >= 90
        showsExtras = width >= 140
        let width = width - (showsClock ? Self.clockWidth : 0) - (showsExtras ? Self.extrasWidth : 0)
        let rest = width - Self.markerWidth - Self.temperatureWidth - 2
        nameWidth = max(8, min(25, rest / 3))
        conditionWidth = width >= 60 ? min(20, max(12, rest / 4)) : 0
        let stripWidth = width - Self.markerWidth - nameWidth - 1 - (conditionWidth > 0 ? conditionWidth + 1 : 2)
            - Self.temperatureWidth - 3
        if width < 60 || stripWidth < 12 {
            strip = .none
            // No strip: the name may take what the icon and the temperature leave, up to its usual
            // longest, so that a row's error keeps some room.
            nameWidth = max(nameWidth, min(25, width - Self.markerWidth - 2 - Self.temperatureWidth - 1))
        } else if stripWidth >= Self.daySlotWidth * 3 {
            let days = min(7, stripWidth / Self.daySlotWidth)
            strip = .days(days)
            nameWidth += max(0, min(longestName - nameWidth, stripWidth - days * Self.daySlotWidth))
            // Then from the condition words, which an ellipsis shortens more gracefully than a name.
            let fromCondition = max(0, min(longestName - nameWidth, conditionWidth - 12))
            nameWidth += fromCondition
            conditionWidth -= fromCondition
        } else {
            strip = .hours(min(48, stripWidth))
        }
    }
}
