/// Thrown by a test's `interruption` to stop a write as a kill would: with no clean-up.
struct SimulatedKill: Error {}
