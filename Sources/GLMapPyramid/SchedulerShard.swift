import GLMap
import GLMapBatch
import GLMapCore

/// `--shard` values: "I/N", or "auto" / "auto/N" reading the index (and count) that batch
/// schedulers give each task:
/// - Kubernetes Indexed Jobs set `JOB_COMPLETION_INDEX` (0…completions−1) but no count: give it
///   as `auto/N` with N = the Job's `completions`;
/// - Slurm job arrays set `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT` and
///   `SLURM_ARRAY_TASK_MIN` (the index is ID − MIN, so `--array=1-4` works as well as `0-3`);
///   `auto` takes N from `SLURM_ARRAY_TASK_COUNT` (an explicit `auto/N` must agree with it).
public enum SchedulerShard {
    /// Parses a `--shard` value against the process environment.
    public static func parse(_ text: String, environment env: [String: String]) throws -> (index: Int, count: Int) {
        guard text == "auto" || text.hasPrefix("auto/") else { return try Pyramid.parseShard(text) }
        var count: Int?
        if text.hasPrefix("auto/") {
            guard let n = Int(text.dropFirst(5)), n >= 1 else { throw InputFailure("--shard auto/N expects a whole number N ≥ 1, got \"\(text)\"") }
            count = n
        }
        func int(_ name: String) throws -> Int? {
            guard let s = env[name] else { return nil }
            guard let v = Int(s) else { throw InputFailure("--shard \(text): \(name) is \"\(s)\", not a whole number") }
            return v
        }
        let index: Int
        if let k8s = try int("JOB_COMPLETION_INDEX") {
            guard let n = count else {
                throw InputFailure("--shard auto: JOB_COMPLETION_INDEX (Kubernetes) gives the index but no count; use --shard auto/N with N = the Job's completions")
            }
            index = k8s
            count = n
        } else if let id = try int("SLURM_ARRAY_TASK_ID") {
            let minimum = try int("SLURM_ARRAY_TASK_MIN") ?? 0
            let slurmCount = try int("SLURM_ARRAY_TASK_COUNT")
            if let n = count, let s = slurmCount, n != s {
                throw InputFailure("--shard \(text): SLURM_ARRAY_TASK_COUNT is \(s), not \(n)")
            }
            guard let n = count ?? slurmCount else {
                throw InputFailure("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; use --shard auto/N")
            }
            index = id - minimum
            count = n
        } else {
            throw InputFailure("--shard \(text): no scheduler index in the environment (JOB_COMPLETION_INDEX for Kubernetes Indexed Jobs, SLURM_ARRAY_TASK_ID for Slurm arrays); give --shard I/N")
        }
        guard let n = count, (0..<n).contains(index) else {
            throw InputFailure("--shard \(text): the scheduler's index \(index) is outside 0…\((count ?? 1) - 1)")
        }
        return (index, n)
    }
}
