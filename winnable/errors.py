"""The error a user's input or situation causes (a bad deal, flag, option, file; a run that
cannot go on): its message is one line, which the command line prints with a non-zero exit,
never a traceback.  Light on purpose: the command line imports it before anything heavy."""


class UserError(ValueError):
    """Something the user can fix; the message is one line saying what and how.  Every error
    of the public API that bad input or a run's situation causes is one (a ``ValueError``).

    Examples:
        >>> from winnable import UserError, get_game
        >>> try:
        ...     get_game("nineball").solve(1, variant={"kitchen_per_group": 7})
        ... except UserError as error:
        ...     print(error)
        bad value 7 for variant kitchen_per_group of nineball: expected an integer from 1
        to 3 or any
    """


class IllegalMove(UserError):
    """A move that is not legal here, or not written in the game's notation; the message says
    which move and why in one line."""
