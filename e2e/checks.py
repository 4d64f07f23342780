"""What every end-to-end test reports with: a check that passes prints it, one that fails raises CheckFailed."""


class CheckFailed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise CheckFailed(f"expected {what}")
    print(f"  ok: {what}", flush=True)
