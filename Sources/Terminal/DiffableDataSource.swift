import DiffableSnapshot
import SkycastCore

/// Feeds a `TableView` from snapshots, in the manner of `UITableViewDiffableDataSource`: apply a new
/// snapshot and the table animates exactly the rows that changed.
public final class DiffableDataSource<Section: Hashable & Sendable, Item: Hashable & Sendable> {
    public let tableView: TableView<Section, Item>
    public private(set) var snapshot = DiffableSnapshot<Section, Item>()

    public init(tableView: TableView<Section, Item>, cellProvider: @escaping TableView<Section, Item>.CellProvider,
                sectionHeaderProvider: TableView<Section, Item>.SectionHeaderProvider? = nil) {
        self.tableView = tableView
        tableView.cellProvider = cellProvider
        tableView.sectionHeaderProvider = sectionHeaderProvider
    }

    /// Shows `snapshot`; returns the diff it applied. `isContentEqual` says, per item, whether its
    /// content is unchanged: items for which it is false are reconfigured (repainted with a flash).
    @discardableResult
    public func apply(_ snapshot: DiffableSnapshot<Section, Item>, animatingDifferences: Bool = true, now: Double,
                      isContentEqual: ((Item) -> Bool)? = nil) -> SnapshotDiff<Section, Item> {
        let diff = isContentEqual.map { snapshot.difference(from: self.snapshot, isContentEqual: $0) }
            ?? snapshot.difference(from: self.snapshot)
        self.snapshot = snapshot.clearingMarks()
        tableView.apply(diff, to: self.snapshot, animated: animatingDifferences, now: now)
        return diff
    }
}
