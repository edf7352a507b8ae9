import Catalog
import Models
import SkycastCore
import Weather

/// What one table row is drawn from. A row whose value changed (new weather, even with the same
/// figures; units; bookmark) is reconfigured: repainted, with a flash on the runs whose text changed.
struct CityRow: Equatable {
    var city: City
    /// "Portland, US", or "Portland, Oregon, US" where another row would read the same.
    var name: String
    var bookmarked: Bool
    var status: AppState.WeatherStatus
    var units: Units
}
