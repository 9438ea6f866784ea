import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Lets `value` go on another thread: freeing the hundreds of thousands of small objects a
/// cold launch's rows hold takes a tenth of a second nobody needs to wait for. Pass the last
/// reference (`consume`), or the caller's own release may still be the one that frees.
package func releaseInBackground<T: Sendable>(_ value: T) {
    DispatchQueue.global(qos: .utility).async {
        withExtendedLifetime(value) {}
        // What was freed goes back to the system: glibc keeps freed heap pages for the next
        // allocation, so a server kept the 200 MB a first launch's index build had used.
        returnFreedMemoryToTheSystem()
    }
}

/// glibc's `malloc_trim(0)`, found at run time (Swift's Glibc module leaves malloc.h out);
/// nothing where the C library has no such call.
func returnFreedMemoryToTheSystem() {
    typealias MallocTrim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}
