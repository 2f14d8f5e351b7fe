/// File paths as text: the folder a path names and its last component, computed on the
/// string alone (no file system, no Foundation).
///
/// Foundation's `NSString.deletingLastPathComponent` traps on a one-character path on
/// Linux (`oplab play ... --svg d` crashed with signal 4); every path the lab splits goes
/// through here instead, and these handle any length, `/`, `//`, trailing slashes and
/// the empty string.
public enum PathText {
    /// The folder part of `path`: "" for a bare name ("d", "x.yaml"), "/" for a name at
    /// the root ("/x"), and the path without its last component otherwise ("a/b/c" ->
    /// "a/b"). Trailing slashes are ignored ("a/b/" -> "a"); repeated slashes before the
    /// last component are dropped ("a//b" -> "a").
    public static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
        guard let cut = bytes.lastIndex(of: slash) else { return "" }
        var end = cut
        while end > 0, bytes[end - 1] == slash { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The last component of `path`, trailing slashes ignored: "x" for "a/x" and "a/x/",
    /// "/" for "/", "" for "".
    public static func lastComponent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
        if bytes == [slash] { return "/" }
        guard let cut = bytes.lastIndex(of: slash) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[(cut + 1)...], as: UTF8.self)
    }

    /// The folder to work in for a file `path`: its ``parent(of:)``, or "." for a bare name.
    public static func folder(of path: String) -> String {
        let parent = parent(of: path)
        return parent.isEmpty ? "." : parent
    }

    /// `path` with `name` appended ("a" + "b" -> "a/b"; "/" + "b" -> "/b").
    public static func join(_ path: String, _ name: String) -> String {
        path.hasSuffix("/") ? path + name : path + "/" + name
    }

    private static let slash = UInt8(ascii: "/")
}
