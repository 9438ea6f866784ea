import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `body` started on a thread of its own, which `join` waits for. The thread holds `body`
/// only while running it. When no thread can be made, `body` runs at once on the caller's.
final class JoinableThread {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private var thread = pthread_t()
    private var started = false

    init(_ body: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        started =
            pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body()
                    return nil
                }, context) == 0
        if !started { Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body() }
    }

    func join() {
        if started { pthread_join(thread, nil) }
    }
}
