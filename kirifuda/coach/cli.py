"""``kirifuda analyze RECORD``: the deal review of a record (``--json``, ``--lang ja``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import KirifudaError, RecordError
from ..i18n import LANGS

__all__ = ["add_parser", "cmd_analyze"]


def add_parser(sub: Any, lang: str) -> None:
    """Register ``analyze`` on the ``kirifuda`` command's subparsers."""
    p = sub.add_parser("analyze", help="review a game record: what each decision cost against best play")
    p.add_argument("file", metavar="RECORD", help="the game record (kirifuda-record/1 JSON)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument("--lang", choices=LANGS, default=lang, help=f"language (default from the locale: {lang})")
    p.add_argument("--deal", type=_positive, action="append", help="only this deal (1-based; repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (default 0)")
    p.set_defaults(func=cmd_analyze)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is out of range: 1 or more")
    return value


def _error(args: argparse.Namespace, exc: KirifudaError) -> int:
    print(f"kirifuda analyze: {args.file}: {exc}", file=sys.stderr)
    if args.json:
        err: dict[str, Any] = {"message": str(exc)}
        if isinstance(exc, RecordError):
            err.update(deal=exc.deal, action=exc.action, seat=exc.seat)
        print(json.dumps({"error": err}, ensure_ascii=False))
    return 1


def cmd_analyze(args: argparse.Namespace) -> int:
    from .. import record as records
    from .review import review, review_text

    try:
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read it: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise RecordError(f"not valid JSON: not UTF-8 text ({exc})") from None
        rec = records.loads(text)
        deals = None
        if args.deal:
            bad = [d for d in args.deal if not 1 <= d <= len(rec.deals)]
            if bad:
                raise RecordError(f"no deal {bad[0]} in this record (it has {len(rec.deals)})")
            deals = [d - 1 for d in args.deal]
        rev = review(rec, seed=args.seed, deals=deals)
    except KirifudaError as exc:
        return _error(args, exc)
    if args.json:
        print(json.dumps(rev.to_json(args.lang), ensure_ascii=False))
    else:
        print(review_text(rev, args.lang))
    return 0
