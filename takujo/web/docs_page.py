"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc), with no
internet: their scripts and styles are served by this server, not loaded from a CDN.

    app = FastAPI(docs_url=None, redoc_url=None)
    install_docs(app)

The assets come from the `fastapi-offline` package (MIT), which ships exactly the files
FastAPI's own pages load (Swagger UI 5's bundle and CSS, ReDoc 2's standalone bundle and a
favicon) and keeps releasing as FastAPI and Swagger UI move on; `swagger-ui-bundle`, the
other candidate, has had no release since 2023 and has no ReDoc. Only its ``static`` folder
is used, through Starlette's StaticFiles, not its FastAPI factory. Swagger UI's online
validator badge is turned off too (it would send the schema's address to swagger.io).
"""
from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

#: Where the docs' assets are served.
ASSETS = "/docs/assets"
#: fastapi-offline's folder of assets (package, folder), for StaticFiles.
PACKAGE = ("fastapi_offline", "static")


def install_docs(app: FastAPI, *, docs_url: str = "/docs", redoc_url: str | None = "/redoc",
                 assets: str = ASSETS, favicon_url: str | None = None) -> None:
    """Add ``/docs`` (and Swagger UI's ``/docs/oauth2-redirect``), ``/redoc`` unless
    `redoc_url` is None, and their assets under `assets`, to an app created with
    ``docs_url=None, redoc_url=None``. `favicon_url` defaults to the bundled favicon."""
    openapi_url = app.openapi_url
    if openapi_url is None:
        raise ValueError("install_docs: the app has no OpenAPI schema (openapi_url=None)")
    oauth2_url = app.swagger_ui_oauth2_redirect_url
    app.mount(assets, StaticFiles(packages=[PACKAGE]), name="docs-assets")

    def urls(request: Request) -> tuple[str, str, str]:
        root = str(request.scope.get("root_path", "")).rstrip("/")
        favicon = favicon_url if favicon_url is not None else f"{root}{assets}/favicon.png"
        return root, f"{root}{assets}", favicon

    async def swagger_ui(request: Request) -> HTMLResponse:
        root, base, favicon = urls(request)
        return get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}", title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{base}/swagger-ui-bundle.js", swagger_css_url=f"{base}/swagger-ui.css",
            swagger_favicon_url=favicon, oauth2_redirect_url=f"{root}{oauth2_url}" if oauth2_url else None,
            init_oauth=app.swagger_ui_init_oauth,
            swagger_ui_parameters={"validatorUrl": None, **(app.swagger_ui_parameters or {})})

    app.add_api_route(docs_url, swagger_ui, methods=["GET"], include_in_schema=False)
    if oauth2_url:
        async def oauth2_redirect() -> HTMLResponse:
            return get_swagger_ui_oauth2_redirect_html()
        app.add_api_route(oauth2_url, oauth2_redirect, methods=["GET"], include_in_schema=False)

    if redoc_url is not None:
        async def redoc(request: Request) -> HTMLResponse:
            root, base, favicon = urls(request)
            return get_redoc_html(openapi_url=f"{root}{openapi_url}", title=f"{app.title} - ReDoc",
                                  redoc_js_url=f"{base}/redoc.standalone.js", redoc_favicon_url=favicon,
                                  with_google_fonts=False)
        app.add_api_route(redoc_url, redoc, methods=["GET"], include_in_schema=False)
