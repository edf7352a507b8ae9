/// The highlight a row plays when it appears: a pure function of the time since it was inserted.
///
/// With 256 colours a gold background fades through six steps of darker golds to the terminal's own
/// background in 0.8 s; with 8 or 16 colours the row is reverse, then bold, then normal; with no
/// colour, bold then normal; with animation off, nothing.
public enum HighlightFade {
    public static let duration = 0.8
    static let golds: [UInt8] = [220, 214, 178, 136, 94, 58]
    /// On a light background the gold pales instead of darkening.
    static let paleGolds: [UInt8] = [220, 221, 222, 223, 229, 230]

    /// The overlay for a row inserted `elapsed` seconds ago; nil once the fade is over.
    public static func style(elapsed: Double, capabilities: TerminalCapabilities) -> TextStyle? {
        fade(elapsed: elapsed, duration: duration, capabilities: capabilities, steps: golds, paleSteps: paleGolds, blackText: 3,
             fewColours: TextStyle(reverse: true), noColour: TextStyle(bold: true))
    }

    /// Steps of background colour to the terminal's own (paler ones on a light background; black
    /// text over the first `blackText`); with 8 or 16 colours `fewColours`, then bold, then
    /// nothing; without colour `noColour` for the first half; nothing without animation.
    private static func fade(elapsed: Double, duration: Double, capabilities: TerminalCapabilities, steps dark: [UInt8], paleSteps: [UInt8],
                             blackText: Int, fewColours: TextStyle, noColour: TextStyle) -> TextStyle? {
        guard capabilities.animation, elapsed >= 0, elapsed < duration else { return nil }
        let progress = elapsed / duration
        switch capabilities.colors {
        case .full:
            let steps = capabilities.lightBackground ? paleSteps : dark
            let step = min(steps.count - 1, Int(progress * Double(steps.count)))
            return TextStyle(foreground: step < blackText || capabilities.lightBackground ? .black : nil, background: Color(steps[step]))
        case .sixteen, .eight:
            return progress < 1.0 / 3 ? fewColours : progress < 2.0 / 3 ? TextStyle(bold: true) : nil
        case .none:
            return progress < 0.5 ? noColour : nil
        }
    }

    /// How long a moved row is marked.
    public static let moveDuration = 0.6
    static let blues: [UInt8] = [39, 33, 32, 25, 24, 23]
    static let paleBlues: [UInt8] = [117, 153, 159, 189, 195, 231]

    /// The overlay for a row the diff moved `elapsed` seconds ago (a sort, a reorder): blue where
    /// an inserted row is gold, the same steps for fewer colours, none without animation.
    public static func moveStyle(elapsed: Double, capabilities: TerminalCapabilities) -> TextStyle? {
        fade(elapsed: elapsed, duration: moveDuration, capabilities: capabilities, steps: blues, paleSteps: paleBlues, blackText: 2,
             fewColours: TextStyle(foreground: .white, background: .blue), noColour: TextStyle(underline: true))
    }

    /// The brief flash of a value that changed in place (reconfigured rows).
    public static let flashDuration = 0.4

    public static func flashStyle(elapsed: Double, capabilities: TerminalCapabilities) -> TextStyle? {
        guard capabilities.animation, elapsed >= 0, elapsed < flashDuration else { return nil }
        return TextStyle(bold: true)
    }
}
