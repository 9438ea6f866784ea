public import Foundation

/// The consent questions Rote asks (seed 004 §6: practice of scripture is religious data,
/// special-category data under GDPR Art. 9). Each answer is kept in the profile's `consent`
/// with its time and the version of the question answered; a new wording asks again.
extension Profile {
    /// Whether Rote may keep the learner's passage practice at all: progress files of
    /// passage decks (reviews, ladder, reflections) and session attempts on passages.
    public static let passagesConsentTopic = "passages"
    public static let passagesConsentVersion = "1"

    /// What the learner is told before they answer the passage-practice question.
    public static let passagesConsentText = """
        Practising scripture says something about your religious belief, which data-protection \
        law (GDPR Art. 9) treats as special-category data. If you agree, Rote keeps your passage \
        practice — reviews, ladder steps, session attempts and any reflections — in this \
        library's files and commits, and it syncs wherever this library syncs. If you do not, \
        nothing about passages is written and passage decks are not studied; your other decks \
        are unaffected. You can change your mind: `rote consent grant` or `rote consent \
        withdraw` (which erases your passage practice).
        """

    /// The learner's current answer to `topic` in `version`, nil when never asked.
    public func consentAnswer(_ topic: String, version: String) -> Consent? {
        consent.first { $0.topic == topic && $0.version == version }
    }

    /// Why a passage's practice was not kept, and how to allow it.
    public static func passagesConsentRefusal(entry: String?) -> String {
        (entry.map { "\($0) is a passage: " } ?? "")
            + "passage practice is religious data, which Rote keeps only with your consent, so nothing about passages was written; "
            + "to allow it run `rote consent grant` (`rote consent status` shows what you answered)"
    }

    /// The answer to the passage-practice question, nil when never asked.
    public var passagePracticeConsent: Consent? {
        consentAnswer(Profile.passagesConsentTopic, version: Profile.passagesConsentVersion)
    }

    /// True only when the learner said yes to keeping passage practice.
    public var keepsPassagePractice: Bool { passagePracticeConsent?.granted == true }

    /// Records an answer, replacing any earlier one to the same topic, and dates the change.
    public mutating func recordConsent(_ topic: String, version: String, granted: Bool, at: Date) {
        consent.removeAll { $0.topic == topic }
        consent.append(Consent(topic: topic, granted: granted, at: at, version: version))
        updatedAt = at
    }
}
