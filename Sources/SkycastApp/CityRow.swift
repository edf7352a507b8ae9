import Catalog
import Models
import SkycastCore
import Weather

/// What one table row shows. Two rows are equal when they would draw the same, which is what decides
/// whether a row is reconfigured (repainted) when the state changes.
struct CityRow: Equatable {
    var city: City
    var bookmarked: Bool
    var status: AppState.WeatherStatus
    var units: Units
}
