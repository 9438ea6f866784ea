/// How a typed answer is compared with the expected text.
///
/// Learners type on phones and laptops with different keyboards: capitals, a trailing full
/// stop, or Arabic short vowels (harakat) that the stored answer happens to leave out must not
/// turn a right answer wrong. So both sides are normalised the same way before comparing:
/// - case is folded (`Run` = `run`);
/// - punctuation and whitespace around the answer are dropped (`"run."` = `run`), while
///   punctuation inside is kept (`don't` ≠ `dont`, since it can change the word);
/// - Arabic diacritics are removed everywhere (`يَجْرِي` = `يجري`): the harakat U+064B–U+0652
///   (fathatan … sukun), the other combining marks U+0653–U+065F and the superscript alef U+0670;
///   so is the tatweel U+0640 that stretches a word (`كـتاب` = `كتاب`);
/// - Arabic letters that keyboards and writers use for one another are folded to one
///   (``foldedArabic(_:)``): alef maqsura to ya (`ى` = `ي`), the hamza and madda forms of alef
///   and alef wasla to bare alef (`أ إ آ ٱ` = `ا`), ta marbuta to ha (`ة` = `ه`);
/// - runs of whitespace inside become one space.
///
/// This is the one place those rules live: passage recall (`RecallComparison`) keys its words
/// through ``foldedArabic(_:)`` too.
package enum TypedAnswer {
    /// Arabic harakat: fathatan, dammatan, kasratan, fatha, damma, kasra, shadda, sukun.
    package static let harakat: ClosedRange<UInt32> = 0x064B...0x0652

    /// True for Arabic diacritics that typed comparison ignores: the harakat, the other Arabic
    /// combining marks (maddah and hamza above and below, U+0653–U+065F) and the superscript
    /// (dagger) alef U+0670.
    @inlinable package static func isHaraka(_ scalar: Unicode.Scalar) -> Bool {
        (0x064B...0x065F).contains(scalar.value) || scalar.value == 0x0670
    }

    /// The scalar a comparison uses for `scalar`: nil for what it ignores (a diacritic, the
    /// tatweel U+0640), one letter for each group of Arabic spelling variants, and the scalar
    /// itself otherwise.
    @inlinable package static func foldedArabic(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x0640: return nil  // tatweel
        case 0x0649: return "\u{064A}"  // alef maqsura ى → ya ي
        case 0x0622, 0x0623, 0x0625, 0x0671: return "\u{0627}"  // آ أ إ ٱ → ا
        case 0x0629: return "\u{0647}"  // ta marbuta ة → ha ه
        default: return isHaraka(scalar) ? nil : scalar
        }
    }

    /// The form both sides are compared in.
    package static func normalized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for original in text.unicodeScalars {
            guard let scalar = foldedArabic(original) else { continue }
            if scalar.properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(scalar)
        }
        var result = String(scalars).lowercased()
        // Trim punctuation (and symbols such as quotes) from both ends, then any space left.
        while let first = result.unicodeScalars.first, isTrimmable(first) { result.unicodeScalars.removeFirst() }
        while let last = result.unicodeScalars.last, isTrimmable(last) { result.unicodeScalars.removeLast() }
        return result
    }

    /// Whether `typed` matches any of the `accepted` answers after normalisation.
    package static func matches(_ typed: String, accepted: some Sequence<String>) -> Bool {
        let typed = normalized(typed)
        guard !typed.isEmpty else { return false }
        return accepted.contains { normalized($0) == typed }
    }

    /// How close `typed` is to `expected`, 0…1, after normalisation: one minus the edit
    /// distance (insertions, deletions, substitutions and swaps of two neighbouring
    /// characters each cost 1) over the longer length. `runing` for `running` is 6/7 ≈ 0.86;
    /// anything matching after normalisation is 1; nothing typed is 0.
    package static func similarity(_ typed: String, _ expected: String) -> Double {
        let a = Array(normalized(typed))
        let b = Array(normalized(expected))
        guard !a.isEmpty, !b.isEmpty else { return a.isEmpty && b.isEmpty ? 1 : 0 }
        if a == b { return 1 }
        // Optimal string alignment distance over characters, three rows at a time.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                var cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cost = min(cost, before[j - 2] + 1) }
                current[j] = cost
            }
            (before, previous, current) = (previous, current, before)
        }
        return max(0, 1 - Double(previous[b.count]) / Double(max(a.count, b.count)))
    }

    static func isTrimmable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .otherSymbol, .modifierSymbol:
            return true
        default:
            return false
        }
    }
}
