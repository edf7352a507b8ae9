import Foundation

/// The bundled GeoNames extract (`cities.tsv`, `city-names.tsv`, `countries.tsv`).
///
/// SwiftPM only bundles resources that sit inside a target's folder, so this tiny target's folder is
/// the top-level `Resources/`. An installed binary finds the files in the `skycast_CityData.resources`
/// folder that `make install` copies beside it.
public enum CityData {
    public static let bundle: Bundle = .module

    /// The URL of one of the bundled files, e.g. `"cities.tsv"`.
    public static func url(of file: String) -> URL? {
        let name = (file as NSString).deletingPathExtension
        let ext = (file as NSString).pathExtension
        return bundle.url(forResource: name, withExtension: ext)
    }
}
