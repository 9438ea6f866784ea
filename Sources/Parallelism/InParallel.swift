/// Runs `first` and `second` at once, on two cores where there are two, and returns both
/// results: for serial steps that do not need each other (two walks of the file tree, say).
/// `second` runs on a thread of its own rather than in Dispatch's pool: a `concurrentMap`
/// inside either step then spreads over every core, where nested in the pool's own
/// parallel loop it would run on one.
package func inParallel<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
    let secondResult = ParallelSlots<B>(count: 1)
    let firstValue = withoutActuallyEscaping(second) { second in
        // The thread is joined before this returns, so `second` never outlives the call.
        let thread = JoinableThread { secondResult.set(0, second()) }
        let value = first()
        thread.join()
        return value
    }
    return (firstValue, secondResult.takeValues()[0])
}

/// `inParallel` of steps that may throw: both run to the end, then the first error is thrown.
package func inParallel<A: Sendable, B: Sendable>(_ first: @Sendable () throws -> A, _ second: @Sendable () throws -> B)
    throws -> (A, B)
{
    let (a, b) = inParallel({ Result { try first() } }, { Result { try second() } })
    return (try a.get(), try b.get())
}
