"""`python -m memory_bank users add|list|remove|assign`: the administrator's side of multi-user mode.

The password is read from the terminal without echo (twice, to catch a typo) or, when standard input is not a
terminal, as its first line (`printf '%s\n' "$PW" | python -m memory_bank users add alice`): never from the
command line, where `ps` and the shell history would show it.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TextIO

from ..errors import ConfigError, InputError
from ..limits import LOCAL_USER
from ..settings import Settings
from .users import Accounts, check_user_name


def add_parser(sub: argparse._SubParsersAction) -> None:
    users = sub.add_parser("users", help="multi-user mode: the accounts in MEMORY_BANK_USERS_FILE")
    users.add_argument("--file", type=Path, help="the accounts file (default: MEMORY_BANK_USERS_FILE)")
    actions = users.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="add a user, or set a new password (read from the terminal or stdin)")
    add.add_argument("name")
    actions.add_parser("list", help="the user names, one a line")
    remove = actions.add_parser("remove", help="remove a user (their tasks stay in the store)")
    remove.add_argument("name")
    assign = actions.add_parser("assign", help="give tasks to a user: all tasks of --from (default: the "
                                               f"single-user owner {LOCAL_USER!r}), or one --task")
    assign.add_argument("name")
    assign.add_argument("--from", dest="source", default=LOCAL_USER)
    assign.add_argument("--task", help="one task id instead")


def read_password(stdin: TextIO) -> str:
    if stdin.isatty():
        first = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != first:
            raise InputError("the two passwords differ")
        return first
    line = stdin.readline(4096)
    return line[:-1] if line.endswith("\n") else line


def run(args: argparse.Namespace, settings: Settings, stdin: TextIO | None = None) -> int:
    path = args.file or settings.users_file
    if path is None:
        raise ConfigError("no accounts file: set MEMORY_BANK_USERS_FILE (or pass --file)")
    accounts = Accounts(path)
    if args.action == "list":
        for name in accounts.names():
            print(name)
    elif args.action == "add":
        check_user_name(args.name)  # before asking for a password
        new = accounts.add(args.name, read_password(stdin or sys.stdin))
        print(f"user {args.name} {'added' if new else 'has a new password'} in {accounts.path}", file=sys.stderr)
    elif args.action == "remove":
        accounts.remove(check_user_name(args.name))
        print(f"user {args.name} removed; their tasks stay (give them to another user with `users assign`)",
              file=sys.stderr)
    else:
        return _assign(args, settings, accounts)
    return 0


def _assign(args: argparse.Namespace, settings: Settings, accounts: Accounts) -> int:
    from ..store import SqlTaskStore

    name = check_user_name(args.name)
    if not accounts.exists(name):
        raise InputError(f"no user {name!r} in {accounts.path}: add it first")
    store = SqlTaskStore.from_settings(settings)
    try:
        moved = store.owners.assign(name, task_id=args.task, source=check_user_name(args.source))
    finally:
        store.close()
    print(f"{moved} task{'s' if moved != 1 else ''} now belong to {name}", file=sys.stderr)
    return 0
