"""pydantic's validation errors as engine errors, so that they read in Japanese too.

pydantic words its messages in English only; `problem` turns one of its error details into a
`TakujoError` with a message ID of ``takujo/core/errors.toml`` (the common kinds by name, any
other with pydantic's own English words). A validator that raises a `TakujoError` keeps it.
"""
from __future__ import annotations

from typing import Any, Mapping

from .errors import TakujoError


def field_name(err: Mapping[str, Any], whole: str = "(entry)") -> str:
    return ".".join(str(p) for p in err.get("loc", ())) or whole


def problem(err: Mapping[str, Any]) -> TakujoError:
    """One pydantic error detail (an item of ``ValidationError.errors()``) as an error."""
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "value_error" and isinstance(ctx.get("error"), TakujoError):
        return ctx["error"]  # type: ignore[no-any-return]  # checked just above
    if kind == "missing":
        return TakujoError("validation.missing")
    if kind == "extra_forbidden":
        return TakujoError("validation.extra")
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return TakujoError("validation.not_int")
    if kind in ("float_parsing", "float_type"):
        return TakujoError("validation.not_number")
    if kind in ("bool_parsing", "bool_type"):
        return TakujoError("validation.not_bool")
    if kind == "string_type":
        return TakujoError("validation.not_text")
    if kind in ("list_type", "tuple_type"):
        return TakujoError("validation.not_list")
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return TakujoError("validation.not_table")
    if kind == "greater_than_equal":
        return TakujoError("validation.at_least", limit=ctx.get("ge"))
    if kind == "greater_than":
        return TakujoError("validation.more_than", limit=ctx.get("gt"))
    if kind == "less_than_equal":
        return TakujoError("validation.at_most", limit=ctx.get("le"))
    if kind == "less_than":
        return TakujoError("validation.less_than", limit=ctx.get("lt"))
    if kind in ("literal_error", "enum"):
        return TakujoError("validation.one_of", expected=ctx.get("expected", "?"))
    if kind == "too_short":
        return TakujoError("validation.too_short", limit=ctx.get("min_length"))
    if kind == "too_long":
        return TakujoError("validation.too_long", limit=ctx.get("max_length"))
    return TakujoError("validation.other", detail=str(err.get("msg", kind)))
