public import Foundation

/// ISO-8601 timestamps as Rote writes and reads them: UTC, `2026-11-21T10:00:00Z`.
///
/// Hand-written rather than `ISO8601DateFormatter` because loading a large library parses
/// millions of them, and because a timestamp without a zone must be rejected, not guessed.
public enum Timestamp {
    /// Formats a date in UTC to whole seconds: `2026-11-21T10:00:00Z`.
    ///
    /// A date past `latest` is written as `latest`: a timestamp has four year digits, and Rote
    /// never writes what its own reader refuses — a review dated 9999 replays to a due date in
    /// the year 10000, which is "never" either way.
    public static func format(_ date: Date) -> String {
        // Clamped before the conversion to Int64, which traps on NaN and on a Double past its
        // range (a date read from a damaged file); NaN is no time at all, written as the latest.
        let raw = date.timeIntervalSince1970.rounded(.down)
        let seconds = raw.isNaN ? latestSeconds : Int64(min(max(raw, Double(earliestSeconds)), Double(latestSeconds)))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var yearText = String(year)
        while yearText.count < 4 { yearText = "0" + yearText }
        return
            "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// A date as a learner reads it: in `timeZone` (the machine's own by default), to the
    /// minute, with the zone's offset — `2026-11-21 12:00 +02:00`. Files keep UTC; this is
    /// for output only.
    public static func local(_ date: Date, in timeZone: TimeZone = .current) -> String {
        let offset = timeZone.secondsFromGMT(for: date)
        let shifted = format(date.addingTimeInterval(TimeInterval(offset)))
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return shifted.prefix(10) + " " + shifted.dropFirst(11).prefix(5)
            + " \(sign)\(two(minutes / 60)):\(two(minutes % 60))"
    }

    /// The calendar day of `local`: `2026-11-21`.
    public static func localDay(_ date: Date, in timeZone: TimeZone = .current) -> String {
        String(local(date, in: timeZone).prefix(10))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; a space may stand for `T`.
    /// Returns nil for anything else, including a timestamp without a zone.
    public static func parse(_ text: some StringProtocol) -> Date? {
        var text = String(text)
        return text.withUTF8 { parse(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// `parse` of UTF-8 bytes where they lie: progress files hold millions of timestamps.
    public static func parse(utf8: UnsafeRawBufferPointer) -> Date? {
        if utf8.count < 20 { return nil }
        func number(_ start: Int, _ length: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<(start + length) {
                let byte = utf8[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard utf8[4] == 45, utf8[7] == 45, utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: " "),
            utf8[13] == 58, utf8[16] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if utf8[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < utf8.count, utf8[index] >= 48, utf8[index] <= 57 {
                fraction += Double(utf8[index] - 48) * scale
                scale /= 10
                index += 1
            }
            if index == start { return nil }
        }
        guard index < utf8.count else { return nil }
        var offset: Int64 = 0
        switch utf8[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == utf8.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == utf8.count, utf8[index + 3] == 58,
                let zoneHours = number(index + 1, 2), let zoneMinutes = number(index + 4, 2),
                zoneHours < 24, zoneMinutes < 60
            else { return nil }
            offset = (zoneHours * 3600 + zoneMinutes * 60) * (utf8[index] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// 9999-12-31T23:59:59Z, the last time four year digits can hold.
    static let latestSeconds: Int64 = 253_402_300_799
    /// 0000-01-01T00:00:00Z, the first.
    static let earliestSeconds: Int64 = -62_167_219_200

    /// How far past this device's clock a recorded time may lie: a day covers clocks that
    /// disagree between devices and time zones set wrong, and refuses a year-9999 typo whose
    /// replay would schedule past what any reader accepts.
    public static let futureTolerance: TimeInterval = 86_400

    /// A time too far in the future to record, with what to do.
    public struct FutureTime: RoteError {
        public enum Code: String, RoteErrorCode {
            public typealias Failure = FutureTime
            case futureTime
        }
        public var code: Code { .futureTime }
        public let what: String
        public let date: Date
        public var message: String {
            "\(what) \(Timestamp.format(date)) is more than a day ahead of this device's clock; check the date (and the clock), then try again"
        }
    }

    /// Throws `FutureTime` for a date more than `futureTolerance` after `now`.
    public static func checkNotInFuture(_ date: Date, what: String, now: Date = Date()) throws {
        if isTooFarAhead(date, now: now) { throw FutureTime(what: what, date: date) }
    }

    public static func isTooFarAhead(_ date: Date, now: Date = Date()) -> Bool {
        date.timeIntervalSince(now) > futureTolerance
    }

    /// A date cut to whole seconds, the precision of every timestamp Rote writes.
    public static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days: exact proleptic Gregorian arithmetic.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
