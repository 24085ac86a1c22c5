# Kartenrunde server image: docker compose up (README.md, "Self-hosting").
#
# The builder stage installs the pinned dependencies of requirements.lock (the versions
# the tests passed with; not the dev extras) into a virtualenv and compiles the solver's
# search; the runtime stage copies that virtualenv, the compiled module and the source,
# nothing else. Migrations are applied by the app itself at start-up (its lifespan runs
# `alembic upgrade head`), so starting a new image is the whole upgrade.

FROM python:3.11-slim AS builder
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# The virtualenv gets no pip or setuptools of its own: the server never uses them. The
# base image's pip installs into it (--python) from the lock alone: --require-hashes
# refuses any version or file that is not pinned there, and --no-deps anything not listed.
# Only the lock file first: this layer is rebuilt when the pins change, not on every
# code change.
COPY requirements.lock /tmp/requirements.lock
RUN python -m venv --without-pip /opt/venv \
    && python -m pip --python /opt/venv/bin/python install --no-deps --require-hashes \
        -r /tmp/requirements.lock
# The Scoundrel solver's search and the Expeditionen rollout are the compiled modules
# (setup.py): a C++ compiler and Cython (pinned in requirements-build.lock) live in this
# stage only, and Python's headers where the base image has none.
RUN apt-get update && apt-get install -y --no-install-recommends g++ \
    && (python -c "import sysconfig, pathlib, sys; \
            sys.exit(not pathlib.Path(sysconfig.get_path('include'), 'Python.h').exists())" \
        || apt-get install -y --no-install-recommends python3-dev) \
    && rm -rf /var/lib/apt/lists/*
COPY requirements-build.lock /tmp/requirements-build.lock
RUN python -m pip install --require-hashes -r /tmp/requirements-build.lock
WORKDIR /build
COPY setup.py ./
COPY engine/ engine/
RUN python setup.py build_ext --inplace

FROM python:3.11-slim AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ENVIRONMENT=production \
    FORWARDED_ALLOW_IPS=127.0.0.1,::1,local-networks \
    METRICS_PORT=8001
RUN useradd --system --uid 10001 --user-group --no-create-home kartenrunde
WORKDIR /srv/kartenrunde
COPY --from=builder /opt/venv /opt/venv
COPY app/ app/
COPY engine/ engine/
COPY --from=builder /build/engine/*.so engine/
COPY static/ static/
COPY templates/ templates/
COPY migrations/ migrations/
COPY alembic.ini ./
# Compiled once here, because the non-root user cannot write __pycache__ next to the code.
# data/ is where the embedded SQLite default would live; with PostgreSQL it stays empty.
RUN python -m compileall -q app engine migrations \
    && mkdir data && chown kartenrunde:kartenrunde data
USER kartenrunde
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["python", "-m", "app", "--port", "8000"]
