/// Splits a command's arguments into positional operands and options, for commands that take
/// files (`glmap compare A B`, `glmap test DIR…`). `--` ends the options.
extension CommandLineArguments {
    /// (positionals, the option arguments for `init(_:options:)`).
    static func splitPositionals(_ args: [String], options: [Option]) -> (positionals: [String], options: [String]) {
        var positionals: [String] = [], rest: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" {
                positionals += args[(i + 1)...]
                break
            }
            if a.hasPrefix("-") && a != "-" {
                rest.append(a)
                let name: String? = a.hasPrefix("--") ? String(a.dropFirst(2)) : options.first { "-\($0.short.map(String.init) ?? "")" == a }?.long
                if let name, !name.contains("="), let o = options.first(where: { $0.long == name }), o.takesValue, i + 1 < args.count {
                    rest.append(args[i + 1])
                    i += 1
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }
        return (positionals, rest)
    }
}
