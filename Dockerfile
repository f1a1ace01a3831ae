# The Threefold app image: one uvicorn process per container (docker-compose.yml runs several behind nginx).
#   docker build -t threefold .
# The command is the production one from docs/deploy.md; `alembic upgrade head` runs from the same image.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/srv/threefold

WORKDIR /srv/threefold

# Dependencies first, in their own layer: only pyproject.toml (and the README it names) is copied, so
# `pip install .` installs what pyproject.toml declares and this layer is rebuilt only when that changes.
# The code itself runs from /srv/threefold (PYTHONPATH), where app/main.py finds templates/ and static/
# next to app/.
COPY pyproject.toml README.md ./
RUN pip install . \
 && useradd --system --uid 10001 --user-group --home-dir /srv/threefold --no-create-home \
      --shell /usr/sbin/nologin threefold

COPY alembic.ini ./
COPY migrations/ migrations/
COPY engines/ engines/
COPY app/ app/
COPY templates/ templates/
COPY static/ static/

# The code stays owned by root (read-only for the app); byte-compile it now since the app cannot write it.
# data/ is writable only for the embedded SQLite default (`docker run` without DATABASE_URL).
RUN python -m compileall -q app engines migrations \
 && mkdir -p data && chown threefold:threefold data

USER threefold
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]

CMD ["uvicorn", "app.main:create_app", "--factory", "--host", "0.0.0.0", "--port", "8000", \
     "--ws", "app.ws_protocol:PreparedFramesProtocol", "--ws-per-message-deflate", "false", "--ws-max-size", "1048576", \
     "--proxy-headers", "--forwarded-allow-ips", "*", "--timeout-graceful-shutdown", "10"]
