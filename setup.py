"""The one compiled module: Scoundrel's solver search (engine/scoundrel_search.pyx).

Everything else is plain Python (pyproject.toml). `pip install -e .` (make) builds it in
place; the image builds it in its builder stage (Dockerfile). The build is optional: where
no C++ compiler or no Python headers are at hand, the install goes on without it and the
solver uses its Python reference search (engine/scoundrel_solver.py, make_solver), which
answers the same, only slower; the server logs so as it starts (app/__main__.py).
"""

from Cython.Build import cythonize
from setuptools import setup

(search,) = cythonize("engine/scoundrel_search.pyx")
search.optional = True  # set here: cythonize makes the Extension anew and leaves it out
setup(ext_modules=[search])
