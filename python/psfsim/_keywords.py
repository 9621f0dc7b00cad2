"""Keyword arguments as `psfsim run` options.

Every option of ``psfsim run`` is a keyword: its long name with ``_`` for ``-``. The table
comes from the engine (the option table the CLI is made from), and each value is written as
the command line writes it, so that the CLI's own code validates it. Python forms are
accepted beside the CLI's strings: numbers, booleans for flags, sequences for list options,
``{j: c}`` for ``zernike``, ``(l, m, W)`` for ``seidel``, ``(k, l, m, W)`` for
``seidel_field``, ``{(k, j): c}`` for ``double_zernike``, ``(x, y)`` for ``field``,
``(lo, hi, count)`` for ``band`` and astropy Quantities for lengths and angles.
"""
from __future__ import annotations

import difflib
import numbers
from typing import Any, Iterable

from . import _psfsim

#: keyword -> the option's row: flag, grammar, arity, help, default, choices, phase.
OPTIONS: dict[str, dict[str, Any]] = {row["keyword"]: row for row in _psfsim.options()}

#: Keywords only psfsim.run takes: they describe a file or its timing.
FILE_KEYWORDS = frozenset({"output", "force", "compression", "repeat"})

# Units the engine reads; a Quantity in another unit is converted to the first of its kind.
_LENGTH_UNITS = ("m", "mm", "um", "nm")
_ANGLE_UNITS = ("arcsec", "mas", "arcmin", "deg")


def _input_error(keyword: str, text: str) -> _psfsim.InputError:
    return _psfsim.InputError(f"{keyword}: {text}")


def _is_quantity(value: Any) -> bool:
    return hasattr(value, "unit") and hasattr(value, "to_value")


def _quantity_text(keyword: str, q: Any) -> str:
    unit = str(q.unit)
    if unit in _LENGTH_UNITS or unit in _ANGLE_UNITS:
        return f"{float(q.value)!r}{unit}"
    for target in (_LENGTH_UNITS[0], _ANGLE_UNITS[0]):
        try:
            return f"{float(q.to_value(target))!r}{target}"
        except Exception:  # noqa: BLE001 - astropy's UnitConversionError, without importing it
            continue
    raise _input_error(keyword, f"a Quantity in {unit}, where a length or an angle is needed")


def _scalar_text(keyword: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise _input_error(keyword, f"{value!r} is not a value for this option")
    if _is_quantity(value):
        if getattr(value, "isscalar", True) is False:
            raise _input_error(keyword, "an array Quantity where one value is needed")
        return _quantity_text(keyword, value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    raise _input_error(keyword, f"{value!r} ({type(value).__name__}) is not a value for this option")


def _items(keyword: str, value: Any) -> list[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        return [value]
    if _is_quantity(value) and getattr(value, "isscalar", False):
        return [value]
    return list(value)


def _term_text(keyword: str, term: Any) -> str:
    if isinstance(term, str):
        return term
    if isinstance(term, Iterable):
        return ",".join(_scalar_text(keyword, v) for v in term)
    raise _input_error(keyword, f"{term!r} is not a term ({'j,c' if keyword == 'zernike' else 'l,m,W'})")


def _repeated(keyword: str, value: Any) -> list[str]:
    if isinstance(value, dict):
        # {4: 0.1} for zernike; {(2, 7): 0.1} for double_zernike, {(1, 3, 1): 0.2} for seidel_field.
        return [f"{_term_text(keyword, k if isinstance(k, tuple) else (k,))},{_scalar_text(keyword, v)}"
                for k, v in value.items()]
    if isinstance(value, str):
        return [value]
    items = _items(keyword, value)
    # One term written as a tuple of numbers: zernike=(4, 0.1), seidel=(2, 1, 1.0).
    if items and all(isinstance(v, numbers.Real) for v in items):
        return [_term_text(keyword, items)]
    return [_term_text(keyword, t) for t in items]


def _joined(keyword: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if keyword == "band" and isinstance(value, (tuple, list)) and len(value) == 3:
        lo, hi, count = value
        return f"{_scalar_text(keyword, lo)}-{_scalar_text(keyword, hi)},{_scalar_text(keyword, count)}"
    if keyword == "wavelengths" and isinstance(value, dict):
        value = list(value.items())
    texts = []
    for item in _items(keyword, value):
        if isinstance(item, tuple) and keyword == "wavelengths":
            texts.append(":".join(_scalar_text(keyword, v) for v in item))
        else:
            texts.append(_scalar_text(keyword, item))
    return ",".join(texts)


def unknown(keyword: str) -> _psfsim.InputError:
    close = difflib.get_close_matches(keyword, list(OPTIONS), n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return _psfsim.InputError(f"unknown keyword '{keyword}'{hint}; help(psfsim.psf) lists them")


def words(options: dict[str, Any]) -> list[str]:
    """`psfsim run`'s words for these keywords: ["--samples=128", "--quiet", ...]."""
    out: list[str] = []
    for keyword, value in options.items():
        row = OPTIONS.get(keyword)
        if row is None or keyword == "config":
            raise unknown(keyword)
        if value is None:
            continue
        flag = row["flag"]
        if row["grammar"] == "flag":
            if not isinstance(value, (bool, numbers.Integral)) or value not in (0, 1):
                raise _input_error(keyword, f"{value!r}: a flag takes True or False")
            if value:
                out.append(flag)
            continue
        arity = row["arity"]
        if arity == "repeated":
            out.extend(f"{flag}={t}" for t in _repeated(keyword, value))
        elif arity in ("comma_text", "list"):
            out.append(f"{flag}={_joined(keyword, value)}")
        else:
            out.append(f"{flag}={_scalar_text(keyword, value)}")
    return out


def terms(keyword: str, value: Any) -> list[str]:
    """The values of a zernike or seidel keyword, as --zernike and --seidel take them."""
    return [] if value is None else _repeated(keyword, value)
