"""What every config section shares: strict pydantic settings, ConfigError conversion, domain text.

The field metadata (type, bounds, description) is the single source for error messages,
``flitcast list parameters`` and docs/config.md.
"""

from __future__ import annotations

import math
import types
import typing
from typing import Any, ClassVar, Literal, Union, get_args, get_origin

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo

from flitcast.errors import ConfigError, show_value


class Section(BaseModel):
    """Base of the five scenario sections and of the scenario itself.

    Construction (``Section(...)`` or ``Section.model_validate(...)``) raises :class:`ConfigError`, never a
    pydantic ``ValidationError``.
    """

    model_config = ConfigDict(extra="forbid")

    #: dotted prefix of this model's keys ("network", ...); empty for the scenario itself
    section: ClassVar[str] = ""

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise config_error(exc, type(self)) from None

    @classmethod
    def model_validate(cls, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        _check_string_keys(obj, cls.section, depth=1 if cls.section else 2)
        if isinstance(obj, dict) and not kwargs:
            # one validation pass: pydantic's model_validate runs the custom __init__ and then the
            # model validators a second time (a ConfigWarning would be given twice)
            return cls(**obj)
        try:
            return super().model_validate(obj, **kwargs)
        except ValidationError as exc:
            raise config_error(exc, cls) from None

    def _resolve(self, name: str, value: Any) -> None:
        """Fill in a derived value without marking it as set by the user.

        Keeping it out of ``model_fields_set`` lets ``Scenario.with_overrides`` derive it again from the
        new inputs (e.g. a ring's ``n`` when the topology is overridden to ``torus``).
        """
        self.__dict__[name] = value


def _check_string_keys(data: Any, prefix: str, depth: int) -> None:
    # pydantic passes tables to Section.__init__ as keyword arguments, which fails with a bare TypeError
    # on a non-string key; name the key instead
    if depth == 0 or not isinstance(data, dict):
        return
    for key, value in data.items():
        where = f"{prefix}.{key}" if prefix else str(key)
        if not isinstance(key, str):
            raise ConfigError(where, key, "keys that are strings (names of sections and settings)")
        _check_string_keys(value, where, depth - 1)


# --- error conversion --------------------------------------------------------------------------------


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _walk(root: type[BaseModel], loc: tuple[Any, ...]) -> tuple[type[BaseModel] | None, FieldInfo | None]:
    """The model holding the last named field of ``loc``, and that field (None where unknown)."""
    model: type[BaseModel] | None = root
    field: FieldInfo | None = None
    for part in loc:
        if model is None or not isinstance(part, str) or part not in model.model_fields:
            return (model if field is None else None), field
        field = model.model_fields[part]
        sub = _model_of(field.annotation)
        if sub is not None:
            model, field = sub, None
        else:
            model = None
    return model, field


def _key(prefix: str, loc: tuple[Any, ...]) -> str:
    key = prefix
    for part in loc:
        if isinstance(part, int):
            key += f"[{part}]"
        else:
            key = f"{key}.{part}" if key else str(part)
    return key or "scenario"


def config_error(exc: ValidationError, root: type[Section]) -> ConfigError:
    """The first problem of a pydantic ``ValidationError`` as a :class:`ConfigError`."""
    errors = exc.errors(include_url=False)
    err = errors[0]
    loc = tuple(err["loc"])
    key = _key(root.section, loc)
    value = err.get("input")
    kind = err["type"]
    reason = err["msg"]
    if len(errors) > 1:
        reason += f"; {len(errors) - 1} more problem(s) after this one"
    if kind == "extra_forbidden":
        parent, _ = _walk(root, loc[:-1])
        if parent is not None and parent.model_fields:
            where = "sections" if parent is root and not root.section else "keys"
            names = ", ".join(parent.model_fields)
            allowed = f"one of the {where} {names}"
        else:
            allowed = "no other keys here"
        return ConfigError(key, value, allowed, reason="unknown key")
    model, field = _walk(root, loc)
    if field is None and model is not None:
        # the whole table is wrong (e.g. `network = 3`, or a top-level value that is not a table)
        names = ", ".join(model.model_fields)
        return ConfigError(key, value, f"a table with the keys {names}", reason=reason)
    if field is not None and not any(isinstance(p, int) for p in loc):
        return ConfigError(key, value, domain(field), reason=reason)
    if field is not None and kind == "int_type":
        return ConfigError(key, value, "an integer", reason=reason)
    return ConfigError(key, value, reason, reason=None)


# --- describing a field's domain -------------------------------------------------------------------


def _bounds(field: FieldInfo) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for meta in field.metadata:
        if isinstance(meta, Ge):
            out["ge"] = meta.ge
        elif isinstance(meta, Gt):
            out["gt"] = meta.gt
        elif isinstance(meta, Le):
            out["le"] = meta.le
        elif isinstance(meta, Lt):
            out["lt"] = meta.lt
    return out


def _num(x: Any) -> str:
    return str(x)


def bounds_text(field: FieldInfo) -> str:
    """Compact bounds for tables: ``2..1024``, ``> 0, <= 1``, ``mesh, torus, ring``."""
    base = _strip_optional(field.annotation)
    if get_origin(base) is Literal:
        return ", ".join(str(a) for a in get_args(base))
    if base is bool:
        return "true, false"
    b = _bounds(field)
    if "ge" in b and "le" in b:
        if b["ge"] == b["le"]:
            return _num(b["ge"])
        return f"{_num(b['ge'])}..{_num(b['le'])}"
    parts = []
    for name, op in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<=")):
        if name in b:
            parts.append(f"{op} {_num(b[name])}")
    return ", ".join(parts)


def _strip_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _strip_optional(args[0])
    if get_origin(annotation) is typing.Annotated:
        return _strip_optional(get_args(annotation)[0])
    return annotation


def _optional(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


def type_text(field: FieldInfo) -> str:
    """The TOML-facing type: ``int``, ``float``, ``bool``, ``str``, ``list[int]``, ``int | None``."""
    base = _strip_optional(field.annotation)
    if get_origin(base) is Literal:
        text = "str"
    elif get_origin(base) is list:
        (item,) = get_args(base)
        text = f"list[{_strip_optional(item).__name__}]"
    else:
        text = getattr(base, "__name__", str(base))
    return f"{text} | None" if _optional(field.annotation) else text


def domain(field: FieldInfo) -> str:
    """What a field accepts, as a phrase for error messages: ``an integer from 2 to 1024``."""
    base = _strip_optional(field.annotation)
    if get_origin(base) is Literal:
        text = "one of " + ", ".join(repr(a) for a in get_args(base))
    elif base is bool:
        text = "true or false"
    elif get_origin(base) is list:
        text = "a list of integers"
    else:
        noun = {int: "an integer", float: "a finite number"}.get(base, f"a {type_text(field)}")
        b = _bounds(field)
        if "ge" in b and "le" in b:
            text = f"{noun} from {_num(b['ge'])} to {_num(b['le'])}"
        else:
            parts = []
            for name, op in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<=")):
                if name in b:
                    parts.append(f"{op} {_num(b[name])}")
            text = f"{noun} " + " and ".join(parts) if parts else noun
    if _optional(field.annotation):
        text += ", or left out"
    return text


def default_text(field: FieldInfo) -> str:
    """The default as it would be written in TOML (``(derived)`` where another key decides)."""
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
    else:
        value = field.default
    if isinstance(value, BaseModel):
        return "(table)"
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    return show_value(value)
