internal import CLibGit2
import Foundation

/// Calls `body` with a `git_strarray` holding copies of `strings`, valid only during the call.
/// libgit2 reads path and refspec lists through this type (pathspecs, push refspecs).
func withStringArray<Result>(
    _ strings: [String], _ body: (inout git_strarray) throws -> Result
) rethrows -> Result {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    return try pointers.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
        return try body(&array)
    }
}

/// Copies the strings out of a `git_strarray` that libgit2 filled, then frees it
/// (`git_strarray_dispose`).
func takeStrings(_ array: inout git_strarray) -> [String] {
    defer { git_strarray_dispose(&array) }
    return (0..<array.count).compactMap { index in array.strings[index].map { String(cString: $0) } }
}
