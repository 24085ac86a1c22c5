"""The compiled modules: Scoundrel's solver search (engine/scoundrel_search.pyx) and the
strong Expeditionen bot's rollout (engine/expeditionen_rollout.pyx).

Everything else is plain Python (pyproject.toml). `pip install -e .` (make) builds them in
place; the image builds them in its builder stage (Dockerfile). The build is optional:
where no C++ compiler or no Python headers are at hand, the install goes on without them
and each has a Python reference that answers the same, only slower: the solver's search
(engine/scoundrel_solver.py, make_solver) and the rollout (engine/bots/expeditionen.py,
medium_round); the server logs so as it starts (app/__main__.py).
"""

from Cython.Build import cythonize
from setuptools import setup

extensions = cythonize(["engine/scoundrel_search.pyx", "engine/expeditionen_rollout.pyx"])
for extension in extensions:
    extension.optional = True  # set here: cythonize makes the Extension anew and leaves it out
setup(ext_modules=extensions)
