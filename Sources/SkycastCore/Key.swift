/// A key press or terminal event, decoded by the terminal backend.
public enum Key: Hashable, Sendable {
    case character(Character)
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    case resize
    case wheelUp, wheelDown
    case unknown(Int)
}
