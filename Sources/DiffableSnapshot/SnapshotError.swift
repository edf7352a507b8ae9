/// Why a snapshot mutation was refused. The snapshot is left exactly as it was.
///
/// UIKit crashes on these and DifferenceKit silently degrades; we report them with the identifiers
/// and positions involved so that the caller can say what went wrong.
public enum SnapshotError<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>:
    Error, Equatable, CustomStringConvertible
{
    /// A section identifier appears twice: already in the snapshot at `existingIndex`, or twice in
    /// the argument (then `existingIndex` is nil and `argumentIndices` lists both places).
    case duplicateSection(SectionIdentifierType, existingIndex: Int?, argumentIndices: [Int])
    /// An item identifier appears twice: already in the snapshot at `existingPath`, or twice in the
    /// argument (then `existingPath` is nil).
    case duplicateItem(ItemIdentifierType, existingPath: ItemPath?, argumentIndices: [Int])
    case sectionNotFound(SectionIdentifierType)
    case itemNotFound(ItemIdentifierType)
    /// Items were appended to "the last section" of a snapshot that has none.
    case noSections
    case sectionMovedRelativeToItself(SectionIdentifierType, index: Int)
    case itemMovedRelativeToItself(ItemIdentifierType, path: ItemPath)

    public var description: String {
        switch self {
        case let .duplicateSection(id, existing?, _):
            return "section \(id) is already in the snapshot at index \(existing)"
        case let .duplicateSection(id, nil, positions):
            return "section \(id) is given twice, at argument positions \(positions)"
        case let .duplicateItem(id, existing?, _):
            return "item \(id) is already in the snapshot at section \(existing.section), item \(existing.item)"
        case let .duplicateItem(id, nil, positions):
            return "item \(id) is given twice, at argument positions \(positions)"
        case let .sectionNotFound(id):
            return "section \(id) is not in the snapshot"
        case let .itemNotFound(id):
            return "item \(id) is not in the snapshot"
        case .noSections:
            return "cannot append items: the snapshot has no section"
        case let .sectionMovedRelativeToItself(id, index):
            return "section \(id) (index \(index)) cannot be moved relative to itself"
        case let .itemMovedRelativeToItself(id, path):
            return "item \(id) (section \(path.section), item \(path.item)) cannot be moved relative to itself"
        }
    }
}
