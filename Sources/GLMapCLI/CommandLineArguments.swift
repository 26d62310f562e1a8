import GLMap
import GLMapCore

/// A usage error (exit code 2).
public struct UsageError: GLMapError {
    /// What is wrong with the command line, and what was expected.
    public var message: String
    /// Always `.invalidInput` (exit code 2).
    public var kind: FailureKind { .invalidInput }
    /// The message.
    public var description: String { message }
    /// A usage error with this message.
    public init(_ message: String) { self.message = message }
}

/// Small hand-written option parser: `--name value`, `--name=value`, short aliases, flags; `--`
/// ends the options (what follows is an operand, even when it starts with "-"). An option given
/// twice is a usage error unless it is declared `repeatable`.
public struct CommandLineArguments {
    /// One option a command accepts.
    public struct Option: Sendable {
        /// The long name, without the dashes (`zoom` for `--zoom`).
        public let long: String
        /// The one-letter alias (`-z`), if any.
        public let short: Character?
        /// Whether the option takes a value (else it is a flag).
        public let takesValue: Bool
        /// The option's line in the command's help.
        public let help: String
        /// The value may be left out (`--fit` or `--fit SOURCE`): the next argument is taken only
        /// when it does not start with "-".
        public let optionalValue: Bool
        /// The option may be given more than once (`values(name)` lists them all).
        public let repeatable: Bool
        /// An option; by default it takes exactly one value and may be given once.
        public init(_ long: String, _ short: Character? = nil, value: Bool = true, optionalValue: Bool = false,
                    repeatable: Bool = false, help: String) {
            self.long = long; self.short = short; self.takesValue = value; self.help = help
            self.optionalValue = optionalValue; self.repeatable = repeatable
        }
    }

    /// Each option's value by long name (the last one given, for an option given twice).
    public private(set) var values: [String: String] = [:]
    /// The flags given, and the options with an optional value (given with or without it), by long name.
    public private(set) var flags: Set<String> = []
    /// Every value of each option, in order (for options that may repeat, such as `serve --style`).
    public private(set) var repeated: [String: [String]] = [:]

    /// Parses `args` (without the program and subcommand names) against `options`. The command
    /// takes no operands: one, before or after `--`, is a usage error.
    public init(_ args: [String], options: [Option]) throws {
        var i = 0
        var seen = Set<String>()
        while i < args.count {
            let a = args[i]
            if a == "--" {
                guard let operand = args.dropFirst(i + 1).first else { break }
                throw UsageError("unexpected argument \"\(operand)\" after -- (this command takes no operands)")
            }
            var name: String
            var inline: String?
            if a.hasPrefix("--") {
                name = String(a.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else if a.hasPrefix("-") && a.count == 2 {
                let c = a.last!
                guard let o = options.first(where: { $0.short == c }) else {
                    throw UsageError("unknown option \(a)" + CommandLineArguments.suggestion(for: String(c), options))
                }
                name = o.long
            } else if a.hasPrefix("-") && a.count > 2 {
                let bare = String(a.dropFirst()).split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                throw UsageError("unknown option \(a): long options start with two dashes" + CommandLineArguments.suggestion(for: bare, options))
            } else {
                throw UsageError("unexpected argument \"\(a)\" (every value follows its option, e.g. --style FILE)")
            }
            guard let o = options.first(where: { $0.long == name }) else {
                throw UsageError("unknown option --\(name)" + CommandLineArguments.suggestion(for: name, options))
            }
            guard o.repeatable || seen.insert(name).inserted else {
                throw UsageError("option --\(name) is given more than once (give it once)")
            }
            if o.takesValue {
                var value: String?
                if let inline { value = inline } else if o.optionalValue {
                    if i + 1 < args.count, !args[i + 1].hasPrefix("-") { i += 1; value = args[i] }
                    flags.insert(name)
                } else {
                    guard i + 1 < args.count else { throw UsageError("option --\(name) needs a value") }
                    i += 1
                    value = args[i]
                }
                if let value {
                    values[name] = value
                    repeated[name, default: []].append(value)
                }
            } else {
                if inline != nil { throw UsageError("option --\(name) takes no value") }
                flags.insert(name)
            }
            i += 1
        }
    }

    /// " (did you mean --style?)" for the option nearest to a mistyped name, or "".
    public static func suggestion(for name: String, _ options: [Option]) -> String {
        guard let s = Suggestion.closest(to: name, among: options.map(\.long)) else { return "" }
        return " (did you mean --\(s)?)"
    }

    /// The value of `--name`, if given.
    public func string(_ name: String) -> String? { values[name] }

    /// The value of `--name` as a finite number, if given; a usage error if it is not one.
    public func double(_ name: String) throws -> Double? {
        guard let s = values[name] else { return nil }
        guard let d = Double(s), d.isFinite else { throw UsageError("--\(name) expects a number, got \"\(s)\"") }
        return d
    }

    /// The value of `--name` as an integer, if given; a usage error if it is not one.
    public func int(_ name: String) throws -> Int? {
        guard let s = values[name] else { return nil }
        guard let n = Int(s) else { throw UsageError("--\(name) expects a whole number, got \"\(s)\"") }
        return n
    }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of an option that names one of `choices` (their raw values), `nil` when it is
    /// absent; any other value is a usage error listing the choices.
    public func choice<T: RawRepresentable>(_ name: String, among choices: [T]) throws -> T? where T.RawValue == String {
        guard let s = values[name] else { return nil }
        guard let c = choices.first(where: { $0.rawValue == s }) else {
            throw UsageError("--\(name) expects \(CommandLineArguments.list(choices.map(\.rawValue))), got \"\(s)\"")
        }
        return c
    }

    /// `--backend`: auto (the default), gpu or cpu.
    public func backend() throws -> Backend {
        try choice("backend", among: Backend.allCases) ?? .auto
    }

    /// "a", "a or b", "a, b or c".
    static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// Every value of a repeatable option, in order.
    public func values(_ name: String) -> [String] { repeated[name] ?? [] }

    /// Help text lines for options.
    public static func helpLines(_ options: [Option]) -> String {
        options.map { o in
            let s = o.short.map { "-\($0), " } ?? "    "
            let v = o.takesValue ? " VALUE" : ""
            let left = "  \(s)--\(o.long)\(v)"
            return left.padding(toLength: max(left.count + 2, 28), withPad: " ", startingAt: 0) + o.help
        }.joined(separator: "\n")
    }
}
