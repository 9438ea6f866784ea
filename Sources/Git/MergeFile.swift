internal import CLibGit2
package import Foundation

/// The result of a three-way text merge of one file.
package struct TextMergeResult: Sendable, Equatable {
    /// The merged text; where both sides changed the same lines it holds git's standard
    /// conflict markers (`<<<<<<< ours`, `=======`, `>>>>>>> theirs`).
    package var contents: Data
    /// True when the merge needed no markers.
    package var isClean: Bool
}

extension Repository {
    /// Which side wins lines both sides changed, instead of conflict markers.
    package enum Favor: Sendable {
        case none, ours, theirs
    }

    /// Merges three versions of a text file line by line, as git does, labelling the sides in
    /// any conflict markers (`git_merge_file`). A missing ancestor merges as an empty file.
    /// With `favor` other than `.none`, lines both sides changed are taken from that side and
    /// the result is always clean (`GIT_MERGE_FILE_FAVOR_OURS` / `_THEIRS`).
    package static func mergeText(
        ancestor: Data?, ours: Data, theirs: Data, path: String,
        oursLabel: String = "ours", theirsLabel: String = "theirs", favor: Favor = .none
    ) throws -> TextMergeResult {
        LibGit.ensureInitialized()
        var options = git_merge_file_options()
        try check("preparing a text merge of \(path)") {
            git_merge_file_options_init(&options, UInt32(GIT_MERGE_FILE_OPTIONS_VERSION))
        }
        switch favor {
        case .none: break
        case .ours: options.favor = GIT_MERGE_FILE_FAVOR_OURS
        case .theirs: options.favor = GIT_MERGE_FILE_FAVOR_THEIRS
        }
        var result = git_merge_file_result()
        defer { git_merge_file_result_free(&result) }
        let base = ancestor ?? Data()
        try base.withUnsafeBytes { baseBytes in
            try ours.withUnsafeBytes { oursBytes in
                try theirs.withUnsafeBytes { theirsBytes in
                    try path.withCString { cPath in
                        try oursLabel.withCString { cOurs in
                            try theirsLabel.withCString { cTheirs in
                                options.our_label = cOurs
                                options.their_label = cTheirs
                                func input(_ bytes: UnsafeRawBufferPointer) -> git_merge_file_input {
                                    var value = git_merge_file_input()
                                    git_merge_file_input_init(&value, UInt32(GIT_MERGE_FILE_INPUT_VERSION))
                                    value.ptr = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                                    value.size = bytes.count
                                    value.path = cPath
                                    value.mode = GIT_FILEMODE_BLOB.rawValue
                                    return value
                                }
                                var baseInput = input(baseBytes)
                                var oursInput = input(oursBytes)
                                var theirsInput = input(theirsBytes)
                                try check("merging the text of \(path)") {
                                    git_merge_file(&result, &baseInput, &oursInput, &theirsInput, &options)
                                }
                            }
                        }
                    }
                }
            }
        }
        let contents = result.ptr.map { Data(bytes: $0, count: result.len) } ?? Data()
        return TextMergeResult(contents: contents, isClean: result.automergeable != 0)
    }
}
