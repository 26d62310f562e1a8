import Foundation

/// The results of `transform` over `items`, in order, computed on all cores: each worker takes
/// the next item not yet taken (in `order`, when given: the costliest first, so one large item
/// does not start last and leave the other cores idle). Fewer than two items run on the calling
/// thread. `transform` must be safe to call concurrently.
public func concurrentMap<Item: Sendable, Result: Sendable>(_ items: [Item], order: [Int]? = nil,
                                                              _ transform: @Sendable (Item) -> Result) -> [Result] {
    guard items.count > 1 else { return items.map(transform) }
    let schedule = order ?? Array(items.indices)
    let results = Locked<[Result?]>(Array(repeating: nil, count: items.count))
    let next = Locked(0)
    let workers = min(items.count, ProcessInfo.processInfo.activeProcessorCount)
    DispatchQueue.concurrentPerform(iterations: max(1, workers)) { _ in
        while true {
            let k = next.withLock { v -> Int in defer { v += 1 }; return v }
            guard k < schedule.count else { return }
            let i = schedule[k]
            let r = transform(items[i])
            results.withLock { $0[i] = r }
        }
    }
    return results.value.map { $0! }
}

/// Consecutive runs of items, in order, each closed once its items' weights (positions, say) reach
/// `target`; the last run holds what is left. Jobs of about one size for `concurrentMap`: a
/// collection lighter than `target` is one run.
public func contiguousRuns(weights: some Sequence<Int>, target: Int) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0, count = 0, weight = 0
    for w in weights {
        count += 1
        weight += w
        if weight >= target { runs.append(start..<count); start = count; weight = 0 }
    }
    if start < count { runs.append(start..<count) }
    return runs
}
