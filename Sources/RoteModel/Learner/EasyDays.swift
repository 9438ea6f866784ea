public import Foundation

/// Weekdays that take a lower share of reviews when the workload is balanced: the profile's
/// `easy_days`, as Anki 24.11 has them.
///
/// Written as a list, each day named takes half a normal day's reviews; written as a mapping,
/// each day takes the share given, from 0 (no reviews the balancer can move elsewhere) to 1
/// (a normal day):
///
/// ```yaml
/// settings:
///   load_balance: true
///   easy_days: [saturday, sunday]        # or {sunday: 0.25, wednesday: 0.5}
/// ```
public struct EasyDays: Sendable, Equatable {
    /// Weekday names as the profile writes them, Monday first.
    public static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    /// The share of a day named in the list form.
    public static let reducedShare = 0.5

    /// Each weekday's share of a normal day's reviews, Monday first; 1 for a normal day.
    public private(set) var shares: [Double]

    public init() { shares = Array(repeating: 1, count: 7) }

    /// The days named, each at `reducedShare`.
    public init(reduced days: [Int]) {
        self.init()
        for day in days where Self.weekdays.indices.contains(day) { shares[day] = Self.reducedShare }
    }

    /// True when every day is a normal day.
    public var isEmpty: Bool { shares.allSatisfy { $0 == 1 } }

    /// The share of the weekday `index` (0 is Monday).
    public func share(ofWeekday index: Int) -> Double { shares[((index % 7) + 7) % 7] }

    public mutating func setShare(_ share: Double, ofWeekday index: Int) { shares[index] = share }

    /// The weekday of a day counted from 1970-01-01 (a Thursday), 0 being Monday.
    public static func weekday(ofDayNumber day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

    /// Reads `key` of `values` in either form; a bad day or share is reported at its line and
    /// left out.
    public init?(reading values: inout MappingReader, key: String) {
        guard let node = values.value(key) else { return nil }
        self.init()
        let label = values.label(key)
        func weekday(_ name: String, line: Int?) -> Int? {
            if let index = Self.weekdays.firstIndex(of: name.lowercased()) { return index }
            values.log.error(
                line, "'\(label)': '\(name)' is not a weekday; write one of \(Self.weekdays.joined(separator: ", "))")
            return nil
        }
        switch node {
        case .sequence(let sequence):
            for item in sequence.items {
                guard let name = item.string, let day = weekday(name, line: item.mark.line) else { continue }
                shares[day] = Self.reducedShare
            }
        case .mapping:
            var nested = DiagnosticLog(path: values.log.path)
            guard var days = MappingReader(node, log: &nested, context: label) else {
                values.log.append(contentsOf: nested.items)
                return nil
            }
            for name in days.keys {
                let line = days.lineOf(name)
                let share = days.double(name)
                guard let day = weekday(name, line: line), let share else { continue }
                guard (0...1).contains(share) else {
                    days.error(name, "'\(label).\(name)' is \(share); a day's share of reviews is from 0 to 1")
                    continue
                }
                shares[day] = share
            }
            days.finish()
            values.log.append(contentsOf: days.log.items)
        default:
            values.log.error(
                node.mark.line,
                "'\(label)' must be a list of weekdays ([saturday, sunday]) or a mapping of weekday to share ({sunday: 0.25})"
            )
            return nil
        }
    }

    /// The list form when every easy day has the reduced share, else the mapping.
    public var yamlValue: YAMLValue? {
        guard !isEmpty else { return nil }
        let easy = Self.weekdays.indices.filter { shares[$0] != 1 }
        if easy.allSatisfy({ shares[$0] == Self.reducedShare }) {
            return .list(easy.map { .string(Self.weekdays[$0]) }, flow: true)
        }
        return .map(easy.map { (Self.weekdays[$0], .double(shares[$0])) }, flow: true)
    }
}
