"""Check mode (-c) of b2sum_test.py: against GNU, on checksum files GNU wrote (ours, where GNU
is missing), on files changed since, and on hand-written checksum files."""
import hashlib
import os

from b2sum_support import (ABC, ABC_DATA, BIG, EMPTY, GNU, OURS, b2, check, checked_names,
                           in_directory, odd_names, run, target, unnameable)


def check_mode(d):
    """Runs the check-mode cases in the directory d, where b2sum_test.py wrote its files, and
    leaves their checksum files there. Returns the names that sums.* list, and the name of
    a checksum file with missing, mismatched and misformatted lines, twice."""
    path, write, _, _, same_as_gnu, _, _ = in_directory(d)

    # Check mode, against GNU, on checksum files GNU wrote (ours, where GNU is missing).
    producer = GNU or OURS
    listed = ["abc", "empty", "text", "big", "./-dash"] + target.nameable(odd_names)
    for tag, args in (("plain", []), ("b", ["-b"]), ("tag", ["--tag"]),
                      ("256", ["-l", "256"]), ("tag256", ["--tag", "-l", "256"]),
                      ("8", ["-l", "8"]), ("tag8", ["--tag", "-l", "8"]), ("z", ["-z"]),
                      ("ztag", ["-z", "--tag"])):
        status, out, _ = run(producer, args + listed, cwd=d)
        check(f"producing sums.{tag}", status, 0)
        write(f"sums.{tag}", out)
        same_as_gnu(f"producing sums.{tag}", args + listed)
        same_as_gnu(f"-c sums.{tag}", ["-c", f"sums.{tag}"])
        same_as_gnu(f"-c sums.{tag} merged streams", ["-c", f"sums.{tag}"], merge=True)
        same_as_gnu(f"-c --quiet sums.{tag}", ["-c", "--quiet", f"sums.{tag}"])
        same_as_gnu(f"-c --status sums.{tag}", ["-c", "--status", f"sums.{tag}"])
        same_as_gnu(f"-c -w --strict sums.{tag}", ["-c", "-w", "--strict", f"sums.{tag}"])
        same_as_gnu(f"-c sums.{tag} on stdin", ["-c"], out)
        same_as_gnu(f"-c - sums.{tag} on stdin", ["-c", "-"], out)
        same_as_gnu(f"-c -l 8 sums.{tag}: -l is ignored", ["-c", "-l", "8", f"sums.{tag}"])
    same_as_gnu("-c of several checksum files", ["-c", "sums.plain", "sums.tag256", "sums.8"])
    crlf = run(producer, listed[:5], cwd=d)[1].replace(b"\n", b"\r\n")
    write("sums.crlf", crlf)
    same_as_gnu("-c CRLF line ends", ["-c", "sums.crlf"])
    same_as_gnu("-c CRLF line ends, -w", ["-c", "-w", "sums.crlf"])

    # Files changed since their sums were taken.
    for i in range(3):
        write(f"mut{i}", b"before %d" % i)
    write("sums.mut", run(producer, ["mut0", "mut1", "mut2", "abc"], cwd=d)[1])
    write("sums.muttag", run(producer, ["--tag", "-l", "128", "mut0", "mut1", "abc"], cwd=d)[1])
    for i in range(3):
        write(f"mut{i}", b"after %d" % i)
    for args in ([], ["--quiet"], ["--status"], ["-w"], ["--strict"], ["--ignore-missing"]):
        same_as_gnu("changed files " + " ".join(args), ["-c"] + args + ["sums.mut"])
        same_as_gnu("changed files, tagged " + " ".join(args), ["-c"] + args + ["sums.muttag"])
    same_as_gnu("changed files, merged streams", ["-c", "sums.mut"], merge=True)
    write("sums.onechanged", run(producer, ["abc", "mut0"], cwd=d)[1])
    write("mut0", b"after again")
    same_as_gnu("one changed file: singular WARNING", ["-c", "sums.onechanged"])

    # Hand-written checksum files.
    H = ABC
    H256 = b2(ABC_DATA, 256)
    H8 = b2(ABC_DATA, 8)
    E8 = b2(b"", 8)
    handmade = {
        "two spaces": H + b"  abc\n",
        "space star": H + b" *abc\n",
        "one space (BSD reversed)": H + b" abc\n",
        "tab (BSD reversed)": H + b"\tabc\n",
        "tab then space": H8 + b"\t abc\n",
        "space then tab": H8 + b" \tabc\n",
        "two tabs": H8 + b"\t\tabc\n",
        "star space": H8 + b"* abc\n",
        "two spaces then one": H + b"  abc\n" + H + b" empty\n",
        "one space then two": H + b" abc\n" + H + b"  empty\n",
        "one space then star": H + b" abc\n" + H + b" *empty\n",
        "uppercase hex": H.upper() + b"  abc\n",
        "uppercase tagged hex": b"BLAKE2b (abc) = " + H.upper() + b"\n",
        "mixed case hex": H[:64].upper() + H[64:] + b"  abc\n",
        "256-bit untagged (length inferred)": H256 + b"  abc\n",
        "8-bit untagged": H8 + b"  abc\n",
        "8-bit untagged, one space": H8 + b" abc\n",
        "8-bit, nothing after": H8 + b"\n",
        "8-bit, one space after": H8 + b" \n",
        "8-bit, two spaces after": H8 + b"  \n",
        "8-bit, space star after": H8 + b" *\n",
        "4 bits": H8[:1] + b"  abc\n",
        "odd hex length": H + b"0  abc\n",
        "hex too long": H + b"00  abc\n",
        "not hex": H[:-1] + b"g  abc\n",
        "non-hex after hex": H8 + b"xy  abc\n",
        "uppercase 8-bit": H8.upper() + b"  abc\n",
        "wrong 8-bit": E8 + b"  abc\n",
        "every length": b"".join(b2(ABC_DATA, bits) + b"  abc\n" for bits in range(8, 513, 8)),
        "tagged": b"BLAKE2b (abc) = " + H + b"\n",
        "tagged -256": b"BLAKE2b-256 (abc) = " + H256 + b"\n",
        "tagged -8": b"BLAKE2b-8 (abc) = " + H8 + b"\n",
        "tagged -512": b"BLAKE2b-512 (abc) = " + H + b"\n",
        "tagged -0": b"BLAKE2b-0 (abc) = " + H + b"\n",
        "tagged -7": b"BLAKE2b-7 (abc) = " + H8 + b"\n",
        "tagged -520": b"BLAKE2b-520 (abc) = " + H + b"\n",
        "tagged -": b"BLAKE2b- (abc) = " + H + b"\n",
        "tagged -0x100": b"BLAKE2b-0x100 (abc) = " + H256 + b"\n",
        "tagged -0400 (octal)": b"BLAKE2b-0400 (abc) = " + H256 + b"\n",
        "tagged -+256": b"BLAKE2b-+256 (abc) = " + H256 + b"\n",
        "tagged - 256": b"BLAKE2b- 256 (abc) = " + H256 + b"\n",
        "tagged -256, space before (": b"BLAKE2b-256  (abc) = " + H256 + b"\n",
        "tagged length mismatch, short hex": b"BLAKE2b (abc) = " + H256 + b"\n",
        "tagged length mismatch, long hex": b"BLAKE2b-256 (abc) = " + H + b"\n",
        "tagged, no spaces": b"BLAKE2b(abc)=" + H + b"\n",
        "tagged openssl style": b"BLAKE2b(abc)= " + H + b"\n",
        "tagged -256 openssl style": b"BLAKE2b-256(abc)= " + H256 + b"\n",
        "tagged, tabs around =": b"BLAKE2b-8 (abc) \t=\t " + H8 + b"\n",
        "tagged, two spaces before (": b"BLAKE2b-8  (abc) = " + H8 + b"\n",
        "tagged, tab before (": b"BLAKE2b-8\t(abc) = " + H8 + b"\n",
        "tagged, trailing space": b"BLAKE2b-8 (abc) = " + H8 + b" \n",
        "tagged, no digest": b"BLAKE2b-8 (abc) = \n",
        "tagged, no =": b"BLAKE2b-8 (abc) " + H8 + b"\n",
        "tagged, no (": b"BLAKE2b-8 abc) = " + H8 + b"\n",
        "tagged, no )": b"BLAKE2b-8 (abc = " + H8 + b"\n",
        "tagged, parentheses in name": b"BLAKE2b-8 (a(b)c)) = " + H8 + b"\n",
        "tagged, name paren)name": b"BLAKE2b-8 (paren)name) = " + H8 + b"\n",
        "tagged, empty name": b"BLAKE2b-8 () = " + H8 + b"\n",
        "tagged, only the tag": b"BLAKE2b\n",
        "tagged, leading spaces": b"  BLAKE2b-8 (abc) = " + H8 + b"\n",
        "untagged, leading spaces": b"  " + H8 + b"  abc\n",
        "untagged, leading tab": b"\t" + H8 + b"  abc\n",
        "SHA256 tag": b"SHA256 (abc) = " + hashlib.sha256(ABC_DATA).hexdigest().encode() + b"\n",
        "SHA512 tag": b"SHA512 (abc) = " + hashlib.sha512(ABC_DATA).hexdigest().encode() + b"\n",
        "MD5 tag": b"MD5 (abc) = " + hashlib.md5(ABC_DATA).hexdigest().encode() + b"\n",
        "BLAKE2 tag": b"BLAKE2 (abc) = " + H + b"\n",
        "lowercase tag": b"blake2b (abc) = " + H + b"\n",
        "BLAKE2bp tag": b"BLAKE2bp (abc) = " + H + b"\n",
        "BLAKE2b-256 tag, then untagged": b"BLAKE2b-256 (abc) = " + H256 + b"\n" + H + b"  abc\n",
        "comments": b"# a comment\n#" + H + b"  abc\n" + H + b"  abc\n",
        "comment after spaces": b" # no comment\n" + H + b"  abc\n",
        "only comments": b"# one\n# two\n",
        "blank lines": b"\n\n" + H + b"  abc\n\n\n" + H + b"  empty\n\n",
        "only blank lines": b"\n\n\n",
        "spaces-only line": b"   \n" + H + b"  abc\n",
        "lone CR line": b"\r\n" + H + b"  abc\n",
        "CRLF": H + b"  abc\r\n" + EMPTY + b"  empty\r\n",
        "CR CR LF": H8 + b"  abc\r\r\n",
        "CR only at the end, no LF": H8 + b"  abc\r",
        "CR only, as line ends": H8 + b"  abc\r" + E8 + b"  empty\r",
        "no final newline": H + b"  abc",
        "empty file": b"",
        "NUL in the name": H8 + b"  abc\0xyz\n",
        "NUL in an escaped name": b"\\" + H8 + b"  abc\0xyz\n",
        "NUL-terminated lines (-z output)": H8 + b"  abc\0" + E8 + b"  empty\0",
        "escaped newline": b"\\" + H8 + b"  new\\nline\n",
        "escaped carriage return": b"\\" + H8 + b"  car\\rret\n",
        "escaped backslash": b"\\" + H8 + b"  back\\\\slash\n",
        "escaped all": b"\\" + H8 + b"  m\\\\i\\nx\\r\n",
        "escaped plain name": b"\\" + H8 + b"  abc\n",
        "unescaped backslash name": H8 + b"  back\\slash\n",
        "unescaped \\n stays literal": H8 + b"  new\\nline\n",
        "escape, lone backslash": b"\\" + H8 + b"  back\\slash\n",
        "escape, \\t": b"\\" + H8 + b"  back\\tslash\n",
        "escape, trailing backslash": b"\\" + H8 + b"  abc\\\n",
        "escape, double backslash at line start": b"\\\\" + H8 + b"  abc\n",
        "escaped tagged": b"\\BLAKE2b-8 (new\\nline) = " + H8 + b"\n",
        "escaped tagged, all": b"\\BLAKE2b-8 (m\\\\i\\nx\\r) = " + H8 + b"\n",
        "tagged, not escaped": b"BLAKE2b-8 (new\\nline) = " + H8 + b"\n",
        "escaped tagged, bad escape": b"\\BLAKE2b-8 (a\\qb) = " + H8 + b"\n",
        "names with spaces": H8 + b"  with space\n" + H8 + b"   lead\n" + H8 + b"  tr \n",
        "name starting with *": H8 + b"  *star\n" + H8 + b" **star\n",
        "name with a tab": H8 + b"  tab\tname\n",
        "invalid UTF-8 name": H8 + b"  bad\xffutf8\n",
        "UTF-8 name": H8 + b"  \xc3\xa9\n",
        "name with a carriage return, escaped": b"\\" + H8 + b"  car\\rret\n",
        "missing file": H8 + b"  missing\n",
        "two missing files": H8 + b"  missing\n" + H8 + b"  missing2\n" + H8 + b"  abc\n",
        "missing, quoted name": H8 + b"  no such\n",
        "missing, name with a newline": b"\\" + H8 + b"  no\\nsuch\n",
        "missing, name with a CR": b"\\" + H8 + b"  no\\rsuch\n",
        "missing, name with a backslash": b"\\" + H8 + b"  no\\\\such\n",
        "missing and mismatched": H8 + b"  missing\n" + E8 + b"  abc\n",
        "missing, mismatched, misformatted, twice": H8 + b"  missing\n" + E8 + b"  abc\nxx\n"
                                                    + H8 + b"  missing2\n" + E8 + b"  text\n"
                                                    + b"yy\n" + H8 + b"  abc\n",
        "directory": H8 + b"  dir\n",
        "not a directory": H8 + b"  abc/x\n",
        "empty name, untagged": H8 + b"  \n",
        "stdin named in the file": H8 + b"  -\n",
        "misformatted": b"xx\n",
        "two misformatted and a good": b"xx\nyy\n" + H + b"  abc\n",
        "one misformatted and a good": b"xx\n" + H + b"  abc\n",
        "1 MiB file, every length": b"".join(b2(BIG, bits) + b"  big\n" for bits in (8, 256,
                                                                                      512)),
        "1 MiB file, wrong": b2(BIG[1:]) + b"  big\n",
        "long line": b"x" * 100000 + b"\n" + H + b"  abc\n",
        "long name": H8 + b"  " + b"n" * 5000 + b"\n",
    }
    for i, (what, content) in enumerate(handmade.items()):
        name = write(f"hand{i}.sums", content)
        # On Windows, a file that the lines name and Windows cannot hold is missing there, or
        # refused (EINVAL): the case is skipped, whatever the options (--status names none).
        if target.windows and what == "not a directory":
            target.skip(f"-c {what}", "Windows finds no folder abc (ERROR_PATH_NOT_FOUND: ENOENT)")
            continue
        if target.windows and unnameable(
                f"-c {what}", checked_names(["-c"], run(GNU or OURS, ["-c", name], cwd=d)[1])):
            continue
        for args in ([], ["-w"], ["--quiet"], ["--status"], ["--strict"], ["--ignore-missing"],
                     ["--ignore-missing", "--quiet", "-w", "--strict"]):
            same_as_gnu(f"-c {' '.join(args)} {what}", ["-c"] + args + [name])
        same_as_gnu(f"-c {what}, on stdin", ["-c"], content)
        same_as_gnu(f"-c -w {what}, merged streams", ["-c", "-w", name], merge=True)
    same_as_gnu("-c, the file lists - and stdin has it", ["-c", "hand%d.sums" %
                list(handmade).index("stdin named in the file")], ABC_DATA)
    same_as_gnu("-c, - listed in a checksum file read from stdin", ["-c", "-w"], H8 + b"  -\n")
    same_as_gnu("-c, - listed then a good line, from stdin", ["-c", "-w"],
                H8 + b"  -\n" + H8 + b"  abc\n")
    same_as_gnu("-c - twice", ["-c", "-", "-"], H8 + b"  abc\n")
    same_as_gnu("-c --ignore-missing on stdin", ["-c", "--ignore-missing"], H8 + b"  missing\n")
    same_as_gnu("-c misformatted on stdin, -w", ["-c", "-w", "-"], b"xx\n" + H8 + b"  abc\n")
    same_as_gnu("-c of a checksum file at an offset on stdin", ["-c"], ("sums.plain", 0))
    same_as_gnu("-c nonexistent checksum file", ["-c", "nonexistent"])
    same_as_gnu("-c nonexistent, quoted name", ["-c", "no such file"])
    same_as_gnu("-c nonexistent among good", ["-c", "sums.8", "nonexistent", "sums.8"])
    same_as_gnu("-c directory as checksum file", ["-c", "dir"])
    same_as_gnu("-c directory among checksum files", ["-c", "sums.8", "dir", "sums.8"])
    same_as_gnu("-c /dev/null", ["-c", "/dev/null"])
    same_as_gnu("-c empty stdin", ["-c"])
    write("bad sums", b"xx\n")
    write("my sums", H8 + b"  missing\n")
    same_as_gnu("-c -w quoted checksum file name", ["-c", "-w", "bad sums"])
    same_as_gnu("-c --ignore-missing quoted checksum file name",
                ["-c", "--ignore-missing", "my sums"])
    write("new\nsums", b"xx\n")
    same_as_gnu("-c -w checksum file name with a newline", ["-c", "-w", "new\nsums"])
    # BSD-reversed detection carries from one checksum file to the next.
    write("two-space.sums", H8 + b"  abc\n")
    write("one-space.sums", H8 + b" abc\n")
    same_as_gnu("-c two-space then one-space files", ["-c", "-w", "two-space.sums",
                                                      "one-space.sums"])
    same_as_gnu("-c one-space then two-space files", ["-c", "-w", "one-space.sums",
                                                      "two-space.sums"])
    # --status, --quiet and -w: the last one given wins.
    mixed = "hand%d.sums" % list(handmade).index("missing, mismatched, misformatted, twice")
    for args in (["-c", "--status", "-w"], ["-c", "-w", "--status"], ["-c", "--quiet", "-w"],
                 ["-c", "-w", "--quiet"], ["-c", "--status", "--quiet"],
                 ["-c", "--quiet", "--status"], ["-c", "--warn"], ["-c", "--qui"], ["--ch"],
                 ["-cw"], ["--check", "--warn", "--strict"], ["-wc", "--stat"]):
        same_as_gnu(" ".join(args), args + [mixed])
    same_as_gnu("check to /dev/full", ["-c", "sums.8"], stdout="full")
    same_as_gnu("check --status to /dev/full", ["-c", "--status", "sums.8"], stdout="full")
    same_as_gnu("check, stdout closed", ["-c", "sums.8"], stdout="closed")
    same_as_gnu("check --quiet, stdout closed", ["-c", "--quiet", "sums.8"], stdout="closed")
    if target.windows:
        target.skip("check with standard input closed", "a Windows program's closed standard "
                    "input is NUL (Wine's, or the C runtime's, as b2sum opens it)")
    else:
        same_as_gnu("check, stdin closed", ["-c", "sums.8"], None)
        same_as_gnu("check -, stdin closed", ["-c", "-"], None)
    if os.geteuid() != 0:
        write("unreadable.sums", H8 + b"  abc\n")
        os.chmod(path("unreadable.sums"), 0)
        same_as_gnu("check, unreadable checksum file", ["-c", "unreadable.sums"])
        same_as_gnu("check, unreadable listed file", ["-c", "--ignore-missing"],
                    H8 + b"  unreadable\n")
    return listed, mixed
