import Dispatch
import Foundation
import Synchronization

/// Helper threads that run the pieces of one mini-batch beside the calling thread.
///
/// A batch is about 40 µs of work and the next cannot start before the last one's Adam step,
/// so a pool whose threads sleep between batches (Dispatch's `concurrentPerform`) gains
/// nothing: waking a thread takes as long as the batch. These helpers spin while batches keep
/// coming, and sleep only after about a millisecond without one, so a long pause (or the end
/// of a fit) costs no core.
///
/// Pieces are claimed one at a time from a counter that also carries the batch's number, so a
/// helper that is late can never take a piece of the next batch with the last one's work.
/// Which thread runs a piece never matters: each piece writes only its own slots.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class PieceWorkers: @unchecked Sendable {
    /// The batch's number (high 32 bits) and the next unclaimed piece (low 32 bits).
    private let claims = Atomic<UInt64>(0)
    private let finished = Atomic<Int>(0)
    private let sleepers = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let condition = NSCondition()
    private let exited = DispatchGroup()
    /// The batch's number, work and piece count, set (under `jobLock`) before the batch is
    /// published in `claims`; a helper reads all three together, and skips a batch whose
    /// number no longer matches (the caller finished it and moved on).
    private let jobLock = NSLock()
    private var job: (batch: UInt64, work: (@Sendable (Int) -> Void)?, count: Int) = (0, nil, 0)

    /// Starts `helpers` threads (the calling thread is the other worker).
    init(helpers: Int) {
        for _ in 0..<helpers {
            exited.enter()
            let thread = Thread { [unowned self] in
                self.help()
                self.exited.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Runs `work(piece)` for every piece in `0..<count`, on this thread and the helpers, and
    /// returns when all are done.
    func run(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) {
        finished.store(0, ordering: .sequentiallyConsistent)
        let batch = (claims.load(ordering: .sequentiallyConsistent) >> 32) &+ 1
        jobLock.lock()
        job = (batch, work, count)
        jobLock.unlock()
        claims.store(batch << 32, ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
        while let piece = claim(batch, count) {
            work(piece)
            finished.add(1, ordering: .sequentiallyConsistent)
        }
        while finished.load(ordering: .sequentiallyConsistent) < count {}
    }

    /// Stops the helpers and waits for them to exit. Call once, when the fit is done.
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        condition.lock()
        condition.broadcast()
        condition.unlock()
        exited.wait()
    }

    /// The next piece of batch `batch` (of `count`), or nil when there is none or a newer
    /// batch began.
    private func claim(_ batch: UInt64, _ count: Int) -> Int? {
        var value = claims.load(ordering: .sequentiallyConsistent)
        while true {
            guard value >> 32 == batch, Int(value & 0xFFFF_FFFF) < count else { return nil }
            let (exchanged, original) = claims.compareExchange(
                expected: value, desired: value + 1, ordering: .sequentiallyConsistent)
            if exchanged { return Int(value & 0xFFFF_FFFF) }
            value = original
        }
    }

    private func help() {
        var seen: UInt64 = 0
        while true {
            var spins = 0
            var batch = claims.load(ordering: .sequentiallyConsistent) >> 32
            while batch == seen {
                if stopping.load(ordering: .sequentiallyConsistent) { return }
                spins += 1
                if spins > 200_000 {
                    // A pause between batches (or the end): sleep until the next one.
                    condition.lock()
                    sleepers.add(1, ordering: .sequentiallyConsistent)
                    while claims.load(ordering: .sequentiallyConsistent) >> 32 == seen,
                        !stopping.load(ordering: .sequentiallyConsistent)
                    {
                        condition.wait()
                    }
                    sleepers.subtract(1, ordering: .sequentiallyConsistent)
                    condition.unlock()
                    spins = 0
                }
                batch = claims.load(ordering: .sequentiallyConsistent) >> 32
            }
            seen = batch
            jobLock.lock()
            let current = job
            jobLock.unlock()
            guard current.batch == batch, let work = current.work else { continue }
            while let piece = claim(batch, current.count) {
                work(piece)
                finished.add(1, ordering: .sequentiallyConsistent)
            }
        }
    }
}

/// `PieceWorkers` where the platform has `Synchronization`'s atomics, else nothing (the pieces
/// then run on the calling thread, with the same result).
protocol PieceRunner: Sendable {
    func run(_ count: Int, _ work: @escaping @Sendable (Int) -> Void)
    func stop()
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension PieceWorkers: PieceRunner {}

enum PieceRunners {
    static func make(helpers: Int) -> (any PieceRunner)? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return PieceWorkers(helpers: helpers) }
        return nil
    }
}
