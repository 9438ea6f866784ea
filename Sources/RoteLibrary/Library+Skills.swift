public import Foundation
public import RoteModel
import RoteStore
public import Study

/// A domain or skill folder of a skills deck, with the learner's progress per skill.
public struct SkillOverview: Sendable {
    public struct Row: Sendable {
        /// `math/algebra/linear_equations`.
        public var path: String
        public var skill: Skill
        /// Attempts, right answers, last practised and mastery, from the reviews of the
        /// skill's questions; never stored.
        public var practice: SkillPractice
        /// Seed 001's `progress`: published questions whose latest attempt (in the learner's
        /// sessions) was right ÷ published questions.
        public var progress: SkillProgress
    }

    /// `math/algebra` or `math/algebra/linear_equations`.
    public var path: String
    public var isDomain: Bool
    public var title: String
    public var description: String?
    /// The skill itself, or every skill of the domain in sort order.
    public var skills: [Row]
}

extension Library {
    /// The domain or skill at `path` (`math/algebra`, `math/algebra/linear_equations`), with
    /// the learner's progress in each of its skills; nil when `path` is neither.
    public func skillOverview(_ path: String, now: Date = Date()) throws -> SkillOverview? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts.allSatisfy({ Slug.isValidSegment($0) }), decks[parts[0]]?.kind == .skills else {
            return nil
        }
        func read(_ relative: String) -> Skill? {
            guard
                let data = FileManager.default.contents(
                    atPath: root.appending(path: LibraryPaths.content(relative)).path)
            else { return nil }
            return Skill.decode(data, path: LibraryPaths.content(relative)).0
        }
        let isDomain: Bool
        let head: Skill
        if let skill = read("\(path)/skill.yaml") {
            (isDomain, head) = (false, skill)
        } else if let domain = read("\(path)/domain.yaml") {
            (isDomain, head) = (true, domain)
        } else {
            return nil
        }
        var paths = [path]
        if isDomain {
            let folder = root.appending(path: LibraryPaths.content(path))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            paths = names.sorted().map { "\(path)/\($0)" }
        }
        let stats = try self.stats(now: now)
        let questions = entries(inDeck: parts[0]).filter { $0.id.hasPrefix(path + "/") }
        let attempts = sessionFiles(of: user).flatMap(\.attempts).filter { $0.entry.hasPrefix(path + "/") }
        let progress = SkillProgress.all(entries: questions, attempts: attempts)
        var rows: [SkillOverview.Row] = paths.compactMap { skillPath in
            guard let skill = read("\(skillPath)/skill.yaml") else { return nil }
            var practice = stats.skills[skillPath] ?? SkillPractice()
            practice.questions = max(
                practice.questions, questions.filter { SkillPractice.skill(ofQuestion: $0.id) == skillPath }.count)
            return SkillOverview.Row(
                path: skillPath, skill: skill, practice: practice,
                progress: progress[skillPath] ?? SkillProgress(skill: skillPath, publishedQuestions: [], attempts: []))
        }
        rows.sort { ($0.skill.sortOrder, $0.path) < ($1.skill.sortOrder, $1.path) }
        return SkillOverview(
            path: path, isDomain: isDomain, title: head.title, description: head.description, skills: rows)
    }
}
