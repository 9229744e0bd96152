// A reactive login form (MVVM): `swift run LoginForm`.
//
// The text fields write into two `ValuePromise`s; the view model combines them with the library's
// `combineLatest` into a validation result, and from that into "is the Log in button enabled";
// the screen only renders. The script
// below types into the form and prints a timeline. Pipe lines into it to drive the form yourself:
//
//     printf 'user alice\npass secret123\n' | swift run LoginForm
//
// Threading: all of this runs on the main actor (top-level code in `main.swift` runs there), so
// every `set` happens there, and so does every handler: that is what lets the handlers touch
// main-actor state directly.

import ReceiverSignalKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Model: the rules

/// What is wrong with the form, field by field; `nil` means the field is fine.
struct Validation: Equatable {
    var username: String?
    var password: String?

    var isValid: Bool { username == nil && password == nil }

    /// The first problem, as the hint under the form would show it.
    var hint: String? { username.map { "username: \($0)" } ?? password.map { "password: \($0)" } }

    static func check(username: String, password: String) -> Validation {
        Validation(username: problem(username: username), password: problem(password: password))
    }

    static func problem(username: String) -> String? {
        if username.count < 3 { return "at least 3 characters" }
        if !username.allSatisfy({ $0.isLetter || $0.isNumber }) { return "letters and digits only" }
        return nil
    }

    static func problem(password: String) -> String? {
        if password.count < 8 { return "at least 8 characters" }
        if !password.contains(where: \.isNumber) { return "needs a digit" }
        return nil
    }
}

// MARK: - View model

/// The login screen's view model: inputs are promises, outputs are plain main-actor state that
/// its handlers keep up to date.
@MainActor final class LoginViewModel {
    /// Inputs, set by the text fields. `ignoreRepeated`: re-typing the same text changes nothing.
    let username = ValuePromise("", ignoreRepeated: true)
    let password = ValuePromise("", ignoreRepeated: true)

    /// Outputs, read by the screen.
    private(set) var validation = Validation.check(username: "", password: "")
    private(set) var isButtonEnabled = false
    /// How many times the button handler ran: once at start, then once per flip (the screen
    /// would animate the button there).
    private(set) var buttonChanges = 0

    /// Disposes both subscriptions when the view model goes away.
    private let bag = DisposeBag()

    init() {
        // `combineLatest` sends once both promises have a value (at once: each has a current one),
        // then again whenever either changes, always in one order whatever the threads.
        let validation =
            combineLatest(username.get(), password.get())
            |> map { Validation.check(username: $0, password: $1) }
            |> distinctUntilChanged

        // `[weak self]`: the promises (owned by self) hold these handlers; self must stay free to go.
        validation.start(next: { [weak self] in self?.validation = $0 }).disposed(by: bag)

        // The button follows validity, but only reacts when it flips.
        (validation |> map(\.isValid) |> distinctUntilChanged)
            .start(next: { [weak self] enabled in
                guard let self else { return }
                isButtonEnabled = enabled
                buttonChanges += 1
            })
            .disposed(by: bag)
    }

    deinit { print("view model released; the bag disposed its subscriptions") }
}

// MARK: - View

/// Plays the part of the screen: forwards typing to the view model and prints what it would show.
@MainActor final class LoginScreen {
    let model = LoginViewModel()

    func typeUsername(_ text: String) {
        let changes = model.buttonChanges
        model.username.set(text)
        render("typed username \"\(text)\"", buttonChanged: model.buttonChanges != changes)
    }

    func typePassword(_ text: String) {
        let changes = model.buttonChanges
        model.password.set(text)
        let masked = String(repeating: "*", count: text.count)
        render("typed password \"\(masked)\"", buttonChanged: model.buttonChanges != changes)
    }

    func render(_ action: String, buttonChanged: Bool) {
        let valid = pad("valid: \(model.validation.isValid),", 14)
        let button = pad("button: " + (model.isButtonEnabled ? "enabled" : "disabled"), 18)
        let changed = pad(buttonChanged ? "<- changed" : "", 12)
        let hint = model.validation.hint.map { "(\($0))" } ?? ""
        var line = pad(action, 28) + "-> " + valid + button + changed + hint
        while line.hasSuffix(" ") { line.removeLast() }
        print(line)
    }

    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

// MARK: - Scripted input

print("== Scripted typing ==")
do {
    let screen = LoginScreen()
    screen.render("opened the form", buttonChanged: false)
    screen.typeUsername("a")
    screen.typeUsername("al")
    screen.typeUsername("ali")
    screen.typePassword("secret")
    screen.typePassword("secret12")
    screen.typePassword("secret12")  // the same text again: ignoreRepeated, nothing is sent
    screen.typeUsername("ali!")
    screen.typeUsername("alice")
    screen.typePassword("secret1")
    let flips = screen.model.buttonChanges - 1
    print(
        "9 keystrokes; the button handler ran \(screen.model.buttonChanges) times: once at start, then on \(flips) flips"
    )
}  // the screen and its view model go away here

// MARK: - Input from stdin

/// Whether standard input is a terminal: then nobody piped anything in, and reading would wait
/// for someone to type. Piped or redirected input (also an empty or closed one) is read to EOF.
let stdinIsTerminal = isatty(0) == 1

if stdinIsTerminal {
    print("\nTo drive the form yourself, pipe lines into it, e.g.:")
    print("  printf 'user alice\\npass secret123\\n' | swift run LoginForm")
} else {
    var screen: LoginScreen?
    while let line = readLine() {
        let trimmed = line.drop(while: \.isWhitespace)
        let command = trimmed.prefix(while: { !$0.isWhitespace })
        let text = String(trimmed.dropFirst(command.count).dropFirst())  // after one separator
        if screen == nil, command == "user" || command == "pass" {
            print("\n== Typing from stdin ==")
            screen = LoginScreen()
        }
        switch command {
        case "user": screen?.typeUsername(text)
        case "pass": screen?.typePassword(text)
        case "": continue
        default: print("ignored \"\(line)\": expected \"user <text>\" or \"pass <text>\"")
        }
    }
    if let screen {
        print("stdin ended; the button is \(screen.model.isButtonEnabled ? "enabled" : "disabled")")
    } else {
        print("\n(stdin had no input lines: pipe in \"user <text>\" and \"pass <text>\" lines to drive the form)")
    }
}
