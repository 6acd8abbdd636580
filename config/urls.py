"""Root URLs: the faces (``web.urls``), sign-in and one's own password, the admin (superusers
only: ``web.admin``), the API schema, the health check."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from config.views import healthz

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
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("healthz", healthz, name="healthz"),
]

admin.site.site_header = "Duplicate Scrabble administration"
admin.site.site_title = "Duplicate Scrabble"
