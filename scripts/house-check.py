#!/usr/bin/env python3
"""The house's size limits: no function (func, init, deinit, subscript) over 80
lines and no file over 400 lines in Sources/. Prints the longest functions and the
largest files; exits 1 when a limit is broken.

    python3 scripts/house-check.py [--top N] [ROOT]

A function's length is from its declaration's first line to its closing brace; strings and
comments are skipped when braces are matched.
"""
import os
import re
import sys

FUNCTION_LIMIT = 80
FILE_LIMIT = 400
DECLARATION = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|static|class|final|'
                         r'override|mutating|nonmutating|nonisolated|convenience|required|@inlinable|@usableFromInline)\s+)*'
                         r'(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])')


def strip(line, in_block):
    """The line without string literals and comments; whether a /* */ comment goes on."""
    out, i = [], 0
    while i < len(line):
        if in_block:
            end = line.find('*/', i)
            if end < 0:
                return ''.join(out), True
            i, in_block = end + 2, False
        elif line.startswith('//', i):
            break
        elif line.startswith('/*', i):
            in_block, i = True, i + 2
        elif line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == '\\' else 1
            i = j + 1
        else:
            out.append(line[i])
            i += 1
    return ''.join(out), in_block


def functions(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    code, in_block, in_multiline = [], False, False
    for line in lines:
        if line.count('"""') % 2 == 1:
            in_multiline = not in_multiline
            code.append('')
            continue
        if in_multiline:
            code.append('')
            continue
        text, in_block = strip(line, in_block)
        code.append(text)
    found = []
    for start, text in enumerate(code):
        match = DECLARATION.match(text)
        if not match:
            continue
        depth, opened, k = 0, False, start
        while k < len(code):
            for ch in code[k]:
                if ch == '{':
                    depth, opened = depth + 1, True
                elif ch == '}':
                    depth -= 1
            if opened and depth <= 0:
                break
            if not opened and k > start and code[k].strip() and not code[k].strip().startswith(('where', ')', '-', '|', '.', 'throws')) \
                    and DECLARATION.match(code[k]):
                break  # a requirement without a body
            k += 1
        if opened:
            found.append((k - start + 1, path, start + 1, match.group(1).strip()))
    return found, len(lines) if lines[-1] else len(lines) - 1


def main():
    args = sys.argv[1:]
    top = 5
    if args[:1] == ['--top']:
        top, args = int(args[1]), args[2:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    sources = os.path.join(root, 'Sources')
    all_functions, files = [], []
    for folder, _, names in os.walk(sources):
        for name in sorted(names):
            if name.endswith('.swift'):
                path = os.path.join(folder, name)
                found, count = functions(path)
                all_functions += found
                files.append((count, path))
    all_functions.sort(key=lambda f: -f[0])
    files.sort(key=lambda f: -f[0])
    rel = lambda p: os.path.relpath(p, root)
    print(f'longest functions (limit {FUNCTION_LIMIT} lines):')
    for length, path, line, name in all_functions[:top]:
        print(f'  {length:4d}  {rel(path)}:{line}  {name}')
    print(f'largest files (limit {FILE_LIMIT} lines):')
    for count, path in files[:top]:
        print(f'  {count:4d}  {rel(path)}')
    over = [f for f in all_functions if f[0] > FUNCTION_LIMIT]
    big = [f for f in files if f[0] > FILE_LIMIT]
    for length, path, line, name in over:
        print(f'error: {rel(path)}:{line}: {name} is {length} lines, over {FUNCTION_LIMIT}', file=sys.stderr)
    for count, path in big:
        print(f'error: {rel(path)} is {count} lines, over {FILE_LIMIT}', file=sys.stderr)
    return 1 if over or big else 0


if __name__ == '__main__':
    sys.exit(main())
