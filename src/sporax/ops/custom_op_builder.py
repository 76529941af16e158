"""``ops.CustomOpBuilder``: compiles a C++ custom operator written against MindSpore's C++ extension API
(``#include "ms_extension/api.h"``, ``ms::Tensor``, ``ms::pynative::PyboostRunner``, ``PYBIND11_MODULE``)
with the system C++ compiler and pybind11, and loads it as a module whose functions take and return sporax
Tensors. sporax ships its own ``ms_extension/api.h`` (host buffers, operators run synchronously on the CPU).
As in MindSpore, such an operator has no backward: gradients through it are zero.
Inside compiled code (GRAPH mode, ``ms.jit``) an operator runs through ``jax.pure_callback``, its output
shapes and dtypes found once per input signature by a run on zero-filled inputs.
"""
import errno
import importlib.util
import os
import shlex
import sysconfig

import jax
import numpy as np

from sporax.core.tensor import Tensor, unwrap, wrap
from sporax.ops import native_build

_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def _as_list(name, value):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return list(value)
    raise TypeError(f"For 'CustomOpBuilder', '{name}' must be a str or a list/tuple of str, but got {value!r}.")


class CustomOpBuilder:
    """Builds and loads a C++ custom operator module.

    Args:
        name (str): the module's name (also its ``PYBIND11_MODULE(MS_EXTENSION_NAME, m)`` name).
        sources (Union[str, list[str], tuple[str]]): the C++ source file(s).
        backend (str, optional): ``"CPU"`` or ``None``; ``"Ascend"`` raises NotImplementedError. Default: ``None``.
        include_paths (Union[str, list[str], tuple[str]], optional): extra include directories. Default: ``None``.
        cflags (str, optional): extra compiler flags. Default: ``None``.
        ldflags (str, optional): extra linker flags. Default: ``None``.
        kwargs: ``build_dir`` (default ``$MS_COMPILER_CACHE_PATH`` or ``./kernel_meta``, then ``name``);
            ``op_def``/``op_doc`` (YAML files MindSpore needs for graph mode; sporax needs none and only
            checks they exist); ``enable_atb``/``enable_asdsip`` (Ascend libraries: NotImplementedError).

    Example:
        >>> from sporax.ops import CustomOpBuilder
        >>> my_ops = CustomOpBuilder("my_ops", ["my_ops.cpp"], backend="CPU").load()  # doctest: +SKIP
        >>> my_ops.add3(x, y, z)  # doctest: +SKIP
    """

    _loaded_ops = {}

    def __init__(self, name, sources, backend=None, include_paths=None, cflags=None, ldflags=None, **kwargs):
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"For 'CustomOpBuilder', 'name' must be a str usable as a Python module name, "
                            f"but got {name!r}.")
        self.name = name
        self.sources = _as_list("sources", sources)
        if not self.sources:
            raise ValueError("For 'CustomOpBuilder', 'sources' must name at least one C++ source file.")
        if backend not in (None, "CPU"):
            raise NotImplementedError(f"CustomOpBuilder: backend={backend!r} needs MindSpore's device runtime; "
                                      "sporax builds host operators: use backend='CPU' (or leave it out).")
        for flag in ("enable_atb", "enable_asdsip"):
            if kwargs.pop(flag, False):
                raise NotImplementedError(f"CustomOpBuilder: {flag}=True links Ascend libraries, which sporax "
                                          "cannot do; write the operator with ms::pynative::PyboostRunner on CPU.")
        self.backend = backend
        self.include_paths = _as_list("include_paths", include_paths)
        self.cflags, self.ldflags = cflags, ldflags
        self.build_dir = kwargs.pop("build_dir", None)
        self._op_files = [(option, _as_list(option, kwargs.pop(option, None))) for option in ("op_def", "op_doc")]
        if kwargs:
            raise TypeError(f"CustomOpBuilder got unexpected keyword arguments {sorted(kwargs)}; it takes "
                            "build_dir, op_def, op_doc, enable_atb and enable_asdsip.")

    def _check_files(self):
        """MindSpore 2.10 looks for the files when it builds (``load``), not at construction: a FileNotFoundError
        for a missing op_def file, then for a missing source."""
        (_, op_def), (_, op_doc) = self._op_files
        for kind, paths in (("op_def file", op_def), ("C++ source file", self.sources), ("op_doc file", op_doc)):
            for path in paths:
                if not os.path.isfile(path):
                    raise FileNotFoundError(errno.ENOENT, f"For 'CustomOpBuilder', no such {kind}", path)

    def get_sources(self):
        """The source files to compile (absolute paths)."""
        return [os.path.abspath(source) for source in self.sources]

    def get_include_paths(self):
        """Include directories: sporax's ``ms_extension`` headers, pybind11's, Python's, then the user's."""
        try:
            import pybind11
        except ImportError:
            raise ImportError("CustomOpBuilder compiles with pybind11, which is not installed: "
                              "pip install 'sporax[custom-op]' (or pip install pybind11).") from None
        return ([_INCLUDE, pybind11.get_include(), sysconfig.get_paths()["include"]]
                + [os.path.abspath(path) for path in self.include_paths])

    def get_cflags(self):
        """Compiler flags: the module name macro, C++17, position-independent, optimised; then ``cflags``."""
        flags = [f"-DMS_EXTENSION_NAME={self.name}", "-std=c++17", "-fPIC", "-O2", "-fvisibility=hidden"]
        return flags + (shlex.split(self.cflags) if self.cflags else [])

    def get_ldflags(self):
        """Linker flags: a shared library; then ``ldflags``."""
        return ["-shared"] + (shlex.split(self.ldflags) if self.ldflags else [])

    def _build_directory(self):
        if self.build_dir is None:
            root = os.path.realpath(os.getenv("MS_COMPILER_CACHE_PATH", "./kernel_meta"))
            self.build_dir = os.path.join(root, self.name)
        self.build_dir = os.path.realpath(self.build_dir)
        os.makedirs(self.build_dir, exist_ok=True)
        return self.build_dir

    def build(self):
        """Compile the sources into ``build_dir``; reuse an earlier library built from the same sources,
        headers and flags. Returns the library's path."""
        self._check_files()
        command = ([native_build.find_compiler("CustomOpBuilder")] + self.get_cflags()
                   + [f"-I{path}" for path in self.get_include_paths()] + self.get_sources() + self.get_ldflags())
        return native_build.build_library(
            "CustomOpBuilder", self.name, command,
            self.get_sources() + [os.path.join(_INCLUDE, "ms_extension", "api.h")], self._build_directory(),
            suffix=sysconfig.get_config_var("EXT_SUFFIX") or ".so")

    def load(self):
        """Build (if needed) and load the module; its functions take and return sporax Tensors."""
        if self.name in CustomOpBuilder._loaded_ops:
            return CustomOpBuilder._loaded_ops[self.name]
        library = self.build()
        spec = importlib.util.spec_from_file_location(self.name, library)
        extension = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(extension)
        module = CustomOpModule(extension)
        CustomOpBuilder._loaded_ops[self.name] = module
        return module


class CustomOpModule:
    """A loaded custom-operator module: each function converts sporax Tensors to NumPy arrays (fresh copies:
    an operator may write through any data pointer), calls the C++ function and wraps the arrays it returns."""

    def __init__(self, extension):
        self._extension = extension
        self._functions = {}
        self.__name__, self.__file__ = extension.__name__, extension.__file__

    def __repr__(self):
        return f"<custom operator module {self.__name__!r} from {self.__file__!r}>"

    def __dir__(self):
        return sorted(set(dir(self._extension)) | set(super().__dir__()))

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        target = getattr(self._extension, name)
        if not callable(target):
            return target
        if name not in self._functions:
            self._functions[name] = _HostOperator(name, target)
        return self._functions[name]


class _HostOperator:
    """One C++ function of a custom-operator module, callable eagerly and inside compiled code."""

    def __init__(self, name, function):
        self.name, self.function = name, function
        self.__doc__ = getattr(function, "__doc__", None)
        self._specs = {}

    def _run(self, positions, arrays, args, kwargs):
        args = list(args)
        for position, array in zip(positions, arrays):
            args[position] = np.array(array)
        return self.function(*args, **kwargs)

    def __call__(self, *args, **kwargs):
        positions = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        arrays = [unwrap(args[i]) for i in positions]
        if not any(isinstance(array, jax.core.Tracer) for array in arrays):
            return _wrap_result(self._run(positions, [np.asarray(a) for a in arrays], args, kwargs))
        specs, multi = self._output_specs(positions, arrays, args, kwargs)

        def host(*values):
            result = self._run(positions, values, args, kwargs)
            results = result if multi else (result,)
            return tuple(np.asarray(item, spec.dtype).reshape(spec.shape) for item, spec in zip(results, specs))

        # MindSpore gives a PyboostRunner operator (no Function backward) a zero gradient: its inputs are
        # cut from differentiation, so the callback is never asked for a derivative
        outputs = jax.pure_callback(host, specs, *[jax.lax.stop_gradient(a) for a in arrays])
        return tuple(wrap(o) for o in outputs) if multi else wrap(outputs[0])

    def _output_specs(self, positions, arrays, args, kwargs):
        """Output shapes and dtypes for the callback: the operator run once on zeros of the input signature."""
        key = (tuple((tuple(a.shape), np.dtype(a.dtype).str) for a in arrays),
               tuple(repr(arg) for i, arg in enumerate(args) if i not in positions), repr(sorted(kwargs.items())))
        if key not in self._specs:
            zeros = [np.zeros(a.shape, a.dtype) for a in arrays]
            result = self._run(positions, zeros, args, kwargs)
            multi = isinstance(result, tuple)
            results = result if multi else (result,)
            if not all(isinstance(item, np.ndarray) for item in results):
                raise TypeError(f"Custom operator '{self.name}' returned {type(result).__name__}; inside compiled "
                                "code sporax can call only operators that return tensors.")
            self._specs[key] = (tuple(jax.ShapeDtypeStruct(item.shape, item.dtype) for item in results), multi)
        return self._specs[key]


def _wrap_result(result):
    if isinstance(result, np.ndarray):
        return Tensor(result)
    if isinstance(result, tuple):
        return tuple(_wrap_result(item) for item in result)
    return result
