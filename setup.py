"""The one compiled module: Scoundrel's solver search (engine/scoundrel_search.pyx).

Everything else is plain Python (pyproject.toml). `pip install -e .` (make) builds it in
place; the image builds it in its builder stage (Dockerfile).
"""

from Cython.Build import cythonize
from setuptools import setup

setup(ext_modules=cythonize("engine/scoundrel_search.pyx"))
