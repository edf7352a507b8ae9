/// A place weather can be shown for: a row of the bundled GeoNames catalog or a geocoding result.
public struct City: Sendable, Hashable, Codable {
    /// The GeoNames id (the online geocoder uses the same ids).
    public var id: Int
    public var name: String
    public var countryCode: String
    public var countryName: String
    /// The first-level division (state, province, region); empty when there is none.
    public var admin1: String
    public var latitude: Double
    public var longitude: Double
    /// An IANA time zone name such as `Europe/Zurich`; empty when unknown.
    public var timeZone: String
    public var population: Int

    public init(id: Int, name: String, countryCode: String, countryName: String, admin1: String,
                latitude: Double, longitude: Double, timeZone: String, population: Int) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
        self.countryName = countryName
        self.admin1 = admin1
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.population = population
    }

    /// "Portland, Oregon, US": enough to tell same-named cities apart.
    public var qualifiedName: String {
        admin1.isEmpty || admin1 == name ? "\(name), \(countryCode)" : "\(name), \(admin1), \(countryCode)"
    }

    /// "Seoul, Seoul, KR": the name, its state or region, its country, always (for details).
    public var fullName: String {
        admin1.isEmpty ? shortName : "\(name), \(admin1), \(countryCode)"
    }

    /// "Seoul, KR".
    public var shortName: String { countryCode.isEmpty ? name : "\(name), \(countryCode)" }

    /// Each city's name as a list shows it: short, or qualified by its state where two would
    /// otherwise read alike ("Portland, Oregon, US" and "Portland, Maine, US").
    public static func displayNames(_ cities: [City]) -> [Int: String] {
        var counts: [String: Int] = [:]
        for city in cities { counts[city.shortName, default: 0] += 1 }
        var names: [Int: String] = [:]
        for city in cities { names[city.id] = counts[city.shortName, default: 0] > 1 ? city.qualifiedName : city.shortName }
        return names
    }
}
