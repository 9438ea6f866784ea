import Foundation
import Parallelism
import Synchronization
import Testing

/// The parallel helpers hand every item to exactly one worker and give the results back in
/// item order, whatever the threads and chunks.
@Suite struct ConcurrentMapTests {
    @Test(arguments: [0, 1, 63, 64, 65, 1_000, 10_007])
    func everyItemOnceInOrder(count: Int) {
        let items = Array(0..<count)
        let expected = items.map { $0 * 3 + 1 }
        #expect(items.concurrentMap { $0 * 3 + 1 } == expected)
        for threads in [1, 2, 16] {
            // Each thread's state counts what it did; the results carry it along.
            let results = items.concurrentMap(threads: threads, state: { 0 }) { done, item -> (Int, Int) in
                done += 1
                return (item * 3 + 1, done)
            }
            #expect(results.map(\.0) == expected, "\(threads) threads")
            // Each state counts 1, 2, 3… over its own items, so a count above 1 is seen no more
            // often than the count below it, and as many states began (count 1) as there were
            // threads that took work — at least one, at most `threads`.
            let counts = Dictionary(grouping: results.map(\.1), by: { $0 }).mapValues(\.count)
            #expect(
                (count == 0 ? 0...0 : 1...threads).contains(counts[1] ?? 0),
                "\(threads) threads: \(counts[1] ?? 0) states began")
            #expect(
                counts.keys.allSatisfy { $0 == 1 || (counts[$0] ?? 0) <= (counts[$0 - 1] ?? 0) }, "\(threads) threads")
            #expect(counts.values.reduce(0, +) == count)
        }
    }

    /// Work spread over the cores inside a step of `inParallel` still gets every core: in
    /// Dispatch's parallel loop a nested one ran on a single thread.
    @Test func aConcurrentMapInsideInParallelUsesMoreThanOneThread() throws {
        try #require(ProcessInfo.processInfo.activeProcessorCount > 1, "needs two cores")
        @Sendable func threadsUsed() -> Int {
            // Each item waits, up to a deadline, for a second thread to join the loop: a loop
            // confined to its caller's thread never gets one, while a free one gets it however
            // busy the other suites keep Dispatch's workers (a fixed 10 ms per item was not
            // always long enough for a worker to come under the whole suite's load).
            let seen = Mutex(Set<pthread_t>())
            let deadline = Date().addingTimeInterval(10)
            let threads = Array(0..<64).concurrentMap { _ -> pthread_t in
                let me = pthread_self()
                seen.withLock { _ = $0.insert(me) }
                while seen.withLock({ $0.count }) < 2, Date() < deadline { usleep(1_000) }
                return me
            }
            return Set(threads).count
        }
        let (first, second) = inParallel({ threadsUsed() }, { threadsUsed() })
        #expect(first > 1 && second > 1)
    }

    @Test func bothStepsRunAndAnErrorComesThrough() throws {
        struct Failure: Error {}
        let (a, b) = inParallel({ (1...1_000).reduce(0, +) }, { "done" })
        #expect(a == 500_500 && b == "done")
        #expect(throws: Failure.self) { try inParallel({ () throws -> Int in throw Failure() }, { 2 }) }
    }
}
