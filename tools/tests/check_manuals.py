#!/usr/bin/env python3
"""The tools' manual pages and shell completions against the tools: groff reads each page
without a warning, the page documents exactly the options the tool's --help lists (long and
short), each completion file names every one of them, and the shells accept the completion
files' syntax (zsh's and fish's where they are installed).

Usage: check_manuals.py [--groff GROFF] --completions DIR TOOL PAGE [TOOL PAGE]...
  TOOL: the built program; PAGE: its manual page, named as the installed command (NAME.1);
  DIR: holds bash/NAME, zsh/_NAME and fish/NAME.fish (cmake/Manuals.cmake makes them).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

failures = []

# An option on a --help line: "  -l, --length <LEN>  ...", "  -a, --algorithm=NAME  ...",
# "      --keyed  ...", or a short option alone.
HELP_OPTION_LINE = re.compile(r"^\s+(?:(-[A-Za-z0-9])(?:,\s+|\s|$))?(--[A-Za-z0-9][A-Za-z0-9-]*)?")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z0-9][A-Za-z0-9-]*)")


def help_options(tool):
    """The options (e.g. {"-l", "--length"}) on the lines of TOOL --help that start with one."""
    environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    run = subprocess.run([tool, "--help"], capture_output=True, text=True, env=environment,
                         timeout=60)
    if run.returncode != 0:
        failures.append(f"{tool} --help: exit status {run.returncode}: {run.stderr}")
    options = set()
    for line in run.stdout.splitlines():
        match = HELP_OPTION_LINE.match(line)
        if match:
            options.update(option for option in match.groups() if option)
    if not options:
        failures.append(f"{tool} --help: no options found in {run.stdout!r}")
    return options


def plain_text(roff):
    """A line of roff as text: font changes, quotes and macro names gone, \\- a hyphen."""
    text = re.sub(r"^\.\w+\s*", "", roff)
    text = re.sub(r"\\f[BIRP]|\\f\(\w\w|\\&", "", text)
    return text.replace("\\-", "-").replace('"', "")


def page_options(page):
    """The options a page documents: those in the tags of .TP entries under a section whose
    title holds OPTIONS (every .TP entry there documents one option, or a short and a long
    form of one)."""
    options = set()
    section = ""
    with open(page, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            section = line
        elif line.startswith(".TP") and "OPTIONS" in section and i + 1 < len(lines):
            # A value after '=' or a space is the argument's name, not an option.
            tag = plain_text(lines[i + 1])
            options.update(o for o in OPTION.findall(re.split(r"=|\s[A-Z]", tag)[0]))
    return options


def check_page(tool, page, name):
    groff = subprocess.run([ARGS.groff, "-ww", "-z", "-man", page], capture_output=True,
                           text=True, timeout=60)
    if groff.returncode != 0 or groff.stderr:
        failures.append(f"{page}: groff -ww: status {groff.returncode}:\n{groff.stderr}")
    with open(page, encoding="utf-8") as f:
        title = next((line.split() for line in f if line.startswith(".TH")), [])
    if title[1:3] != [name, "1"]:
        failures.append(f"{page}: .TH names {title[1:3]}, not the command {name} in section 1")
    in_help = help_options(tool)
    in_page = page_options(page)
    for option in sorted(in_help - in_page):
        failures.append(f"{page}: {option} is in {name} --help but not in the page's OPTIONS")
    for option in sorted(in_page - in_help):
        failures.append(f"{page}: {option} is in the page's OPTIONS but not in {name} --help")
    return in_help


def mentions(text, option, shell):
    """Whether a completion file for SHELL names the option."""
    if shell == "fish":
        letter = re.escape(option.lstrip("-"))
        flag = r"(?:-l|--long-option)" if option.startswith("--") else r"(?:-s|--short-option)"
        return re.search(rf"{flag}\s+['\"]?{letter}['\"]?(?![\w-])", text) is not None
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def check_completions(name, options):
    files = {"bash": os.path.join(ARGS.completions, "bash", name),
             "zsh": os.path.join(ARGS.completions, "zsh", "_" + name),
             "fish": os.path.join(ARGS.completions, "fish", name + ".fish")}
    syntax = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}
    for shell, path in files.items():
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            failures.append(f"{name}: no {shell} completion: {e}")
            continue
        if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            failures.append(f"{path}: does not name the command {name}")
        for option in sorted(options):
            if not mentions(text, option, shell):
                failures.append(f"{path}: does not complete {option}")
        if shutil.which(syntax[shell][0]) is None:
            print(f"{shell} is not installed: {path}'s syntax not checked")
            continue
        run = subprocess.run(syntax[shell] + [path], capture_output=True, text=True, timeout=60)
        if run.returncode != 0 or run.stderr:
            failures.append(f"{path}: {' '.join(syntax[shell])}: status {run.returncode}:\n"
                            f"{run.stderr}")


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--groff", default="groff")
parser.add_argument("--completions", required=True)
parser.add_argument("pairs", nargs="+", metavar="TOOL PAGE")
ARGS = parser.parse_args()
if len(ARGS.pairs) % 2 != 0:
    parser.error("give each tool with its page")
for tool, page in zip(ARGS.pairs[::2], ARGS.pairs[1::2]):
    command = os.path.basename(page).removesuffix(".1")
    check_completions(command, check_page(tool, page, command))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"{len(ARGS.pairs) // 2} manual pages and their completions match the tools' --help")
