import Foundation
import Models
import TextLayout

/// Open-Meteo's geocoding search, for places the offline catalog lacks. Every name that comes back is
/// sanitised before anything can show it; missing fields are tolerated.
public struct Geocoder: Sendable {
    public let baseURL: URL

    public init(baseURL: URL = Endpoints.defaults.geocoding) {
        self.baseURL = baseURL
    }

    /// `language` is the first part of `LANG` (`de_CH.UTF-8` → `de`), English when unset.
    public static func language(fromLocale locale: String?) -> String {
        guard let locale, let code = locale.split(whereSeparator: { $0 == "_" || $0 == "." || $0 == "-" }).first,
              code.count == 2 || code.count == 3, code.allSatisfy(\.isLetter) else { return "en" }
        return code.lowercased()
    }

    public func search(_ name: String, count: Int = 10, language: String = "en", network: NetworkManager) async throws(WeatherError) -> [City] {
        do {
            return try await request(name, count: count, language: language, network: network)
        } catch {
            // Its errors name it: "cannot reach the geocoder", not the weather service.
            var named = error
            named.service = "the geocoder"
            named.provider = nil
            throw named
        }
    }

    private func request(_ name: String, count: Int, language: String, network: NetworkManager) async throws(WeatherError) -> [City] {
        guard let url = URL.endpoint(baseURL, path: "/v1/search", query: [
            ("name", name), ("count", String(max(1, min(count, 100)))), ("language", language), ("format", "json"),
        ]) else {
            throw WeatherError(.invalidURL("cannot build a geocoding URL from \(baseURL)"))
        }
        let response = try await network.get(url)
        guard response.status == 200 else {
            let reason = (try? JSONDecoder().decode(OpenMeteoProvider.ErrorReply.self, from: response.body))?.reason
            throw WeatherError(.httpStatus(response.status, reason: reason))
        }
        return try decode(response.body)
    }

    func decode(_ body: Data) throws(WeatherError) -> [City] {
        let reply = try decodeJSON(Reply.self, from: body)
        return (reply.results ?? []).compactMap { result in
            guard let id = result.id, let name = result.name, let latitude = result.latitude, let longitude = result.longitude,
                  (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
            let clean = { (text: String?) in TerminalText.truncated(TerminalText.sanitized(text ?? ""), to: 80) }
            let cleanName = clean(name)
            guard !cleanName.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return City(id: id, name: cleanName, countryCode: clean(result.country_code).uppercased(),
                        countryName: clean(result.country), admin1: clean(result.admin1),
                        latitude: latitude, longitude: longitude, timeZone: clean(result.timezone),
                        population: result.population ?? 0)
        }
    }

    struct Reply: Decodable {
        struct Result: Decodable {
            var id: Int?
            var name: String?
            var latitude: Double?
            var longitude: Double?
            var country_code: String?
            var country: String?
            var admin1: String?
            var timezone: String?
            var population: Int?
        }
        var results: [Result]?
    }
}
