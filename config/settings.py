"""Django settings, read from the environment through ``config.env``'s typed helpers.

With no variable set the project runs embedded: DEBUG on (off under ``manage.py run_embedded``,
which sets ``DEBUG=false`` unless DEBUG is given, and keeps a secret key in ``VAR_DIR``), SQLite
in ``var/db.sqlite3``,
Celery on a filesystem broker under ``var/celery/``. Production sets at least
``DEBUG=false``, ``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DATABASE_URL`` and ``REDIS_URL``
(docker/.env.example lists them all).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from config.brokers import embedded_broker_options, embedded_broker_prepare
from config.env import (
    LOCAL_HOSTS,
    EnvironmentValueError,
    env_bool,
    env_database_url,
    env_error,
    env_int,
    env_list,
    env_optional_str,
    env_path,
    env_public_url,
    env_redis_url,
    env_str,
    env_time_zone,
    url_host,
)
from config.lan import lan_addresses
from config.secret import secret_key_kept

BASE_DIR = Path(__file__).resolve().parent.parent
# Everything the embedded run writes: the SQLite file, broker folders, logs.
VAR_DIR = env_path("VAR_DIR", BASE_DIR / "var", folder=True)

# --- Core -----------------------------------------------------------------------------------

# The address players' phones open, which their QR codes carry (web/play): PUBLIC_URL, else with
# LAN=1 (`make run-lan`) this machine's address on the room's network (config.lan, read from the
# interfaces) and PORT; else none, and a QR code carries the host the director's browser used.
# The site answers to that host whatever ALLOWED_HOSTS says.
PORT = env_int("PORT", 8000, minimum=1, maximum=65535)
LAN = env_bool("LAN", False)
# (interface, address), best first: run_embedded lists the others for the director.
LAN_ADDRESSES = [(a.interface, a.address) for a in lan_addresses()] if LAN else []
PUBLIC_URL = env_public_url("PUBLIC_URL")
PUBLIC_URL_FOUND = PUBLIC_URL is None and LAN  # found on the interfaces, not given
if PUBLIC_URL_FOUND:
    if not LAN_ADDRESSES:
        raise EnvironmentValueError(
            "LAN=1 but no network interface of this machine has an IPv4 address: join the "
            "room's Wi-Fi (or plug in its cable), or set PUBLIC_URL=http://ADDRESS:PORT"
        )
    PUBLIC_URL = f"http://{LAN_ADDRESSES[0][1]}:{PORT}"
# run_embedded (manage.py sets EMBEDDED_RUN for it, and DEBUG=false unless DEBUG is given).
EMBEDDED_RUN = env_bool("EMBEDDED_RUN", False)
DEBUG = env_bool("DEBUG", not LAN)
if LAN and DEBUG:
    # Django's debug pages show the settings and the code to whoever reaches the site: on the
    # room's Wi-Fi, every phone.
    raise EnvironmentValueError(
        "DEBUG=true with LAN=1: the debug pages would be open to every phone on the room's "
        "network; leave DEBUG unset (make run-lan runs with it off)"
    )

DEV_SECRET_KEY = "django-insecure-DEV-ONLY-never-use-in-production-duplicate-scrabble"
_secret_key = env_optional_str("SECRET_KEY")
if _secret_key is None and (LAN or (EMBEDDED_RUN and not DEBUG)):
    # The room's network run, and the embedded run without its debug pages, keep a key of
    # their own under VAR_DIR (config.secret).
    _secret_key = secret_key_kept(VAR_DIR)
if _secret_key is None:
    if not DEBUG:
        raise EnvironmentValueError(
            "SECRET_KEY is not set: it is required when DEBUG is false "
            '(generate one with: python -c "import secrets; print(secrets.token_urlsafe(50))")'
        )
    _secret_key = DEV_SECRET_KEY
SECRET_KEY = _secret_key

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", LOCAL_HOSTS)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

if PUBLIC_URL is not None:
    ALLOWED_HOSTS = [*ALLOWED_HOSTS, url_host(PUBLIC_URL)]
    CSRF_TRUSTED_ORIGINS = [*CSRF_TRUSTED_ORIGINS, PUBLIC_URL]
# Behind HTTPS: secure cookies, and trust the proxy's X-Forwarded-Proto header.
SECURE_COOKIES = env_bool("SECURE_COOKIES", False)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
if SECURE_COOKIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind HTTPS, plain HTTP is redirected (but /healthz, which the container's healthcheck asks
# over plain HTTP) and browsers are told to keep to HTTPS (HSTS) for an hour by default: raise
# SECURE_HSTS_SECONDS (31536000, a year) once the site is known to work over HTTPS.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SECURE_COOKIES)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 3600 if SECURE_COOKIES else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_COOKIES)
# Submitting the domain to the browsers' HSTS preload list is a lasting decision of the site's
# owner, not a default (it needs a year of HSTS): `check --deploy` does not ask for it here.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",  # staff's personal API tokens (the director API, scripts)
    "drf_spectacular",
    "tournament",
    "arbiter",
    "web",
    "axes",
]

MIDDLEWARE = [
    # First: a slip's deadline is judged on when its request arrived (web/arrival.py).
    "web.arrival.ArrivalStampMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # WhiteNoise serves the static files, in `make run` as in production: the collected ones
    # (compressed, cache-busted names), or with DEBUG on straight from the folders.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Oversized bodies (413) and control characters in paths (404), queries and forms (400).
    "web.middleware.RequestChecksMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the person's choice (the header's switch, a cookie), then the browser's.
    # The screen and the phone pages fall back on their event's language (web/i18n.py).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last of those that act, as django-axes asks: it answers a locked-out login with a 429.
    "axes.middleware.AxesMiddleware",
    # Each request in TIME_ZONE until an event's page switches to the event's zone. Sync only,
    # and below every other: on the ASGI server the middleware above it then run in one thread
    # with a sync view (Django's MiddlewareMixin, run async, hops to a thread and back twice per
    # middleware: 1.5 times the processor time per slip); an async view (the live stream,
    # web.live) is entered from that thread and streams from the event loop.
    "web.middleware.TimeZoneMiddleware",
]


# Request sizes: a form or JSON body (files aside) up to 256 KiB; a whole request (a player list
# uploaded, at most 2 MiB, with its form) up to 3 MiB, refused by its Content-Length before a
# byte is read (web.middleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
REQUEST_BODY_MAX_BYTES = 3 * 1024 * 1024

# Threads per web process for the sync code of requests (config/asgi.py): a request waits for
# the least busy; more overlap the database's answers, fewer keep the slips first come first
# served on the two cores.
WEB_THREADS = env_int("WEB_THREADS", 4, minimum=1, maximum=64)

# How long a slip is held while the database does not answer (web/outage.py), on the event
# loop, before it is answered 503 (the phone sends it again, judged on its first arrival).
SLIP_HOLD_SECONDS = env_int("SLIP_HOLD_SECONDS", 40, minimum=0, maximum=600)

# Limits on the live routes, per web process (web/limits.py; docs/reliability.md, "Limits on the
# live routes"): every stream; a token's (or a staff session's) streams; the audience's streams
# and reads of its state from one client address; the open files kept for the slips and staff.
LIVE_STREAMS_PER_PROCESS = env_int("LIVE_STREAMS_PER_PROCESS", 5000, minimum=1)
LIVE_STREAMS_PER_TOKEN = env_int("LIVE_STREAMS_PER_TOKEN", 4, minimum=1, maximum=100)
LIVE_PUBLIC_STREAMS_PER_ADDRESS = env_int("LIVE_PUBLIC_STREAMS_PER_ADDRESS", 1000, minimum=1)
PUBLIC_POLLS_PER_ADDRESS = env_int("PUBLIC_POLLS_PER_ADDRESS", 300, minimum=1)
LIVE_RESERVED_FILES = env_int("LIVE_RESERVED_FILES", 1000, minimum=0)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

DATABASE = env_database_url("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
DATABASES = {"default": DATABASE.as_django()}
if DATABASE.vendor == "sqlite" and DATABASE.name != ":memory:":
    Path(DATABASE.name).parent.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's four validators: a password chosen from an invitation or changed by its owner is
# at least 8 characters, not close to the username, not a common password, not all digits.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
# Login rate limit (django-axes): 5 failed logins for one username from one address lock that
# pair out for 15 minutes (a 429 page); a successful login forgets the failures. The login
# page and the admin's both count. A sign-in with no request (Client.login in tests,
# management commands) is not rate-limited: web.auth.RateLimitedLoginBackend.
AUTHENTICATION_BACKENDS = [
    "web.auth.RateLimitedLoginBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# What axes stores of a failed sign-in, without the invitation token a ?next= may carry.
AXES_HANDLER = "web.auth.RedactingAxesHandler"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console:event_list"
LOGOUT_REDIRECT_URL = "login"

# --- Time and language ----------------------------------------------------------------------

# The interface speaks English and French (README, "Adding a language"); the catalogues live in
# locale/<code>/LC_MESSAGES/. TIME_ZONE is the installation's, and a new event's: each event shows
# its times in its own (Event.time_zone, web.middleware.TimeZoneMiddleware).
LANGUAGE_CODE = "en"
# Dates as each language writes them (config/formats/<language>/formats.py): "DATE_FORMAT".
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_time_zone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
# `manage.py collectstatic` copies them to STATIC_ROOT; WhiteNoise serves them from the
# gunicorn process (compressed, cache-busted names), so no separate web server is needed.

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]  # one folder per face: console/, play/, screen/
# The embedded run collects into its own VAR_DIR (as it keeps its database and key there): two
# runs, or a run and the tests, never rewrite one folder while another reads it.
STATIC_ROOT = env_path(
    "STATIC_ROOT", VAR_DIR / "static" if EMBEDDED_RUN else BASE_DIR / "staticfiles", folder=True
)
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise reads it (empty until collected)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- API ------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "web.api.errors.api_exception_handler",
    # JSON bodies: objects only, 16 levels deep at most, no control characters.
    "DEFAULT_PARSER_CLASSES": [
        "web.api.parsers.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Staff: the console's session, or a personal token ("Authorization: Token <key>",
    # manage.py drf_create_token <username>) for scripts. The player API has its own.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Per player token (web.api.throttling): a phone polls the state every ~2 s.
    "DEFAULT_THROTTLE_RATES": {
        "play_state": "120/min",
        "play_submissions": "30/min",
        # per client address, the multiplex's calls (a room polls its feed every 2 s)
        "multiplex": f"{env_int('MULTIPLEX_CALLS_PER_MINUTE', 300, minimum=1)}/min",
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate Scrabble API",
    "DESCRIPTION": 'Player and director API. Errors are JSON: {"detail": "..."}.',
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}

# --- Celery ---------------------------------------------------------------------------------

REDIS_URL = env_redis_url("REDIS_URL")
CELERY_DIR = VAR_DIR / "celery"
# The cache holds the API's rate-limit buckets and the standings shown to phones ("default"),
# and the workers' heartbeat that /healthz reads ("health"). With Redis every process shares
# them, and they fail open (config.cache: a Redis that does not answer is a miss, never an
# error). Embedded, "default" is per process (LocMem) and "health" a folder in VAR_DIR.
if REDIS_URL is not None:
    _redis_cache = {"BACKEND": "config.cache.FailOpenRedisCache", "LOCATION": REDIS_URL}
    CACHES = {"default": _redis_cache, "health": {**_redis_cache, "KEY_PREFIX": "health"}}
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "health": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "health"),
        },
    }
EMBEDDED_BROKER = REDIS_URL is None
if REDIS_URL is None:
    # The folder broker has no host; naming "localhost" keeps kombu from warning "No hostname
    # was supplied" on every connection (it would take localhost anyway).
    CELERY_BROKER_URL = "filesystem://localhost/"
    # kombu's folder transport, writing each message whole (config.filesystem_broker).
    CELERY_BROKER_TRANSPORT = "config.filesystem_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = embedded_broker_options(CELERY_DIR)
    embedded_broker_prepare(CELERY_DIR)  # every process may send, so every process makes them
    # Remote control and events are broadcasts that a folder broker only emulates by polling.
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
else:
    CELERY_BROKER_URL = REDIS_URL
    if REDIS_URL.startswith("redis://"):  # rediss:// keeps kombu's own, which sets up TLS
        # kombu's Redis transport, whose channels outlive a lost connection (config.redis_broker).
        CELERY_BROKER_TRANSPORT = "config.redis_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # beat keeps its schedule file there
CELERY_TASK_IGNORE_RESULT = True  # tasks report through the database, never through results
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_ENABLE_UTC = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A pool process left over this much resident memory by a task is replaced after it (a word
# list's compile leaves hundreds of MB behind); the ``wordlists`` worker says so on its command.
WORKER_MAX_MEMORY_PER_CHILD_MB = env_int("WORKER_MAX_MEMORY_PER_CHILD_MB", 512, minimum=64)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = 1024 * WORKER_MAX_MEMORY_PER_CHILD_MB  # Celery counts KB
# A broker that goes away is waited for, however long (Celery gives up after 100 tries by
# default); the worker's consumer (config.worker) tries again every 2 s.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "config.worker:Consumer"
# Tasks are idempotent: one cut off by a lost broker is cancelled and delivered again.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Beat's own bookkeeping: beside the broker folders when embedded, in VAR_DIR with Redis.
CELERY_BEAT_SCHEDULE_FILENAME = str((CELERY_DIR if EMBEDDED_BROKER else VAR_DIR) / "beat-schedule")
# The top-move search has its own queue (``tops``), so a long search never delays a close. A word
# list's compile (tens of seconds, hundreds of MB) has its own (``wordlists``), consumed by a
# worker of its own with a memory ceiling (docker/compose.yaml's ``wordlists``, the README's
# production instructions), so no compile shares a process, or its memory, with the rounds.
CELERY_TASK_ROUTES = {
    "arbiter.round_tops_compute": {"queue": "tops"},
    "tournament.word_list_compile": {"queue": "wordlists"},
}
CELERY_TASK_DEFAULT_QUEUE = "celery"
# The deadline in the database is the truth: the sweep closes (and scores) any overdue round
# whatever became of its countdown task; ``ROUNDS_SWEEP_SECONDS`` sets how often it runs.
ROUNDS_SWEEP_SECONDS = env_int("ROUNDS_SWEEP_SECONDS", 5)
# A worker runs the health task every HEALTH_HEARTBEAT_SECONDS (sent by beat): /healthz reports
# the worker missing when its last run is older than three of those.
HEALTH_HEARTBEAT_SECONDS = env_int("HEALTH_HEARTBEAT_SECONDS", 10, minimum=1)
# The queues /healthz wants a live consumer for (each worker writes a heartbeat per queue it
# consumes): the rounds' (celery, tops) and the word lists' compiles (wordlists).
HEALTH_QUEUES = env_list("HEALTH_QUEUES", ["celery", "tops", "wordlists"])
# A multiplex room's installation asks its host for new rounds, and sends its results, this
# often (arbiter.multiplex_tick; docs/design.md, "Multiplex").
MULTIPLEX_POLL_SECONDS = env_int("MULTIPLEX_POLL_SECONDS", 2, minimum=1)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "arbiter-multiplex-tick": {
        "task": "arbiter.multiplex_tick",
        "schedule": float(MULTIPLEX_POLL_SECONDS),
    },
    "arbiter-rounds-sweep": {
        "task": "arbiter.rounds_sweep",
        "schedule": float(ROUNDS_SWEEP_SECONDS),
    },
    "tournament-health-ping": {
        "task": "tournament.health_ping",
        "schedule": float(HEALTH_HEARTBEAT_SECONDS),
        "args": ["beat"],
    },
}

# --- The game -------------------------------------------------------------------------------

# Lexicons an event may name: "enable" is the engine's built-in open list; a club adds the
# licensed lists it owns as LEXICONS="nwl=/srv/lists/nwl.txt,collins=/srv/lists/csw.txt".
# A name holds no ":" (an event names a list a director uploaded as "upload:<id>").
LEXICONS: dict[str, str] = {"enable": ""}
for _item in env_list("LEXICONS", []):
    _name, _sep, _path = _item.partition("=")
    if not _sep or not _name.strip() or not _path.strip() or ":" in _name:
        raise env_error("LEXICONS", env_str("LEXICONS"), "name=path[,name=path...]")
    LEXICONS[_name.strip()] = _path.strip()
# Word lists directors upload (tournament.models.WordList): the files are kept here, and a worker
# compiles each once into the engine's disk cache ($DUPLICATE_ENGINE_CACHE, keyed by content),
# which the web processes read: with docker/ both folders are on the shared volume at /app/var.
WORD_LISTS_DIR = VAR_DIR / "wordlists"
# An upload larger than this is refused (a French list of 480,000 words is 5.5 MB).
WORD_LIST_MAX_BYTES = 16 * 1024 * 1024
# A list whose compile is estimated (tournament.services.word_lists.compile_estimate, calibrated
# in docs/reliability.md) to need more memory than this is refused at upload, with the figure.
WORD_LIST_MEMORY_MB = env_int("WORD_LIST_MEMORY_MB", 1536, minimum=64)
# The compile's own ceiling, enforced in the process that compiles (its address space may grow
# by this much at the most: past it the compile fails with MemoryError and is marked failed).
WORD_LIST_CEILING_MB = env_int("WORD_LIST_CEILING_MB", WORD_LIST_MEMORY_MB + 512, minimum=64)
# A compile longer than this is stopped (SoftTimeLimitExceeded, then killed 30 s later).
WORD_LIST_COMPILE_SECONDS = env_int("WORD_LIST_COMPILE_SECONDS", 600, minimum=10)
# A compiling list's heartbeat: written every WORD_LIST_HEARTBEAT_SECONDS by a thread of the
# compile; a list whose heartbeat is WORD_LIST_SILENT_SECONDS old is marked failed (its worker
# was killed, or its machine went). Generous: a step of the compile in C (sorting millions of
# strings) holds Python's lock for seconds, and the heartbeat's thread waits for it meanwhile.
WORD_LIST_HEARTBEAT_SECONDS = env_int("WORD_LIST_HEARTBEAT_SECONDS", 5, minimum=1)
WORD_LIST_SILENT_SECONDS = env_int("WORD_LIST_SILENT_SECONDS", 60, minimum=2)

# --- Logging --------------------------------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise env_error("LOG_LEVEL", env_str("LOG_LEVEL"), "DEBUG, INFO, WARNING or ERROR")
# Players' tokens never reach a log: the join link /play/<token>/ is written /play/<redacted>/
# (web.redaction; gunicorn's access log does the same in config/gunicorn.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_tokens": {"()": "web.redaction.RedactTokensFilter"},
        # A fault's warnings and errors: one line per episode (config/log_episodes.py).
        "episodes": {"()": "config.log_episodes.OneLinePerEpisode"},
    },
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["redact_tokens", "episodes"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "django.request": {"filters": ["redact_tokens"]},
        "django.server": {"filters": ["redact_tokens"]},
    },
}
