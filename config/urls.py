"""Root URLs: the faces (``web.urls``), sign-in and one's own password, the language switch and
the scripts' catalogue, the admin (superusers
only: ``web.admin``), the API schema, the health check."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.translation import gettext_lazy
from drf_spectacular.views import SpectacularAPIView

from config.views import favicon, healthz
from web.i18n import javascript_catalog

urlpatterns = [
    path("", include("web.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the header's switch
    path("jsi18n/<str:language>/", javascript_catalog, name="javascript_catalog"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),  # asked by every browser of every page
]

# An uncaught error of the API or of a phone's call answers JSON with a code (web/outage.py).
handler500 = "web.outage.server_error_view"

admin.site.site_header = gettext_lazy("Duplicate Scrabble administration")
admin.site.site_title = gettext_lazy("Duplicate Scrabble")
