"""Multi-user mode: the accounts file, sign-in that resists guessing, and how long a signed-in session lasts.

Single-user mode (no `MEMORY_BANK_USERS_FILE`) has no accounts: everything belongs to `LOCAL_USER`.
"""

from __future__ import annotations

from ..limits import LOCAL_USER
from .signin import SessionPolicy, SignedIn, SignInResult, Throttle, sign_in
from .users import Accounts, check_user_name

__all__ = ["LOCAL_USER", "Accounts", "SessionPolicy", "SignInResult", "SignedIn", "Throttle", "check_user_name",
           "sign_in"]
