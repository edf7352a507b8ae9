/// The version `--version`, the User-Agent and the packages carry.
public enum SkycastVersion {
    public static let current = "0.1.0"
}
