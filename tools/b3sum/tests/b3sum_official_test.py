#!/usr/bin/env python3
"""The official BLAKE3 repository's b3sum tests (b3sum/tests/cli_tests.rs, and the check-line
cases of b3sum/src/unit_tests.rs), at version 1.8.6, ported to run against our b3sum with
upstream's expected values. Each test keeps its upstream name; the Windows-only ones
(test_null_device_on_windows, test_slash_normalization_on_windows,
test_invalid_unicode_on_windows, and the Windows rows of the others) are not ported, as this
b3sum is built for POSIX systems. test_args (clap's own self-check) has no command-line meaning.
Beyond upstream's tests: the clap errors the official 1.8.6 prints, byte for byte, as
observed from it.

Usage: b3sum_official_test.py PATH_TO_OUR_B3SUM
"""
import os
import subprocess
import sys
import tempfile

B3SUM = os.path.abspath(sys.argv[1])
failures = []

H = {
    b"": "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
    b"foo": "04e0bb39f30b1a3feb89f536c93be15055482df748674b00d26e5a75777702e9",
    b"bar": "f2e897eed7d206cd855d441598fa521abc75aa96953e97c030c9612c30c1293d",
    b"a": "17762fddd969a453925d65717ac3eea21320b66b54342fde15128d6caf21215f",
    b"b": "10e5cf3d3c8a4f9f3468c8cc58eea84892a22fdadbc1acb22410190044c1d553",
    b"cd": "e8cf3ad3c77be0828dfb8fffc06fed22ab037dfa68a16049fe8267f70265afe2",
}
FOO_XOF_100 = bytes.fromhex(
    "04e0bb39f30b1a3feb89f536c93be15055482df748674b00d26e5a75777702e9791074b7511b59d31c71c62f"
    "5a745689fa6c9497f68bdf1061fe07f518d410c0b0c27f41b3cf083f8a7fdc67a877e21790515762a754a45d"
    "cb8a356722698a7af5ed2bb6")
Z64 = "0" * 64


def run(args, stdin=b"", cwd=None, shell=False):
    p = subprocess.run(args if shell else [B3SUM] + args, input=stdin, capture_output=True,
                       cwd=cwd, shell=shell, timeout=120)
    return p.returncode, p.stdout, p.stderr


def read(args, stdin=b"", cwd=None):
    """duct's .read(): stdout with trailing newlines trimmed; the run must succeed."""
    status, out, err = run(args, stdin, cwd)
    if status != 0:
        failures.append(f"{args}: status {status}, stderr {err!r}")
    return out.rstrip(b"\n").decode("utf-8", "replace")


def check(name, got, want):
    if got != want:
        failures.append(f"{name}:\n  got  {got!r}\n  want {want!r}")


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


with tempfile.TemporaryDirectory() as d:
    # test_hash_one, test_hash_one_tag, test_hash_one_raw
    check("test_hash_one", read([], b"foo"), f"{H[b'foo']}  -")
    check("test_hash_one_tag", read(["--tag"], b"foo"), f"BLAKE3 (-) = {H[b'foo']}")
    check("test_hash_one_raw", run(["--raw"], b"foo")[1], bytes.fromhex(H[b"foo"]))

    # test_hash_many, test_hash_many_tag
    t = os.path.join(d, "many")
    file1, file2 = os.path.join(t, "file1"), os.path.join(t, "file2")
    write(file1, b"foo")
    write(file2, b"bar")
    check("test_hash_many", read([file1, file2]),
          f"{H[b'foo']}  {file1}\n{H[b'bar']}  {file2}")
    check("test_hash_many --no-names", read(["--no-names", file1, file2]),
          f"{H[b'foo']}\n{H[b'bar']}")
    check("test_hash_many_tag", read(["--tag", file1, file2]),
          f"BLAKE3 ({file1}) = {H[b'foo']}\nBLAKE3 ({file2}) = {H[b'bar']}")

    # test_missing_files
    status, out, err = run(["file1", "missing_file", "file2"], cwd=t)
    check("test_missing_files", (status != 0, out, err),
          (True, f"{H[b'foo']}  file1\n{H[b'bar']}  file2\n".encode(),
           b"b3sum: missing_file: No such file or directory (os error 2)\n"))

    # test_hash_length_and_seek
    for args, want in ((["--raw", "--length=100"], FOO_XOF_100),
                       (["--raw", "--length=99"], FOO_XOF_100[:99]),
                       (["--raw", "--length=99", "--seek=1"], FOO_XOF_100[1:100]),
                       (["--raw", "--length=1", "--seek=99"], FOO_XOF_100[99:100])):
        check(f"test_hash_length_and_seek {args}", run(args, b"foo"), (0, want, b""))

    # test_keyed
    keyed_file = os.path.join(d, "keyed")
    write(keyed_file, b"foo")
    check("test_keyed", read(["--keyed", "--no-names", keyed_file], bytes([42] * 32)),
          "eca649bc8f5a33b376ed81b687f99536b8f770d5dcd75673af7fd83062dd96c0")
    for n, message in ((0, b"expected 32 key bytes from stdin, found 0"),
                       (1, b"expected 32 key bytes from stdin, found 1"),
                       (31, b"expected 32 key bytes from stdin, found 31"),
                       (33, b"read more than 32 key bytes from stdin")):
        status, out, err = run(["--keyed", keyed_file], bytes(n))
        check(f"test_keyed with {n} key bytes", (status != 0, out, b"key bytes" in err),
              (True, b"", True))
        check(f"test_keyed with {n} key bytes: the official's message", err,
              b"Error: " + message + b"\n")

    # test_derive_key
    context = "BLAKE3 2019-12-28 10:28:41 example context"
    material = os.path.join(d, "material")
    write(material, b"key material")
    check("test_derive_key", read(["--derive-key", context, "--no-names", material]),
          "78d5ce66182553ed4968d9460bd77f59d4a1309a533878dfb68584417fdcdf9d")

    # test_no_mmap
    check("test_no_mmap", read(["--no-mmap", "--no-names", keyed_file]), H[b"foo"])

    # test_length_without_value_is_an_error
    check("test_length_without_value_is_an_error", run(["--length"], b"foo"),
          (2, b"", b"error: a value is required for '--length <LEN>' but none was supplied\n\n"
                   b"For more information, try '--help'.\n"))

    # test_raw_with_multi_files_is_an_error
    f1, f2 = os.path.join(d, "raw1"), os.path.join(d, "raw2")
    write(f1, b"")
    write(f2, b"")
    check("test_raw_with_multi_files_is_an_error (one)", run(["--raw", f1])[0], 0)
    check("test_raw_with_multi_files_is_an_error", run(["--raw", f1, f2]),
          (1, b"", b"Error: Only one filename can be provided when using --raw\n"))

    # test_newline_and_backslash_escaping_on_unix
    t = os.path.join(d, "escaping")
    names = ["abcdef", "abc\ndef", "abc\\def", "abc\rdef", "abc\r\ndef", "subdir/foo"]
    for name in names:
        write(os.path.join(t, name), b"")
    e = H[b""]
    check("test_newline_and_backslash_escaping_on_unix", read(names, cwd=t),
          f"{e}  abcdef\n\\{e}  abc\\ndef\n\\{e}  abc\\\\def\n\\{e}  abc\\rdef\n"
          f"\\{e}  abc\\r\\ndef\n{e}  subdir/foo")

    # test_invalid_unicode_on_unix
    t = os.path.join(d, "unicode")
    write(os.path.join(t, "abcdef"), b"")
    write(os.path.join(os.fsencode(t), b"abc\xffdef").decode("utf-8", "surrogateescape"), b"")
    check("test_invalid_unicode_on_unix",
          subprocess.run([B3SUM, "abcdef", b"abc\xffdef"], cwd=t, capture_output=True)
          .stdout.rstrip(b"\n"),
          f"{e}  abcdef\n{e}  abc\ufffddef".encode())

    # test_check, untagged then tagged
    for tagged in (False, True):
        t = os.path.join(d, f"check-{tagged}")
        write(os.path.join(t, "a"), b"a")
        write(os.path.join(t, "b"), b"b")
        write(os.path.join(t, "c", "d"), b"cd")
        status, sums, err = run(["a", "b", "c/d"] + (["--tag"] if tagged else []), cwd=t)
        want = (f"BLAKE3 (a) = {H[b'a']}\nBLAKE3 (b) = {H[b'b']}\nBLAKE3 (c/d) = {H[b'cd']}\n"
                if tagged else f"{H[b'a']}  a\n{H[b'b']}  b\n{H[b'cd']}  c/d\n").encode()
        name = f"test_check ({'tagged' if tagged else 'untagged'})"
        check(name + ": the checkfile", (status, sums, err), (0, want, b""))
        ok = b"a: OK\nb: OK\nc/d: OK\n"
        check(name + ": stdin", run(["--check"], sums, cwd=t), (0, ok, b""))
        check(name + ": CRLF", run(["--check"], sums.replace(b"\n", b"\r\n"), cwd=t),
              (0, ok, b""))
        checkfile = os.path.join(t, "checkfile")
        write(checkfile, sums)
        check(name + ": twice", run(["--check", checkfile, checkfile], cwd=t), (0, ok + ok, b""))
        warning = b"b3sum: WARNING: 1 computed checksum did NOT match\n"
        write(os.path.join(t, "b"), b"CORRUPTION")
        check(name + ": corrupted", run(["--check", "checkfile"], cwd=t),
              (1, b"a: OK\nb: FAILED\nc/d: OK\n", warning))
        os.unlink(os.path.join(t, "b"))
        missing = b"b: FAILED (No such file or directory (os error 2))\n"
        check(name + ": deleted", run(["--check", "checkfile"], cwd=t),
              (1, b"a: OK\n" + missing + b"c/d: OK\n", warning))
        check(name + ": --quiet", run(["--check", "--quiet", "checkfile"], cwd=t),
              (1, missing, warning))

    # test_check_invalid_characters (the Windows-only row aside)
    for line, message in ((Z64 + "  \0", "Null character in path"),
                          (Z64 + "  \ufffd", "Unicode replacement character in path"),
                          ("\\" + Z64 + "  \\a", "Invalid backslash escape")):
        check(f"test_check_invalid_characters {line!r}", run(["--check"], line.encode()),
              (1, b"", f"b3sum: {message}\nb3sum: WARNING: 1 computed checksum did NOT match\n"
                   .encode()))

    # test_globbing
    t = os.path.join(d, "glob")
    write(os.path.join(t, "file1"), b"foo")
    write(os.path.join(t, "file2"), b"bar")
    status, out, _ = run(f"'{B3SUM}' *", cwd=t, shell=True)
    check("test_globbing", out.rstrip(b"\n").decode(),
          f"{H[b'foo']}  file1\n{H[b'bar']}  file2")

    # unit_tests.rs, test_parse_check_line: each accepted line checks a file of that name as OK
    # and is shown as written; each refused one gives its message and the WARNING.
    t = os.path.join(d, "parse")
    os.makedirs(t)
    accepted = [  # (line's hash byte, the rest of the line, the file's name, shown as)
        ("09", "  foo", "foo", "foo"),
        # ("fa", "   \t\r\n\n\r \t\r\n\n\r", ...): a path holding newlines, which no check
        # file can hold (b3sum reads it line by line); only the parser function sees it.
        ("42", "   ", " ", " "),
        ("43", "  fo\\a\\no", "fo\\a\\no", "fo\\a\\no"),
        ("44", "  fo\\r\\n\\n\\ro", "fo\r\n\n\ro", "\\fo\\r\\n\\n\\ro"),
        ("45", "  fo\\n\\\\o", "fo\n\\o", "\\fo\\n\\\\o"),
        ("46", "  否认", "否认", "否认"),
        ("47", "  foo  bar", "foo  bar", "foo  bar"),
    ]
    for byte, rest, name, shown in accepted:
        escaped = shown.startswith("\\") and name != shown
        # The expected hash is that of the file, which holds the line's byte 32 times.
        content = bytes.fromhex(byte) * 32
        write(os.path.join(t, name), content)
        digest = subprocess.run([B3SUM, "--no-names"], input=content, capture_output=True)
        line = ("\\" if escaped else "") + digest.stdout.decode().strip() + rest
        status, out, err = run(["--check"], line.encode(), cwd=t)
        check(f"test_parse_check_line accepts {line!r}", (status, out, err),
              (0, f"{shown}: OK\n".encode(), b""))
    # The tagged form splits at the last ") = ".
    write(os.path.join(t, "foo) = bar"), b"x")
    digest = subprocess.run([B3SUM, "--no-names", "foo) = bar"], cwd=t, capture_output=True)
    line = f"BLAKE3 (foo) = bar) = {digest.stdout.decode().strip()}"
    check(f"test_parse_check_line accepts {line!r}", run(["--check"], line.encode(), cwd=t),
          (0, b"foo) = bar: OK\n", b""))
    refused = [
        # (""): an empty check file has no line at all; "\n" below is the empty line.
        ("0", "Invalid check line format"),
        ("00", "Invalid check line format"),
        (Z64, "Invalid check line format"),
        (Z64 + "  ", "empty file path"),
        (Z64 + " foo", "Invalid check line format"),
        ("A" * 64 + "  foo", "Invalid hex"),
        ("x" * 64 + "  foo", "Invalid hex"),
        ("你好, 我叫杰克. 认识你很高兴. 要不要吃个香蕉?  foo", "Invalid hex"),
        ("\\" + Z64 + "  fo\\o", "Invalid backslash escape"),
        ("\\" + Z64 + "  foo\\", "Invalid backslash escape"),
        (Z64 + "  fo\0o", "Null character in path"),
        (Z64 + "  fo\ufffdo", "Unicode replacement character in path"),
        # Observed from the official 1.8.6 beyond its unit tests.
        ("\n", "Empty line"),
        ("\\", "Invalid check line format"),
        ("BLAKE3 () = " + Z64, "empty file path"),
        ("BLAKE3 (foo)= " + Z64, "Invalid check line format"),
        ("blake3 (foo) = " + Z64, "Invalid check line format"),
        ("0" * 65 + "  foo", "Invalid hash length"),
        (" " + Z64 + "  foo", "Invalid hash length"),
        (Z64 + "\tfoo", "Invalid check line format"),
        (Z64 + " *a", "Invalid check line format"),
        ("\\" + Z64 + "  a\\tb", "Invalid backslash escape"),
        ("BLAKE3 (a  b) = " + Z64, "Invalid hash length"),
    ]
    for line, message in refused:
        check(f"test_parse_check_line refuses {line!r}", run(["--check"], line.encode(), cwd=t),
              (1, b"", f"b3sum: {message}\nb3sum: WARNING: 1 computed checksum did NOT match\n"
                   .encode()))
    # Check files: the WARNING counts every failure, once at the end; a check file that is not
    # UTF-8, or cannot be opened, ends the run with no WARNING; an empty one passes.
    write(os.path.join(t, "a"), b"a")
    mixed = f"{H[b'a']}  a\ngarbage\n{H[b'b']}  a\n\n".encode()
    check("several failures", run(["--check"], mixed, cwd=t),
          (1, b"a: OK\na: FAILED\n", b"b3sum: Invalid check line format\nb3sum: Empty line\n"
                                     b"b3sum: WARNING: 3 computed checksums did NOT match\n"))
    check("not UTF-8", run(["--check"], f"{H[b'b']}  a\n".encode() + b"\xff\n", cwd=t),
          (1, b"a: FAILED\n", b"Error: stream did not contain valid UTF-8\n"))
    check("a missing check file", run(["--check", "nope"], cwd=t),
          (1, b"", b"Error: No such file or directory (os error 2)\n"))
    check("an empty check file", run(["--check"], b"", cwd=t), (0, b"", b""))

    # clap's errors, as the official 1.8.6 prints them.
    def usage_error(message, usage=None, tip=None):
        text = f"error: {message}\n"
        if tip:
            text += f"\n  tip: {tip}\n"
        if usage:
            text += f"\nUsage: b3sum {usage}\n"
        return (2, b"", (text + "\nFor more information, try '--help'.\n").encode())

    errors = [
        (["-c", "--tag"], usage_error("the argument '--check' cannot be used with '--tag'",
                                      "--check [FILE]...")),
        (["--tag", "-c"], usage_error("the argument '--tag' cannot be used with '--check'",
                                      "--tag [FILE]...")),
        (["-c", "-l", "3"], usage_error(
            "the argument '--check' cannot be used with '--length <LEN>'", "--check [FILE]...")),
        (["-l3", "-c", "f"], usage_error(
            "the argument '--length <LEN>' cannot be used with '--check'",
            "--length <LEN> <FILE>...")),
        (["--keyed", "-c", "f"], usage_error(
            "the argument '--keyed' cannot be used with '--check'", "--keyed <FILE>...")),
        (["--derive-key", "x", "--keyed"], usage_error(
            "the argument '--derive-key <CONTEXT>' cannot be used with '--keyed'",
            "--derive-key <CONTEXT> [FILE]...")),
        (["--seek", "3", "--tag", "-c"], usage_error(
            "the argument '--tag' cannot be used with '--check'",
            "--seek <SEEK> --tag [FILE]...")),
        (["-c", "--tag", "--raw"], usage_error(
            "the argument '--check' cannot be used with:\n  --tag\n  --raw", "--check [FILE]...")),
        (["--keyed"], usage_error("the following required arguments were not provided:\n"
                                  "  <FILE>...", "--keyed <FILE>...")),
        (["--quiet", "--no-mmap"], usage_error(
            "the following required arguments were not provided:\n  --check",
            "--check --quiet --no-mmap [FILE]...")),
        (["--length", "abc"], usage_error(
            "invalid value 'abc' for '--length <LEN>': invalid digit found in string")),
        (["--length", "18446744073709551616"], usage_error(
            "invalid value '18446744073709551616' for '--length <LEN>': number too large to "
            "fit in target type")),
        (["--length="], usage_error(
            "invalid value '' for '--length <LEN>': cannot parse integer from empty string")),
        (["--length", "-1"], usage_error("unexpected argument '-1' found", "[OPTIONS] [FILE]...",
                                         "to pass '-1' as a value, use '-- -1'")),
        (["--bogus"], usage_error("unexpected argument '--bogus' found", "[OPTIONS] [FILE]...",
                                  "to pass '--bogus' as a value, use '-- --bogus'")),
        (["f", "--bogus"], usage_error("unexpected argument '--bogus' found", "<FILE>...",
                                       "to pass '--bogus' as a value, use '-- --bogus'")),
        (["--chek"], usage_error("unexpected argument '--chek' found", "--check [FILE]...",
                                 "a similar argument exists: '--check'")),
        (["--check=yes"], usage_error(
            "unexpected value 'yes' for '--check' found; no more were expected",
            "--check [FILE]...")),
        (["-l", "2", "-l", "3"], usage_error(
            "the argument '--length <LEN>' cannot be used multiple times", "[OPTIONS] [FILE]...")),
        ([""], usage_error("a value is required for '[FILE]...' but none was supplied")),
    ]
    for args, want in errors:
        check(f"b3sum {args}", run(args, b"", cwd=t), want)
    # Quirks kept: --quiet without --check where --check would conflict; --keyed - .
    check("--quiet --tag hashes", run(["--quiet", "--tag", "a"], cwd=t),
          (0, f"BLAKE3 (a) = {H[b'a']}\n".encode(), b""))

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all ported official b3sum tests pass")
