internal import CZstd
import Foundation

/// zstd decompression (`ZSTD_decompressStream`), for the `collection.anki21b`, media index and
/// media files of the packages Anki 2.1.50+ writes by default.
enum Zstd {
    /// The decompressed bytes of `data`, one or more zstd frames. Throws when the data is not
    /// zstd, is truncated, or would unpack to more than `limit` bytes. `label` names the data
    /// in messages, e.g. `collection.anki21b in french.apkg`.
    static func decompress(_ data: Data, label: String, limit: UInt64) throws -> Data {
        guard let stream = ZSTD_createDStream() else {
            throw AnkiImportError(.notAnArchive, "\(label): out of memory while decompressing it")
        }
        defer { ZSTD_freeDStream(stream) }
        ZSTD_initDStream(stream)
        let chunkSize = ZSTD_DStreamOutSize()
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var output = Data()
        // 0 once a frame is complete; otherwise zstd is waiting for more of it.
        var remaining = 0
        try data.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            while true {
                var produced = 0
                let result = chunk.withUnsafeMutableBytes { buffer -> Int in
                    var out = ZSTD_outBuffer(dst: buffer.baseAddress, size: chunkSize, pos: 0)
                    let result = ZSTD_decompressStream(stream, &out, &input)
                    produced = out.pos
                    output.append(buffer.bindMemory(to: UInt8.self).baseAddress!, count: out.pos)
                    return result
                }
                if ZSTD_isError(result) != 0 {
                    let reason = String(cString: ZSTD_getErrorName(result))
                    throw AnkiImportError(
                        .notAnArchive,
                        "\(label) is not valid zstd-compressed data (\(reason)); the package is truncated or damaged — export it from Anki again"
                    )
                }
                guard UInt64(output.count) <= limit else {
                    throw AnkiImportError(
                        .notAnArchive, "\(label) unpacks to more than \(limit >> 20) MiB; refusing it")
                }
                remaining = result
                // A full output chunk may leave more to flush; otherwise stop when the input is used up.
                if produced < chunkSize, input.pos == input.size { break }
            }
        }
        guard remaining == 0, !data.isEmpty else {
            throw AnkiImportError(
                .notAnArchive,
                "\(label) ends in the middle of its zstd-compressed data; the package is truncated — export it from Anki again"
            )
        }
        return output
    }
}
